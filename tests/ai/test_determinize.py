from __future__ import annotations

import itertools
import math
import random
from collections import Counter

from scopabot.ai.determinize import Sampler, evidence
from scopabot.engine import CARDS, Card, Game, Preset, Rules

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
            everything = [c for h in deal.hands for c in h] + deal.felt + deal.deck
            everything += [c for p in deal.captured for c in p]
            assert sorted(everything) == list(range(40))


def _settebello_refused() -> Game:
    """Seat 1, holding no 7, 9 or 10, lays the 3d on a table where a 7 would take the
    settebello; seats 0, 2 and 3 share every 7, 9 and 10 left and the other threes."""
    seat1 = ["1d", "2d", "3d", "4d", "5d", "6d", "8d", "1c", "2c"]
    felt = ["7d", "10c", "10s", "9c"]
    rest = [str(c) for c in CARDS if str(c) not in seat1 + felt]
    game = Game.from_position(
        SCOPONE, hands=[rest[0:9], seat1, rest[9:18], rest[18:27]], felt=felt, turn=1
    )
    game.play("3d")
    return game


def _held(sampler: Sampler, seat: int, value: int, draws: int = 400) -> int:
    rng = random.Random(1)
    return sum(
        any(c % 10 + 1 == value for c in sampler.sample(rng).hands[seat]) for _ in range(draws)
    )


def test_a_player_who_left_the_settebello_is_read_as_holding_no_seven() -> None:
    view = _settebello_refused().view_for(2)
    read = evidence(view)[1]
    # Against a 5 (which takes nothing there either), a 7 is about e^-5 times as likely: it
    # would have taken the settebello.
    assert read[Card.parse("5c").index] - read[Card.parse("7c").index] > 4
    assert _held(Sampler(view), 1, 7) < _held(Sampler(view, infer=False), 1, 7) / 10


def test_a_lay_makes_the_twin_likelier() -> None:
    view = _settebello_refused().view_for(2)
    read = evidence(view)[1]
    assert read[Card.parse("3s").index] > read[Card.parse("5c").index]
    # The 3c, 3s, 3b are as likely as the 5c, 5s, 5b to be in seat 1's hand when the deal is
    # uniform, clearly likelier when the lay is read.
    threes = {Card.parse(t).index for t in ("3c", "3s", "3b")}
    fives = {Card.parse(t).index for t in ("5c", "5s", "5b")}
    sampler, rng = Sampler(view), random.Random(2)
    hands = [set(sampler.sample(rng).hands[1]) for _ in range(2000)]
    assert sum(len(h & threes) for h in hands) > 1.2 * sum(len(h & fives) for h in hands)


def test_the_chain_draws_from_the_weighted_distribution() -> None:
    # Five hidden cards, 30 placements: the sampled frequencies of seat 1's card match the
    # distribution the evidence defines, computed exactly. Seat 1 laid the 9b where a 7
    # would have taken the settebello, so its last card is rarely a 7.
    game = Game.from_position(
        SCOPONE,
        hands=[["1d", "7c"], ["9b", "3s"], ["8d", "9d"], ["2c", "7s"]],
        felt=["7d", "4b"],
        turn=1,
    )
    game.play("9b")
    view = game.view_for(2)
    sampler = Sampler(view)
    read = evidence(view)
    hidden = sorted(c.index for c in view.unseen_cards())
    exact: Counter[int] = Counter()
    total = 0.0
    for order in set(itertools.permutations(hidden)):
        hands = {0: order[0:2], 1: order[2:3], 3: order[3:5]}
        if any(list(h) != sorted(h) for h in hands.values()):
            continue
        weight = math.exp(sum(read[s][c] for s, h in hands.items() for c in h))
        exact[hands[1][0]] += weight
        total += weight
    draws = 20_000
    rng = random.Random(5)
    seen = Counter(sampler.sample(rng).hands[1][0] for _ in range(draws))
    spread = max(exact.values()) / total - min(exact.values()) / total
    assert spread > 0.1  # the evidence is not flat here, so the test can tell
    for card in hidden:
        assert abs(seen[card] / draws - exact[card] / total) < 0.02


def test_same_seed_same_deals() -> None:
    view = _settebello_refused().view_for(2)
    one = [Sampler(view).sample(random.Random(3)).hands for _ in range(2)]
    assert one[0] == one[1]
