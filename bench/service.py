"""How the game service holds up: many games at once, people simulated, on SQLite.

Run: ``.venv/bin/python bench/service.py`` (about a minute; ``--games``,
``--seconds``, ``--think`` to change the load). Each game is a person against a ``normal``
computer player; each simulated person waits a random think time (uniform, mean ``--think``
seconds) after their turn starts, then plays a random legal card through ``service.games.play``
naming the version they saw; the computer answers at once (no pause). Printed:

- moves per second (people's and computers'), counted as the store applies them (not as their
  events reach a subscriber, which under saturation is later: a backlog delivered during the
  measure would count moves made before it), checked at the end against the moves the store
  holds; and apart, the queue lag: how long a move's event waited in the subscriber's queue;
- the median and 99th percentile of the time ``service.games.play`` takes to accept a person's move;
- memory per active game (resident set size grown while the games were opened and started,
  divided by their number);
- the event loop's longest stall (a watcher sleeping 5 ms notes how late it wakes), during the
  load, and again while four ``expert`` seats think in the process pool as the load goes on
  (the moves of that phase are counted over its real length: opening those tables waits
  behind the load's writes, so under saturation it lasts well beyond ``--expert-seconds``);
  beside it the longest single loop step and the CPU time it used, and the longest garbage
  collection in wall and CPU time: on a busy machine a stall with little CPU in it is time the
  process waited for a core (or for the GIL), not work the code did;
- the machine's load average and cores, at the start and at the end (bench/machine.py).

Targets (issue 10): 1,000 active games in one process, p99 under 50 ms, under 100 KB per game,
no stall over 50 ms. The database lives in a temporary folder removed afterwards; with
``--postgres URL`` (or ``start``, a throwaway server) on a new PostgreSQL database instead.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from machine import machine_line  # bench/machine.py
from store import postgres_database, postgres_server  # bench/store.py

from scopabot.service import (
    CardPlayed,
    Event,
    GameService,
    Pace,
    ServiceError,
    TurnStarted,
)
from scopabot.store import Database, GameStore, MatchResult, MoveRecord, Store


def rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def lag_text(ordered: list[float]) -> str:
    if not ordered:
        return "no events delivered"
    return (
        f"median {statistics.median(ordered) * 1000:.1f} ms, p99 {pct(ordered, 0.99) * 1000:.1f}"
        f" ms, max {ordered[-1] * 1000:.1f} ms over {len(ordered)} moves"
    )


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


class CountedGames(GameStore):
    """The store's games, counting each move when it is written: the count the figures use.

    The service publishes a move's events right after the store applied it, but a subscriber
    receives them through its queue, later when the loop is saturated; counting deliveries
    would let a backlog from before a measure count in it, beyond what the store wrote.
    """

    def __init__(self, database: Database, counts: CountedStore) -> None:
        super().__init__(database)
        self._counts = counts

    async def write_move(self, record: MoveRecord) -> MatchResult | None:
        counts = self._counts
        try:
            match = await super().write_move(record)
        except asyncio.CancelledError:
            counts.cut_off += 1
            raise
        counts.applied += 1
        counts.applied_at[record.game_id, record.version] = time.perf_counter()
        return match


class CountedStore(Store):
    """The store whose games count their moves (:class:`CountedGames`)."""

    def __init__(self, database: Database) -> None:
        super().__init__(database)
        self.applied = 0
        self.cut_off = 0  # writes cancelled at shutdown: committed or not, no one can say
        self.applied_at: dict[tuple[int, int], float] = {}  # (game, version) -> when
        self.games = CountedGames(database, self)

    async def moves_held(self, game_ids: list[int]) -> int:
        """Every move the store holds for these games, read back from their rows."""
        return sum([(await self.games.info(g)).move_count for g in game_ids])


class GcPauses:
    """The longest garbage collection, in wall time and in the CPU time it took (on a busy
    machine a pause also counts the time the process waited for a core)."""

    def __init__(self) -> None:
        self.worst = self.worst_cpu = 0.0
        self.full = 0
        self._start = self._start_cpu = 0.0
        gc.callbacks.append(self._note)

    def reset(self) -> None:
        self.worst = self.worst_cpu = 0.0
        self.full = 0

    def _note(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._start, self._start_cpu = time.perf_counter(), time.thread_time()
        else:
            self.worst = max(self.worst, time.perf_counter() - self._start)
            self.worst_cpu = max(self.worst_cpu, time.thread_time() - self._start_cpu)
            self.full += info["generation"] == 2


class LoopWork:
    """The longest single step of the event loop, in wall and in CPU time: a step that used
    little CPU for a long wall time waited (for the GIL, or for a core), while a long CPU time
    is the code holding the loop."""

    def __init__(self) -> None:
        self.worst = self.worst_cpu = 0.0
        run = asyncio.events.Handle._run

        def timed(handle: asyncio.events.Handle) -> None:
            start, cpu = time.perf_counter(), time.thread_time()
            run(handle)
            self.worst = max(self.worst, time.perf_counter() - start)
            self.worst_cpu = max(self.worst_cpu, time.thread_time() - cpu)

        asyncio.events.Handle._run = timed  # type: ignore[method-assign]

    def reset(self) -> None:
        self.worst = self.worst_cpu = 0.0


class Watcher:
    """Notes how late a 5 ms sleep wakes: the event loop's stalls."""

    def __init__(self) -> None:
        self.worst = 0.0
        self.running = True

    def reset(self) -> None:
        self.worst = 0.0

    async def run(self) -> None:
        while self.running:
            start = time.perf_counter()
            await asyncio.sleep(0.005)
            self.worst = max(self.worst, time.perf_counter() - start - 0.005)


