"""Games in play: a person's move, computer seats in turn, timeouts, resignation, abandon,
and what each person may see of a game.

A move names the game, the person, the card (and capture) and the version the person saw; it is
checked against the live game, then written by the store in one transaction with the next
turn's deadline. Computer seats (and seats handed to a computer) then play in turn, one task
per game, never more than one at a time; their thinking runs off the event loop
(:mod:`.thinking`). Several bot processes may share one database: a computer seat's turn is
claimed in the store before it is thought (:meth:`Games.claim_turn`), so that it is thought
once, by whichever process claimed it first; one that dies thinking leaves a claim that runs
out, and the scheduler's process plays the turn (:mod:`.scheduler`), as it plays a turn no
process claimed (its mover killed between the move and the claim). A seat's view is built
from the engine's ``view_for(seat)`` and nothing else; the public view is that view with the
hand dropped (:mod:`.visibility`).
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum

from scopabot.engine import (
    Game,
    GameView,
    IllegalMoveError,
    Move,
)
from scopabot.store import (
    Actor,
    ActorKind,
    AppliedMove,
    GameClosedError,
    GameStatus,
    MatchEnded,
    StaleVersionError,
)

from .core import Core, GameContext, must_be_host, table_info
from .deal_ends import DealEnd, last_deal_end
from .errors import ErrorCode, ServiceError
from .events import (
    Audience,
    Event,
    HandChanged,
    MatchOver,
    MoveOutcome,
    SeatTakenBack,
    TableCancelled,
    TimeoutAction,
    TimeoutApplied,
    TurnStarted,
)
from .live import as_stored, back_notes
from .moves import (
    illegal,
    move_events,
    rating_changes,
    rating_pairs,
    resolve,
    seed_of,
    stale,
)
from .thinking import Thinker
from .views import HAND_OVER_AFTER, PublicView, SeatView, TableInfo, TimeoutRule
from .visibility import seat_view_of, views_of

log = logging.getLogger(__name__)


class NoteKind(StrEnum):
    TIMEOUT = "timeout"  # the computer played for someone whose time ran out
    HANDED = "handed"  # ... and now plays their seat (timeouts in a row)


@dataclass(frozen=True, slots=True)
class TableNote:
    """The table's note of its last timeout: whose, and what it did."""

    kind: NoteKind
    user_id: int


TURN_CLAIM = 15.0
"""Seconds a computer turn's claim lasts (renewed at each move of the seat): beyond a search's
budget (0.56 s) and the pause between computer plays; a process that dies thinking leaves its
turn to another after this."""


HOLDERS_HERE: set[str] = set()  # the holders of this process's services (process_holder)


def process_holder() -> str:
    """A name for this service in the store's claims: the machine, the process, and a random
    part (two services in one process, or a pid used again after a restart, differ)."""
    holder = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
    HOLDERS_HERE.add(holder)
    return holder


