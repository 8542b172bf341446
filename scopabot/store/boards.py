"""Ratings, statistics and match results, paged for leaderboards: ``store.boards``.

Leaderboards use keyset paging on an index whose order is the leaderboard's order
(``score DESC, user_id``), so page 1,000 costs what page 1 costs however many matches were
played; the queries are module constants so a test can ask SQLite for their plan.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from functools import partial
from typing import Any

from .conflicts import conflicts_retried
from .database import AnyDatabase, on_worker
from .models import (
    GLOBAL,
    ImportedMatch,
    MatchPlayer,
    MatchResult,
    Page,
    PlayerStats,
    Rating,
    RatingValue,
    SeatHolder,
    StatsOrder,
    from_ms,
    now,
    to_ms,
)
from .results import put_ratings, rating_of, ratings_of

_RATING_COLUMNS = "guild_id, category, user_id, mu, sigma, score, games, updated_at"
RATINGS_FIRST_PAGE_SQL = (
    "SELECT " + _RATING_COLUMNS + " FROM ratings WHERE guild_id = ? AND category = ?"
    " ORDER BY score DESC, user_id LIMIT ?"
)
RATINGS_NEXT_PAGE_SQL = (
    "SELECT " + _RATING_COLUMNS + " FROM ratings WHERE guild_id = ? AND category = ?"
    " AND score <= ? AND (score < ? OR user_id > ?) ORDER BY score DESC, user_id LIMIT ?"
)
RATING_RANK_SQL = (
    "SELECT count(*) FROM ratings WHERE guild_id = ? AND category = ?"
    " AND (score > ? OR (score = ? AND user_id < ?))"
)
_STATS_COLUMNS = (
    "guild_id, category, user_id, games, wins, deals, scope, settebelli, primiere, points,"
    " updated_at"
)
STATS_FIRST_PAGE_SQL = {
    order: "SELECT " + _STATS_COLUMNS + " FROM player_stats WHERE guild_id = ? AND category = ?"
    " ORDER BY " + order.value + " DESC, user_id LIMIT ?"
    for order in StatsOrder
}
STATS_NEXT_PAGE_SQL = {
    order: "SELECT " + _STATS_COLUMNS + " FROM player_stats WHERE guild_id = ? AND category = ?"
    " AND " + order.value + " <= ? AND (" + order.value + " < ? OR user_id > ?)"
    " ORDER BY " + order.value + " DESC, user_id LIMIT ?"
    for order in StatsOrder
}
PLAYER_MATCHES_SQL = (
    "SELECT p.match_id FROM match_players p WHERE p.user_id = ? AND p.match_id < ?"
    " ORDER BY p.match_id DESC LIMIT ?"
)


class BoardStore:
    """Ratings, statistics and results: ``store.boards`` (see the module's docstring)."""

    def __init__(self, database: AnyDatabase) -> None:
        self._db = database

    async def ratings(
        self,
        category: str,
        *,
        guild_id: int = GLOBAL,
        limit: int = 10,
        after: tuple[float, int] | None = None,
    ) -> Page[Rating]:
        """Best ratings first; ``after`` is the previous page's ``after``."""
        async with self._db.read() as db:
            if after is None:
                rows = await db.execute_fetchall(
                    RATINGS_FIRST_PAGE_SQL, (guild_id, category, limit)
                )
            else:
                score, user = after
                rows = await db.execute_fetchall(
                    RATINGS_NEXT_PAGE_SQL, (guild_id, category, score, score, user, limit)
                )
        out = tuple(rating_of(r) for r in rows)
        return Page(out, (out[-1].score, out[-1].user_id) if len(out) == limit else None)

    async def rating(self, user_id: int, category: str, *, guild_id: int = GLOBAL) -> Rating | None:
        async with self._db.read() as db:
            rows = list(
                await db.execute_fetchall(
                    "SELECT " + _RATING_COLUMNS + " FROM ratings WHERE guild_id = ?"
                    " AND category = ? AND user_id = ?",
                    (guild_id, category, user_id),
                )
            )
        return rating_of(rows[0]) if rows else None

    async def rank(self, user_id: int, category: str, *, guild_id: int = GLOBAL) -> int | None:
        """1 for the best; ``None`` for a player without a rating."""
        mine = await self.rating(user_id, category, guild_id=guild_id)
        if mine is None:
            return None
        async with self._db.read() as db:
            rows = list(
                await db.execute_fetchall(
                    RATING_RANK_SQL, (guild_id, category, mine.score, mine.score, user_id)
                )
            )
        return int(rows[0][0]) + 1

    async def ratings_of(
        self, category: str, boards: Sequence[int], rating_ids: Sequence[int]
    ) -> dict[int, dict[int, Rating | None]]:
        """The ratings a finished match moves, board by board, as they are now (read before
        the move's write, which is refused if one of them moved since)."""
        return await self._db.read_once(ratings_of, category, tuple(boards), tuple(rating_ids))

    @conflicts_retried
    async def put_ratings(
        self,
        category: str,
        values: dict[int, RatingValue],
        *,
        guild_id: int = GLOBAL,
        count_game: bool = False,
    ) -> None:
        """Set rating numbers directly (a reset, an import, or a policy run outside a move)."""
        async with self._db.write() as db:
            write = partial(put_ratings, played=count_game)
            await on_worker(db, write, guild_id, category, values, to_ms(now()))

    async def stats(
        self,
        category: str,
        *,
        order: StatsOrder = StatsOrder.WINS,
        guild_id: int = GLOBAL,
        limit: int = 10,
        after: tuple[float, int] | None = None,
    ) -> Page[PlayerStats]:
        async with self._db.read() as db:
            if after is None:
                rows = await db.execute_fetchall(
                    STATS_FIRST_PAGE_SQL[order], (guild_id, category, limit)
                )
            else:
                key, user = after
                rows = await db.execute_fetchall(
                    STATS_NEXT_PAGE_SQL[order], (guild_id, category, key, key, user, limit)
                )
        out = tuple(_stats(r) for r in rows)
        last = out[-1] if len(out) == limit else None
        return Page(out, None if last is None else (getattr(last, order.value), last.user_id))

    async def player_stats(
        self, user_id: int, category: str, *, guild_id: int = GLOBAL
    ) -> PlayerStats | None:
        async with self._db.read() as db:
            rows = list(
                await db.execute_fetchall(
                    "SELECT " + _STATS_COLUMNS + " FROM player_stats WHERE guild_id = ?"
                    " AND category = ? AND user_id = ?",
                    (guild_id, category, user_id),
                )
            )
        return _stats(rows[0]) if rows else None

    async def match_result(self, *, game_id: int) -> MatchResult | None:
        async with self._db.read() as db:
            rows = list(
                await db.execute_fetchall(
                    "SELECT id FROM match_results WHERE game_id = ?", (game_id,)
                )
            )
            if not rows:
                return None
            return (await self._results(db, [rows[0][0]]))[0]

    async def player_matches(
        self, user_id: int, *, limit: int = 10, before: int | None = None
    ) -> list[MatchResult]:
        """A player's latest matches, newest first; page with ``before`` = the last id seen."""
        async with self._db.read() as db:
            rows = await db.execute_fetchall(
                PLAYER_MATCHES_SQL, (user_id, before if before is not None else 2**62, limit)
            )
            return await self._results(db, [r[0] for r in rows])

    async def _results(self, db: Any, ids: Sequence[int]) -> list[MatchResult]:
        out = []
        for match_id in ids:
            r = next(
                iter(
                    await db.execute_fetchall(
                        "SELECT id, game_id, guild_id, category, winner_side, reason, totals,"
                        " deals, finished_at, losing_side FROM match_results WHERE id = ?",
                        (match_id,),
                    )
                )
            )
            players = await db.execute_fetchall(
                "SELECT seat, side, user_id, ai_level, won FROM match_players WHERE match_id = ?"
                " ORDER BY seat",
                (match_id,),
            )
            out.append(
                MatchResult(
                    r[0],
                    r[1],
                    r[2],
                    r[3],
                    r[4],
                    r[5],
                    tuple(json.loads(r[6])),
                    r[7],
                    from_ms(r[8]),
                    tuple(
                        MatchPlayer(p[0], p[1], SeatHolder(p[2], p[3]), bool(p[4])) for p in players
                    ),
                    r[9],
                )
            )
        return out

    async def import_matches(self, matches: Iterable[ImportedMatch]) -> int:
        """Add finished matches from elsewhere, with their players and win/game counts.

        One transaction, ``executemany`` throughout: 100,000 matches take seconds.
        """
        # Read once, here: a transaction refused is run again whole, and a generator
        # would be found used up by the second try (nothing imported, no error).
        return await self._import_matches(list(matches))

    @conflicts_retried
    async def _import_matches(self, matches: list[ImportedMatch]) -> int:
        if not matches:
            return 0
        async with self._db.write() as db:
            rows = list(await db.execute_fetchall("SELECT coalesce(max(id), 0) FROM match_results"))
            first = int(rows[0][0]) + 1
            results = []
            players = []
            counts: dict[tuple[int, str, int], list[int]] = defaultdict(lambda: [0, 0, 0])
            for n, m in enumerate(matches):
                match_id = first + n
                stamp = to_ms(m.finished_at)
                results.append(
                    (
                        match_id,
                        m.guild_id,
                        m.category,
                        m.winner_side,
                        m.reason,
                        json.dumps(list(m.totals)),
                        m.deals,
                        stamp,
                    )
                )
                for seat, (holder, side) in enumerate(zip(m.seats, m.sides, strict=True)):
                    won = int(side == m.winner_side)
                    players.append((match_id, seat, side, holder.user_id, holder.ai_level, won))
                    if holder.user_id is None:
                        continue
                    for board in (GLOBAL,) if m.guild_id is None else (m.guild_id, GLOBAL):
                        c = counts[(board, m.category, holder.user_id)]
                        c[0] += 1
                        c[1] += won
                        c[2] = max(c[2], stamp)
            await db.executemany(
                "INSERT INTO match_results (id, guild_id, category, winner_side, reason, totals,"
                " deals, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                results,
            )
            await db.executemany(
                "INSERT INTO match_players (match_id, seat, side, user_id, ai_level, won)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                players,
            )
            await db.executemany(
                "INSERT INTO player_stats (guild_id, category, user_id, games, wins, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, category, user_id) DO UPDATE"
                " SET games = player_stats.games + excluded.games,"
                " wins = player_stats.wins + excluded.wins, updated_at = CASE"
                " WHEN player_stats.updated_at > excluded.updated_at THEN player_stats.updated_at"
                " ELSE excluded.updated_at END",
                [(k[0], k[1], k[2], c[0], c[1], c[2]) for k, c in counts.items()],
            )
        return len(matches)


def _stats(r: Sequence[Any]) -> PlayerStats:
    return PlayerStats(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], from_ms(r[10]))
