"""The one owner of each game in play: its engine game, version, lock, deadline, seat holders.

A :class:`LiveGame` is the only copy of a game's state in memory; :class:`LiveGames` keeps them
(one set per store, so every part of a process shares them) and is the only place that plays
a move, applies the timeout and hand-over rule, ends a match and computes its rating changes.
What a move does is decided here and handed to the store as one prepared record
(:class:`~scopabot.store.MoveRecord`), written in one transaction; the store only stores.

The version on every write keeps several processes honest: a write prepared from a game that
another process moved on is refused (:class:`~scopabot.store.StaleVersionError`), the live
game is read again, and the caller decides whether to try again. Ratings are computed from the
ratings read just before the write and written only if they are still those
(:class:`~scopabot.store.StaleRatingError`: read them again and compute anew).
"""

from __future__ import annotations

import asyncio
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Protocol

from scopabot.engine import Game, Move, PlayResult, Rules
from scopabot.store import (
    GLOBAL,
    Actor,
    ActorKind,
    AppliedMove,
    GameClosedError,
    GameStatus,
    MatchEnded,
    MatchEndRecord,
    MatchPlayer,
    MatchResult,
    MoveRecord,
    Rating,
    RatingChange,
    RatingValue,
    RatingWrite,
    ResultRow,
    SeatHolder,
    StaleRatingError,
    StaleVersionError,
    Store,
    StoredGame,
    Table,
    TableStatus,
    rating_id,
)
from scopabot.store.game_rows import deck_blob
from scopabot.store.models import from_ms, now, opt_ms, to_ms

from .views import HAND_OVER_AFTER, Pace, TableInfo, TimeoutRule

KEEP_ENDED = 64
"""Finished games kept once read, the most recently asked about: in the second after a match
ends each of its messages is shown once more (the table, every hand, the count), each asking
for the game, and one read of it is all the store should see for them. Beyond that a
finished game is read again when asked about: a process keeps its games in play and a few
just ended, however long it runs (each kept game is a few hundred objects, which every full
collection of Python's walks)."""


class RatingPolicy(Protocol):
    """How ratings move after a match (the service's :class:`~.ratings.RatingsPolicy`).

    Called once per board (the server, then the global one) with the current rating of each
    rated player (``None`` if they have none yet); returns the new numbers for any of them.
    Pure and quick: the same answer for the same input.
    """

    def __call__(
        self, result: MatchResult, current: dict[int, Rating | None]
    ) -> dict[int, RatingValue]: ...


_RATING_TRIES = 5  # a rating moved by another match meanwhile: compute anew, this many times


def as_stored(when: datetime | None) -> datetime | None:
    """A time as the store gives it back (whole milliseconds, UTC), so what is kept in memory
    equals what a fresh read would say."""
    return None if when is None else from_ms(to_ms(when))


def table_info(table: Table) -> TableInfo:
    """The front ends' view of a stored table."""
    return TableInfo(
        id=table.id,
        guild_id=table.guild_id,
        channel_id=table.channel_id,
        thread_id=table.thread_id,
        message_id=table.message_id,
        host=table.host_id,
        rules=table.rules,
        status=table.status,
        pace=Pace.from_dict(table.pace) if table.pace else Pace.untimed(),
        on_timeout=TimeoutRule(table.on_timeout),
        level=table.level,
        seats=dict(table.seats),
        game_id=table.game_id,
        version=table.game_version,
    )


