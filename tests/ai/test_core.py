"""The search's core on masks plays by the engine's rules: the engine's Deal is the reference.

Random deals, for every preset and option, are played through both side by side; at every
play the legal-move lists, the capture, the scopa and the whole position must agree, and the
finished deal must score the same points.
"""

from __future__ import annotations

import math
import random
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopabot.ai import core
from scopabot.ai.determinize import Sampler
from scopabot.ai.features import card_weights
from scopabot.ai.search import exact_value
from scopabot.ai.sim import playout, reward, settle
from scopabot.engine import VALUE_OF, Deal, Game, Preset, PrimieraRule, Rules, score_deal

from .helpers import ALL_RULES, midgame


@st.composite
def any_rules(draw: st.DrawFn) -> Rules:
    preset = draw(st.sampled_from(list(Preset)))
    players = draw(st.sampled_from([2, 3, 4])) if preset is Preset.SCOPA else 4
    return Rules(
        preset=preset,
        players=players,
        asso_piglia_tutto=draw(st.booleans()),
        napola=draw(st.booleans()),
        re_bello=draw(st.booleans()),
        primiera=draw(st.sampled_from(list(PrimieraRule))),
    )


def engine_actions(deal: Deal) -> list[tuple[int, int]]:
    return sorted((card, core.mask_of(taken)) for card, taken in deal.actions())


def assert_same_position(deal: Deal, s: core.State) -> None:
    assert [sorted(h) for h in deal.hands] == [sorted(h) for h in s.hands]
    assert core.mask_of(deal.felt) == s.felt
    assert deal.code == s.code
    assert [core.mask_of(p) for p in deal.captured] == s.piles
    assert deal.scope == s.scope
    assert (deal.turn, deal.left, deal.last) == (s.turn, s.left, s.last)


def play_both(deal: Deal, rng: random.Random) -> None:
    """Play ``deal`` to its end at random, the core alongside, comparing every step."""
    c = core.core_for(deal.rules)
    s = core.State.of(deal)
    while True:
        assert_same_position(deal, s)
        legal = engine_actions(deal)
        assert sorted(core.actions(c, s)) == legal
        card, taken = legal[int(rng.random() * len(legal))]
        engine_taken = tuple(t for t in deal.felt if taken >> t & 1)
        over = deal.apply(card, engine_taken)
        assert core.apply(c, s, card, taken) == over
        assert s.scopa == deal.scopa
        if over:
            break
    deal.finish()
    core.finish(c, s)
    assert_same_position(deal, s)
    totals = c.totals(s.piles, s.scope)
    assert totals == deal.totals()
    assert totals == list(score_deal(deal.rules, deal.captured, deal.scope, deal=1).totals)
    for side in range(deal.rules.sides):
        assert c.reward(s.piles, s.scope, side) == pytest.approx(settle(deal.copy(), side))


@settings(max_examples=150, deadline=None)
@given(rules=any_rules(), seed=st.integers(0, 2**32), moves=st.integers(0, 2**32))
def test_random_deals_play_the_same_through_the_core(rules: Rules, seed: int, moves: int) -> None:
    play_both(Game.new(rules, seed=seed).deal.copy(), random.Random(moves))


@settings(max_examples=60, deadline=None)
@given(
    rules=any_rules(),
    seed=st.integers(0, 2**32),
    plays=st.integers(0, 30),
    moves=st.integers(0, 2**32),
)
def test_sampled_deals_play_the_same_through_the_core(
    rules: Rules, seed: int, plays: int, moves: int
) -> None:
    # The search builds its states from the sampler's deals: a shuffled deck, a deal begun.
    game = midgame(rules, seed=seed % 1000, plays=plays % (rules.players * rules.hand_size))
    view = game.view_for(game.turn)
    deal = Sampler(view).sample(random.Random(moves))
    play_both(deal, random.Random(moves + 1))


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: f"{r.preset}-{r.players}")
def test_the_exact_search_agrees_with_the_engine_deal(rules: Rules) -> None:
    c = core.core_for(rules)
    # The last round, at most 7 cards left in the hands: the deck is empty, as it must be
    # for the exact search.
    left = min(7, rules.players * rules.hand_size)
    for seed in range(4):
        game = midgame(rules, seed=seed, plays=40 - rules.felt_size - left)
        deal = game.deal.copy()
        assert deal.pos == len(deal.deck) and deal.left == left
        s = core.State.of(deal)
        for side in range(rules.sides):
            expected = exact_value(deal.copy(), side, -1e9, 1e9)
            assert core.exact_value(c, s, side) == pytest.approx(expected)
            assert_same_position(deal, s)  # the search put every card back


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: f"{r.preset}-{r.players}")
def test_playouts_on_the_core_play_every_card(rules: Rules) -> None:
    c = core.core_for(rules)
    for seed in range(5):
        game = midgame(rules, seed=seed, plays=3)
        deal = game.deal.copy()
        before = sum(len(p) for p in deal.captured) + len(deal.felt) + deal.left
        for informed in (False, True):
            s = core.State.of(deal)
            rng = random.Random(seed)
            stream = [rng.random() for _ in range(50)]
            value = core.playout_reward(c, s, 0, stream, 0.3, informed)
            assert s.left == 0 and not any(s.hands) and not s.felt
            assert sum(p.bit_count() for p in s.piles) <= before
            assert value == c.reward(s.piles, s.scope, 0)


