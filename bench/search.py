"""CPU seconds the search levels spend on a fixed set of positions, at a fixed iteration budget.

Prints figures; asserts nothing. Run: ``python bench/search.py [--iterations 300]``.

Positions: every third decision (with more than one legal move) of two seeded scopone deals
(seeds 3 and 4) played by ``normal``. Each position is searched by ``expert`` with the given
number of sampled deals and no time limit, three times; the best CPU time of each counts
(CPU time, so that other programs on the machine do not count). The same positions and budget
give the same work whatever the code's speed, so two commits compare by this script run on
each: put the other commit's ``scopabot`` first on ``PYTHONPATH``.
"""

from __future__ import annotations

import argparse
import time

from machine import machine_line  # bench/machine.py

from scopabot.ai import make_player
from scopabot.engine import Game, GameView, Preset, Rules


def positions(rules: Rules, deals: int = 2) -> list[GameView]:
    """Every third decision of ``deals`` seeded deals (seeds 3, 4, ...) played by ``normal``."""
    views = []
    for seed in range(3, 3 + deals):
        game = Game.new(rules.replace(deals=1), seed=seed)
        normal = make_player("normal", seed=0)
        while not game.deal_scores:
            view = game.view_for(game.turn)
            if len(view.legal_moves()) > 1:
                views.append(view)
            game.play(normal.choose(view))
    return views[::3]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=300, help="sampled deals a move")
    args = parser.parse_args()
    print(machine_line("start"))
    views = positions(Rules(preset=Preset.SCOPONE_SCIENTIFICO))
    best = [float("inf")] * len(views)
    for _ in range(3):
        for i, view in enumerate(views):
            player = make_player("expert", seed=1, iterations=args.iterations, time_budget=1e6)
            start = time.process_time()
            player.choose(view)
            best[i] = min(best[i], time.process_time() - start)
    print(
        f"expert at {args.iterations} sampled deals, no time limit: {sum(best):.2f} CPU s"
        f" over {len(views)} scopone positions"
    )
    print(
        "cards left: CPU ms  "
        + "  ".join(
            f"{sum(v.hand_sizes)}: {b * 1000:.0f}" for v, b in zip(views, best, strict=True)
        )
    )
    print(machine_line("end"))


if __name__ == "__main__":
    main()