@dataclass(slots=True, eq=False)
class LiveGame:
    """A game as its owner holds it: the engine game at ``version`` (never played on in
    place: a move is played on a copy that replaces it once written), its table, seat
    holders, the seats handed to a computer and each seat's timeouts in a row."""

    game_id: int
    game: Game
    version: int
    table: TableInfo | None
    seats: tuple[SeatHolder, ...]
    guild_id: int | None
    away: set[int] = field(default_factory=set)
    timeouts: list[int] = field(default_factory=list)
    deadline: datetime | None = None  # the turn's, at ``version``
    finished: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def timing(self) -> tuple[int, datetime | None]:
        return self.version, self.deadline

    @property
    def table_id(self) -> int | None:
        return None if self.table is None else self.table.id

    @property
    def pace(self) -> Pace:
        return Pace.untimed() if self.table is None else self.table.pace

    @property
    def on_timeout(self) -> TimeoutRule:
        return TimeoutRule.COMPUTER if self.table is None else self.table.on_timeout

    @property
    def level(self) -> str:
        return "normal" if self.table is None else self.table.level

    @property
    def rules(self) -> Rules:
        return self.game.rules

    def seat_of(self, user_id: int) -> int | None:
        for seat, holder in enumerate(self.seats):
            if holder.user_id == user_id:
                return seat
        return None

    def computer_plays(self, seat: int) -> bool:
        """Whether a computer plays this seat now (a computer's seat, or one handed over)."""
        return not self.seats[seat].is_human or seat in self.away

    def level_of(self, seat: int) -> str:
        return self.seats[seat].ai_level or self.level

    def user_of(self, seat: int) -> int | None:
        return self.seats[seat].user_id

    def seats_map(self) -> dict[int, SeatHolder]:
        return dict(enumerate(self.seats))


_OWNERS: weakref.WeakKeyDictionary[Store, LiveGames] = weakref.WeakKeyDictionary()