def test_the_scores_tables_match_the_rule_book() -> None:
    # Asso, due, tre of denari: napola of 3; with the 4 and 5 as well, of 5.
    assert core.NAPOLA_OF[0b111] == 3 and core.NAPOLA_OF[0b11111] == 5
    assert core.NAPOLA_OF[0b1111111111] == 10 and core.NAPOLA_OF[0b110] == 0
    # The best primiera card of a suit: the seven (21) over the six (18) and the asso (16).
    assert core.PRIMIERA_OF_SUIT[1 << 6 | 1 << 5] == 21
    assert core.PRIMIERA_OF_SUIT[1 << 0 | 1 << 9] == 16


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: f"{r.preset}-{r.players}")
def test_the_greedy_playout_plays_as_the_reference_on_the_engine_deal(rules: Rules) -> None:
    # With no random move, the core's playout makes the very plays of the playout written on
    # the engine's Deal (ai/sim.py): same greedy rule, same deal, same points.
    c = core.core_for(rules)
    weights = card_weights(rules)
    for informed in (False, True):
        for seed in range(12):
            deal = Game.new(rules.replace(deals=1), seed=seed).deal.copy()
            s = core.State.of(deal)
            playout(deal, random.Random(0), 0.0, weights, informed=informed)
            side = seed % rules.sides
            value = core.playout_reward(c, s, side, [0.5] * 8, 0.0, informed)
            assert value == pytest.approx(reward(deal, side))
            assert s.piles == [core.mask_of(p) for p in deal.captured]
            assert s.scope == deal.scope


def random_playout_on_the_deal(deal: Deal, bits: random.Random) -> list[int]:
    """The core's random playout written plainly on the engine's Deal, drawing the same
    random numbers for the same choices: the round in progress, when it is a whole round of
    scopa, as one of the rounds' orders of play, else each hand shuffled in turn from the
    seat to play, then one card of each seat in turn until a seat has none; each later
    round as one of the rounds' orders of play; one capture drawn among several."""
    c = core.core_for(deal.rules)
    draw = bits.getrandbits
    in_turn = [deal.hands[(deal.turn + i) % deal.n] for i in range(deal.n)]
    if deal.rules.redeals and all(len(h) == deal.rules.hand_size for h in in_turn):
        orders = c.round_orders(0)
        order = list(orders[draw(24) % len(orders)]([card for h in in_turn for card in h]))
    else:
        hands = [list(core.shuffled(h, draw)) for h in in_turn]
        order = []
        i = 0
        while hands[i]:
            order.append(hands[i].pop(0))
            i = (i + 1) % deal.n
    pos = 0
    deck = tuple(deal.deck[deal.pos :])
    while True:
        for card in order:
            legal = [taken for played, taken in deal.actions() if played == card]
            assert legal, "the playout played a card its seat does not hold"
            felt = core.mask_of(deal.felt)
            options = core.captures(c, felt, core.code_of(felt), VALUE_OF[card])
            if len(options) > 1:
                taken_mask = options[draw(24) % len(options)][0]
            else:
                taken_mask = options[0][0] if options else 0
            taken = tuple(t for t in deal.felt if taken_mask >> t & 1)
            assert sorted(taken) in [sorted(t) for t in legal]
            if deal.apply(card, taken):
                deal.finish()
                return deal.totals()
        orders = c.round_orders(pos)
        order = list(orders[draw(24) % len(orders)](deck))
        pos += c.round_cards


@settings(max_examples=80, deadline=None)
@given(
    rules=any_rules(),
    seed=st.integers(0, 2**32),
    plays=st.integers(0, 30),
    moves=st.integers(0, 2**32),
)
def test_the_random_playout_plays_and_scores_as_the_engine_deal(
    rules: Rules, seed: int, plays: int, moves: int
) -> None:
    # The benchmark's measure of the core: its plays are legal plays of the engine's Deal,
    # and its points are the Deal's, from a dealt position or one sampled mid-deal.
    game = midgame(rules, seed=seed % 1000, plays=plays % (rules.players * rules.hand_size))
    deal = Sampler(game.view_for(game.turn)).sample(random.Random(moves))
    c = core.core_for(rules)
    s = core.State.of(deal)
    points = core.random_playout(c, s, random.Random(moves).getrandbits)
    reference = deal.copy()
    assert points == random_playout_on_the_deal(reference, random.Random(moves))
    assert s.piles == [core.mask_of(p) for p in reference.captured]
    assert s.scope == reference.scope
    assert (s.last, s.turn) == (reference.last, reference.turn)
    assert not s.felt and not any(s.hands) and s.left == 0