class People:
    """Every simulated person: a turn event wakes the one whose turn it is."""

    def __init__(
        self, service: GameService, store: CountedStore, think: float, rng: random.Random
    ) -> None:
        self.service = service
        self.store = store
        self.think = think
        self.rng = rng
        self.turns: dict[int, asyncio.Queue[int]] = {}
        self.accept: list[float] = []
        self.lags: list[float] = []  # seconds a move's event waited in the queue
        self.refused = 0
        self.running = True

    async def on_event(self, event: Event) -> None:
        if isinstance(event, CardPlayed) and event.game_id is not None:
            applied = self.store.applied_at.pop((event.game_id, event.version), None)
            if applied is not None:
                self.lags.append(time.perf_counter() - applied)
        if isinstance(event, TurnStarted) and event.user_id is not None:
            queue = self.turns.get(event.game_id or 0)
            if queue is not None:
                queue.put_nowait(event.version)

    async def person(self, game_id: int, user: int) -> None:
        queue = self.turns[game_id]
        while self.running:
            try:
                await asyncio.wait_for(queue.get(), 1.0)
            except TimeoutError:
                continue
            await asyncio.sleep(self.rng.uniform(0, 2 * self.think))
            if not self.running:
                return
            view = await self.service.games.seat_view(game_id, user=user)
            if not view.your_turn:
                continue
            moves = [m for options in view.choices.values() for m in options]
            move = self.rng.choice(moves)
            capture = "+".join(str(c) for c in move.sorted_capture()) or None
            start = time.perf_counter()
            try:
                await self.service.games.play(
                    game_id, user=user, card=str(move.card), capture=capture, version=view.version
                )
            except ServiceError:
                self.refused += 1
                continue
            self.accept.append(time.perf_counter() - start)


async def main(args: argparse.Namespace) -> None:
    with postgres_server(args.postgres) as server:
        if server is None:
            await bench(args, None)
            return
        async with postgres_database(server) as url:
            await bench(args, url)


