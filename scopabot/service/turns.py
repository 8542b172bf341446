"""Turns: a person's move, computer seats playing in turn, timeouts, resignation, abandon.

A move names the game, the person, the card (and capture) and the version the person saw; it is
checked against the game as stored, then written by the store in one transaction with the next
turn's deadline. Computer seats (and seats handed to a computer) then play in turn, one task
per game, never more than one at a time; their thinking runs off the event loop
(:mod:`.thinking`).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from datetime import datetime

from scopabot.engine import (
    Game,
    IllegalMoveError,
    Move,
)
from scopabot.store import (
    Actor,
    ActorKind,
    AppliedMove,
    GameClosedError,
    MatchEnded,
    StaleVersionError,
)

from .core import GameContext, must_be_host
from .errors import ErrorCode, ServiceError
from .events import (
    Audience,
    Event,
    HandChanged,
    MatchOver,
    MoveOutcome,
    SeatTakenBack,
    TableCancelled,
    TableStarted,
    TimeoutAction,
    TimeoutApplied,
    TurnStarted,
)
from .live import as_stored
from .moves import (
    illegal,
    move_events,
    rating_changes,
    resolve,
    seed_of,
    stale,
)
from .tables import TablesMixin
from .views import PublicView, SeatView, TableInfo, TimeoutRule
from .visibility import ViewingMixin

StartedView = SeatView | PublicView

log = logging.getLogger(__name__)


class TurnsMixin(TablesMixin, ViewingMixin):
    async def play(
        self,
        game_id: int,
        *,
        user: int,
        card: str | Move,
        capture: str | None = None,
        version: int | None = None,
    ) -> MoveOutcome:
        """Play for the person's seat what they gave, as they gave it: ``card`` a card in any
        notation (``"7d"``, ``"sette di denari"``) or a whole move (``"7d:3c+4s"``, or a
        :class:`Move` picked from their choices), ``capture`` like ``"3c+4s"`` when named
        apart; the engine resolves it, once. ``version`` is what the person was looking at
        (None: the current one, for typed commands). Raises :class:`ChooseCapture` when the
        card can take different cards and none was named; other refusals raise
        :class:`ServiceError`. A person whose seat
        was handed to a computer takes it back by playing, or at any time with
        :meth:`take_seat_back`."""
        ctx = await self._context(game_id)
        seat = ctx.seat_of(user)
        if seat is None:
            raise ServiceError(ErrorCode.NOT_SEATED, "you do not sit at this game", game_id=game_id)
        if ctx.finished:
            raise ServiceError(ErrorCode.GAME_OVER, "the match is over", game_id=game_id)
        if version is not None and version != ctx.version:
            await self.games.refresh(ctx)  # another process may have moved it
            if version != ctx.version:
                raise stale(game_id, version, ctx.version)
        game = ctx.game  # the live game as it is now; the move is played on a copy
        move = resolve(game, seat, card, capture)
        applied = await self._apply(ctx, game, ctx.version, move, seat, Actor.user(user))
        events = move_events(ctx, game, applied, actor=ActorKind.USER, user_id=user)
        self._after_move(ctx, applied, events)
        mine = [e.view for e in events if isinstance(e, HandChanged) and e.seat == seat]
        view = mine[0] if mine and mine[0] is not None else None
        if view is None:
            view = self._moved_view(ctx, applied.game, applied.version, seat)
        return MoveOutcome(applied.version, tuple(events), view, move)

    async def _apply(
        self, ctx: GameContext, game: Game, version: int, move: Move, seat: int, by: Actor
    ) -> AppliedMove:
        now = self._now()
        deadline = ctx.pace.deadline(now)
        try:
            return await self.games.apply_move(
                ctx.game_id,
                version,
                move,
                by=by,
                at=now,
                seat=seat,
                deadline=deadline,
                remind_at=ctx.pace.next_reminder(deadline, now),
                hand_over_after=self.hand_over_after,
            )
        except StaleVersionError as exc:
            raise stale(ctx.game_id, version, exc.actual) from None
        except GameClosedError:
            ctx.finished = True
            raise ServiceError(ErrorCode.GAME_OVER, "the match is over") from None
        except IllegalMoveError as exc:  # checked before; only a race can get here
            raise illegal(exc) from None

    def _after_move(self, ctx: GameContext, applied: AppliedMove, events: list[Event]) -> None:
        """Publish, wake the scheduler and the computer seats (the live game is current)."""
        self._emit(events)
        if applied.game.is_over:
            self._forget_game(ctx.game_id)
            return
        if applied.deadline is not None:
            self._deadline_set(applied.deadline)
        if ctx.computer_plays(applied.game.turn):
            self._drive(ctx.game_id)

    def _deadline_set(self, when: datetime) -> None:
        """The scheduler's hook: a deadline or reminder was written (see scheduler.py)."""

    # ------------------------------------------------------------------ computer seats

    def _drive(self, game_id: int) -> None:
        """Let the computer seats of a game play while it is their turn (one task a game)."""
        if self._closing:
            return
        task = self._drivers.get(game_id)
        if task is not None and not task.done():
            return
        task = asyncio.create_task(self._computer_turns(game_id), name=f"computer-{game_id}")
        self._drivers[game_id] = task
        task.add_done_callback(lambda t: self._driver_done(game_id, t))

    def _driver_done(self, game_id: int, task: asyncio.Task[None]) -> None:
        if self._drivers.get(game_id) is task:
            del self._drivers[game_id]
        if not task.cancelled() and task.exception() is not None:
            log.error("computer seats of game %s stopped", game_id, exc_info=task.exception())

    async def _computer_turns(self, game_id: int) -> None:
        fresh = False  # after a refused write, read the game again rather than trust memory
        while not self._closing:
            ctx = await self._context(game_id)
            if ctx.finished:
                return
            async with self._game_lock(game_id):
                if fresh:
                    await self.games.refresh(ctx)
                game, version = ctx.game, ctx.version
                if game.is_over or not ctx.computer_plays(game.turn):
                    return
                seat = game.turn
                if self.computer_pause:
                    await asyncio.sleep(self.computer_pause)
                move = await self.thinker.choose(
                    ctx.level_of(seat), game.view_for(seat), seed=seed_of(game)
                )
                if not ctx.computer_plays(seat):
                    return  # the person took their seat back meanwhile
                try:
                    applied = await self._apply(ctx, game, version, move, seat, Actor.computer())
                except ServiceError as exc:
                    if exc.code is ErrorCode.STALE_VERSION:
                        fresh = True
                        continue  # a person took the seat back, or resigned: look again
                    return
            fresh = False
            events = move_events(
                ctx, game, applied, actor=ActorKind.COMPUTER, user_id=ctx.user_of(seat)
            )
            self._after_move(ctx, applied, events)
            if applied.game.is_over or not ctx.computer_plays(applied.game.turn):
                return

    async def _timeout(self, game_id: int, version: int) -> None:
        """A turn's deadline passed: the table's rule plays for, or forfeits, the absent seat."""
        ctx = await self._context(game_id)
        if ctx.finished:
            return
        async with self._game_lock(game_id):
            # Read as stored: the deadline was claimed at ``version`` in the store.
            await self.games.refresh(ctx)
            if ctx.version != version or ctx.game.is_over:
                return  # the person played meanwhile
            game, seat = ctx.game, ctx.game.turn
            tid, gid = ctx.table_id, game_id
            if ctx.on_timeout is TimeoutRule.FORFEIT:
                try:
                    ended = await self.games.end_match(
                        game_id,
                        version,
                        losing_side=game.rules.side_of(seat),
                        reason="forfeit",
                        at=self._now(),
                    )
                except (StaleVersionError, GameClosedError):
                    # The person's move (or a resignation) beat the deadline: nothing to do.
                    log.debug("game %s moved on before its deadline was acted on", game_id)
                    return
                self._emit(
                    [
                        TimeoutApplied(
                            table_id=tid,
                            game_id=gid,
                            seat=seat,
                            user_id=ctx.user_of(seat),
                            what=TimeoutAction.FORFEIT,
                            handed_to_computer=False,
                            version=ended.version,
                        ),
                        self._ended(ctx, game, ended, "forfeit", game.rules.side_of(seat)),
                    ]
                )
                self._forget_game(game_id)
                return
            move = await self.thinker.choose(ctx.level, game.view_for(seat), seed=seed_of(game))
            was_away = seat in ctx.away
            try:
                applied = await self._apply(ctx, game, version, move, seat, Actor.timeout())
            except ServiceError:
                return
        handed = seat in applied.away and not was_away
        events: list[Event] = [
            TimeoutApplied(
                table_id=tid,
                game_id=gid,
                seat=seat,
                user_id=ctx.user_of(seat),
                what=TimeoutAction.COMPUTER_PLAYED,
                handed_to_computer=handed,
                version=applied.version,
            )
        ]
        events += move_events(
            ctx, game, applied, actor=ActorKind.TIMEOUT, user_id=ctx.user_of(seat)
        )
        self._after_move(ctx, applied, events)

    def _ended(
        self, ctx: GameContext, game: Game, ended: MatchEnded, reason: str, losing: int
    ) -> MatchOver:
        match = ended.match
        if match is not None:
            winner = match.winner_side
        else:
            others = [s for s in range(game.rules.sides) if s != losing]
            winner = max(others, key=lambda s: (game.totals[s], -s))
        local, world = rating_changes(ended.rating_changes, ctx)
        return MatchOver(
            table_id=ctx.table_id,
            game_id=ctx.game_id,
            winner_side=winner,
            reason=reason,
            totals=game.totals,
            outcome=None,
            version=ended.version,
            losing_side=losing,
            rating_changes=local,
            global_rating_changes=world,
        )

    # ------------------------------------------------------------------ ending early

    async def resign(self, game_id: int, *, user: int) -> MoveOutcome:
        """The person's side loses the match now."""
        ctx = await self._context(game_id)
        seat = ctx.seat_of(user)
        if seat is None:
            raise ServiceError(ErrorCode.NOT_SEATED, "you do not sit at this game", game_id=game_id)
        if ctx.finished:
            raise ServiceError(ErrorCode.GAME_OVER, "the match is over", game_id=game_id)
        async with self._game_lock(game_id):
            for _ in range(5):  # a computer may be moving: try again on the new version
                game, version = ctx.game, ctx.version
                if game.is_over:
                    raise ServiceError(ErrorCode.GAME_OVER, "the match is over")
                side = game.rules.side_of(seat)
                try:
                    ended = await self.games.end_match(
                        game_id,
                        version,
                        losing_side=side,
                        reason="resign",
                        at=self._now(),
                    )
                    break
                except StaleVersionError:
                    continue
                except GameClosedError:
                    ctx.finished = True
                    raise ServiceError(ErrorCode.GAME_OVER, "the match is over") from None
            else:
                raise stale(game_id, version, None)
        event = self._ended(ctx, game, ended, "resign", side)
        self._emit([event])
        self._forget_game(game_id)
        return MoveOutcome(ended.version, (event,))

    async def take_seat_back(self, game_id: int, *, user: int) -> MoveOutcome:
        """The person has their seat back from the computer that plays it since their
        timeouts, at once, whoever's turn it is: a computer thinking for the seat right now
        does not play (its move was prepared at a version this write replaces), and when the
        seat is in turn it gets the table's deadline again. Playing a card does the same."""
        ctx = await self._context(game_id)
        seat = ctx.seat_of(user)
        if seat is None:
            raise ServiceError(ErrorCode.NOT_SEATED, "you do not sit at this game", game_id=game_id)
        if ctx.finished:
            raise ServiceError(ErrorCode.GAME_OVER, "the match is over", game_id=game_id)
        if seat not in ctx.away:
            raise ServiceError(ErrorCode.NOT_AWAY, "no computer holds your seat", seat=seat)
        # A computer of this process stops at once: the driver looks before each move it
        # writes, and the lock waits for a move being written to be done.
        ctx.away.discard(seat)
        try:
            async with self._game_lock(game_id):
                in_turn, game, new_version, deadline = await self._take_back(ctx, seat)
                ctx.away.discard(seat)  # a computer's move written meanwhile had it away
                ctx.timeouts[seat] = 0
        except BaseException:
            info = await self.store.games.info(game_id)
            ctx.away = set(info.away)
            raise
        if in_turn:
            ctx.version, ctx.deadline = new_version, as_stored(deadline)
            if ctx.table is not None:
                ctx.table = replace(ctx.table, version=new_version)
        tid = ctx.table_id
        events: list[Event] = [
            SeatTakenBack(
                table_id=tid, game_id=game_id, seat=seat, user_id=user, version=new_version
            )
        ]
        if in_turn:  # the turn starts anew for the person: their hand and deadline
            events += [
                HandChanged(
                    table_id=tid,
                    game_id=game_id,
                    seat=seat,
                    hand=game.hand(seat),
                    version=new_version,
                    audience=Audience.seat(seat),
                ),
                TurnStarted(
                    table_id=tid,
                    game_id=game_id,
                    seat=seat,
                    user_id=user,
                    deadline=deadline,
                    version=new_version,
                ),
            ]
            if deadline is not None:
                self._deadline_set(deadline)
        self._emit(events)
        view = self._moved_view(ctx, game, new_version, seat)
        return MoveOutcome(new_version, tuple(events), view)

    async def _take_back(
        self, ctx: GameContext, seat: int
    ) -> tuple[bool, Game, int, datetime | None]:
        game_id = ctx.game_id
        for _ in range(5):  # another process may write meanwhile: try on the new version
            game, version = ctx.game, ctx.version
            if game.is_over:
                raise ServiceError(ErrorCode.GAME_OVER, "the match is over")
            in_turn = game.turn == seat
            now = self._now()
            deadline = ctx.pace.deadline(now) if in_turn else None
            new_version = version + 1 if in_turn else version
            try:
                await self.store.games.take_seat_back(
                    game_id,
                    version,
                    seat=seat,
                    new_version=new_version,
                    deadline=deadline,
                    remind_at=ctx.pace.next_reminder(deadline, now) if in_turn else None,
                )
            except StaleVersionError:
                await self.games.refresh(ctx)  # another process moved it
                continue
            except GameClosedError:
                ctx.finished = True
                raise ServiceError(ErrorCode.GAME_OVER, "the match is over") from None
            return in_turn, game, new_version, deadline
        raise stale(game_id, version, None)

    async def abandon(self, game_id: int, *, by: int) -> TableInfo:
        """The host calls the game off before its first move; nobody wins or loses."""
        ctx = await self._context(game_id)
        if ctx.table is None:
            raise ServiceError(ErrorCode.UNKNOWN_TABLE, f"game {game_id} has no table")
        must_be_host(ctx.table, by)
        if ctx.finished:
            raise ServiceError(ErrorCode.GAME_OVER, "the match is over")
        async with self._game_lock(game_id):
            if ctx.game.move_count:
                raise ServiceError(ErrorCode.GAME_STARTED, "the first card was played")
            try:
                await self.store.games.abandon(game_id, ctx.version)
            except StaleVersionError:
                raise ServiceError(ErrorCode.GAME_STARTED, "the first card was played") from None
        self._forget_game(game_id)
        table = await self._table(ctx.table.id)
        self._emit(
            [TableCancelled(table_id=table.id, game_id=game_id, table=table, reason="abandoned")]
        )
        return table

    async def start_table(self, table_id: int, *, by: int, seed: int | None = None) -> StartedView:
        """Deal: the table flips to playing with its game in one transaction. Returns the
        host's seat view (the public view when the host does not play)."""
        info, stored, deadline = await self._start_game(table_id, by=by, seed=seed)
        ctx = self.games.adopt(stored, table=info, deadline=deadline)  # live from here
        self._table_games[table_id] = stored.id
        game = ctx.game
        tid, gid = table_id, stored.id
        events: list[Event] = [
            TableStarted(table_id=tid, game_id=gid, table=info, version=stored.version)
        ]
        events += [
            HandChanged(
                table_id=tid,
                game_id=gid,
                seat=s,
                hand=game.hand(s),
                version=stored.version,
                audience=Audience.seat(s),
            )
            for s in range(game.rules.players)
        ]
        events.append(
            TurnStarted(
                table_id=tid,
                game_id=gid,
                seat=game.turn,
                user_id=ctx.user_of(game.turn),
                deadline=deadline,
                version=stored.version,
            )
        )
        self._emit(events)
        if deadline is not None:
            self._deadline_set(deadline)
        if ctx.computer_plays(game.turn):
            self._drive(stored.id)
        seat = ctx.seat_of(by)
        if seat is None:
            return await self.public_view(stored.id)
        return await self.seat_view(stored.id, user=by)
