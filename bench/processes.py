"""Two bot processes on one PostgreSQL database against one: are two together faster?

Run: ``nice .venv/bin/python bench/processes.py`` (about three minutes; ``--postgres URL``
to use a server of one's own instead of a throwaway one, ``--games``, ``--seconds``,
``--think``, ``--rounds`` to change the load). Each run starts real OS processes (this script
with ``--worker``), each with its own game service on one new database, and each hosting its
share of the games as its shards' servers would: it opens and starts their tables (a server of
its own for each, shown by it), and its simulated people play them through
``service.games.play`` (a random legal card, naming the version they saw, after a think of
0-2x ``--think`` seconds), a ``normal`` computer answering at once; one scheduler among them
(the lease). Three kinds of run, one after another in each round (the order turned round
every other round, so that a machine's drift does not favour one): one process on SQLite,
one process on PostgreSQL with all the games, and two processes on PostgreSQL with half each.
Printed for each run: moves per second, all processes' together (people's and computers',
counted as each process's store applies them, over the same wall-clock window), and the
median and 99th percentile of the time ``service.games.play`` took to accept a person's move
(over every process's moves); then two processes against one (moves/s, p99) and PostgreSQL
against SQLite at one process; the machine's load average at the start and the end.

Target (issue 18): two processes together faster than one; PostgreSQL within 2x of SQLite
per process. The moves a person makes from a direct message reach shard 0's process in the
bot; here each process moves only its own games (the relay's notices are measured apart, in
tests and ``bench/store.py``): the question is whether the store and the service scale past
one process's event loop.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from contextlib import AsyncExitStack
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from machine import machine_line  # bench/machine.py
from service import CountedStore, People, pct  # bench/service.py
from store import postgres_database, postgres_server  # bench/store.py

from scopabot.service import GameService, Pace
from scopabot.store import DatabaseLockedError, Store, StoreError

_HERE = Path(__file__).resolve()
_WARM_UP = 1.0  # seconds of play before the measured window opens


@dataclass
class Run:
    """One run's figures, every process's together."""

    database: str
    processes: int
    moves: int
    seconds: float
    accept: list[float]
    refused: int
    per_process: list[int]
    refused_starts: int
    failed: list[str]  # people whose play stopped on an error (their game then stands still)
    conflicts: int  # transactions PostgreSQL refused for another's (then tried again)

    @property
    def rate(self) -> float:
        return self.moves / self.seconds

    @property
    def p99(self) -> float:
        return pct(self.accept, 0.99)

    def line(self) -> str:
        median = statistics.median(self.accept) * 1000 if self.accept else float("nan")
        each = " + ".join(f"{m / self.seconds:.0f}" for m in self.per_process)
        return (
            f"{self.database}, {self.processes} process{'es' if self.processes > 1 else ''}: "
            f"{self.rate:.0f} moves/s ({each}), person's move accepted median {median:.1f} ms,"
            f" p99 {self.p99 * 1000:.1f} ms over {len(self.accept)} moves"
            f" ({self.refused} refused); {self.conflicts} transactions refused for another's"
            + (
                f"; {self.refused_starts} table starts refused for a conflict with the other"
                " process's (tried again)"
                if self.refused_starts
                else ""
            )
            + (
                f"; {len(self.failed)} people stopped by an error: {self.failed[0]}"
                if self.failed
                else ""
            )
        )


# ---------------------------------------------------------------------- a worker process


def count_conflicts() -> list[int]:
    """Count the transactions PostgreSQL refused for another's (each try of each), in a
    list of one number that goes on growing."""
    from scopabot.store.errors import ConflictError
    from scopabot.store.postgres_database import PostgresDatabase

    counted = [0]
    error = PostgresDatabase._error

    def counting(self: PostgresDatabase, exc: BaseException) -> StoreError:
        made = error(self, exc)
        if isinstance(made, ConflictError) and made is not exc:
            counted[0] += 1
        return made

    PostgresDatabase._error = counting  # type: ignore[method-assign]
    return counted


async def worker(args: argparse.Namespace) -> None:
    """One bot process: host games ``first`` .. ``first + games - 1``, report on stdout."""
    conflicts = count_conflicts()
    store = await CountedStore.open(args.worker)
    service = await GameService.start(store, computer_pause=0)
    mine = {10_000 + n for n in range(args.first, args.first + args.games)}
    service.relay.show_here(lambda guild_id: guild_id in mine)

    async def shown(_: object) -> None:
        return None

    service.relay.start(shown)
    people = People(service, store, args.think, random.Random(args.first))
    service.subscribe(people.on_event)
    games = []
    refused_starts = 0
    for n in range(args.first, args.first + args.games):
        user = 10_000 + n
        table = await service.tables.open(
            host=user,
            guild_id=user,
            computers=1,
            level="normal",
            pace=Pace.live(900),
            options={"target": 101},  # long matches: every game stays active
        )
        while True:
            try:
                started = await service.tables.start(table.id, by=user, seed=n)
                break
            except DatabaseLockedError:
                # Two processes starting tables at once on PostgreSQL: one start refused
                # for the other's (nothing written). Counted and printed, then tried again.
                refused_starts += 1
        people.turns[started.game_id] = asyncio.Queue()
        games.append((started.game_id, user))
    await service.settle()
    print(json.dumps({"ready": len(games), "refused_starts": refused_starts}), flush=True)
    line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    opens = float(json.loads(line)["opens"])
    tasks = [asyncio.create_task(people.person(g, u)) for g, u in games]
    for game_id, user in games:
        view = await service.games.seat_view(game_id, user=user)
        if view.your_turn:
            people.turns[game_id].put_nowait(view.version)
    await asyncio.sleep(max(0.0, opens - time.time()))
    people.accept.clear()
    people.refused = 0
    before, conflicts_before = store.applied, conflicts[0]
    await asyncio.sleep(max(0.0, opens + args.seconds - time.time()))
    moves, accept, refused = store.applied - before, list(people.accept), people.refused
    conflicted = conflicts[0] - conflicts_before
    failed = [repr(t.exception()) for t in tasks if t.done() and t.exception() is not None]
    print(
        json.dumps(
            {
                "moves": moves,
                "accept": accept,
                "refused": refused,
                "failed": failed,
                "conflicts": conflicted,
            }
        ),
        flush=True,
    )
    people.running = False
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await service.close()
    await store.close()


# ---------------------------------------------------------------------- the runs


async def run(database: Path | str, label: str, processes: int, args: argparse.Namespace) -> Run:
    """Start ``processes`` workers on ``database`` sharing the games, measure one window."""
    store = await Store.open(database)  # migrated once, before the workers start
    await store.close()
    share = args.games // processes
    workers = []
    for n in range(processes):
        games = share if n < processes - 1 else args.games - share * (processes - 1)
        workers.append(
            await asyncio.create_subprocess_exec(
                sys.executable,
                str(_HERE),
                "--worker",
                str(database),
                "--first",
                str(n * share),
                "--games",
                str(games),
                "--seconds",
                repr(args.seconds),
                "--think",
                repr(args.think),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
            )
        )
    try:
        refused_starts = 0
        for proc in workers:
            assert proc.stdout is not None
            ready = json.loads(await proc.stdout.readline() or "{}")
            assert "ready" in ready, "a worker stopped before its games were started"
            refused_starts += ready["refused_starts"]
        opens = time.time() + _WARM_UP
        for proc in workers:
            assert proc.stdin is not None
            proc.stdin.write((json.dumps({"opens": opens}) + "\n").encode())
            await proc.stdin.drain()
        results = []
        for proc in workers:
            assert proc.stdout is not None
            results.append(json.loads(await proc.stdout.readline()))
        for proc in workers:
            await asyncio.wait_for(proc.wait(), 60)
    finally:
        for proc in workers:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
    return Run(
        label,
        processes,
        sum(r["moves"] for r in results),
        args.seconds,
        [a for r in results for a in r["accept"]],
        sum(r["refused"] for r in results),
        [r["moves"] for r in results],
        refused_starts,
        [f for r in results for f in r["failed"]],
        sum(r["conflicts"] for r in results),
    )


async def main(args: argparse.Namespace) -> None:
    print(machine_line("start"))
    print(
        f"games: {args.games} (a person and a 'normal' computer each), think time mean"
        f" {args.think} s, {args.seconds} s measured a run, {args.rounds} rounds"
    )
    runs: list[Run] = []
    with postgres_server(args.postgres) as server, tempfile.TemporaryDirectory() as folder:
        assert server is not None
        for round_no in range(args.rounds):
            kinds = [("SQLite", 1), ("PostgreSQL", 1), ("PostgreSQL", 2)]
            if round_no % 2:
                kinds.reverse()
            for label, processes in kinds:
                async with AsyncExitStack() as stack:
                    if label == "SQLite":
                        database: Path | str = Path(folder) / f"bench-{round_no}.db"
                    else:
                        database = await stack.enter_async_context(postgres_database(server))
                    done = await run(database, label, processes, args)
                runs.append(done)
                print(f"round {round_no + 1}: {done.line()}", flush=True)
    for round_no in range(args.rounds):
        sqlite, one, two = (
            next(r for r in runs[3 * round_no : 3 * round_no + 3] if (r.database, r.processes) == k)
            for k in (("SQLite", 1), ("PostgreSQL", 1), ("PostgreSQL", 2))
        )
        print(
            f"round {round_no + 1}: two processes / one on PostgreSQL: moves/s"
            f" {two.rate / one.rate:.2f}x, p99 {two.p99 / one.p99:.2f}x;"
            f" SQLite / PostgreSQL at one process: moves/s {sqlite.rate / one.rate:.2f}x,"
            f" p99 {one.p99 / sqlite.p99:.2f}x PostgreSQL's"
        )
    print(machine_line("end"))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--think", type=float, default=0.5, help="mean think time, seconds")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(
        "--postgres",
        metavar="URL",
        default="start",
        help="the PostgreSQL server to make the databases on ('start': a throwaway one)",
    )
    parser.add_argument("--worker", metavar="DATABASE", help=argparse.SUPPRESS)
    parser.add_argument("--first", type=int, default=0, help=argparse.SUPPRESS)
    parsed = parser.parse_args()
    asyncio.run(worker(parsed) if parsed.worker else main(parsed))
