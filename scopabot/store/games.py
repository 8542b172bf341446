"""Games: created with their record, changed one move per transaction, loaded fast.

A game is kept twice over, on purpose. The record — rules, seed, every deck order (table
``shuffles``), every move with who made it and when (table ``moves``) — is what happened and
replays exactly. The snapshot (``games.snapshot``, the engine state without the record) is what
makes loading cheap. One transaction writes both, with the version bump that makes a second
click on the same button a :class:`StaleVersionError` instead of a second move.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

import aiosqlite

from scopabot.engine import Card, DealScore, Game, GameRecord, Move, Outcome, Rules

from .base import StoreBase
from .errors import NotFoundError, StaleVersionError, StoreError
from .models import (
    GLOBAL,
    Actor,
    ActorKind,
    AppliedMove,
    Deadline,
    GameInfo,
    GameStatus,
    MatchPlayer,
    MatchResult,
    MoveEntry,
    Rating,
    RatingValue,
    Seat,
    StoredGame,
    from_ms,
    now,
    opt_dt,
    opt_ms,
    to_ms,
)

_SELECT_GAMES = (
    "SELECT id, lobby_id, guild_id, rules, status, version, move_count, deadline_at, created_at,"
    " updated_at, finished_at FROM games"
)


def _dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))


def _deck_blob(order: Iterable[Card]) -> bytes:
    return bytes(c.index for c in order)


def _deck_text(blob: bytes) -> str:
    return " ".join(str(Card.from_index(i)) for i in blob)


class GamesMixin(StoreBase):
    # ------------------------------------------------------------------ creating

    async def create_game(
        self,
        game: Game,
        *,
        seats: Sequence[Seat],
        guild_id: int | None = None,
        lobby_id: int | None = None,
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
        async with self._tx() as db:
            cursor = await db.execute(
                "INSERT INTO games (lobby_id, guild_id, rules, seed, first_dealer, dealer_draw,"
                " start, status, version, move_count, snapshot, deadline_at, created_at,"
                " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'playing', 1, 0, ?, ?, ?, ?)",
                (
                    lobby_id,
                    guild_id,
                    _dumps(record["rules"]),
                    record["seed"],
                    record["first_dealer"],
                    _dumps(record["dealer_draw"]),
                    None if record["start"] is None else _dumps(record["start"]),
                    _dumps(game.to_snapshot(include_record=False)),
                    opt_ms(deadline),
                    stamp,
                    stamp,
                ),
            )
            game_id = cursor.lastrowid
            assert game_id is not None
            await db.executemany(
                "INSERT INTO game_seats (game_id, seat, user_id, ai_level) VALUES (?, ?, ?, ?)",
                [(game_id, n, s.user_id, s.ai_level) for n, s in enumerate(seats)],
            )
            await self._save_shuffles(db, game_id, game)
        self._remember(game_id, 1, game.copy())
        return StoredGame(game_id, 1, game)

    # ------------------------------------------------------------------ loading

    async def load_game(self, game_id: int) -> StoredGame:
        """The game as it is now, from its snapshot (or the live copy kept in memory)."""
        async with self._lock:
            cached = self._cache.get(game_id)
        if cached is not None:
            # Another process may have written since; the version tells.
            async with self._read() as db:
                row = await _one(db, "SELECT version FROM games WHERE id = ?", (game_id,))
            if row is not None and row[0] == cached[0]:
                return StoredGame(game_id, cached[0], cached[1].copy())
        async with self._read() as db:
            version, game = await self._load(db, game_id)
        async with self._lock:
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

    async def game_record(self, game_id: int) -> GameRecord:
        async with self._read() as db:
            return await self._record(db, game_id)

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

    async def _load(self, db: aiosqlite.Connection, game_id: int) -> tuple[int, Game]:
        row = await _one(
            db, "SELECT version, snapshot, dealer_draw, start FROM games WHERE id = ?", (game_id,)
        )
        if row is None:
            raise NotFoundError(f"no game {game_id}")
        data = json.loads(row[1])
        data["dealer_draw"] = [
            [[seat, Card.parse(card).index] for seat, card in rnd] for rnd in json.loads(row[2])
        ]
        data["start"] = None if row[3] is None else json.loads(row[3])
        data["shuffles"] = [
            _deck_text(r[0])
            for r in await db.execute_fetchall(
                "SELECT deck FROM shuffles WHERE game_id = ? ORDER BY number", (game_id,)
            )
        ]
        data["moves"] = [
            r[0]
            for r in await db.execute_fetchall(
                "SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
            )
        ]
        return int(row[0]), Game.from_snapshot(data)

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
        return GameRecord.from_dict(
            {
                "format": 1,
                "rules": json.loads(row[0]),
                "seed": row[1],
                "first_dealer": row[2],
                "dealer_draw": json.loads(row[3]),
                "start": None if row[4] is None else json.loads(row[4]),
                "shuffles": [_deck_text(r[0]) for r in shuffles],
                "moves": [r[0] for r in moves],
            }
        )

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
        async with self._tx() as db:
            cached = self._cache.pop(game_id, None)
            if cached is not None and cached[0] == expected_version:
                game = cached[1]
            else:
                version, game = await self._load(db, game_id)
                if version != expected_version:
                    self._remember(game_id, version, game)
                    raise StaleVersionError(game_id, expected_version, version)
            player = game.turn
            try:
                result = game.play(move, seat=seat)
            except ValueError:
                # The engine checks before it changes anything: the game is still good.
                self._remember(game_id, expected_version, game)
                raise
            # From here the game is changed: on any failure it is not cached again (reloaded).
            new_version = expected_version + 1
            outcome = game.outcome()
            cursor = await db.execute(
                "UPDATE games SET snapshot = ?, version = ?, move_count = ?, status = ?,"
                " deadline_at = ?, updated_at = ?, finished_at = ? WHERE id = ? AND version = ?",
                (
                    _dumps(game.to_snapshot(include_record=False)),
                    new_version,
                    game.move_count,
                    GameStatus.FINISHED if outcome else GameStatus.PLAYING,
                    None if outcome else opt_ms(deadline),
                    stamp,
                    stamp if outcome else None,
                    game_id,
                    expected_version,
                ),
            )
            if cursor.rowcount != 1:
                actual = await _one(db, "SELECT version FROM games WHERE id = ?", (game_id,))
                if actual is None:
                    raise NotFoundError(f"no game {game_id}")
                raise StaleVersionError(game_id, expected_version, int(actual[0]))
            await db.execute(
                "INSERT INTO moves (game_id, ply, seat, move, actor, actor_id, at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, game.move_count - 1, player, str(move), by.kind, by.user_id, stamp),
            )
            if result.deal_score is not None:
                await self._save_shuffles(db, game_id, game)
                seats = await _seat_rows(db, game_id)
                guild = await _guild_of(db, game_id)
                await self._save_deal(
                    db, game_id, game.rules, result.deal_score, seats, guild, stamp
                )
                if outcome is not None:
                    await self._save_result(db, game_id, game.rules, outcome, seats, guild, stamp)
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

    # ------------------------------------------------------------------ inside a move

    async def _save_shuffles(self, db: aiosqlite.Connection, game_id: int, game: Game) -> None:
        await db.executemany(
            "INSERT OR IGNORE INTO shuffles (game_id, number, deck) VALUES (?, ?, ?)",
            [(game_id, n, _deck_blob(o)) for n, o in enumerate(game.record().shuffles)],
        )

    async def _save_deal(
        self,
        db: aiosqlite.Connection,
        game_id: int,
        rules: Rules,
        score: DealScore,
        seats: list[tuple[int, Seat]],
        guild: int | None,
        stamp: int,
    ) -> None:
        await db.executemany(
            "INSERT INTO deal_scores (game_id, deal, side, carte, denari, settebello, primiera,"
            " scope, re_bello, napola, total, cards, denari_count, primiera_total, sevens,"
            " napola_reale) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    game_id,
                    score.deal,
                    s.side,
                    s.carte,
                    s.denari,
                    s.settebello,
                    s.primiera,
                    s.scope,
                    s.re_bello,
                    s.napola,
                    s.total,
                    s.cards,
                    s.denari_count,
                    s.primiera_total,
                    s.sevens,
                    int(score.napola_reale == s.side),
                )
                for s in score.sides
            ],
        )
        rows = []
        for seat, holder in seats:
            if holder.user_id is None:
                continue
            s = score.sides[rules.side_of(seat)]
            for scope in _scopes(guild):
                rows.append(
                    (
                        scope,
                        rules.preset.value,
                        holder.user_id,
                        s.scope,
                        s.settebello,
                        s.primiera,
                        s.total,
                        stamp,
                    )
                )
        await db.executemany(
            "INSERT INTO player_stats (guild_id, category, user_id, deals, scope, settebelli,"
            " primiere, points, updated_at) VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?)"
            " ON CONFLICT (guild_id, category, user_id) DO UPDATE SET deals = deals + 1,"
            " scope = scope + excluded.scope, settebelli = settebelli + excluded.settebelli,"
            " primiere = primiere + excluded.primiere, points = points + excluded.points,"
            " updated_at = excluded.updated_at",
            rows,
        )

    async def _save_result(
        self,
        db: aiosqlite.Connection,
        game_id: int,
        rules: Rules,
        outcome: Outcome,
        seats: list[tuple[int, Seat]],
        guild: int | None,
        stamp: int,
    ) -> None:
        category = rules.preset.value
        cursor = await db.execute(
            "INSERT INTO match_results (game_id, guild_id, category, winner_side, reason, totals,"
            " deals, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game_id,
                guild,
                category,
                outcome.winner,
                outcome.reason.value,
                _dumps(list(outcome.totals)),
                outcome.deals,
                stamp,
            ),
        )
        match_id = cursor.lastrowid
        assert match_id is not None
        players = tuple(
            MatchPlayer(seat, rules.side_of(seat), holder, rules.side_of(seat) == outcome.winner)
            for seat, holder in seats
        )
        await db.executemany(
            "INSERT INTO match_players (match_id, seat, side, user_id, ai_level, won)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [
                (
                    match_id,
                    p.seat,
                    p.side,
                    p.seat_holder.user_id,
                    p.seat_holder.ai_level,
                    int(p.won),
                )
                for p in players
            ],
        )
        humans = [p for p in players if p.seat_holder.user_id is not None]
        await db.executemany(
            "INSERT INTO player_stats (guild_id, category, user_id, games, wins, updated_at)"
            " VALUES (?, ?, ?, 1, ?, ?) ON CONFLICT (guild_id, category, user_id) DO UPDATE"
            " SET games = games + 1, wins = wins + excluded.wins, updated_at = excluded.updated_at",
            [
                (scope, category, p.seat_holder.user_id, int(p.won), stamp)
                for p in humans
                for scope in _scopes(guild)
            ],
        )
        if self._rating_policy is None or not humans:
            return
        result = MatchResult(
            match_id,
            game_id,
            guild,
            category,
            outcome.winner,
            outcome.reason.value,
            outcome.totals,
            outcome.deals,
            from_ms(stamp),
            players,
        )
        user_ids = sorted({p.seat_holder.user_id for p in humans if p.seat_holder.user_id})
        for scope in _scopes(guild):
            current: dict[int, Rating | None] = dict.fromkeys(user_ids)
            for row in await db.execute_fetchall(
                "SELECT guild_id, category, user_id, mu, sigma, score, games, updated_at"
                " FROM ratings WHERE guild_id = ? AND category = ? AND user_id IN"
                " (SELECT value FROM json_each(?))",
                (scope, category, _dumps(user_ids)),
            ):
                current[row[2]] = _rating(row)
            updates = self._rating_policy(result, current)
            await _put_ratings(db, scope, category, updates, stamp, played=True)


DUE_DEADLINES_SQL = (
    "SELECT id, version, deadline_at FROM games WHERE deadline_at IS NOT NULL"
    " AND deadline_at <= ? ORDER BY deadline_at LIMIT ?"
)


def _scopes(guild: int | None) -> tuple[int, ...]:
    return (GLOBAL,) if guild is None else (guild, GLOBAL)


def _rating(row: Sequence[Any]) -> Rating:
    return Rating(row[0], row[1], row[2], row[3], row[4], row[5], row[6], from_ms(row[7]))


async def _put_ratings(
    db: aiosqlite.Connection,
    scope: int,
    category: str,
    values: dict[int, RatingValue],
    stamp: int,
    *,
    played: bool,
) -> None:
    await db.executemany(
        "INSERT INTO ratings (guild_id, category, user_id, mu, sigma, score, games, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, category, user_id) DO UPDATE"
        " SET mu = excluded.mu, sigma = excluded.sigma, score = excluded.score,"
        " games = games + excluded.games, updated_at = excluded.updated_at",
        [
            (scope, category, uid, v.mu, v.sigma, v.score, int(played), stamp)
            for uid, v in sorted(values.items())
        ],
    )


async def _one(db: aiosqlite.Connection, sql: str, params: Sequence[Any]) -> Any:
    """The first row, or ``None``."""
    rows = list(await db.execute_fetchall(sql, params))
    return rows[0] if rows else None


async def _seat_rows(db: aiosqlite.Connection, game_id: int) -> list[tuple[int, Seat]]:
    rows = await db.execute_fetchall(
        "SELECT seat, user_id, ai_level FROM game_seats WHERE game_id = ? ORDER BY seat",
        (game_id,),
    )
    return [(r[0], Seat(r[1], r[2])) for r in rows]


async def _seats(db: aiosqlite.Connection, game_id: int) -> tuple[Seat, ...]:
    return tuple(s for _, s in await _seat_rows(db, game_id))


async def _guild_of(db: aiosqlite.Connection, game_id: int) -> int | None:
    row = await _one(db, "SELECT guild_id FROM games WHERE id = ?", (game_id,))
    if row is None:
        raise StoreError(f"game {game_id} vanished inside its own transaction")
    return None if row[0] is None else int(row[0])


def _info(row: Sequence[Any], seats: tuple[Seat, ...]) -> GameInfo:
    return GameInfo(
        id=row[0],
        lobby_id=row[1],
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
