from __future__ import annotations

import random
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from scopabot.store import GLOBAL, ImportedMatch, RatingValue, SeatHolder, StatsOrder, Store
from scopabot.store.boards import (
    PLAYER_MATCHES_SQL,
    RATINGS_FIRST_PAGE_SQL,
    RATINGS_NEXT_PAGE_SQL,
    STATS_FIRST_PAGE_SQL,
    STATS_NEXT_PAGE_SQL,
)
from scopabot.store.deadlines import DUE_DEADLINES_SQL
from scopabot.store.errors import ConflictError

T0 = datetime(2025, 1, 1, tzinfo=UTC)


def imported(n: int, rng: random.Random, players: int = 2000) -> list[ImportedMatch]:
    out = []
    for k in range(n):
        users = rng.sample(range(1, players + 1), 4)
        out.append(
            ImportedMatch(
                guild_id=rng.choice([None, 1, 2, 3]),
                category=rng.choice(["scopa", "scopone_scientifico"]),
                seats=tuple(SeatHolder.human(u) for u in users),
                sides=(0, 1, 0, 1),
                winner_side=k % 2,
                totals=(11, 7) if k % 2 == 0 else (6, 11),
                deals=3,
                finished_at=T0 + timedelta(minutes=k),
            )
        )
    return out


def plan(path: Path, sql: str, params: tuple[object, ...]) -> str:
    with sqlite3.connect(path) as db:
        return " | ".join(r[3] for r in db.execute("EXPLAIN QUERY PLAN " + sql, params))


@pytest.mark.sqlite_only("SQLite's query plans")
async def test_leaderboard_queries_walk_an_index(store: Store, db_path: Path) -> None:
    await store.boards.import_matches(imported(5000, random.Random(1)))
    await store.analyze()
    checks = [
        (RATINGS_FIRST_PAGE_SQL, (1, "scopa", 10), "ratings_board"),
        (RATINGS_NEXT_PAGE_SQL, (1, "scopa", 20.0, 20.0, 5, 10), "ratings_board"),
        (PLAYER_MATCHES_SQL, (5, 1000, 10), "match_players_by_user"),
        (DUE_DEADLINES_SQL, (0, 10), "games_by_deadline"),
    ]
    for order in StatsOrder:
        index = "player_stats_by_" + order.value
        checks.append((STATS_FIRST_PAGE_SQL[order], (1, "scopa", 10), index))
        checks.append((STATS_NEXT_PAGE_SQL[order], (1, "scopa", 9, 9, 5, 10), index))
    for sql, params, index in checks:
        text = plan(db_path, sql, params)
        assert f"INDEX {index}" in text, text
        assert "TEMP B-TREE" not in text, text  # no sorting: the index is the order


async def test_keyset_pages_list_everyone_once_in_order(store: Store) -> None:
    rng = random.Random(2)
    values = {uid: RatingValue(25.0, 8.0, float(rng.randrange(40))) for uid in range(1, 238)}
    await store.boards.put_ratings("scopa", values, guild_id=9)
    seen = []
    page = await store.boards.ratings("scopa", guild_id=9, limit=25)
    while True:
        seen.extend(page.rows)
        if page.after is None:
            break
        page = await store.boards.ratings("scopa", guild_id=9, limit=25, after=page.after)
    expected = sorted(values, key=lambda u: (-values[u].score, u))
    assert [r.user_id for r in seen] == expected
    best = expected[0]
    assert await store.boards.rank(best, "scopa", guild_id=9) == 1
    assert await store.boards.rank(expected[100], "scopa", guild_id=9) == 101
    assert await store.boards.rank(999, "scopa", guild_id=9) is None


async def test_imported_matches_count_games_and_wins(store: Store) -> None:
    matches = imported(400, random.Random(3), players=30)
    await store.boards.import_matches(matches)
    wins: dict[int, int] = {}
    games: dict[int, int] = {}
    for m in matches:
        if m.category != "scopa":
            continue
        for seat, side in zip(m.seats, m.sides, strict=True):
            assert seat.user_id is not None
            games[seat.user_id] = games.get(seat.user_id, 0) + 1
            wins[seat.user_id] = wins.get(seat.user_id, 0) + int(side == m.winner_side)
    board = await store.boards.stats("scopa", order=StatsOrder.WINS, limit=100)
    assert {s.user_id: (s.games, s.wins) for s in board.rows} == {
        u: (games[u], wins[u]) for u in games
    }
    assert [s.wins for s in board.rows] == sorted((s.wins for s in board.rows), reverse=True)
    # Imported matches carry no deal figures: no deals counted, and no division by zero.
    assert {(s.deals, s.points_per_deal) for s in board.rows} == {(0, 0.0)}
    history = await store.boards.player_matches(board.rows[0].user_id, limit=5)
    assert len(history) == 5
    assert [h.id for h in history] == sorted((h.id for h in history), reverse=True)
    older = await store.boards.player_matches(board.rows[0].user_id, limit=5, before=history[-1].id)
    assert older and older[0].id < history[-1].id
    assert GLOBAL == 0


async def test_imported_matches_refused_once_are_all_imported_on_the_retry(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refused transaction is run again whole: matches given as a generator are read once,
    not found used up by the retry (which would import nothing and say so as a success)."""
    db = store.boards._db
    write = db.write
    refusals = [ConflictError("db", "another process changed the same rows at the same time")]

    def refused_once() -> Any:
        if refusals:
            raise refusals.pop()
        return write()

    monkeypatch.setattr(db, "write", refused_once)
    matches = imported(20, random.Random(4), players=10)
    assert await store.boards.import_matches(m for m in matches) == 20
    assert not refusals
    board = await store.boards.stats("scopa", order=StatsOrder.WINS, limit=100)
    scopa = [m for m in matches if m.category == "scopa"]
    assert sum(s.games for s in board.rows) == 4 * len(scopa)
