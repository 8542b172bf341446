"""Random games of every preset and option set keep the invariants of the rules."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scopabot.engine import (
    CARDS,
    Game,
    IllegalMoveError,
    Move,
    Preset,
    PrimieraRule,
    Rules,
    Tiebreak,
)

from .helpers import breakdown

rules_strategy = st.builds(
    Rules,
    preset=st.sampled_from(list(Preset)),
    players=st.just(0),
    asso_piglia_tutto=st.booleans(),
    napola=st.booleans(),
    re_bello=st.booleans(),
    primiera=st.sampled_from(list(PrimieraRule)),
    target=st.sampled_from([1, 11, 16]),
    tiebreak=st.sampled_from(list(Tiebreak)),
    three_kings_redeal=st.booleans(),
).flatmap(
    lambda r: (
        st.sampled_from([2, 3, 4]).map(lambda n: r.replace(players=n))
        if r.preset is Preset.SCOPA
        else st.just(r)
    )
)


def all_cards(g: Game) -> list[str]:
    cards = [c for s in range(g.rules.players) for c in g.hand(s)]
    cards += [*g.felt, *g.deck(), *g.discarded()]
    cards += [c for side in range(g.rules.sides) for c in g.captured(side)]
    return [str(c) for c in cards]


def check_accounted(g: Game) -> None:
    cards = all_cards(g)
    assert len(cards) == 40 and Counter(cards) == Counter(str(c) for c in CARDS)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_strategy, seed=st.integers(0, 2**32), data=st.data())
def test_random_matches_keep_every_invariant(rules: Rules, seed: int, data: st.DataObject) -> None:
    g = Game.new(rules, seed=seed)
    check_accounted(g)
    deals_seen = 0
    while not g.is_over:
        legal = g.legal_moves()
        assert legal and len(set(legal)) == len(legal)
        # A random card of the hand with a random capture is accepted iff it is listed.
        hand = g.hand(g.turn)
        card = data.draw(st.sampled_from(hand))
        felt = list(g.felt)
        taken = data.draw(st.lists(st.sampled_from(felt), unique=True) if felt else st.just([]))
        attempt = Move(card, frozenset(taken))
        before = g.to_snapshot()
        if attempt in legal:
            assert g.is_legal(attempt)
        else:
            try:
                g.play(attempt)
            except IllegalMoveError:
                pass
            else:
                raise AssertionError(f"illegal {attempt} was accepted")
            assert g.to_snapshot() == before
        move = data.draw(st.sampled_from(legal))
        result = g.play(move)
        check_accounted(g)
        if result.deal_score is not None:
            deals_seen += 1
            for side in result.deal_score.sides:
                assert side.total == sum(breakdown(side))
            assert (
                sum(s.cards for s in result.deal_score.sides)
                + (len(result.leftovers) if result.leftovers_to is None else 0)
                <= 40
            )
    outcome = g.outcome()
    assert outcome is not None and deals_seen == len(g.deal_scores) == outcome.deals
    assert tuple(sum(d.totals[s] for d in g.deal_scores) for s in range(rules.sides)) == g.totals
    assert Game.replay(g.record()).to_snapshot() == g.to_snapshot()
    assert Game.from_snapshot(g.to_snapshot()).to_snapshot() == g.to_snapshot()
