"""How fast the store persists moves, how big a finished match is, how fast leaderboards are.

Run: ``.venv/bin/python bench/store.py`` (a few tens of seconds). Every move is its own
transaction (WAL). Databases live in a temporary folder that is removed afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scopabot.engine import Game, Preset, Rules
from scopabot.store import Actor, ImportedMatch, RatingValue, Seat, StatsOrder, Store

SCOPONE = Rules(preset=Preset.SCOPONE_SCIENTIFICO)
SEATS = [Seat.human(1), Seat.human(2), Seat.human(3), Seat.human(4)]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def player(
    store: Store, rng: random.Random, deadline: float, latencies: list[float], rate: float | None
) -> int:
    """Play scopone matches one after another until ``deadline``; time every apply_move."""
    moves = 0
    next_at = time.perf_counter()
    while time.perf_counter() < deadline:
        stored = await store.create_game(
            Game.new(SCOPONE, seed=rng.randrange(1 << 30)), seats=SEATS
        )
        game, version = stored.game, stored.version
        while not game.is_over and time.perf_counter() < deadline:
            move = rng.choice(game.legal_moves())
            if rate is not None:  # open loop: moves arrive at a steady pace, not back to back
                next_at += rng.expovariate(rate)
                await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
            start = time.perf_counter()
            applied = await store.apply_move(stored.id, version, move, by=Actor.user(1))
            latencies.append(time.perf_counter() - start)
            game, version = applied.game, applied.version
            moves += 1
    return moves


async def throughput(folder: Path, games: int, seconds: float, sync: str, rate: float | None):
    store = await Store.open(folder / f"tp-{games}-{sync}-{rate}.db", synchronous=sync)
    latencies: list[float] = []
    start = time.perf_counter()
    deadline = start + seconds
    per_game_rate = None if rate is None else rate / games
    counts = await asyncio.gather(
        *(player(store, random.Random(n), deadline, latencies, per_game_rate) for n in range(games))
    )
    elapsed = time.perf_counter() - start
    await store.close()
    return sum(counts) / elapsed, statistics.median(latencies) * 1e3, pct(latencies, 0.99) * 1e3


async def bytes_per_match(folder: Path, matches: int) -> float:
    empty = folder / "empty.db"
    full = folder / "matches.db"
    for path, count in ((empty, 0), (full, matches)):
        store = await Store.open(path)
        rng = random.Random(7)
        for _ in range(count):
            stored = await store.create_game(
                Game.new(SCOPONE, seed=rng.randrange(1 << 30)), seats=SEATS
            )
            game, version = stored.game, stored.version
            while not game.is_over:
                applied = await store.apply_move(
                    stored.id, version, rng.choice(game.legal_moves()), by=Actor.user(1)
                )
                game, version = applied.game, applied.version
        await store.close()  # closing checkpoints the log into the file
    return (full.stat().st_size - empty.stat().st_size) / matches


async def leaderboards(folder: Path, matches: int) -> None:
    store = await Store.open(folder / "boards.db")
    rng = random.Random(3)
    t0 = datetime(2025, 1, 1, tzinfo=UTC)
    batch = [
        ImportedMatch(
            guild_id=rng.randrange(1, 51),
            category="scopone_scientifico",
            seats=tuple(Seat.human(u) for u in rng.sample(range(1, 20_001), 4)),
            sides=(0, 1, 0, 1),
            winner_side=k % 2,
            totals=(11, 8),
            deals=4,
            finished_at=t0 + timedelta(seconds=k),
        )
        for k in range(matches)
    ]
    start = time.perf_counter()
    await store.import_matches(batch)
    imported = time.perf_counter() - start
    ratings = {u: RatingValue(25.0, 8.0, rng.uniform(0, 50)) for u in range(1, 20_001)}
    await store.put_ratings("scopone_scientifico", ratings)
    await store.analyze()

    async def timed(coro_factory, repeat: int = 200) -> float:
        start = time.perf_counter()
        for _ in range(repeat):
            await coro_factory()
        return (time.perf_counter() - start) / repeat * 1e3

    first = await timed(lambda: store.rating_board("scopone_scientifico", limit=10))
    page = await store.rating_board("scopone_scientifico", limit=10)
    for _ in range(999):  # page 1,000
        assert page.after is not None
        page = await store.rating_board("scopone_scientifico", limit=10, after=page.after)
    after = page.after
    deep = await timed(lambda: store.rating_board("scopone_scientifico", limit=10, after=after))
    stats = await timed(
        lambda: store.stats_board("scopone_scientifico", order=StatsOrder.WINS, guild_id=7)
    )
    rank = await timed(lambda: store.rating_rank(12_345, "scopone_scientifico"))
    history = await timed(lambda: store.player_matches(12_345, limit=10))
    await store.close()
    print(f"leaderboards with {matches:,} finished matches, 20,000 players, 50 servers:")
    print(f"  import of the matches (one transaction)   {imported:8.2f} s")
    print(f"  rating board, page 1                      {first:8.3f} ms")
    print(f"  rating board, page 1,000 (keyset)         {deep:8.3f} ms")
    print(f"  server stats board by wins, page 1        {stats:8.3f} ms")
    print(f"  one player's rank                         {rank:8.3f} ms")
    print(f"  one player's last 10 matches              {history:8.3f} ms")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=4.0, help="per throughput run")
    parser.add_argument("--matches", type=int, default=100_000, help="for the leaderboards")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        print("moves persisted, one transaction each, WAL; latency of one apply_move call")
        print("closed loop: every game sends its next move as soon as the last is stored")
        for sync in ("NORMAL", "FULL"):
            for games in (1, 10, 100):
                rate, p50, p99 = await throughput(folder, games, args.seconds, sync, None)
                print(
                    f"  synchronous={sync:6} {games:3} games: {rate:7.0f} moves/s"
                    f"   median {p50:6.2f} ms   p99 {p99:6.2f} ms"
                )
        print("open loop: 100 games, moves arriving at random (Poisson) at a given total rate")
        for offered in (500, 1000, 1500):
            rate, p50, p99 = await throughput(folder, 100, args.seconds, "NORMAL", offered)
            print(
                f"  synchronous=NORMAL offered {offered:5}/s: {rate:7.0f} moves/s"
                f"   median {p50:6.2f} ms   p99 {p99:6.2f} ms"
            )
        size = await bytes_per_match(folder, 100)
        print(f"database bytes per finished scopone scientifico match: {size:,.0f}")
        await leaderboards(folder, args.matches)


if __name__ == "__main__":
    asyncio.run(main())