@pytest.mark.parametrize("size", range(11))
def test_a_hand_is_shuffled_into_every_order_alike(size: int) -> None:
    # The random playout plays each hand in a uniformly random order: every order of the
    # hand must come from exactly one choice of a getter at each stage.
    stages = core.SHUFFLES[size]
    hand = tuple(range(size))
    if size <= 9:
        # Every choice of a getter at each stage, in turn (9! = 362,880 for nine cards).
        made = [hand]
        for stage in stages:
            made = [getter(cards) for cards in made for getter in stage]
        assert len(stages) <= (1 if size <= 6 else 2)
        assert sorted(made) == sorted(permutations(hand))
    else:
        # Too many to list: which half comes first, every way once; then every order of
        # the first half, and of the rest, each given alone (the hand is the two in turn).
        halves, front, back = stages
        h = size // 2
        firsts = [frozenset(g(hand)[:h]) for g in halves]
        assert len(set(firsts)) == len(firsts) == math.comb(size, h)
        assert all(
            sorted(g(hand)[h:]) == sorted(set(hand) - f)
            for g, f in zip(halves, firsts, strict=True)
        )
        assert sorted(g(hand) for g in front) == sorted(permutations(hand[:h]))
        assert sorted(g(hand) for g in back) == sorted(permutations(hand[h:]))
    # Each stage's getter is looked up by a random number: over the draws, every hand order.
    rng = random.Random(size)
    assert sorted(core.shuffled(list(hand), rng.getrandbits)) == list(hand)


@settings(max_examples=150, deadline=None)
@given(
    rules=any_rules(),
    owners=st.lists(st.integers(-1, 2), min_size=40, max_size=40),
    scope=st.lists(st.integers(0, 5), min_size=3, max_size=3),
)
def test_any_split_of_the_cards_scores_as_the_engine_scores_it(
    rules: Rules, owners: list[int], scope: list[int]
) -> None:
    # The piles of a finished deal, and the odd ones too (cards left to nobody, a suit
    # missing from every pile): the core's counts are the engine's scoring.
    piles = [
        [c for c in range(40) if owners[c] % rules.sides == side and owners[c] >= 0]
        for side in range(rules.sides)
    ]
    scope = scope[: rules.sides]
    c = core.core_for(rules)
    masks = [core.mask_of(p) for p in piles]
    assert c.totals(masks, scope) == list(score_deal(rules, piles, scope, deal=1).totals)
    # Every card taken by one side or the other, and suits held by one side only.
    first = [c for c in range(40) if owners[c] % 2 == 0]
    split = [first, [c for c in range(40) if c not in first]]
    if rules.sides == 2:
        masks = [core.mask_of(p) for p in split]
        expected = list(score_deal(rules, split, scope, deal=1).totals)
        assert c.totals(masks, scope) == expected
        by_suit = [list(range(0, 20)), list(range(20, 40))]
        masks = [core.mask_of(p) for p in by_suit]
        assert c.totals(masks, scope) == list(score_deal(rules, by_suit, scope, deal=1).totals)


def test_the_random_playout_forgets_its_rows_between_playouts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The rows of the table codes met are dropped when there are too many; a playout
    # started after that plays and scores as the engine's Deal all the same.
    monkeypatch.setattr(core, "_ROWS_LIMIT", 3)
    for rules in (Rules(), Rules(preset=Preset.SCOPONE_SCIENTIFICO, asso_piglia_tutto=True)):
        c = core.Core(rules)
        for seed in range(6):
            deal = Game.new(rules, seed=seed).deal
            s = core.State.of(deal)
            points = core.random_playout(c, s, random.Random(seed).getrandbits)
            assert points == random_playout_on_the_deal(deal.copy(), random.Random(seed))
            assert len(c.codes) >= 3  # the rows of this playout, past the limit


def test_the_random_playout_draws_among_several_captures_as_they_are_listed() -> None:
    # A card with several captures draws one from the choices its row holds (one of the
    # table's cards of its value, captures by sum of whole values, or captures listed on
    # the table): the same draw as from the list captures() makes, so the same play as the
    # engine's Deal. The tables met by these playouts hold every kind of choice.
    met: set[int] = set()
    for rules in (Rules(), Rules(preset=Preset.SCOPONE_CLASSICO, napola=True)):
        c = core.Core(rules)
        for seed in range(40):
            deal = Game.new(rules, seed=seed).deal
            s = core.State.of(deal)
            points = core.random_playout(c, s, random.Random(seed).getrandbits)
            assert points == random_playout_on_the_deal(deal.copy(), random.Random(seed))
        met |= {kind for kind, *_ in c.several}
    assert met == {core._SAME_VALUE, core._BY_SUM, core._LISTED}
