from __future__ import annotations

import random

import pytest

from scopabot.ai import make_player
from scopabot.ai.determinize import Sampler
from scopabot.ai.features import card_weights
from scopabot.ai.search import SearchPlayer, exact_value
from scopabot.ai.sim import playout, settle
from scopabot.engine import CARDS, Card, Deal, Game, Move, Preset, Rules

from .helpers import ALL_RULES, midgame


def deal_of(game: Game) -> Deal:
    """The engine's whole position as the search sees a sampled deal (every card known)."""
    return game.deal.copy()


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: f"{r.preset}-{r.players}")
def test_search_plays_legally_everywhere(rules: Rules) -> None:
    game = Game.new(rules.replace(deals=1), seed=4)
    players = [make_player("hard", seed=s, iterations=4) for s in range(rules.players)]
    while not game.deal_scores:
        move = players[game.turn].choose(game.view_for(game.turn))
        game.play(move)


def test_same_seed_same_budget_same_move() -> None:
    game = midgame(Rules(preset=Preset.SCOPONE_SCIENTIFICO), seed=8, plays=6)
    view = game.view_for(game.turn)
    a = make_player("expert", seed=3, iterations=30, time_budget=60.0)
    b = make_player("expert", seed=3, iterations=30, time_budget=60.0)
    assert isinstance(a, SearchPlayer) and isinstance(b, SearchPlayer)
    assert a.evaluate(view) == b.evaluate(view)
    assert a.choose(view) == b.choose(view)
    assert a.last_iterations == 30


def test_time_budget_stops_the_search() -> None:
    game = Game.new(Rules(preset=Preset.SCOPONE_SCIENTIFICO), seed=2)
    player = make_player("expert", seed=1, iterations=10**6, time_budget=0.05)
    assert isinstance(player, SearchPlayer)
    player.choose(game.view_for(game.turn))
    assert 0 < player.last_iterations < 10**6


def test_search_takes_the_settebello() -> None:
    game = Game.from_position(
        Rules(),
        hands=[["7c", "5b"], ["7s", "2c"]],
        felt=["7d", "3b", "4c"],
        turn=0,
    )
    player = make_player("hard", seed=0, iterations=20, time_budget=60.0)
    assert player.choose(game.view_for(0)) == Move.parse("7c:7d")


def _minimax(deal: Deal, side: int) -> float:
    values = []
    for card, taken in deal.actions():
        d = deal.copy()
        values.append(settle(d, side) if d.apply(card, taken) else _minimax(d, side))
    return max(values) if deal.sides[deal.turn] == side else min(values)


@pytest.mark.parametrize("preset", [Preset.SCOPONE_SCIENTIFICO, Preset.SCOPA])
def testexact_value_is_exact(preset: Preset) -> None:
    rules = Rules(preset=preset)
    plays = 32 if preset is Preset.SCOPONE_SCIENTIFICO else 31
    for seed in range(8):
        game = midgame(rules, seed=seed, plays=plays)
        deal = deal_of(game)
        side = rules.side_of(game.turn)
        assert exact_value(deal.copy(), side, -1e9, 1e9) == _minimax(deal.copy(), side)


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: f"{r.preset}-{r.players}")
def test_playouts_finish_the_deal_with_every_card(rules: Rules) -> None:
    for seed in range(5):
        game = midgame(rules, seed=seed, plays=3)
        for informed in (False, True):
            deal = deal_of(game)
            before = sum(len(p) for p in deal.captured) + len(deal.felt) + deal.left
            before += len(deal.discarded)
            playout(deal, random.Random(seed), 0.1, card_weights(rules), informed=informed)
            assert deal.left == 0 and not any(deal.hands) and not deal.felt
            assert sum(len(p) for p in deal.captured) + len(deal.discarded) == before


def test_budgets_that_cannot_search_are_refused() -> None:
    with pytest.raises(ValueError, match="at least one sampled deal"):
        make_player("hard", seed=0, iterations=0)
    with pytest.raises(ValueError, match="some time"):
        make_player("expert", seed=0, time_budget=0)


def test_the_one_possible_deal_is_searched_once() -> None:
    # Two-player scopa with the deck empty: the cards seat 0 cannot see are exactly the
    # opponent's hand, so every sampled deal would be this same deal, solved exactly.
    hands = [["2d", "4c", "5b"], ["6c", "8d", "1b"]]
    felt = ["2s", "4s", "10b"]
    named = {Card.parse(c) for c in [*hands[0], *hands[1], *felt]}
    rest = [c for c in CARDS if c not in named]
    game = Game.from_position(
        Rules(), hands=hands, felt=felt, captured=[rest[::2], rest[1::2]], turn=0, dealer=1
    )
    view = game.view_for(0)
    for level in ("hard", "expert"):
        player = make_player(level, seed=11, iterations=200, time_budget=60.0)
        assert isinstance(player, SearchPlayer)
        values = player.evaluate(view)
        assert player.last_iterations == 1
        # The value of each move is the exact value of the real deal after it.
        for move, value in values.items():
            deal = deal_of(game)
            card, taken = move.card.index, tuple(c.index for c in move.capture)
            over = deal.apply(card, taken)
            exact = settle(deal, 0) if over else exact_value(deal, 0, -1e9, 1e9)
            assert value == pytest.approx(exact, abs=1e-5)
    assert Sampler(view).is_one_deal


def test_hidden_cards_with_several_places_are_sampled() -> None:
    # Scopone, last round: two other hands still hold cards, so the deals differ.
    game = midgame(Rules(preset=Preset.SCOPONE_SCIENTIFICO), seed=8, plays=33)
    view = game.view_for(game.turn)
    assert view.deck_size == 0 and not Sampler(view).is_one_deal
    player = make_player("hard", seed=1, iterations=25, time_budget=60.0)
    assert isinstance(player, SearchPlayer)
    player.evaluate(view)
    assert player.last_iterations == 25
    # Two-player scopa with cards still in the deck: the refills' order is hidden.
    early = Game.new(Rules(), seed=11)
    assert not Sampler(early.view_for(early.turn)).is_one_deal
