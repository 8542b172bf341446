"""Engine throughput: random playouts (whole deals, with scoring) and legal-move generations.

Prints figures; asserts nothing (these machines are shared and noisy). Each figure is the best
of a few short rounds on one core. Run: ``python bench/engine.py [--seconds 2]``.

What a "deal" costs here: shuffling and dealing the 40 cards, playing every card with a
uniformly random choice (a random card, then a random capture among those allowed), sweeping
the leftovers, and scoring the deal. This is the loop the computer players' search runs.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from machine import machine_line  # bench/machine.py

from scopabot.engine import Game, Preset, Rules

CASES = [
    ("scopa, 2 players", Rules(players=2, target=101)),
    ("scopa, 3 players", Rules(players=3, target=101)),
    ("scopa, 4 players", Rules(players=4, target=101)),
    ("scopone scientifico", Rules(preset=Preset.SCOPONE_SCIENTIFICO, target=101)),
    ("scopone classico", Rules(preset=Preset.SCOPONE_CLASSICO, target=101)),
    ("scopa 2p, asso piglia tutto", Rules(asso_piglia_tutto=True, target=101)),
]
TARGETS = {"scopa, 2 players": 10_000, "scopone scientifico": 5_000}


def best_rate(work: Callable[[], int], seconds: float, rounds: int = 3) -> float:
    best = 0.0
    for _ in range(rounds):
        start = time.perf_counter()
        done = 0
        while (elapsed := time.perf_counter() - start) < seconds / rounds:
            done += work()
        best = max(best, done / elapsed)
    return best


def deals_in_a_long_match(rules: Rules) -> Callable[[], int]:
    """Each call plays one more deal of a match that never ends (reset when it does)."""
    rng = random.Random(1)
    state = {"game": Game.new(rules, seed=1), "seed": 1}

    def work() -> int:
        game = state["game"]
        assert isinstance(game, Game)
        if game.is_over:
            state["seed"] = int(state["seed"]) + 1  # type: ignore[call-overload]
            game = state["game"] = Game.new(rules, seed=int(state["seed"]))  # type: ignore[call-overload]
        game.playout(rng)
        return 1

    return work


def fresh_games(rules: Rules) -> Callable[[], int]:
    """Each call builds a new game from a new seed and plays its first deal."""
    rng = random.Random(2)
    counter = iter(range(10**12))

    def work() -> int:
        Game.new(rules, seed=next(counter)).playout(rng)
        return 1

    return work


def searched_copies(rules: Rules) -> Callable[[], int]:
    """Copy a dealt position's :class:`Deal` (as search does for each sample), play it out
    at random and score it."""
    rng = random.Random(3)
    base = Game.new(rules, seed=3).deal

    def work() -> int:
        base.copy().playout(rng)
        return 1

    return work


def legal_move_generations(rules: Rules) -> Callable[[], int]:
    """List the legal actions in positions met in random play (100 positions a call)."""
    rng = random.Random(4)
    positions: list[Game] = []
    game = Game.new(rules, seed=4)
    while len(positions) < 100:
        positions.append(game.copy())
        actions = game.legal_actions()
        game.apply_action(actions[int(rng.random() * len(actions))])
        if game.is_over:
            game = Game.new(rules, seed=len(positions))

    def work() -> int:
        for p in positions:
            p.legal_actions()
        return len(positions)

    return work


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.5, help="time per figure")
    args = parser.parse_args()
    print(machine_line("start"))
    print(f"{'game':30} {'deals/s':>10} {'fresh/s':>10} {'copy+play/s':>12} {'legal gen/s':>12}")
    for name, rules in CASES:
        long_match = best_rate(deals_in_a_long_match(rules), args.seconds)
        fresh = best_rate(fresh_games(rules), args.seconds)
        copies = best_rate(searched_copies(rules), args.seconds)
        legal = best_rate(legal_move_generations(rules), args.seconds)
        target = TARGETS.get(name)
        verdict = ""
        if target:
            verdict = f"  target {target:,}: {'met' if long_match >= target else 'NOT met'}"
        print(
            f"{name:30} {long_match:10,.0f} {fresh:10,.0f} {copies:12,.0f} {legal:12,.0f}{verdict}"
        )
    print(
        "deals/s: one more deal of a running match (shuffle, deal, random play, score);"
        "\nfresh/s: a new game (seed, first dealer, shuffle) and its first deal;"
        "\ncopy+play/s: copy a dealt position's Deal, play it out and score it, as search does;"
        "\nlegal gen/s: legal-move lists generated on positions from random play."
    )
    print(machine_line("end"))


if __name__ == "__main__":
    main()
