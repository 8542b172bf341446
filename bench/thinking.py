"""How long the search levels think: per move on one core, and six decisions asked at once.

Prints figures; asserts nothing. Run: ``python bench/thinking.py [--deals 4] [--rounds 10]``.

1. **Per move, one core.** ``hard`` and ``expert`` play the first deal of seeded matches
   against ``normal`` (scopone scientifico and two-player scopa), every move of the searching
   seats timed: median, 95th percentile and max, in wall seconds and in CPU seconds (the
   machine is shared: CPU time is what the move costs, wall time what it took here).
2. **Six at once.** Through the service's :class:`~scopabot.service.PoolThinker` with two
   workers, six ``expert`` decisions (positions met in those deals) are asked for at the same
   moment, ``--rounds`` times: the wait of each, from asking to the move (median, 95th
   percentile, max; target 2 s at the 95th), and the event loop's longest stall meanwhile
   (a 5 ms sleeper noting how late it wakes; target 50 ms). A first round starts the pool
   and is reported apart.

The machine's load and cores are printed beside the figures (``bench/machine.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from machine import machine_line  # bench/machine.py

from scopabot.ai import make_player
from scopabot.engine import Game, GameView, Preset, Rules
from scopabot.service import PoolThinker

GAMES = [
    ("scopone scientifico", Rules(preset=Preset.SCOPONE_SCIENTIFICO)),
    ("scopa, 2 players", Rules()),
]


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def line(values: list[float]) -> str:
    if not values:
        return "no moves"
    median = statistics.median(values) * 1000
    p95 = quantile(values, 0.95) * 1000
    top = max(values) * 1000
    return f"median {median:6.0f} ms, p95 {p95:6.0f} ms, max {top:6.0f} ms over {len(values)} moves"


def timed_deals(
    rules: Rules, level: str, deals: int, keep: list[GameView]
) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of each move of ``level`` (seats of side 0) against ``normal``."""
    wall: list[float] = []
    cpu: list[float] = []
    for seed in range(1, deals + 1):
        game = Game.new(rules.replace(deals=1), seed=seed)
        players = [
            make_player(level if rules.side_of(s) == 0 else "normal", seed=seed * 64 + s)
            for s in range(rules.players)
        ]
        while not game.deal_scores:
            seat = game.turn
            view = game.view_for(seat)
            if rules.side_of(seat) == 0:
                if len(view.legal_moves()) > 1 and len(keep) < 60:
                    keep.append(view)
                w, c = time.perf_counter(), time.process_time()
                move = players[seat].choose(view)
                wall.append(time.perf_counter() - w)
                cpu.append(time.process_time() - c)
            else:
                move = players[seat].choose(view)
            game.play(move, seat=seat)
    return wall, cpu


class Watcher:
    """Notes how late a 5 ms sleep wakes: the event loop's stalls, each with the CPU time this
    process spent in it. On a busy machine a stall with little CPU in it is time the process
    waited for a core, not work the loop did (the searches run in other processes)."""

    def __init__(self) -> None:
        self.worst = 0.0
        self.worst_cpu = 0.0
        self.most_cpu = 0.0
        self.running = True

    async def run(self) -> None:
        while self.running:
            start, cpu = time.perf_counter(), time.process_time()
            await asyncio.sleep(0.005)
            late = time.perf_counter() - start - 0.005
            used = time.process_time() - cpu
            if late > self.worst:
                self.worst, self.worst_cpu = late, used
            self.most_cpu = max(self.most_cpu, used)


async def six_at_once(
    views: list[GameView], rounds: int
) -> tuple[list[float], list[float], Watcher]:
    pool = PoolThinker(workers=2)
    watcher = Watcher()
    watch = asyncio.create_task(watcher.run())

    async def one(view: GameView, seed: int) -> float:
        start = time.perf_counter()
        await pool.choose("expert", view, seed=seed)
        return time.perf_counter() - start

    first: list[float] = []
    waits: list[float] = []
    try:
        for r in range(rounds + 1):
            batch = [views[(r * 6 + k) % len(views)] for k in range(6)]
            if r == 1:
                watcher.worst = watcher.worst_cpu = watcher.most_cpu = 0.0  # the pool's start
            got = await asyncio.gather(*(one(v, r * 6 + k) for k, v in enumerate(batch)))
            (first if r == 0 else waits).extend(got)
    finally:
        watcher.running = False
        await watch
        await pool.close()
    return first, waits, watcher


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4, help="seeded deals per game and level")
    parser.add_argument("--rounds", type=int, default=10, help="rounds of six decisions")
    args = parser.parse_args()
    print(machine_line("start"))
    views: list[GameView] = []
    for name, rules in GAMES:
        for level in ("hard", "expert"):
            keep = views if level == "expert" and rules.players == 4 else []
            wall, cpu = timed_deals(rules, level, args.deals, keep)
            print(f"{name:20} {level:7} wall: {line(wall)}")
            print(f"{'':20} {'':7} CPU:  {line(cpu)}")
    print(machine_line("start of the six at once"))
    first, waits, watcher = asyncio.run(six_at_once(views, args.rounds))
    print(f"six expert decisions at once, two workers, first round (pool starting): {line(first)}")
    print(f"six expert decisions at once, {args.rounds} rounds: wait {line(waits)}")
    print(
        f"  longest event-loop stall meanwhile: {watcher.worst * 1000:.1f} ms, with"
        f" {watcher.worst_cpu * 1000:.1f} ms of this process's CPU in it; the most CPU in"
        f" one stall: {watcher.most_cpu * 1000:.1f} ms (target: no stall over 50 ms)"
    )
    met = quantile(waits, 0.95) <= 2.0 and watcher.worst <= 0.05
    print(f"  target p95 wait 2 s and no stall over 50 ms: {'met' if met else 'NOT met'}")
    print(machine_line("end"))


if __name__ == "__main__":
    main()