class LiveGames:
    """The live games of one store in this process, and everything that changes them."""

    def __init__(self, store: Store, *, rating_policy: RatingPolicy | None = None) -> None:
        self.store = store
        self.rating_policy = rating_policy
        self._live: dict[int, LiveGame] = {}
        # Finished games read back from the store (never moved again), the newest last.
        self._ended: OrderedDict[int, LiveGame] = OrderedDict()
        self._loading: dict[int, asyncio.Future[LiveGame]] = {}
        self._rating_lock = asyncio.Lock()
        # Whether another process shows the messages of a guild's tables (None: this one
        # shows them all). A move of such a game writes its notice in its transaction
        # (store/outbox.py; the notes are made by :func:`move_notes`).
        self.elsewhere: Callable[[int | None], bool] | None = None

    def told_elsewhere(self, live: LiveGame) -> bool:
        """Whether another process shows ``live``'s table (its changes leave a notice)."""
        return (
            live.table is not None and self.elsewhere is not None and self.elsewhere(live.guild_id)
        )

    @classmethod
    def of(cls, store: Store) -> LiveGames:
        """The owner of ``store``'s games in this process (made at the first call): one per
        store, so a game has one live copy however many parts of the process use it."""
        owner = _OWNERS.get(store)
        if owner is None:
            owner = _OWNERS[store] = cls(store)
        return owner

    # ------------------------------------------------------------------ holding

    def kept(self, game_id: int) -> LiveGame | None:
        return self._live.get(game_id)

    async def get(self, game_id: int) -> LiveGame:
        """The live game (read from the store the first time; NotFoundError if none).

        A game in play is kept until its end (:meth:`forget`). A finished one read back (its
        last messages, a stale button) is kept among the last :data:`KEEP_ENDED` only: kept
        with the games in play, every game a process ever ended stayed in its memory, and
        each of Python's full collections walked them all (docs/speed.md)."""
        live = self._live.get(game_id)
        if live is not None:
            return live
        live = self._ended.get(game_id)
        if live is not None:
            self._ended.move_to_end(game_id)
            return live
        loading = self._loading.get(game_id)
        if loading is not None:  # another caller is reading it: one copy, not two
            return await asyncio.shield(loading)
        future: asyncio.Future[LiveGame] = asyncio.get_running_loop().create_future()
        self._loading[game_id] = future
        try:
            live = await self._read(game_id)
            if live.finished:
                self._keep_ended(live)
            else:
                live = self._live.setdefault(game_id, live)
            future.set_result(live)
            return live
        except BaseException as exc:
            if isinstance(exc, asyncio.CancelledError):
                future.cancel()
            else:
                future.set_exception(exc)
                future.exception()  # retrieved: no "never retrieved" warning if none waits
            raise
        finally:
            del self._loading[game_id]

    def _keep_ended(self, live: LiveGame) -> None:
        self._ended[live.game_id] = live
        self._ended.move_to_end(live.game_id)
        while len(self._ended) > KEEP_ENDED:
            self._ended.popitem(last=False)

    async def _read(self, game_id: int) -> LiveGame:
        info = await self.store.games.info(game_id)
        stored = await self.store.games.load(game_id)
        table = (
            None
            if info.table_id is None
            else table_info(await self.store.tables.get(info.table_id))
        )
        return LiveGame(
            game_id,
            stored.game,
            stored.version,
            table,
            info.seats,
            info.guild_id,
            set(info.away),
            list(info.timeouts),
            info.deadline_at,
            info.status is not GameStatus.PLAYING,
        )

    async def current(self, live: LiveGame) -> LiveGame:
        """``live`` as stored now, when another process shows its table (and so moves it
        too: a DM click, the scheduler): a version read, and the game read again only when
        it moved. This process's own tables are current already (another process's move of
        one reaches it as a notice: service/relay.py)."""
        if live.finished or not self.told_elsewhere(live):
            return live
        stored = await self.store.games.version(live.game_id)
        if stored is not None and stored != live.version:
            await self.refresh(live)
        return live

    async def refresh(self, live: LiveGame) -> LiveGame:
        """Read the game again (another process moved it): the same object, brought up to
        date, so every holder of it sees the game as stored."""
        fresh = await self._read(live.game_id)
        if fresh.version < live.version:
            return live  # a move of this process was written while reading: it is newer
        live.game, live.version, live.seats = fresh.game, fresh.version, fresh.seats
        live.away, live.timeouts, live.deadline = fresh.away, fresh.timeouts, fresh.deadline
        live.finished = fresh.finished
        if fresh.table is not None:
            live.table = fresh.table
        return live

    def adopt(
        self, stored: StoredGame, *, table: TableInfo | None, deadline: datetime | None
    ) -> LiveGame:
        """A game just stored (its table started): it is live from here, without a read."""
        seats = (
            tuple(table.seats[n] for n in range(stored.game.rules.players))
            if table is not None
            else ()
        )
        live = LiveGame(
            stored.id,
            stored.game,
            stored.version,
            table,
            seats,
            None if table is None else table.guild_id,
            set(),
            [0] * stored.game.rules.players,
            as_stored(deadline),
        )
        return self._live.setdefault(stored.id, live)

    def forget(self, game_id: int) -> LiveGame | None:
        """A finished game needs no live copy (read again if asked about)."""
        live = self._live.pop(game_id, None)
        if live is not None:
            live.finished = True  # for whoever still holds it
        return live

    # ------------------------------------------------------------------ moving

    async def apply_move(
        self,
        game_id: int,
        expected_version: int,
        move: Move | str,
        *,
        by: Actor,
        at: datetime | None = None,
        deadline: datetime | None = None,
        remind_at: datetime | None = None,
        seat: int | None = None,
        hand_over_after: int = HAND_OVER_AFTER,
    ) -> AppliedMove:
        """Play ``move`` and have the store write it, with all it decides, in one transaction.

        Raises :class:`StaleVersionError` when the game is no longer at ``expected_version``
        (nothing is written), the engine's ``IllegalMoveError`` / ``InvalidMoveError`` when the
        move is not allowed. ``seat``, when given, must be the seat to play. ``deadline`` and
        ``remind_at`` are the next turn's, kept only if a person plays it (not a computer
        seat, nor one handed to a computer), so a crash can never leave a turn without its
        deadline. A move by ``Actor.timeout()`` counts one more timeout in a row for the seat
        and hands the seat to a computer at ``hand_over_after``; a person's own move clears
        both. The deal score, match result, statistics, ratings and the table's closing of a
        move that ends a deal or the match are written in the same transaction.
        """
        if isinstance(move, str):
            move = Move.parse(move)
        live = await self._at(game_id, expected_version)
        game = live.game.copy()  # played on a copy: the live game changes once written
        player = game.turn
        shuffles_before = game.shuffle_count
        result = game.play(move, seat=seat)  # checked before it changes anything
        outcome = game.outcome()
        timeouts = live.timeouts[player] if player < len(live.timeouts) else 0
        away_now, took_back = player in live.away, False
        if by.kind is ActorKind.TIMEOUT:
            timeouts += 1
            away_now = away_now or timeouts >= hand_over_after
        elif by.kind is ActorKind.USER and player < len(live.seats):
            took_back = away_now
            timeouts, away_now = 0, False
        away = (live.away - {player}) | ({player} if away_now else set())
        nxt = game.turn
        if outcome is not None or (
            nxt < len(live.seats) and (not live.seats[nxt].is_human or nxt in away)
        ):
            deadline = remind_at = None
        stamp = to_ms(at or now())
        before = (
            live.timeouts[player] if player < len(live.timeouts) else 0,
            player in live.away,
        )
        result_row = None
        if outcome is not None:
            result_row = ResultRow(
                outcome.winner, outcome.reason.value, outcome.totals, outcome.deals
            )
        new_version = expected_version + 1
        told = self.told_elsewhere(live)

        def record(
            writes: tuple[RatingWrite, ...], changes: tuple[RatingChange, ...]
        ) -> MoveRecord:
            notice = None
            if told:
                notice = move_notes(
                    live,
                    game,
                    result,
                    move,
                    by=by,
                    player=player,
                    took_back=took_back,
                    handed=away_now and player not in live.away,
                    deadline=deadline,
                    changes=changes,
                )
            return MoveRecord(
                game_id=game_id,
                expected_version=expected_version,
                version=new_version,
                snapshot=game.to_snapshot(include_record=False),
                move_count=game.move_count,
                stamp=stamp,
                seat=player,
                move=str(move),
                actor=by.kind.value,
                actor_id=by.user_id,
                first_deck=shuffles_before,
                decks=[deck_blob(o) for o in game.shuffles_since(shuffles_before)],
                deadline=opt_ms(deadline),
                remind_at=opt_ms(remind_at),
                seat_state=(timeouts, away_now) if (timeouts, away_now) != before else None,
                rules=game.rules,
                deal_score=result.deal_score,
                result=result_row,
                ratings=writes,
                notice=notice,
            )

        changes, match = await self._write(
            live,
            game.rules,
            result_row,
            stamp,
            lambda w, c: self.store.games.write_move(record(w, c)),
        )
        # Written: the game after the move is the live one now.
        live.game, live.version = game, new_version
        live.away = away
        if player < len(live.timeouts):
            live.timeouts[player] = timeouts
        live.deadline = as_stored(deadline)
        live.finished = outcome is not None
        if live.table is not None:
            live.table = _moved_table(live.table, new_version, finished=live.finished)
        return AppliedMove(
            game_id,
            new_version,
            result,
            game,
            match=match,
            rating_changes=changes,
            away=frozenset(away),
            seat_timeouts=timeouts,
            took_back=took_back,
            deadline=as_stored(deadline),
            remind_at=as_stored(remind_at),
        )

    async def end_match(
        self,
        game_id: int,
        expected_version: int,
        *,
        losing_side: int,
        reason: str,
        at: datetime | None = None,
        timed_out: int | None = None,
    ) -> MatchEnded:
        """End a match now because a side resigned or forfeited: it loses (the winner is the
        other side; with three players the other side with the most points, the earlier seat
        on a tie), and the result, statistics and ratings are written and the table closes,
        all in one transaction. ``timed_out``: the seat whose time ran out (a forfeit by
        timeout), told with the match's end to the process that shows the table, whose
        table says whose time it was."""
        live = await self._at(game_id, expected_version)
        game = live.game
        if not 0 <= losing_side < game.rules.sides:
            raise ValueError(f"no side {losing_side} in this game")
        totals = game.totals
        others = [side for side in range(game.rules.sides) if side != losing_side]
        winner = max(others, key=lambda side: (totals[side] if side < len(totals) else 0, -side))
        row = ResultRow(winner, reason, totals, len(game.deal_scores), losing_side)
        stamp = to_ms(at or now())
        told = self.told_elsewhere(live)

        def record(
            writes: tuple[RatingWrite, ...], changes: tuple[RatingChange, ...]
        ) -> MatchEndRecord:
            notice: tuple[dict[str, Any], ...] | None = None
            if told:
                notice = (over_note(row, changes),)
                if timed_out is not None:
                    note = {"e": "timeout", "seat": timed_out, "user": live.user_of(timed_out)}
                    notice = ({**note, "forfeit": True}, *notice)
            return MatchEndRecord(game_id, expected_version, stamp, game.rules, row, writes, notice)

        changes, match = await self._write(
            live,
            game.rules,
            row,
            stamp,
            lambda w, c: self.store.games.write_match_end(record(w, c)),
        )
        live.version = expected_version + 1
        live.deadline = None
        live.finished = True
        if live.table is not None:
            live.table = _moved_table(live.table, live.version, finished=True)
        return MatchEnded(game_id, expected_version + 1, match, changes)

    async def _write(
        self,
        live: LiveGame,
        rules: Rules,
        row: ResultRow | None,
        stamp: int,
        write: Callable[
            [tuple[RatingWrite, ...], tuple[RatingChange, ...]], Awaitable[MatchResult | None]
        ],
    ) -> tuple[tuple[RatingChange, ...], MatchResult | None]:
        """Write, with the ratings of a match that ends: read, computed and written one match
        at a time in this process (computer levels sit in most matches); another process's
        match moving a rating meanwhile makes the store refuse, and they are computed anew."""
        rated = row is not None and self.rating_policy is not None
        async with self._rating_lock if rated else nullcontext():
            for attempt in range(_RATING_TRIES):
                changes, writes = await self._ratings(live, rules, row, stamp)
                try:
                    return changes, await write(writes, changes)
                except StaleRatingError:
                    if attempt == _RATING_TRIES - 1:
                        raise
                except (StaleVersionError, GameClosedError):
                    await self._moved_elsewhere(live)
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    async def _at(self, game_id: int, expected_version: int) -> LiveGame:
        """The live game at ``expected_version``, or StaleVersionError (a finished match then
        refuses any move through the engine, an abandoned one when it is written)."""
        live = await self.get(game_id)
        if live.version != expected_version:
            await self.refresh(live)  # another process may have moved it
        if live.version != expected_version:
            raise StaleVersionError(game_id, expected_version, live.version)
        return live

    async def _moved_elsewhere(self, live: LiveGame) -> None:
        """The write was refused: the game moved on elsewhere; hold it as stored again."""
        try:
            await self.refresh(live)
        except Exception:  # the refusal is what the caller must hear; the next call reads
            self._live.pop(live.game_id, None)

    async def _ratings(
        self, live: LiveGame, rules: Rules, row: ResultRow | None, stamp: int
    ) -> tuple[tuple[RatingChange, ...], tuple[RatingWrite, ...]]:
        """The rating changes of a match ending as ``row`` says, from the ratings as they are
        now on the game's board and the global one (none without a policy or a person)."""
        if row is None or self.rating_policy is None:
            return (), ()
        players = tuple(
            MatchPlayer(seat, rules.side_of(seat), holder, rules.side_of(seat) == row.winner)
            for seat, holder in enumerate(live.seats)
        )
        if not any(p.seat_holder.user_id is not None for p in players):
            return (), ()
        result = MatchResult(
            0,
            live.game_id,
            live.guild_id,
            rules.preset.value,
            row.winner,
            row.reason,
            tuple(row.totals),
            row.deals,
            from_ms(stamp),
            players,
            row.losing_side,
        )
        ids = sorted({rid for p in players if (rid := rating_id(p.seat_holder)) is not None})
        boards = (GLOBAL,) if live.guild_id is None else (live.guild_id, GLOBAL)
        current = await self.store.boards.ratings_of(result.category, boards, ids)
        changes: list[RatingChange] = []
        writes: list[RatingWrite] = []
        for board in boards:
            ratings: Mapping[int, Rating | None] = current[board]
            values = self.rating_policy(result, dict(ratings))
            for rid, value in sorted(values.items()):
                before = ratings.get(rid)
                changes.append(RatingChange(board, rid, before, value))
                writes.append(
                    RatingWrite(
                        board,
                        rid,
                        value,
                        None if before is None else before.games,
                        None if before is None else before.score,
                    )
                )
        return tuple(changes), tuple(writes)


