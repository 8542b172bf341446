"""How fast the pictures are drawn and how big they are; ``--gallery DIR`` writes the gallery.

Prints, for the table, a hand, a deal's breakdown and the standings, the median and 99th
percentile time to draw and encode one picture (cards already cached, as in a running bot)
and its size in bytes, over positions from seeded random matches of scopa and scopone.
Targets (issue 12): a table under 20 ms and under 150 KB.

    PYTHONPATH=. python bench/render.py [--rounds 200] [--gallery docs/gallery]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from machine import machine_line  # bench/machine.py

from scopabot.engine import CARDS, Game, GameView, Preset, Rules
from scopabot.render.cards_art import card_image
from scopabot.render.gallery import sample_match
from scopabot.render.image import deal_image, hand_image, standings_image, table_image
from scopabot.render.theme import Theme

NAMES = ("Marco", "Giulia", "Luca", "Sara")


def positions(rules: Rules, count: int, seed: int) -> list[tuple[GameView, list[str]]]:
    """Views of seat to play at random points of random matches, with the seat names."""
    rng = random.Random(seed)
    out: list[tuple[GameView, list[str]]] = []
    names = list(NAMES[: rules.players])
    while len(out) < count:
        game = Game.new(rules, seed=rng.randrange(10**9))
        for _ in range(rng.randrange(1, 30)):
            if game.is_over:
                break
            game.play(rng.choice(game.legal_moves()))
        if not game.is_over:
            out.append((game.view_for(game.turn), names))
    return out


def measure(draw: Callable[[int], bytes], rounds: int) -> tuple[float, float, list[int]]:
    """Median and 99th percentile ms of ``draw(i)`` for i in 0..rounds-1, and the sizes."""
    times, sizes = [], []
    for i in range(rounds):
        start = time.perf_counter()
        sizes.append(len(draw(i)))
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.99))], sizes


def pictures(rules: Rules) -> dict[str, Callable[[int], bytes]]:
    """What to draw for one kind of game: each takes a round number."""
    names = NAMES[: rules.players]
    views = positions(rules, 40, seed=rules.players)
    final, breakdown, piles = sample_match(rules)

    def table(i: int) -> bytes:
        return table_image(views[i % 40][0], names=names)

    def hand(i: int) -> bytes:
        return hand_image(views[i % 40][0])

    def deal(i: int) -> bytes:
        return deal_image(breakdown, rules=rules, names=names, piles=piles)

    def standings(i: int) -> bytes:
        return standings_image(
            final.totals,
            rules=rules,
            names=names,
            deal_scores=final.deal_scores,
            outcome=final.outcome,
        )

    return {"table": table, "hand": hand, "breakdown": deal, "standings": standings}


def bench(rounds: int) -> None:
    for theme in Theme:  # warm the card cache, as a running bot would have it
        for width in (100, 82, 56, 150, 16, 42):
            for card in CARDS:
                card_image(card, width, theme)
    print(f"{'picture':34}{'median ms':>10}{'p99 ms':>9}{'bytes':>9}{'max bytes':>11}")
    for preset, players in ((Preset.SCOPA, 2), (Preset.SCOPA, 4), (Preset.SCOPONE_SCIENTIFICO, 4)):
        rules = Rules(preset=preset, players=players)
        for kind, draw in pictures(rules).items():
            med, p99, sizes = measure(draw, rounds)
            print(
                f"{f'{preset} {players}p {kind}':34}{med:10.1f}{p99:9.1f}"
                f"{int(statistics.median(sizes)):9,}{max(sizes):11,}"
            )
    start = time.perf_counter()
    card_image.cache_clear()
    for card in CARDS:
        card_image(card, 100, Theme.DARK)
    cold = (time.perf_counter() - start) * 1000
    print(f"drawing the 40 faces once (100 px, cold cache): {cold:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--gallery", help="write the gallery of cards and sample pictures here")
    args = parser.parse_args()
    if args.gallery:
        from scopabot.render.gallery import write_gallery

        for path in write_gallery(args.gallery):
            print(path)
        return
    print(machine_line("start"))
    bench(args.rounds)
    print(machine_line("end"))


if __name__ == "__main__":
    main()
