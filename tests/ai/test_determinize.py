from __future__ import annotations

import random

from scopabot.ai.determinize import Sampler, inferences
from scopabot.engine import Game, Preset, Rules

from .helpers import midgame

SCOPONE = Rules(preset=Preset.SCOPONE_SCIENTIFICO)


def test_sampled_deals_match_the_view() -> None:
    for rules, plays in ((SCOPONE, 13), (Rules(), 9), (Rules(players=3), 4)):
        game = midgame(rules, seed=12, plays=plays)
        view = game.view_for(game.turn)
        sampler = Sampler(view)
        rng = random.Random(0)
        for _ in range(20):
            deal = sampler.sample(rng)
            assert [len(h) for h in deal.hands] == list(view.hand_sizes)
            assert len(deal.deck) == view.deck_size
            assert deal.hands[view.seat] == [c.index for c in view.hand]
            everything = [c for h in deal.hands for c in h] + deal.table + deal.deck
            everything += [c for p in deal.captured for c in p]
            assert sorted(everything) == list(range(40))


def test_a_laid_card_is_read_as_the_signal() -> None:
    # Seat 1 lays the 5c without capturing: seat 2, guessing seat 1's hand, gives it a second
    # 5 far more often than chance would.
    game = Game.from_position(
        SCOPONE,
        hands=[
            ["1d", "2d", "3d", "4d"],
            ["5c", "5d", "6d", "7d"],
            ["8d", "9d", "10d", "1c"],
            ["2c", "3c", "4c", "6c"],
        ],
        table=["10s"],
        turn=1,
    )
    game.play("5c")
    view = game.view_for(2)
    assert (1, 5, True, 0.8) in inferences(view)
    rng = random.Random(1)
    read = Sampler(view)
    blind = Sampler(view, infer=False)
    with_five = sum(any(c % 10 == 4 for c in read.sample(rng).hands[1]) for _ in range(300))
    blind_five = sum(any(c % 10 == 4 for c in blind.sample(rng).hands[1]) for _ in range(300))
    # A soft reading (the signal is trusted at 80%): about 2/3 of the deals instead of 1/4.
    assert with_five > 2 * blind_five


def test_leaving_the_settebello_means_no_seven() -> None:
    game = Game.from_position(
        SCOPONE,
        hands=[["1d", "2d"], ["9b", "3s"], ["8d", "9d"], ["2c", "3c"]],
        table=["7d", "4b"],
        turn=1,
    )
    game.play("9b")
    assert (1, 7, False, 0.9) in inferences(game.view_for(2))
