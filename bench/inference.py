"""How well the search levels guess where the hidden cards are.

Run: ``.venv/bin/python bench/inference.py`` (about two minutes on two cores). It plays
``--games`` deals of ``hard:iterations=100`` against ``normal`` (sides alternating), and at each
decision of the searching seat draws ``--draws`` deals from the sampler, with and without
reading the other seats' plays. For every card another seat really holds it scores the log
loss of the sampled frequency of that card being there (the other hands — and in scopa the
deck — being the alternatives), split by partner and opponents. Lower is better; a uniform
deal scores ln 3 = 1.099 nats a card in scopone. This is how the constants of
``scopabot/ai/determinize.py`` were fitted: a better guess of the hands makes every sampled
deal of the search more like the real one.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from multiprocessing import get_context
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from machine import machine_line  # bench/machine.py

from scopabot.ai import make_player
from scopabot.ai.determinize import Sampler
from scopabot.engine import Game, GameView, Preset, Rules

Position = tuple[GameView, dict[int, list[int]]]


def positions(task: tuple[Preset, int]) -> list[Position]:
    """The searching seats' decisions in one seeded deal, with the real hands of the others."""
    preset, seed = task
    rules = Rules(preset=preset).replace(deals=1)
    game = Game.new(rules, seed=seed)
    searching = seed % 2
    players = [
        make_player(
            "hard" if rules.side_of(s) == searching else "normal", seed=seed * 8 + s, iterations=100
        )
        for s in range(rules.players)
    ]
    out: list[Position] = []
    while not game.deal_scores:
        seat = game.turn
        view = game.view_for(seat)
        if rules.side_of(seat) == searching and len(view.legal_moves()) > 1:
            truth = {
                s: [c.index for c in game.view_for(s).hand]
                for s in range(rules.players)
                if s != seat
            }
            out.append((view, truth))
        game.play(players[seat].choose(view), seat=seat)
    return out


def loss(task: tuple[list[Position], bool, int]) -> dict[str, list[float]]:
    """Summed log loss and card count, by partner and opponents."""
    chunk, infer, draws = task
    totals = {"partner": [0.0, 0.0], "opponents": [0.0, 0.0]}
    for view, truth in chunk:
        sampler = Sampler(view, infer=infer)
        rng = random.Random(7)
        counts: dict[tuple[int, int], int] = {}
        for _ in range(draws):
            deal = sampler.sample(rng)
            for seat in truth:
                for card in deal.hands[seat]:
                    counts[seat, card] = counts.get((seat, card), 0) + 1
        players = len(view.hand_sizes)
        for seat, cards in truth.items():
            key = "partner" if players == 4 and (seat - view.seat) % 4 == 2 else "opponents"
            if players == 2:
                # One other hand: each unseen card is in it or in the deck.
                for card in (c.index for c in view.unseen_cards()):
                    p = (counts.get((seat, card), 0) + 0.5) / (draws + 1)
                    totals[key][0] -= math.log(p if card in cards else 1 - p)
                    totals[key][1] += 1
                continue
            for card in cards:
                mine = counts.get((seat, card), 0) + 0.5
                everyone = sum(counts.get((s, card), 0) + 0.5 for s in truth)
                totals[key][0] -= math.log(mine / everyone)
                totals[key][1] += 1
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default=Preset.SCOPONE_SCIENTIFICO.value)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--positions", type=int, default=1500)
    parser.add_argument("--draws", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    preset = Preset(args.preset)
    print(machine_line("start"))
    with get_context("spawn").Pool(args.jobs) as pool:
        found: list[Position] = []
        for batch in pool.imap(positions, [(preset, 1000 + i) for i in range(args.games)]):
            found.extend(batch)
        found = found[: args.positions]
        print(f"{preset}: {len(found)} decisions of the searching seats")
        for infer, label in ((False, "uniform deals"), (True, "plays read as evidence")):
            chunks = [found[i :: args.jobs] for i in range(args.jobs)]
            parts = pool.map(loss, [(c, infer, args.draws) for c in chunks])
            cells = []
            for key in ("partner", "opponents"):
                total = sum(p[key][0] for p in parts)
                count = sum(p[key][1] for p in parts)
                if count:
                    cells.append(f"{key} {total / count:.4f}")
            print(f"  {label:<24} log loss per card: {', '.join(cells)}")
    print(machine_line("end"))


if __name__ == "__main__":
    main()
