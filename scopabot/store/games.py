"""Games: created with their record, changed one move per transaction, loaded fast.

A game is kept twice over, on purpose. The record — rules, seed, every deck order (table
``shuffles``), every move with who made it and when (table ``moves``) — is what happened and
replays exactly. The snapshot (``games.snapshot``, the engine state without the record) is what
makes loading cheap. One transaction writes both, with the version bump that makes a second
click on the same button a :class:`StaleVersionError` instead of a second move.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import datetime
from functools import partial
from typing import Any

import aiosqlite

from scopabot.engine import Game, GameRecord, Move, Rules

from .alarms import DUE_DEADLINES_SQL as DUE_DEADLINES_SQL  # where tests look for it
from .base import StoreBase, on_worker
from .errors import GameClosedError, NotFoundError, StaleVersionError
from .models import (
    Actor,
    ActorKind,
    AppliedMove,
    GameInfo,
    GameStatus,
    MoveEntry,
    RatingChange,
    SeatHolder,
    StoredGame,
    from_ms,
    now,
    opt_dt,
    opt_ms,
    to_ms,
)
from .move_sql import (
    CLOSE_TABLE_SQL,
    MovePlan,
    NewGame,
    Pending,
    SeatState,
    deck_blob,
    end_match_rows,
    insert_game,
    load_rows,
    put_all_ratings,
    seat_states,
    version_of,
    write_move,
)
from .records import MatchEnded

_SELECT_GAMES = (
    "SELECT id, table_id, guild_id, rules, status, version, move_count, deadline_at, created_at,"
    " updated_at, finished_at, remind_at FROM games"
)


class GamesMixin(StoreBase):
    # ------------------------------------------------------------------ creating

    async def create_game(
        self,
        game: Game,
        *,
        seats: Sequence[SeatHolder],
        guild_id: int | None = None,
        table_id: int | None = None,
        deadline: datetime | None = None,
        at: datetime | None = None,
    ) -> StoredGame:
        """Store a game that has not been played yet (from ``Game.new`` or a position)."""
        new = NewGame.of(
            game, seats, guild_id=guild_id, table_id=table_id, deadline=deadline, at=at
        )
        game_id = await self._write_once(insert_game, new)
        self._remember(game_id, 1, game.copy())
        return StoredGame(game_id, 1, game)

    # ------------------------------------------------------------------ loading

    async def load_game(self, game_id: int) -> StoredGame:
        """The game as it is now, from its snapshot (or the live copy kept in memory)."""
        cached = self._cache.get(game_id)
        if cached is not None:
            # Copied before any await: a move applied meanwhile plays on the cached Game
            # itself, and this caller must get the game as it was at ``cached[0]``.
            cached_version, copy = cached[0], cached[1].copy()
            # Another process may have written since; the version tells.
            version = await self._read_once(version_of, game_id)
            if version == cached_version:
                return StoredGame(game_id, cached_version, copy)
        version, game = await self._load(game_id)
        self._remember(game_id, version, game.copy())
        return StoredGame(game_id, version, game)

    def peek_game(self, game_id: int) -> StoredGame | None:
        """The live copy kept in memory, without asking the database (``None`` if not kept).

        For a caller about to write anyway: the write checks the version, so a copy that
        another process made stale costs a :class:`StaleVersionError`, never a wrong move.
        """
        cached = self._cache.get(game_id)
        return None if cached is None else StoredGame(game_id, cached[0], cached[1].copy())

    async def replay_game(self, game_id: int) -> StoredGame:
        """The game rebuilt from its record alone (every move played again)."""
        async with self._read() as db:
            row = await _one(db, "SELECT version FROM games WHERE id = ?", (game_id,))
            if row is None:
                raise NotFoundError(f"no game {game_id}")
            record = await self._record(db, game_id)
        return StoredGame(game_id, int(row[0]), Game.replay(record))

    async def move_history(self, game_id: int) -> list[MoveEntry]:
        """Every move in order, with who made it and when."""
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT ply, seat, move, actor, actor_id, at FROM moves WHERE game_id = ?"
                " ORDER BY ply",
                (game_id,),
            )
        return [
            MoveEntry(r[0], r[1], r[2], Actor(ActorKind(r[3]), r[4]), from_ms(r[5])) for r in rows
        ]

    async def game_info(self, game_id: int) -> GameInfo:
        infos = await self._read_once(_infos, " WHERE id = ?", (game_id,))
        if not infos:
            raise NotFoundError(f"no game {game_id}")
        return infos[0]

    async def playing_games(self, *, guild_id: int | None = None) -> list[GameInfo]:
        """Games still being played (in one server, or everywhere), oldest first."""
        if guild_id is None:
            return await self._read_once(_infos, " WHERE status = 'playing' ORDER BY id", ())
        return await self._read_once(
            _infos, " WHERE status = 'playing' AND guild_id = ? ORDER BY id", (guild_id,)
        )

    async def _load(self, game_id: int) -> tuple[int, Game]:
        """Version and game from the snapshot: the rows in one hand-off, the parsing here."""
        version, snapshot, header, decks, moves = await self._read_once(load_rows, game_id)
        record = _record_of(header, decks, moves)
        return version, Game.restore(record, snapshot=json.loads(snapshot))

    async def _record(self, db: aiosqlite.Connection, game_id: int) -> GameRecord:
        row = await _one(
            db,
            "SELECT rules, seed, first_dealer, dealer_draw, start FROM games WHERE id = ?",
            (game_id,),
        )
        if row is None:
            raise NotFoundError(f"no game {game_id}")
        shuffles = await db.execute_fetchall(
            "SELECT deck FROM shuffles WHERE game_id = ? ORDER BY number", (game_id,)
        )
        moves = await db.execute_fetchall(
            "SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
        )
        return _record_of(tuple(row), [r[0] for r in shuffles], [r[0] for r in moves])

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
        hand_over_after: int = 3,
    ) -> AppliedMove:
        """Play ``move`` and persist it in one transaction; return the new version.

        Raises :class:`StaleVersionError` when the game is no longer at ``expected_version``
        (nothing is written), the engine's ``IllegalMoveError`` / ``InvalidMoveError`` when the
        move is not allowed. ``seat``, when given, must be the seat to play. ``deadline`` and
        ``remind_at`` are the next turn's, written only if a person plays it (not a computer
        seat, nor one handed to a computer), so a crash can never leave a turn without its
        deadline. A move by ``Actor.timeout()`` counts one more timeout in a row for the seat
        and hands the seat to a computer at ``hand_over_after``; a person's own move clears
        both. The deal score, match result, statistics, ratings and the table's closing of a
        move that ends a deal or the match are written in the same transaction.
        """
        if isinstance(move, str):
            move = Move.parse(move)
        stamp = to_ms(at or now())
        # The move is checked and played here, on the event loop; the snapshot is made and
        # everything written in one hand-off (see .move_sql). No await between taking the game
        # out of the cache and handing it over, so no other coroutine ever touches the same Game.
        cached = self._cache.pop(game_id, None)
        if cached is not None and cached[0] == expected_version:
            game = cached[1]
        else:
            version, game = await self._load(game_id)
            if version != expected_version:
                self._remember(game_id, version, game)
                raise StaleVersionError(game_id, expected_version, version)
        player = game.turn
        shuffles_before = game.shuffle_count
        try:
            result = game.play(move, seat=seat)
        except ValueError:
            # The engine checks before it changes anything: the game is still good.
            self._remember(game_id, expected_version, game)
            raise
        # From here the game is changed: on any failure it is not cached again (reloaded).
        new_version = expected_version + 1
        outcome = game.outcome()
        plan = MovePlan(
            game_id=game_id,
            expected_version=expected_version,
            game=game,
            update=(
                new_version,
                game.move_count,
                GameStatus.FINISHED if outcome else GameStatus.PLAYING,
                stamp,
                stamp if outcome else None,
                game_id,
                expected_version,
            ),
            move=(game_id, game.move_count - 1, player, str(move), by.kind, by.user_id, stamp),
            first_deck=shuffles_before,
            decks=[deck_blob(o) for o in game.shuffles_since(shuffles_before)],
            rules=game.rules,
            deal_score=result.deal_score,
            outcome=outcome,
            stamp=stamp,
            rate=self._rating_policy is not None,
            seat=player,
            actor=by.kind.value,
            deadline=opt_ms(deadline),
            remind_at=opt_ms(remind_at),
            hand_over_after=hand_over_after,
        )
        changes: tuple[RatingChange, ...] = ()
        if outcome is None or self._rating_policy is None:
            written = await self._write_once(write_move, plan)
        else:
            # The move that ends a rated match: the policy runs here, not on the database
            # thread, inside the same transaction (a few hand-offs, once per match).
            async with self._tx() as db:
                written = await on_worker(db, write_move, plan)
                changes = await self._rate(db, written.pending, stamp)
        self._remember(game_id, new_version, game)
        return AppliedMove(
            game_id,
            new_version,
            result,
            game.copy(),
            match=written.match,
            rating_changes=changes,
            away=written.away,
            seat_timeouts=written.seat_timeouts,
            took_back=written.took_back,
            deadline=opt_dt(written.deadline),
            remind_at=opt_dt(written.remind_at),
        )

    async def _rate(
        self, db: aiosqlite.Connection, pending: Pending | None, stamp: int
    ) -> tuple[RatingChange, ...]:
        """Run the rating policy on a just-finished match and write its answer (in ``db``'s
        open transaction); the changes, board by board."""
        if pending is None or self._rating_policy is None:
            return ()
        result_row, current = pending
        updates = {
            board: self._rating_policy(result_row, ratings) for board, ratings in current.items()
        }
        await on_worker(db, put_all_ratings, result_row.category, updates, stamp)
        return tuple(
            RatingChange(board, rid, current[board].get(rid), value)
            for board, values in updates.items()
            for rid, value in sorted(values.items())
        )

    async def end_match(
        self,
        game_id: int,
        expected_version: int,
        *,
        losing_side: int,
        reason: str,
        at: datetime | None = None,
    ) -> MatchEnded:
        """End a match now because a side resigned or forfeited: it loses, the result,
        statistics and ratings are written, the table closes, all in one transaction."""
        stamp = to_ms(at or now())
        version, game = await self._load(game_id)
        if version != expected_version:
            raise StaleVersionError(game_id, expected_version, version)
        if not 0 <= losing_side < game.rules.sides:
            raise ValueError(f"no side {losing_side} in this game")
        deals = len(game.deal_scores)
        async with self._tx() as db:
            match, pending = await on_worker(
                db,
                partial(
                    end_match_rows,
                    game_id=game_id,
                    expected_version=expected_version,
                    rules=game.rules,
                    losing_side=losing_side,
                    reason=reason,
                    totals=game.totals,
                    deals=deals,
                    stamp=stamp,
                    rate=self._rating_policy is not None,
                ),
            )
            changes = await self._rate(db, pending, stamp)
        self._forget(game_id)
        return MatchEnded(game_id, expected_version + 1, match, changes)

    async def take_seat_back(
        self,
        game_id: int,
        expected_version: int,
        *,
        seat: int,
        new_version: int,
        deadline: datetime | None = None,
        remind_at: datetime | None = None,
    ) -> None:
        """A person has their seat back from the computer that held it: no timeouts in a row,
        not away. ``new_version`` above ``expected_version`` refuses a move already prepared at
        the old one (the computer's, when the seat is in turn); ``deadline`` and ``remind_at``
        are then the turn's. Raises :class:`StaleVersionError` when the game moved on."""
        await self._write_once(
            _take_seat_back,
            game_id,
            expected_version,
            seat,
            new_version,
            opt_ms(deadline),
            opt_ms(remind_at),
        )
        cached = self._cache.get(game_id)
        if cached is not None and cached[0] == expected_version:
            self._remember(game_id, new_version, cached[1])

    async def abandon_game(self, game_id: int, expected_version: int) -> int:
        """Mark a game abandoned (no result, no statistics) and cancel its table; returns the
        new version."""
        stamp = to_ms(now())
        async with self._tx() as db:
            cursor = await db.execute(
                "UPDATE games SET status = 'abandoned', version = version + 1, deadline_at = NULL,"
                " remind_at = NULL, updated_at = ? WHERE id = ? AND version = ?"
                " AND status = 'playing'",
                (stamp, game_id, expected_version),
            )
            if cursor.rowcount != 1:
                row = await _one(db, "SELECT version FROM games WHERE id = ?", (game_id,))
                raise StaleVersionError(game_id, expected_version, None if row is None else row[0])
            await db.execute(CLOSE_TABLE_SQL, ("cancelled", stamp, game_id))
        self._forget(game_id)
        return expected_version + 1


def _take_seat_back(
    conn: sqlite3.Connection,
    game_id: int,
    expected_version: int,
    seat: int,
    new_version: int,
    deadline: int | None,
    remind_at: int | None,
) -> None:
    times = (deadline, remind_at) if new_version != expected_version else (None, None)
    cursor = conn.execute(
        "UPDATE games SET version = ?, deadline_at = coalesce(?, deadline_at),"
        " remind_at = coalesce(?, remind_at) WHERE id = ? AND version = ? AND status = 'playing'",
        (new_version, *times, game_id, expected_version),
    )
    if cursor.rowcount != 1:
        row = conn.execute("SELECT version, status FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise NotFoundError(f"no game {game_id}")
        if row[1] != "playing":
            raise GameClosedError(game_id, str(row[1]))
        raise StaleVersionError(game_id, expected_version, int(row[0]))
    conn.execute(
        "UPDATE game_seats SET timeouts = 0, away = 0 WHERE game_id = ? AND seat = ?",
        (game_id, seat),
    )


async def _one(db: aiosqlite.Connection, sql: str, params: Sequence[Any]) -> Any:
    """The first row, or ``None``."""
    rows = list(await db.execute_fetchall(sql, params))
    return rows[0] if rows else None


def _infos(conn: sqlite3.Connection, where: str, params: tuple[Any, ...]) -> list[GameInfo]:
    return [_info(r, seat_states(conn, r[0])) for r in conn.execute(_SELECT_GAMES + where, params)]


def _record_of(header: Sequence[Any], decks: list[bytes], moves: list[str]) -> GameRecord:
    """The record from its rows: the header (rules, seed, first dealer, dealer draw, start, as
    :meth:`GamesMixin.create_game` wrote them), the deck orders and the moves."""
    rules, seed, first_dealer, draw, start = header
    return GameRecord.from_parts(
        rules=json.loads(rules),
        seed=seed,
        first_dealer=first_dealer,
        dealer_draw=json.loads(draw),
        start=None if start is None else json.loads(start),
        shuffles=decks,
        moves=moves,
    )


def _info(row: Sequence[Any], states: list[SeatState]) -> GameInfo:
    return GameInfo(
        id=row[0],
        table_id=row[1],
        guild_id=row[2],
        rules=Rules.from_dict(json.loads(row[3])),
        status=GameStatus(row[4]),
        version=row[5],
        move_count=row[6],
        seats=tuple(s.holder for s in states),
        deadline_at=opt_dt(row[7]),
        created_at=from_ms(row[8]),
        updated_at=from_ms(row[9]),
        finished_at=opt_dt(row[10]),
        remind_at=opt_dt(row[11]),
        timeouts=tuple(s.timeouts for s in states),
        away=frozenset(s.seat for s in states if s.away),
    )
