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
from typing import Any

import aiosqlite

from scopabot.engine import Game, GameRecord, Move, Rules

from .base import StoreBase, on_worker
from .errors import NotFoundError, StaleVersionError
from .models import (
    Actor,
    ActorKind,
    AppliedMove,
    Deadline,
    GameInfo,
    GameStatus,
    MoveEntry,
    SeatHolder,
    StoredGame,
    from_ms,
    now,
    opt_dt,
    opt_ms,
    to_ms,
)
from .move_sql import (
    MovePlan,
    deck_blob,
    dumps,
    load_rows,
    put_all_ratings,
    save_shuffles,
    version_of,
    write_move,
)

_SELECT_GAMES = (
    "SELECT id, table_id, guild_id, rules, status, version, move_count, deadline_at, created_at,"
    " updated_at, finished_at FROM games"
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
        if game.move_count:
            raise ValueError("store a game before its first move")
        if len(seats) != game.rules.players:
            raise ValueError(f"{game.rules.players} seats are needed, got {len(seats)}")
        record = game.record().to_dict()
        stamp = to_ms(at or now())
        game_row = (
            table_id,
            guild_id,
            dumps(record["rules"]),
            record["seed"],
            record["first_dealer"],
            dumps(record["dealer_draw"]),
            None if record["start"] is None else dumps(record["start"]),
            dumps(game.to_snapshot(include_record=False)),
            opt_ms(deadline),
            stamp,
            stamp,
        )
        seat_rows = [(n, s.user_id, s.ai_level) for n, s in enumerate(seats)]
        decks = [deck_blob(o) for o in game.shuffles_since(0)]

        def write(conn: sqlite3.Connection) -> int:
            cursor = conn.execute(
                "INSERT INTO games (table_id, guild_id, rules, seed, first_dealer, dealer_draw,"
                " start, status, version, move_count, snapshot, deadline_at, created_at,"
                " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'playing', 1, 0, ?, ?, ?, ?)",
                game_row,
            )
            game_id = cursor.lastrowid
            assert game_id is not None
            conn.executemany(
                "INSERT INTO game_seats (game_id, seat, user_id, ai_level) VALUES (?, ?, ?, ?)",
                [(game_id, *row) for row in seat_rows],
            )
            save_shuffles(conn, game_id, 0, decks)
            return game_id

        game_id = await self._write_once(write)
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
        async with self._read() as db:
            row = await _one(db, _SELECT_GAMES + " WHERE id = ?", (game_id,))
            if row is None:
                raise NotFoundError(f"no game {game_id}")
            seats = await _seats(db, game_id)
        return _info(row, seats)

    async def playing_games(self, *, guild_id: int | None = None) -> list[GameInfo]:
        """Games still being played (in one server, or everywhere), oldest first."""
        async with self._read() as db:
            if guild_id is None:
                rows = await db.execute_fetchall(
                    _SELECT_GAMES + " WHERE status = 'playing' ORDER BY id"
                )
            else:
                rows = await db.execute_fetchall(
                    _SELECT_GAMES + " WHERE status = 'playing' AND guild_id = ? ORDER BY id",
                    (guild_id,),
                )
            return [_info(r, await _seats(db, r[0])) for r in rows]

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
        seat: int | None = None,
    ) -> AppliedMove:
        """Play ``move`` and persist it in one transaction; return the new version.

        Raises :class:`StaleVersionError` when the game is no longer at ``expected_version``
        (nothing is written), the engine's ``IllegalMoveError`` / ``InvalidMoveError`` when the
        move is not allowed. ``seat``, when given, must be the seat to play. ``deadline`` is
        the next turn's deadline (``None`` clears it). The deal score, match result,
        statistics and ratings of a move that ends a deal or the match are written in the
        same transaction.
        """
        if isinstance(move, str):
            move = Move.parse(move)
        stamp = to_ms(at or now())
        # The move is checked and played here, on the event loop; the snapshot is made and
        # everything written in one hand-off (see .move_sql). No await between taking the game out
        # of the cache and handing it over, so no other coroutine ever touches the same Game.
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
                None if outcome else opt_ms(deadline),
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
        )
        if outcome is None or self._rating_policy is None:
            await self._write_once(write_move, plan)
        else:
            # The move that ends a rated match: the policy runs here, not on the database
            # thread, inside the same transaction (a few hand-offs, once per match).
            async with self._tx() as db:
                pending = await on_worker(db, write_move, plan)
                if pending is not None:
                    result_row, current = pending
                    updates = {
                        board: self._rating_policy(result_row, ratings)
                        for board, ratings in current.items()
                    }
                    await on_worker(db, put_all_ratings, result_row.category, updates, stamp)
        self._remember(game_id, new_version, game)
        return AppliedMove(game_id, new_version, result, game.copy())

    async def abandon_game(self, game_id: int, expected_version: int) -> int:
        """Mark a game abandoned (no result, no statistics); returns the new version."""
        async with self._tx() as db:
            cursor = await db.execute(
                "UPDATE games SET status = 'abandoned', version = version + 1, deadline_at = NULL,"
                " updated_at = ? WHERE id = ? AND version = ? AND status = 'playing'",
                (to_ms(now()), game_id, expected_version),
            )
            if cursor.rowcount != 1:
                row = await _one(db, "SELECT version FROM games WHERE id = ?", (game_id,))
                raise StaleVersionError(game_id, expected_version, None if row is None else row[0])
        self._forget(game_id)
        return expected_version + 1

    # ------------------------------------------------------------------ deadlines

    async def set_deadline(self, game_id: int, expected_version: int, due: datetime | None) -> None:
        """Set or clear the current turn's deadline without bumping the version."""
        async with self._tx() as db:
            cursor = await db.execute(
                "UPDATE games SET deadline_at = ? WHERE id = ? AND version = ?",
                (opt_ms(due), game_id, expected_version),
            )
            if cursor.rowcount != 1:
                row = await _one(db, "SELECT version FROM games WHERE id = ?", (game_id,))
                raise StaleVersionError(game_id, expected_version, None if row is None else row[0])

    async def due_deadlines(self, until: datetime, *, limit: int = 100) -> list[Deadline]:
        """Turns whose time ran out by ``until``, earliest first (an index range scan)."""
        async with self._read() as db:
            rows = await db.execute_fetchall(DUE_DEADLINES_SQL, (to_ms(until), limit))
        return [Deadline(r[0], r[1], from_ms(r[2])) for r in rows]

    async def next_deadline(self) -> datetime | None:
        """When the next deadline falls, to know how long the timer may sleep."""
        async with self._read() as db:
            row = await _one(
                db, "SELECT min(deadline_at) FROM games WHERE deadline_at IS NOT NULL", ()
            )
        return None if row is None else opt_dt(row[0])


