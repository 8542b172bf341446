"""How much a search budget's choices fall short of a long search's, on fixed positions.

Prints figures; asserts nothing. Run: ``python bench/choices.py [--preset scopa]
[--reference 16000] expert:time=1.5,enough=0 expert``. About four minutes for the reference
of each game (kept in ``--cache``), then the budgets' own time.

The positions are ``bench/search.py``'s (every third decision of two seeded deals played by
``normal``). Each is first searched long (``--reference`` sampled deals, no time limit, a seed
of its own), which values every move; then each budget chooses in every position with three
seeds, its time counted on the CPU clock (``clock=cpu`` is added), so that other programs on
the machine take its wall time but not its search. A choice's **regret** is how many points
the long search puts it below the best move. The mean regret per decision, multiplied by a
deal's decisions (about 20 for a side in scopone, 18 in scopa), bounds what the budget loses a
deal against the long search: a cheap forecast of an arena run, which needs hours to see a
tenth of a point.
"""

from __future__ import annotations

import argparse
import pickle
import time
from dataclasses import replace
from pathlib import Path

from machine import machine_line  # bench/machine.py
from search import positions  # bench/search.py

from scopabot.ai import PlayerSpec, make_player
from scopabot.engine import GameView, Move, Preset, Rules

Key = tuple[int, tuple[int, ...]]


def key(move: Move) -> Key:
    return move.card.index, tuple(sorted(c.index for c in move.capture))


def reference(views: list[GameView], deals: int, cache: Path) -> list[dict[Key, float]]:
    if cache.exists():
        kept: list[dict[Key, float]] = pickle.loads(cache.read_bytes())
        if len(kept) == len(views):
            return kept
    values = []
    for view in views:
        player = make_player("expert", seed=999, iterations=deals, time_budget=1e6, enough=0.0)
        assert hasattr(player, "evaluate")
        values.append({key(m): v for m, v in player.evaluate(view).items()})
    cache.write_bytes(pickle.dumps(values))
    return values


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("budgets", nargs="+", type=PlayerSpec.parse, help="e.g. expert:time=1.5")
    parser.add_argument("--preset", default="scopone_scientifico")
    parser.add_argument("--reference", type=int, default=16000, help="sampled deals")
    parser.add_argument("--cache", type=Path, default=Path("/tmp"), help="folder")
    args = parser.parse_args()
    print(machine_line("start"))
    views = positions(Rules(preset=Preset(args.preset)))
    cache = args.cache / f"scopabot-choices-{args.preset}-{args.reference}.pickle"
    refs = reference(views, args.reference, cache)
    print(f"{args.preset}: {len(views)} positions, reference {args.reference} sampled deals")
    for spec in args.budgets:
        spec = replace(spec, cpu_clock=True)
        regrets, times = [], []
        for seed in (1, 2, 3):
            for view, ref in zip(views, refs, strict=True):
                player = spec.make(seed)
                start = time.process_time()
                move = player.choose(view)
                times.append(time.process_time() - start)
                regrets.append(max(ref.values()) - ref[key(move)])
        times.sort()
        n = len(times)
        print(
            f"{spec}: mean regret {sum(regrets) / n:.4f} points a decision, "
            f"{sum(r > 0.05 for r in regrets)} of {n} over 0.05; CPU per decision median "
            f"{times[n // 2] * 1000:.0f} ms, p95 {times[int(0.95 * n)] * 1000:.0f} ms, "
            f"max {times[-1] * 1000:.0f} ms"
        )
    print(machine_line("end"))


if __name__ == "__main__":
    main()