async def bench(args: argparse.Namespace, url: str | None) -> None:
    print(machine_line("start"))
    print(f"database: {'PostgreSQL' if url else 'SQLite'}")
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as folder:
        store = await CountedStore.open(url or Path(folder) / "bench.db")
        service = await GameService.start(store, computer_pause=0)
        watcher = Watcher()
        pauses = GcPauses()
        steps = LoopWork()
        watching = asyncio.create_task(watcher.run())
        people = People(service, store, args.think, rng)
        service.subscribe(people.on_event)
        gc.collect()
        before = rss_kb()
        games = []
        for n in range(args.games):
            user = 10_000 + n
            table = await service.tables.open(
                host=user,
                computers=1,
                level="normal",
                pace=Pace.live(900),
                options={"target": 101},  # long matches: every game stays active
            )
            started = await service.tables.start(table.id, by=user, seed=n)
            people.turns[started.game_id] = asyncio.Queue()
            games.append((started.game_id, user))
        await service.settle()
        gc.collect()
        per_game = (rss_kb() - before) / args.games
        if args.freeze:
            gc.freeze()  # as the bot does after start-up (docs/speed.md, the game store)
        tasks = [asyncio.create_task(people.person(g, u)) for g, u in games]
        for game_id, user in games:  # the turns that started before anyone listened
            view = await service.games.seat_view(game_id, user=user)
            if view.your_turn:
                people.turns[game_id].put_nowait(view.version)
        watcher.reset()
        pauses.reset()
        steps.reset()
        people.lags.clear()
        people.accept.clear()  # those made while the turns above were handed out
        people.refused = 0
        applied_before = store.applied
        start = time.perf_counter()
        await asyncio.sleep(args.seconds)
        elapsed = time.perf_counter() - start
        moves, accept = store.applied - applied_before, list(people.accept)
        lags, backlog = sorted(people.lags), len(store.applied_at)
        gc_worst, gc_cpu, full = pauses.worst, pauses.worst_cpu, pauses.full
        load_stall = watcher.worst
        load_step = (steps.worst, steps.worst_cpu)
        per_game_playing = (rss_kb() - before) / args.games
        # Four expert seats start thinking while the people go on playing.
        watcher.reset()
        steps.reset()
        expert_moves_before, expert_start = store.applied, time.perf_counter()
        people.lags.clear()
        expert_games = []
        for n in range(4):
            table = await service.tables.open(
                host=1, seat_host=False, options={"deals": 1}, pace=Pace.live(900)
            )
            await service.tables.add_computer(table.id, by=1, level="expert")
            await service.tables.add_computer(table.id, by=1, level="random")
            expert_started = await service.tables.start(table.id, by=1, seed=n)
            expert_games.append(expert_started.game_id)
        expert_opening = time.perf_counter() - expert_start
        await asyncio.sleep(args.expert_seconds)
        expert_stall = watcher.worst
        expert_step = (steps.worst, steps.worst_cpu)
        moves_during_experts = store.applied - expert_moves_before
        expert_elapsed = time.perf_counter() - expert_start
        expert_lags, expert_backlog = sorted(people.lags), len(store.applied_at)
        people.running = False
        watcher.running = False
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, watching, return_exceptions=True)
        await service.close()
        applied, cut_off = store.applied, store.cut_off
        held = await store.moves_held([g for g, _ in games] + expert_games)
        await store.close()
    print(
        f"games at once: {args.games} (a person and a 'normal' computer each), "
        f"think time mean {args.think} s, {args.seconds} s measured"
    )
    print(
        f"moves per second: {moves / elapsed:.0f} ({moves} moves applied by the store, "
        "people's and computers')"
    )
    print(
        f"queue lag, a move applied -> its event handled by a subscriber: {lag_text(lags)}; "
        f"{backlog} moves' events still queued at the end of the measure"
    )
    print(
        f"person's move accepted: median {statistics.median(accept) * 1000:.1f} ms, "
        f"p99 {pct(accept, 0.99) * 1000:.1f} ms over {len(accept)} moves "
        f"({people.refused} refused)"
    )
    print(
        f"memory per active game: {per_game:.0f} KB (resident set growth / games), "
        f"{per_game_playing:.0f} KB after the measured play"
    )
    print(
        f"longest event-loop stall under load: {load_stall * 1000:.1f} ms "
        f"(longest loop step {load_step[0] * 1000:.1f} ms, of it CPU {load_step[1] * 1000:.1f} ms)"
    )
    print(
        f"longest stall while 4 expert seats think ({args.expert_seconds} s): "
        f"{expert_stall * 1000:.1f} ms (longest step {expert_step[0] * 1000:.1f} ms, "
        f"CPU {expert_step[1] * 1000:.1f} ms)"
    )
    print(
        f"  meanwhile {moves_during_experts} moves applied in {expert_elapsed:.1f} s "
        f"({moves_during_experts / expert_elapsed:.0f}/s, the expert tables' included; "
        f"opening and starting those 4 tables took {expert_opening:.1f} s of it); "
        f"queue lag {lag_text(expert_lags)}; {expert_backlog} still queued"
    )
    print(
        f"longest garbage collection under load: {gc_worst * 1000:.1f} ms, of it CPU "
        f"{gc_cpu * 1000:.1f} ms; {full} full collections"
        f" ({'games opened at start-up frozen' if args.freeze else 'nothing frozen'})"
    )
    cut = f" (+ {cut_off} cut off at shutdown, committed or not)" if cut_off else ""
    print(
        f"store check: {held} moves held in the games' rows, {applied} counted as applied{cut}: "
        + (
            "consistent"
            if applied <= held <= applied + cut_off
            else "INCONSISTENT (the counts above are wrong)"
        )
    )
    print(
        "targets: 1,000 games, p99 < 50 ms, < 100 KB per game, no stall > 50 ms:",
        "met"
        if (
            pct(accept, 0.99) < 0.05
            and per_game < 100
            and max(load_stall, expert_stall) < 0.05
            and args.games >= 1000
        )
        else "NOT met",
    )
    print(machine_line("end"))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=5.0, help="mean think time, seconds")
    parser.add_argument(
        "--no-freeze",
        dest="freeze",
        action="store_false",
        help="leave the games opened at start-up in the garbage collector's full collections",
    )
    parser.add_argument("--expert-seconds", type=float, default=8.0)
    parser.add_argument(
        "--postgres",
        metavar="URL",
        help="on a new database of this PostgreSQL server ('start': a throwaway one)",
    )
    asyncio.run(main(parser.parse_args()))
