"""Dealing: presets, rounds of three, who deals and who leads, the three kings."""

from __future__ import annotations

import itertools

import pytest

from scopabot.engine import FirstDealer, Game, Preset, Rules

from .helpers import names


@pytest.mark.parametrize(
    ("rules", "hand", "felt", "deck"),
    [
        (Rules(players=2), 3, 4, 30),
        (Rules(players=3), 3, 4, 27),
        (Rules(players=4), 3, 4, 24),
        (Rules(preset=Preset.SCOPONE_SCIENTIFICO), 10, 0, 0),
        (Rules(preset=Preset.SCOPONE_CLASSICO), 9, 4, 0),
    ],
)
def test_each_preset_deals_its_cards(rules: Rules, hand: int, felt: int, deck: int) -> None:
    g = Game.new(rules, seed=3)
    assert [len(g.hand(s)) for s in range(rules.players)] == [hand] * rules.players
    assert len(g.felt) == felt and g.deck_size == deck
    assert g.turn == (g.dealer + 1) % rules.players


@pytest.mark.parametrize(("players", "rounds"), [(2, 6), (3, 4), (4, 3)])
def test_scopa_rounds_of_three(players: int, rounds: int) -> None:
    g = Game.new(Rules(players=players, deals=1), seed=11)
    refills = 0
    first = g.deal_number
    while g.deal_number == first and not g.is_over:
        g.play_index_move(g.legal_index_moves()[0])
        if all(len(g.hand(s)) == 3 for s in range(players)) and g.deal_number == first:
            refills += 1
    assert refills == rounds - 1


def test_the_dealer_passes_to_the_right_and_the_next_player_leads() -> None:
    g = Game.new(Rules(preset=Preset.SCOPONE_SCIENTIFICO, target=101), seed=5)
    dealers = [g.dealer]
    while g.deal_number < 4:
        g.play_index_move(g.legal_index_moves()[0])
        if g.move_count % 40 == 0:
            dealers.append(g.dealer)
            assert g.turn == (g.dealer + 1) % 4
    assert dealers == [(dealers[0] + k) % 4 for k in range(4)]


def _first_seed_with_three_kings() -> int:
    for seed in range(5000):
        g = Game.new(Rules(three_kings_redeal=False), seed=seed)
        if sum(1 for c in g.felt if c.value == 10) >= 3:
            return seed
    raise AssertionError("no seed shows three kings")


def test_three_kings_on_the_table_are_dealt_again() -> None:
    seed = _first_seed_with_three_kings()
    kept = Game.new(Rules(three_kings_redeal=False), seed=seed)
    redealt = Game.new(Rules(), seed=seed)
    assert sum(1 for c in kept.felt if c.value == 10) >= 3
    assert sum(1 for c in redealt.felt if c.value == 10) < 3
    assert len(redealt.record().shuffles) >= 2 and len(kept.record().shuffles) == 1
    # The thrown-back shuffle is part of the record, so replay gives the same game.
    assert Game.replay(redealt.record()).to_snapshot() == redealt.to_snapshot()


def test_first_dealer_random_is_seeded() -> None:
    dealers = {Game.new(Rules(players=4), seed=s).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert Game.new(Rules(), seed=9).dealer == Game.new(Rules(), seed=9).dealer
    assert Game.new(Rules(), seed=9).dealer_draw == ()


def test_first_dealer_by_draw_highest_card_deals_and_ties_draw_again() -> None:
    saw_tie = False
    for seed in range(200):
        g = Game.new(Rules(players=4, first_dealer=FirstDealer.DRAW), seed=seed)
        rounds = g.dealer_draw
        assert rounds, "the draw is shown to the players"
        assert {seat for seat, _ in rounds[0]} == {0, 1, 2, 3}
        for earlier, later in itertools.pairwise(rounds):
            best = max(c.value for _, c in earlier)
            tied = {seat for seat, c in earlier if c.value == best}
            assert len(tied) > 1 and {seat for seat, _ in later} == tied
            saw_tie = True
        last = rounds[-1]
        best = max(c.value for _, c in last)
        assert [seat for seat, c in last if c.value == best] == [g.dealer]
        drawn = [c for rnd in rounds for _, c in rnd]
        assert len(set(drawn)) == len(drawn)
    assert saw_tie


def test_dealt_cards_are_the_whole_deck() -> None:
    g = Game.new(Rules(players=3), seed=1)
    dealt = [c for s in range(3) for c in g.hand(s)] + list(g.felt) + list(g.deck())
    assert sorted(c.index for c in dealt) == list(range(40))
    assert len(names(g.felt)) == 4