DUE_DEADLINES_SQL = (
    "SELECT id, version, deadline_at FROM games WHERE deadline_at IS NOT NULL"
    " AND deadline_at <= ? ORDER BY deadline_at LIMIT ?"
)


async def _one(db: aiosqlite.Connection, sql: str, params: Sequence[Any]) -> Any:
    """The first row, or ``None``."""
    rows = list(await db.execute_fetchall(sql, params))
    return rows[0] if rows else None


async def _seat_rows(db: aiosqlite.Connection, game_id: int) -> list[tuple[int, SeatHolder]]:
    rows = await db.execute_fetchall(
        "SELECT seat, user_id, ai_level FROM game_seats WHERE game_id = ? ORDER BY seat",
        (game_id,),
    )
    return [(r[0], SeatHolder(r[1], r[2])) for r in rows]


async def _seats(db: aiosqlite.Connection, game_id: int) -> tuple[SeatHolder, ...]:
    return tuple(s for _, s in await _seat_rows(db, game_id))


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


def _info(row: Sequence[Any], seats: tuple[SeatHolder, ...]) -> GameInfo:
    return GameInfo(
        id=row[0],
        table_id=row[1],
        guild_id=row[2],
        rules=Rules.from_dict(json.loads(row[3])),
        status=GameStatus(row[4]),
        version=row[5],
        move_count=row[6],
        seats=seats,
        deadline_at=opt_dt(row[7]),
        created_at=from_ms(row[8]),
        updated_at=from_ms(row[9]),
        finished_at=opt_dt(row[10]),
    )
