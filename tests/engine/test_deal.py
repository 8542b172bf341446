"""The lean deal that both the game and the computer players' search run."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scopabot.engine import Game, Preset, PrimieraRule, Rules, deal_totals, score_deal


@settings(max_examples=200, deadline=None)
@given(
    cut=st.lists(st.integers(0, 3), min_size=40, max_size=40),
    scope=st.lists(st.integers(0, 5), min_size=4, max_size=4),
    sides=st.sampled_from([2, 3, 4]),
    napola=st.booleans(),
    re_bello=st.booleans(),
    primiera=st.sampled_from(list(PrimieraRule)),
)
def test_fast_totals_equal_the_breakdown(
    cut: list[int],
    scope: list[int],
    sides: int,
    napola: bool,
    re_bello: bool,
    primiera: PrimieraRule,
) -> None:
    players = 4 if sides == 4 else sides
    rules = Rules(players=players, napola=napola, re_bello=re_bello, primiera=primiera)
    piles: list[list[int]] = [[] for _ in range(rules.sides)]
    for card, side in enumerate(cut):
        if side < rules.sides:
            piles[side].append(card)
    score = score_deal(rules, piles, scope[: rules.sides], deal=1)
    assert deal_totals(rules, piles, scope[: rules.sides]) == list(score.totals)


def test_a_copied_deal_plays_out_without_touching_the_game() -> None:
    for preset in Preset:
        game = Game.new(Rules(preset=preset), seed=5)
        before = game.to_snapshot()
        deal = game.deal.copy()
        totals = deal.playout(random.Random(1))
        assert len(totals) == game.rules.sides
        assert sum(len(p) for p in deal.captured) + len(deal.discarded) == 40
        assert deal.felt == [] and all(not h for h in deal.hands)
        assert game.to_snapshot() == before


def test_the_game_and_its_deal_agree_on_every_random_deal() -> None:
    rng = random.Random(3)
    for seed in range(30):
        game = Game.new(Rules(players=2 + seed % 3, asso_piglia_tutto=seed % 2 == 0), seed=seed)
        shadow = game.deal.copy()
        while True:
            actions = game.legal_index_moves()
            assert actions == shadow.actions()
            action = actions[int(rng.random() * len(actions))]
            over = shadow.apply(*action)
            result = game.play_index_move(action)
            assert over == (result is not None)
            if over:
                shadow.finish()
                assert result is not None and result.deal_score is not None
                assert shadow.totals() == list(result.deal_score.totals)
                break