def move_notes(
    live: LiveGame,
    game: Game,
    result: PlayResult,
    move: Move,
    *,
    by: Actor,
    player: int,
    took_back: bool,
    handed: bool,
    deadline: datetime | None,
    changes: tuple[RatingChange, ...],
) -> tuple[dict[str, Any], ...]:
    """What a move did, as the process that shows the table needs it to show it (it reads
    the views itself; service/relay.py turns these back into events): plain JSON, in the order
    of the events the mover's process publishes."""
    notes: list[dict[str, Any]] = []
    if by.kind is ActorKind.TIMEOUT:
        notes.append(
            {"e": "timeout", "seat": player, "user": live.user_of(player), "handed": handed}
        )
    notes.append(
        {
            "e": "played",
            "seat": player,
            "actor": by.kind.value,
            "user": by.user_id if by.kind is ActorKind.USER else live.user_of(player),
            "move": str(move),
            "scopa": result.scopa,
            "leftovers": [str(card) for card in result.leftovers],
            "leftovers_to": result.leftovers_to,
        }
    )
    if took_back:
        notes.append({"e": "back", "seat": player, "user": by.user_id})
    before = live.game
    for seat in range(game.rules.players):
        if seat == player or game.hand(seat) != before.hand(seat):
            notes.append({"e": "hand", "seat": seat})
    if result.deal_score is not None:
        notes.append({"e": "deal", "deal": result.deal_score.deal})
    outcome = game.outcome()
    if outcome is not None:
        row = ResultRow(outcome.winner, outcome.reason.value, outcome.totals, outcome.deals)
        notes.append(over_note(row, changes))
    else:
        nxt = game.turn
        notes.append(
            {"e": "turn", "seat": nxt, "user": live.user_of(nxt), "deadline": opt_ms(deadline)}
        )
    return tuple(notes)