class Games:
    """The games in play: ``service.games``. Every move, timeout and early end of a match
    goes through here, to the game's one owner (:class:`~.live.LiveGames`)."""

    def __init__(self, core: Core, *, thinker: Thinker, computer_pause: float) -> None:
        self.core = core
        self.thinker = thinker
        self.computer_pause = computer_pause
        self.hand_over_after = HAND_OVER_AFTER
        self.holder = process_holder()
        self.turn_claim = TURN_CLAIM
        self._drivers: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()  # games asked to play while their task was running
        # Nonces :meth:`hand_nonce` gave back kept from an earlier send that was not
        # remembered (a crash): Discord then answers with the message as it was first made,
        # and the front end edits it with the position of now (and discards the nonce).
        self.kept_nonces: set[int] = set()

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
        ctx = await self.core.context(game_id)
        seat = ctx.seat_of(user)
        if seat is None:
            raise ServiceError(ErrorCode.NOT_SEATED, "you do not sit at this game", game_id=game_id)
        if ctx.finished:
            raise ServiceError(ErrorCode.GAME_OVER, "the match is over", game_id=game_id)
        if version is not None and version != ctx.version:
            await self.core.live.refresh(ctx)  # another process may have moved it
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
        now = self.core.now()
        deadline = ctx.pace.deadline(now)
        try:
            return await self.core.live.apply_move(
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
        self.core.emit(events)
        if applied.game.is_over:
            self.core.forget(ctx.game_id)
            return
        if applied.deadline is not None:
            self.core.wakeup.deadline_set(applied.deadline)
        if ctx.computer_plays(applied.game.turn):
            self.drive(ctx.game_id)

    # ------------------------------------------------------------------ computer seats

    def drive(self, game_id: int, *, fresh: bool = False) -> None:
        """Let the computer seats of a game play while it is their turn (one task a game);
        ``fresh``: read the game from the store first (another process may have moved it)."""
        if self.core.closing:
            return
        task = self._drivers.get(game_id)
        if task is not None and not task.done():
            # That task may already have looked and seen a person's turn (a start's resume,
            # the scheduler's orphans, while this move was being written): it looks again
            # when it ends, or this turn would wait for no one.
            self._again.add(game_id)
            return
        task = asyncio.create_task(
            self._computer_turns(game_id, fresh=fresh), name=f"computer-{game_id}"
        )
        self._drivers[game_id] = task
        task.add_done_callback(lambda t: self._driver_done(game_id, t))

    def _driver_done(self, game_id: int, task: asyncio.Task[None]) -> None:
        if self._drivers.get(game_id) is task:
            del self._drivers[game_id]
        if game_id in self._again:
            self._again.discard(game_id)
            self.drive(game_id, fresh=True)
        if not task.cancelled() and task.exception() is not None:
            log.error("computer seats of game %s stopped", game_id, exc_info=task.exception())

    async def resume(self) -> None:
        """Computer seats in turn play on, as if the process had never stopped."""
        for info in await self.core.store.games.playing():
            if any(not s.is_human for s in info.seats) or info.away:
                self.drive(info.id)

    def computers_playing(self) -> list[asyncio.Task[None]]:
        """The computer seats' tasks running now (the scheduler waits on them to settle)."""
        return list(self._drivers.values())

    async def stop(self) -> None:
        """Stop every computer seat (the service is closing)."""
        drivers = list(self._drivers.values())
        for task in drivers:
            task.cancel()
        await asyncio.gather(*drivers, return_exceptions=True)
        try:
            await self.core.store.deadlines.release_turns(self.holder)
        except Exception:
            log.warning("the computer turns claimed here could not be given up", exc_info=True)

    async def _computer_turns(self, game_id: int, *, fresh: bool = False) -> None:
        # fresh: after a refused write, read the game again rather than trust memory
        while not self.core.closing:
            ctx = await self.core.context(game_id)
            if ctx.finished:
                return
            async with self.core.lock(game_id):
                if fresh:
                    await self.core.live.refresh(ctx)
                game, version = ctx.game, ctx.version
                if game.is_over or not ctx.computer_plays(game.turn):
                    return
                seat = game.turn
                if not await self.claim_turn(game_id, version):
                    log.info("game %s: another process thinks its turn at %s", game_id, version)
                    return
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

    async def claim_turn(self, game_id: int, version: int) -> bool:
        """Claim the computer turn of ``game_id`` at ``version`` before thinking it: False if
        another process's claim of it is alive. Should the claim itself fail (the database
        unreachable), the turn is thought anyway: its write is refused by the version if
        another process played it, and fails as the claim did if the database is gone."""
        try:
            return await self.core.store.deadlines.claim_turn(
                game_id, version, self.holder, self.turn_claim
            )
        except Exception:
            log.warning("the computer turn of game %s could not be claimed", game_id, exc_info=True)
            return True

    async def timeout(self, game_id: int, version: int) -> None:
        """A turn's deadline passed: the table's rule plays for, or forfeits, the absent seat."""
        ctx = await self.core.context(game_id)
        if ctx.finished:
            return
        async with self.core.lock(game_id):
            # Read as stored: the deadline was claimed at ``version`` in the store.
            await self.core.live.refresh(ctx)
            if ctx.version != version or ctx.game.is_over:
                return  # the person played meanwhile
            game, seat = ctx.game, ctx.game.turn
            tid, gid = ctx.table_id, game_id
            if ctx.on_timeout is TimeoutRule.FORFEIT:
                try:
                    ended = await self.core.live.end_match(
                        game_id,
                        version,
                        losing_side=game.rules.side_of(seat),
                        reason="forfeit",
                        at=self.core.now(),
                        timed_out=seat,
                    )
                except (StaleVersionError, GameClosedError):
                    # The person's move (or a resignation) beat the deadline: nothing to do.
                    log.debug("game %s moved on before its deadline was acted on", game_id)
                    return
                self.core.emit(
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
                self.core.forget(game_id)
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
        ctx = await self.core.context(game_id)
        seat = ctx.seat_of(user)
        if seat is None:
            raise ServiceError(ErrorCode.NOT_SEATED, "you do not sit at this game", game_id=game_id)
        if ctx.finished:
            raise ServiceError(ErrorCode.GAME_OVER, "the match is over", game_id=game_id)
        async with self.core.lock(game_id):
            for _ in range(5):  # a computer may be moving: try again on the new version
                game, version = ctx.game, ctx.version
                if game.is_over:
                    raise ServiceError(ErrorCode.GAME_OVER, "the match is over")
                side = game.rules.side_of(seat)
                try:
                    ended = await self.core.live.end_match(
                        game_id,
                        version,
                        losing_side=side,
                        reason="resign",
                        at=self.core.now(),
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
        self.core.emit([event])
        self.core.forget(game_id)
        return MoveOutcome(ended.version, (event,))

    async def take_seat_back(self, game_id: int, *, user: int) -> MoveOutcome:
        """The person has their seat back from the computer that plays it since their
        timeouts, at once, whoever's turn it is: a computer thinking for the seat right now
        does not play (its move was prepared at a version this write replaces), and when the
        seat is in turn it gets the table's deadline again. Playing a card does the same."""
        ctx = await self.core.context(game_id)
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
            async with self.core.lock(game_id):
                in_turn, game, new_version, deadline = await self._take_back(ctx, seat)
                ctx.away.discard(seat)  # a computer's move written meanwhile had it away
                ctx.timeouts[seat] = 0
        except BaseException:
            info = await self.core.store.games.info(game_id)
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
                self.core.wakeup.deadline_set(deadline)
        self.core.emit(events)
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
            now = self.core.now()
            deadline = ctx.pace.deadline(now) if in_turn else None
            new_version = version + 1 if in_turn else version
            notice = None
            if self.core.live.told_elsewhere(ctx):  # service/relay.py
                notice = back_notes(seat, ctx.user_of(seat), in_turn=in_turn, deadline=deadline)
            try:
                await self.core.store.games.take_seat_back(
                    game_id,
                    version,
                    seat=seat,
                    new_version=new_version,
                    deadline=deadline,
                    remind_at=ctx.pace.next_reminder(deadline, now) if in_turn else None,
                    notice=notice,
                )
            except StaleVersionError:
                await self.core.live.refresh(ctx)  # another process moved it
                continue
            except GameClosedError:
                ctx.finished = True
                raise ServiceError(ErrorCode.GAME_OVER, "the match is over") from None
            return in_turn, game, new_version, deadline
        raise stale(game_id, version, None)

    async def abandon(self, game_id: int, *, by: int) -> TableInfo:
        """The host calls the game off before its first move; nobody wins or loses."""
        ctx = await self.core.context(game_id)
        if ctx.table is None:
            raise ServiceError(ErrorCode.UNKNOWN_TABLE, f"game {game_id} has no table")
        must_be_host(ctx.table, by)
        if ctx.finished:
            raise ServiceError(ErrorCode.GAME_OVER, "the match is over")
        async with self.core.lock(game_id):
            if ctx.game.move_count:
                raise ServiceError(ErrorCode.GAME_STARTED, "the first card was played")
            try:
                await self.core.store.games.abandon(game_id, ctx.version)
            except StaleVersionError:
                raise ServiceError(ErrorCode.GAME_STARTED, "the first card was played") from None
        self.core.forget(game_id)
        table = await self.core.table(ctx.table.id)
        self.core.emit(
            [TableCancelled(table_id=table.id, game_id=game_id, table=table, reason="abandoned")]
        )
        return table

    async def end(self, game_id: int, *, losing_side: int, reason: str) -> None:
        """End a match now with ``losing_side`` losing (as :meth:`resign` does, for a whole
        side and with the caller's reason, e.g. a tournament's forfeit): the result,
        statistics and ratings written, MatchOver published. A match already over is left
        as it is."""
        ctx = await self.core.context(game_id)
        if ctx.finished:
            return
        async with self.core.lock(game_id):
            for _ in range(5):  # the live game's owner ends it (a move may be written meanwhile)
                game, version = ctx.game, ctx.version
                if game.is_over:
                    return
                try:
                    ended = await self.core.live.end_match(
                        game_id,
                        version,
                        losing_side=losing_side,
                        reason=reason,
                        at=self.core.now(),
                    )
                    break
                except StaleVersionError:
                    continue
                except GameClosedError:
                    return
            else:
                return
        self.core.emit([self._ended(ctx, game, ended, reason, losing_side)])
        self.core.forget(game_id)

    async def call_off(self, game_id: int) -> None:
        """Call a match off with no result (as :meth:`abandon` does, whatever was played, by
        the caller's clock, e.g. a tournament round's deadline): nobody wins, nothing is
        rated."""
        ctx = await self.core.context(game_id)
        if ctx.finished:
            return
        async with self.core.lock(game_id):
            if ctx.game.is_over:
                return
            try:
                await self.core.store.games.abandon(game_id, ctx.version)
            except StaleVersionError:
                return
        self.core.forget(game_id)
        if ctx.table is not None:
            table = await self.core.table(ctx.table.id)
            self.core.emit(
                [
                    TableCancelled(
                        table_id=table.id, game_id=game_id, table=table, reason="abandoned"
                    )
                ]
            )

    # ------------------------------------------------------------------ what people see

    async def seat_view(self, game_id: int, *, user: int) -> SeatView:
        """What this person may see of the game: their hand, the public game, their choices."""
        ctx = await self.core.context(game_id)
        seat = ctx.seat_of(user)
        if seat is None:
            raise ServiceError(ErrorCode.NOT_SEATED, "you do not sit at this game", game_id=game_id)
        return seat_view_of(ctx, *await self._views(ctx, seat), seat)

    async def public_view(self, game_id: int) -> PublicView:
        """What everyone at or watching the table may see (no hand at all)."""
        ctx = await self.core.context(game_id)
        return (await self._views(ctx, 0))[0]

    async def _views(self, ctx: GameContext, seat: int) -> tuple[PublicView, GameView]:
        # The live game is the game now: every move of it goes through its owner, which
        # replaces it only once the move is written (a view during a write shows the game
        # before that move).
        if not ctx.finished:
            return views_of(ctx, ctx.game, ctx.version, seat)
        store = self.core.store
        stored = await store.games.load(ctx.game_id)
        info = await store.games.info(ctx.game_id)
        ctx.version, ctx.deadline, ctx.away = info.version, info.deadline_at, set(info.away)
        ctx.finished = info.status is not GameStatus.PLAYING
        if ctx.table_id is None:
            raise ServiceError(ErrorCode.UNKNOWN_TABLE, f"game {ctx.game_id} has no table")
        ctx.table = table_info(await store.tables.get(ctx.table_id))
        reason = winner = None
        if ctx.finished and stored.game.outcome() is None:
            result = await store.boards.match_result(game_id=ctx.game_id)
            reason = "abandoned" if result is None else result.reason
            winner = None if result is None else result.winner_side
        return views_of(ctx, stored.game, stored.version, seat, reason=reason, winner=winner)

    def _moved_view(self, ctx: GameContext, game: Game, version: int, seat: int) -> SeatView | None:
        """The mover's view right after their move, from the game the store just wrote (no
        read): what :meth:`seat_view` would return at that version."""
        if ctx.table is None:
            return None
        return seat_view_of(ctx, *views_of(ctx, game, version, seat), seat)

    # ------------------------------------------------------------------ front-end memory

    async def set_seat_message(
        self, game_id: int, seat: int, *, channel_id: int | None, message_id: int | None
    ) -> None:
        """Remember a seat's private hand message (a DM) to edit it in place."""
        await self.core.context(game_id)
        await self.core.store.games.set_seat_message(
            game_id, seat, channel_id=channel_id, message_id=message_id
        )

    async def seat_messages(self, game_id: int) -> dict[int, tuple[int, int]]:
        """``{seat: (channel_id, message_id)}`` of the hand messages remembered."""
        return await self.core.store.games.seat_messages(game_id)

    async def set_dm_refused(
        self, game_id: int, seat: int, *, at: int | None, noted: bool = False
    ) -> None:
        """Remember that a seat's DMs refused its hand at the turn begun at version ``at``
        (``None``: they took it again); ``noted`` once the table was told."""
        await self.core.context(game_id)
        await self.core.store.games.set_dm_refused(game_id, seat, at=at, noted=noted)

    async def dms_refused(self, game_id: int) -> dict[int, tuple[int | None, bool]]:
        """``{seat: (version of the last refused try or None, table told)}`` of a game."""
        return await self.core.store.games.dms_refused(game_id)

    async def set_deal_post(
        self, game_id: int, deal: int, *, channel_id: int, message_id: int
    ) -> None:
        """Remember where deal ``deal``'s count was posted (so it is posted once)."""
        await self.core.context(game_id)
        await self.core.store.games.set_deal_post(
            game_id, deal, channel_id=channel_id, message_id=message_id
        )

    async def deal_post(self, game_id: int, deal: int) -> tuple[int, int] | None:
        """``(channel_id, message_id)`` of deal ``deal``'s count, if it was posted."""
        return await self.core.store.games.deal_post(game_id, deal)

    async def last_deal_end(self, game_id: int) -> DealEnd | None:
        """The last finished deal's plays as they were announced, played again from the
        game's stored moves (what a front end showed of it, after a restart too)."""
        ctx = await self.core.context(game_id)
        return last_deal_end(ctx.game.record())

    # ------------------------------------------------------------------ what a restart owes

    async def owed_tables(self) -> list[tuple[int, int]]:
        """(table, game) of the games whose table message owes an edit: a move (or another
        change of the table) is stored and its edit has not reached Discord, as the process
        stopped or was killed before, or Discord kept refusing it. However old."""
        return await self.core.store.games.owed_tables()

    async def table_shown(self, game_id: int, version: int) -> None:
        """The table message's edit showing ``version`` reached Discord: the debt of every
        change up to it is paid (never an older version over a newer)."""
        await self.core.store.games.set_table_shown(game_id, version)

    async def owe_table(self, game_id: int) -> None:
        """The table message owes an edit for a change that keeps the game's version (a seat
        taken back out of turn)."""
        await self.core.store.games.owe_table(game_id)

    async def hand_nonce(self, game_id: int, seat: int) -> int:
        """The nonce to send the seat's hand DM with, kept before it is sent: a send tried
        again after a crash (sent, not yet remembered by :meth:`set_seat_message`) carries
        the same one, and Discord answers with the message it made instead of a second."""
        fresh = secrets.randbits(63)
        nonce = await self.core.store.games.hand_nonce(game_id, seat, fresh)
        if nonce != fresh:
            self.kept_nonces.add(nonce)
        return nonce

    async def hands_being_sent(self) -> list[tuple[int, int, int]]:
        """(table, game, seat) of the hand DMs whose send was begun and not remembered."""
        return await self.core.store.games.hands_being_sent()

    async def set_note(self, game_id: int, note: TableNote | None) -> None:
        """What the table says of its last timeout, kept until the next one (or ``None``)."""
        await self.core.store.games.set_note(
            game_id,
            None if note is None else note.kind.value,
            None if note is None else note.user_id,
        )

    async def note(self, game_id: int) -> TableNote | None:
        found = await self.core.store.games.note(game_id)
        if found is None:
            return None
        return TableNote(NoteKind(found[0]), found[1])

    async def final_rating_changes(
        self, game_id: int
    ) -> tuple[dict[int, tuple[float | None, float]], dict[int, tuple[float | None, float]]]:
        """The match's rating changes as :class:`MatchOver` carried them (the game's board,
        then the global one), read back from the store: a final table drawn after a restart
        shows them too."""
        ctx = await self.core.context(game_id)
        guild = None if ctx.table is None else ctx.table.guild_id
        return rating_pairs(await self.core.store.games.rating_changes(game_id), guild)
