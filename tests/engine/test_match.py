"""How a match ends: target, fixed deals, tie-breaks, spareggi and the napola to the re."""

from __future__ import annotations

from scopabot.engine import CARDS, Game, OutcomeReason, Rules, Tiebreak

from .helpers import position

# In these positions side 0 has already captured most of the deck, so the deal ending on the
# next two plays gives it carte, denari, settebello and primiera (4 points); ``scope`` adds
# points for side 1.
HANDS = ["4b", "9c"]
TABLE = "4d 6s"
REST = " ".join(str(c) for c in CARDS if str(c) not in {"4b", "9c", "4d", "6s"})


def finish(rules: Rules, *, totals: list[int], scope: list[int], **kw: object) -> Game:
    g = position(
        rules,
        hands=HANDS,
        felt=TABLE,
        captured=[REST, ""],
        scope=scope,
        totals=totals,
        **kw,
    )
    g.play("4b:4d")
    result = g.play("9c")
    assert result.deal_score is not None
    assert result.deal_score.totals == (4 + scope[0], scope[1])
    return g


def test_the_first_side_to_reach_the_target_wins() -> None:
    g = finish(Rules(target=11), totals=[8, 5], scope=[0, 0])
    outcome = g.outcome()
    assert outcome is not None and outcome.winner == 0
    assert outcome.reason is OutcomeReason.TARGET and outcome.totals == (12, 5)
    assert g.is_over and g.legal_moves() == ()


def test_below_the_target_the_match_goes_on_with_the_next_dealer() -> None:
    g = finish(Rules(target=21), totals=[8, 5], scope=[0, 0], dealer=1)
    assert not g.is_over and g.totals == (12, 5)
    assert g.deal_number == 2 and g.dealer == 0 and g.turn == 1
    assert len(g.hand(0)) == 3 and len(g.felt) == 4


def test_when_both_reach_the_target_the_higher_total_wins() -> None:
    g = finish(Rules(target=11), totals=[9, 9], scope=[0, 3])
    outcome = g.outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.totals == (13, 12)


def test_equal_totals_over_the_target_mean_another_deal() -> None:
    g = finish(Rules(target=11), totals=[8, 11], scope=[0, 1])
    assert g.totals == (12, 12) and not g.is_over and g.deal_number == 2


def test_a_fixed_number_of_deals() -> None:
    g = finish(Rules(deals=3), totals=[1, 20], scope=[0, 0], deal_number=2)
    assert not g.is_over and g.deal_number == 3
    g = finish(Rules(deals=3), totals=[1, 20], scope=[0, 0], deal_number=3)
    outcome = g.outcome()
    assert outcome is not None and outcome.winner == 1 and outcome.reason is OutcomeReason.DEALS


def test_a_tie_after_the_fixed_deals_plays_extra_deals() -> None:
    g = finish(Rules(deals=3), totals=[10, 14], scope=[0, 0], deal_number=3)
    assert not g.is_over and g.deal_number == 4
    g = finish(Rules(deals=3), totals=[10, 12], scope=[0, 0], deal_number=4)
    outcome = g.outcome()
    assert outcome is not None and outcome.winner == 0


def test_knock_out_tie_break_starts_spareggi() -> None:
    g = finish(Rules(deals=3, tiebreak=Tiebreak.KO), totals=[10, 14], scope=[0, 0], deal_number=3)
    assert not g.is_over and g.spareggio == 1


def test_the_side_scoring_more_in_a_spareggio_wins_whatever_the_totals() -> None:
    rules = Rules(deals=3, tiebreak=Tiebreak.KO)
    g = finish(rules, totals=[14, 14], scope=[0, 0], deal_number=4, spareggio=1)
    outcome = g.outcome()
    assert outcome is not None and outcome.winner == 0
    assert outcome.reason is OutcomeReason.SPAREGGIO


def test_a_tied_spareggio_leads_to_the_next_one() -> None:
    rules = Rules(deals=3, tiebreak=Tiebreak.KO)
    g = finish(rules, totals=[14, 14], scope=[0, 4], deal_number=4, spareggio=1)
    assert not g.is_over and g.spareggio == 2


def test_a_tied_third_spareggio_is_lost_by_the_side_of_the_last_capture() -> None:
    rules = Rules(deals=3, tiebreak=Tiebreak.KO)
    # Side 0 makes the last capture (4b takes 4d) and the spareggio ends 4 - 4.
    g = finish(rules, totals=[14, 14], scope=[0, 4], deal_number=6, spareggio=3)
    outcome = g.outcome()
    assert outcome is not None and outcome.winner == 1
    assert outcome.reason is OutcomeReason.LAST_CAPTURE_LOSES


def test_extra_deal_tiebreak_never_starts_spareggi() -> None:
    g = finish(Rules(deals=3), totals=[10, 14], scope=[0, 0], deal_number=3)
    assert g.spareggio == 0


def test_napola_to_the_re_wins_the_match_at_once() -> None:
    denari = " ".join(f"{v}d" for v in range(1, 10))
    rules = Rules(napola=True, target=31)
    g = position(rules, hands=["10b", "2c"], felt="10d", captured=[denari, ""], totals=[0, 25])
    g.play("10b:10d")
    result = g.play("2c")
    outcome = result.outcome
    assert outcome is not None and outcome.winner == 0
    assert outcome.reason is OutcomeReason.NAPOLA_REALE
    assert result.deal_score is not None and result.deal_score.sides[0].napola == 10