def started_notes(
    players: int, first_seat: int, first_user: int | None, deadline: datetime | None
) -> tuple[dict[str, Any], ...]:
    """A table started by a process that does not show it (a tournament's round, opened where
    the last match of the round before ended; see :func:`move_notes`): every hand dealt, and
    the first turn."""
    notes: list[dict[str, Any]] = [{"e": "started"}]
    notes += [{"e": "hand", "seat": seat} for seat in range(players)]
    notes.append(
        {"e": "turn", "seat": first_seat, "user": first_user, "deadline": opt_ms(deadline)}
    )
    return tuple(notes)


def back_notes(
    seat: int, user_id: int | None, *, in_turn: bool, deadline: datetime | None
) -> tuple[dict[str, Any], ...]:
    """A person took their seat back (see :func:`move_notes`): on their turn, it starts anew
    for them."""
    notes: list[dict[str, Any]] = [{"e": "back", "seat": seat, "user": user_id}]
    if in_turn:
        notes.append({"e": "hand", "seat": seat})
        notes.append({"e": "turn", "seat": seat, "user": user_id, "deadline": opt_ms(deadline)})
    return tuple(notes)


def over_note(row: ResultRow, changes: tuple[RatingChange, ...]) -> dict[str, Any]:
    """The match's end as a note (see :func:`move_notes`), with each rating's change."""
    return {
        "e": "over",
        "winner": row.winner,
        "reason": row.reason,
        "totals": list(row.totals),
        "losing_side": row.losing_side,
        "ratings": [
            [c.board, c.rating_id, None if c.before is None else c.before.score, c.after.score]
            for c in changes
        ],
    }


def _moved_table(table: TableInfo, version: int, *, finished: bool) -> TableInfo:
    """The table as the store has it after a write (the last move closes it)."""
    status = TableStatus.FINISHED if finished else table.status
    return replace(table, version=version, status=status)


__all__ = ["LiveGame", "LiveGames", "PlayResult", "RatingPolicy", "as_stored", "table_info"]
