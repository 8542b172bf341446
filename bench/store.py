"""How fast the store persists moves, how big a finished match is, how fast leaderboards are.

Run: ``.venv/bin/python bench/store.py`` (about a minute; ``--moves-only`` skips the
leaderboards). Every move is its own transaction (WAL, ``synchronous=NORMAL``). With
``--postgres URL`` (a server the bench may make databases on) or ``--postgres start`` (a
throwaway server started by ``tests/postgres.py``, without durability: ``fsync=off``), the closed
loop also runs on PostgreSQL, each count of games right after SQLite's, a fresh database each.
Two loads:
(a) closed loop, each game sending its next move as soon as the last is stored, which gives the
maximum throughput (its latency is queueing: about games / throughput); (b) open loop, moves
arriving at a fixed total rate spread over 100 games (as people make them), latency measured
from a move's arrival to its commit. Then a line per target, met or not. Databases live in a
temporary folder that is removed afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from machine import machine_line  # bench/machine.py

from bot import freeze_startup_objects
from scopabot.engine import Game, Preset, Rules
from scopabot.service.live import LiveGames
from scopabot.store import Actor, ImportedMatch, RatingValue, SeatHolder, StatsOrder, Store

SCOPONE = Rules(preset=Preset.SCOPONE_SCIENTIFICO)
SEATS = [SeatHolder.human(1), SeatHolder.human(2), SeatHolder.human(3), SeatHolder.human(4)]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def new_match(store: Store, rng: random.Random) -> tuple[int, int, Game]:
    stored = await store.games.create(Game.new(SCOPONE, seed=rng.randrange(1 << 30)), seats=SEATS)
    return stored.id, stored.version, stored.game


async def closed_player(
    store: Store, rng: random.Random, deadline: float, latencies: list[float]
) -> int:
    """Send the next move as soon as the last is stored, match after match, until ``deadline``."""
    moves = 0
    game_id, version, game = await new_match(store, rng)
    while time.perf_counter() < deadline:
        if game.is_over:
            game_id, version, game = await new_match(store, rng)
        move = rng.choice(game.legal_moves())
        start = time.perf_counter()
        applied = await LiveGames.of(store).apply_move(game_id, version, move, by=Actor.user(1))
        latencies.append(time.perf_counter() - start)
        game, version = applied.game, applied.version
        moves += 1
    return moves


async def closed_loop(
    folder: Path, games: int, seconds: float, sync: str, *, postgres: str | None = None
) -> Figures:
    """Maximum throughput: every game re-submits at once, so latency here is mostly queueing
    (with one writer, latency is about games / throughput). ``postgres``: a server's URL, on
    which a database of its own is made for this run (dropped after it)."""
    if postgres is not None:
        async with postgres_database(postgres) as url:
            store = await Store.open(url)
            return await _closed_on(store, games, seconds)
    store = await Store.open(folder / f"closed-{games}-{sync}.db", synchronous=sync)
    return await _closed_on(store, games, seconds)


async def _closed_on(store: Store, games: int, seconds: float) -> Figures:
    latencies: list[float] = []
    start = time.perf_counter()
    counts = await asyncio.gather(
        *(closed_player(store, random.Random(n), start + seconds, latencies) for n in range(games))
    )
    elapsed = time.perf_counter() - start
    await store.close()
    return Figures(sum(counts) / elapsed, latencies)


async def open_player(
    store: Store,
    rng: random.Random,
    first: tuple[int, int, Game],
    t0: float,
    seconds: float,
    rate: float,
    poisson: bool,
    latencies: list[float],
) -> int:
    """One game's moves arrive at ``rate`` per second whether or not the last is stored yet
    (people do not wait for the database); each is stored after the game's previous move, and
    its latency runs from its arrival to its commit."""
    moves = 0
    game_id, version, game = first
    arrival = t0 + (rng.expovariate(rate) if poisson else rng.uniform(0, 1 / rate))
    while arrival < t0 + seconds:
        if game.is_over:
            game_id, version, game = await new_match(store, rng)
        move = rng.choice(game.legal_moves())
        wait = arrival - time.perf_counter()
        if wait > 0:
            await asyncio.sleep(wait)
        applied = await LiveGames.of(store).apply_move(game_id, version, move, by=Actor.user(1))
        latencies.append(time.perf_counter() - arrival)
        game, version = applied.game, applied.version
        moves += 1
        arrival += rng.expovariate(rate) if poisson else 1 / rate
    return moves


async def open_loop(
    folder: Path, games: int, seconds: float, offered: float, *, poisson: bool
) -> Figures:
    """Moves arriving at a fixed total rate, spread over ``games`` games: what people make."""
    store = await Store.open(folder / f"open-{games}-{offered}-{poisson}.db")
    rngs = [random.Random(1000 + n) for n in range(games)]
    firsts = [await new_match(store, rng) for rng in rngs]
    latencies: list[float] = []
    t0 = time.perf_counter() + 0.05
    counts = await asyncio.gather(
        *(
            open_player(store, rng, first, t0, seconds, offered / games, poisson, latencies)
            for rng, first in zip(rngs, firsts, strict=True)
        )
    )
    elapsed = time.perf_counter() - t0
    await store.close()
    return Figures(sum(counts) / elapsed, latencies)


@asynccontextmanager
async def postgres_database(server: str) -> AsyncIterator[str]:
    """A new database on the PostgreSQL server ``server``, for one run; dropped after it."""
    import asyncpg

    name = f"scopabot_bench_{os.getpid()}_{next(_NUMBERS)}"
    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    try:
        yield urlunsplit(urlsplit(server)._replace(path="/" + name))
    finally:
        admin = await asyncpg.connect(server)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


_NUMBERS = itertools.count(1)


@dataclass
class Figures:
    rate: float  # moves persisted per second
    latencies: list[float]  # seconds

    @property
    def p50(self) -> float:
        return statistics.median(self.latencies) * 1e3

    @property
    def p99(self) -> float:
        return pct(self.latencies, 0.99) * 1e3

    def line(self, label: str) -> str:
        return (
            f"  {label:34} {self.rate:7.0f} moves/s   median {self.p50:6.2f} ms"
            f"   p99 {self.p99:6.2f} ms"
        )


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT MET"


async def bytes_per_match(folder: Path, matches: int) -> float:
    empty = folder / "empty.db"
    full = folder / "matches.db"
    for path, count in ((empty, 0), (full, matches)):
        store = await Store.open(path)
        rng = random.Random(7)
        for _ in range(count):
            stored = await store.games.create(
                Game.new(SCOPONE, seed=rng.randrange(1 << 30)), seats=SEATS
            )
            game, version = stored.game, stored.version
            while not game.is_over:
                applied = await LiveGames.of(store).apply_move(
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
            seats=tuple(SeatHolder.human(u) for u in rng.sample(range(1, 20_001), 4)),
            sides=(0, 1, 0, 1),
            winner_side=k % 2,
            totals=(11, 8),
            deals=4,
            finished_at=t0 + timedelta(seconds=k),
        )
        for k in range(matches)
    ]
    start = time.perf_counter()
    await store.boards.import_matches(batch)
    imported = time.perf_counter() - start
    ratings = {u: RatingValue(25.0, 8.0, rng.uniform(0, 50)) for u in range(1, 20_001)}
    await store.boards.put_ratings("scopone_scientifico", ratings)
    await store.analyze()

    async def timed(coro_factory, repeat: int = 200) -> float:
        start = time.perf_counter()
        for _ in range(repeat):
            await coro_factory()
        return (time.perf_counter() - start) / repeat * 1e3

    first = await timed(lambda: store.boards.ratings("scopone_scientifico", limit=10))
    page = await store.boards.ratings("scopone_scientifico", limit=10)
    for _ in range(999):  # page 1,000
        assert page.after is not None
        page = await store.boards.ratings("scopone_scientifico", limit=10, after=page.after)
    after = page.after
    deep = await timed(lambda: store.boards.ratings("scopone_scientifico", limit=10, after=after))
    stats = await timed(
        lambda: store.boards.stats("scopone_scientifico", order=StatsOrder.WINS, guild_id=7)
    )
    rank = await timed(lambda: store.boards.rank(12_345, "scopone_scientifico"))
    history = await timed(lambda: store.boards.player_matches(12_345, limit=10))
    await store.close()
    print(f"leaderboards with {matches:,} finished matches, 20,000 players, 50 servers:")
    print(f"  import of the matches (one transaction)   {imported:8.2f} s")
    print(f"  rating board, page 1                      {first:8.3f} ms")
    print(f"  rating board, page 1,000 (keyset)         {deep:8.3f} ms")
    print(f"  server stats board by wins, page 1        {stats:8.3f} ms")
    print(f"  one player's rank                         {rank:8.3f} ms")
    print(f"  one player's last 10 matches              {history:8.3f} ms")


@contextlib.contextmanager
def postgres_server(given: str | None) -> Iterator[str | None]:
    """The PostgreSQL server to bench on: none, the URL given, or a throwaway one."""
    if given != "start":
        yield given
        return
    from tests.postgres import server

    with server() as url:
        yield url


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=4.0, help="per throughput run")
    parser.add_argument("--matches", type=int, default=100_000, help="for the leaderboards")
    parser.add_argument("--rate", type=float, default=2000.0, help="open loop: moves/s offered")
    parser.add_argument("--full", action="store_true", help="also synchronous=FULL")
    parser.add_argument("--moves-only", action="store_true", help="skip the leaderboards")
    parser.add_argument(
        "--postgres",
        metavar="URL",
        help="also run the closed loop on this PostgreSQL server ('start': a throwaway one)",
    )
    parser.add_argument(
        "--games", default="1,10,100", help="closed loop: the numbers of games, comma-separated"
    )
    args = parser.parse_args()
    freeze_startup_objects()  # as bot.py does at start-up: the figures are the bot's
    with tempfile.TemporaryDirectory() as tmp, postgres_server(args.postgres) as postgres:
        folder = Path(tmp)
        print(machine_line("start"))
        print("(other busy programs widen the latency tail: compare the load with the cores)")
        print("moves played by the service's live games, written by GameStore.write_move, one")
        print("transaction each, WAL")
        print("(a) closed loop: each game sends its next move as soon as the last is stored")
        closed: dict[tuple[str, int], Figures] = {}
        counts = [int(n) for n in args.games.split(",")]
        for sync in ("NORMAL", "FULL") if args.full else ("NORMAL",):
            for games in counts:
                closed[sync, games] = figures = await closed_loop(folder, games, args.seconds, sync)
                print(figures.line(f"synchronous={sync} {games:3} games"))
                if postgres is not None and sync == "NORMAL":
                    pg = await closed_loop(folder, games, args.seconds, sync, postgres=postgres)
                    print(
                        pg.line(f"PostgreSQL {games:3} games")
                        + f"   {figures.rate / pg.rate:.2f}x slower than SQLite"
                    )
        print(
            f"(b) open loop: 100 games, moves arriving at {args.rate:,.0f}/s in all,"
            " latency from arrival to commit"
        )
        poisson = await open_loop(folder, 100, args.seconds, args.rate, poisson=True)
        print(poisson.line("Poisson arrivals"))
        even = await open_loop(folder, 100, args.seconds, args.rate, poisson=False)
        print(even.line("evenly spaced arrivals"))
        size = await bytes_per_match(folder, 100)
        print(f"database bytes per finished scopone scientifico match: {size:,.0f}")
        print("targets:")
        best = closed["NORMAL", max(counts)]
        print(
            f"  >= 2,000 moves/s at 100 games, closed loop: {best.rate:,.0f}/s"
            f" -> {verdict(best.rate >= 2000)}"
        )
        kept_up = poisson.rate >= 0.97 * args.rate
        print(
            f"  {args.rate:,.0f} moves/s offered at 100 games: {poisson.rate:,.0f}/s stored"
            f" -> {verdict(kept_up and args.rate >= 2000)}"
        )
        print(
            f"  p99 < 10 ms at 100 games, {args.rate:,.0f}/s Poisson: {poisson.p99:.2f} ms"
            f" -> {verdict(poisson.p99 < 10 and args.rate >= 2000)}"
        )
        print(f"  < 20 KB per finished match: {size:,.0f} B -> {verdict(size < 20_000)}")
        if not args.moves_only:
            await leaderboards(folder, args.matches)
    print(machine_line("end"))


if __name__ == "__main__":
    asyncio.run(main())
