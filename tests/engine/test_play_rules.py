"""The rules of a single play: same value first, sums, compulsory capture, scopa, asso."""

from __future__ import annotations

import pytest

from scopabot.engine import Card, IllegalMoveError, IllegalReason, Move, Rules

from .helpers import names, position


def test_a_fante_takes_only_the_fante_not_three_plus_five() -> None:
    # The worked example of the rule documents: table 3, 5, fante.
    g = position(hands=["8b 2c", "1c 2d"], felt="3d 5c 8s")
    assert [str(m) for m in g.legal_moves() if m.card == Card.parse("8b")] == ["8b:8s"]
    with pytest.raises(IllegalMoveError) as info:
        g.play("8b:3d+5c")
    assert info.value.reason is IllegalReason.MUST_TAKE_SAME_VALUE


def test_a_cavallo_chooses_between_one_three_five_and_four_five() -> None:
    # The other worked example: table 1, 3, 4, 5 and a cavallo (9).
    g = position(hands=["9b 2c", "1c 2d"], felt="1d 3s 4c 5d")
    choices = {str(m) for m in g.legal_moves() if m.card == Card.parse("9b")}
    assert choices == {"9b:1d+3s+5d", "9b:4c+5d"}
    g.play("9b:1d+3s+5d")
    assert names(g.felt) == ["4c"]
    assert set(names(g.captured(0))) == {"9b", "1d", "3s", "5d"}


def test_several_cards_of_the_same_value_let_the_player_choose_one() -> None:
    g = position(hands=["7b 2c", "1c 2d"], felt="7d 7c 3s")
    assert {str(m) for m in g.legal_moves() if m.card.value == 7} == {"7b:7d", "7b:7c"}
    with pytest.raises(IllegalMoveError) as info:
        g.play("7b:7d+7c")
    assert info.value.reason is IllegalReason.MUST_TAKE_SAME_VALUE


def test_capturing_is_compulsory() -> None:
    g = position(hands=["6b 2c", "1c 2d"], felt="1d 5s")
    with pytest.raises(IllegalMoveError) as info:
        g.play("6b")
    assert info.value.reason is IllegalReason.MUST_CAPTURE
    assert "take 1d+5s" in str(info.value)
    # ... but the player is free to choose another card of the hand.
    g.play("2c")
    assert names(g.felt) == ["1d", "2c", "5s"]


def test_a_card_that_captures_nothing_is_laid_on_the_table() -> None:
    g = position(hands=["10b 2c", "1c 2d"], felt="1d 5s")
    assert [str(m) for m in g.legal_moves()] == ["10b", "2c"]
    with pytest.raises(IllegalMoveError) as info:
        g.play("10b:1d")
    assert info.value.reason is IllegalReason.WRONG_SUM


def test_refusals_name_the_rule_and_change_nothing() -> None:
    g = position(hands=["6b 2c", "1c 2d"], felt="1d 5s")
    before = g.to_snapshot()
    cases = {
        "3b": IllegalReason.NOT_IN_HAND,
        "6b:6c": IllegalReason.NOT_ON_FELT,
        "6b": IllegalReason.MUST_CAPTURE,
        "2c:1d": IllegalReason.WRONG_SUM,
    }
    for text, reason in cases.items():
        with pytest.raises(IllegalMoveError) as info:
            g.play(text)
        assert info.value.reason is reason, text
        assert not g.is_legal(Move.parse(text))
    with pytest.raises(IllegalMoveError) as info:
        g.play("6b:1d+5s", seat=1)
    assert info.value.reason is IllegalReason.NOT_YOUR_TURN
    assert g.to_snapshot() == before


def test_turns_pass_to_the_right() -> None:
    g = position(hands=["10b 9b", "8c 9c", "6s 9s"], felt="1d", turn=1)
    assert g.turn == 1
    g.play("8c")
    assert g.turn == 2
    g.play("6s")
    assert g.turn == 0


def test_clearing_the_table_is_a_scopa() -> None:
    g = position(hands=["5b 2c", "1c 2d"], felt="2s 3c")
    result = g.play("5b:2s+3c")
    assert result.scopa and g.scope == (1, 0) and g.felt == ()
    assert g.plays()[-1].scopa


def test_the_last_play_of_the_deal_is_never_a_scopa_and_leftovers_go_to_the_last_capturer() -> None:
    rules = Rules(deals=1)
    g = position(rules, hands=["4b", "9c"], felt="4d 6s", captured=["", ""])
    g.play("4b:4d")  # a capture, not a scopa: 6s stays
    assert g.scope == (0, 0)
    result = g.play("9c")  # last card of the deal, captures nothing
    assert result.deal_score is not None
    assert result.leftovers_to == 0 and set(names(result.leftovers)) == {"6s", "9c"}
    assert set(names(g.captured(0))) == {"4b", "4d", "6s", "9c"}

    g = position(rules, hands=["4b", "6c"], felt="4d 6s")
    g.play("4b:4d")
    result = g.play("6c:6s")  # clears the table on the very last play
    assert not result.scopa and g.scope == (0, 0)
    assert result.deal_score is not None and result.deal_score.sides[1].scope == 0


def test_leftovers_go_to_nobody_when_nobody_captured() -> None:
    g = position(Rules(deals=1), hands=["4b", "9c"], felt="1d")
    result = g.play("4b")
    result = g.play("9c")
    assert result.leftovers_to is None and set(names(result.leftovers)) == {"1d", "4b", "9c"}
    assert result.deal_score is not None
    assert [s.cards for s in result.deal_score.sides] == [0, 0]


class TestAssoPigliaTutto:
    rules = Rules(asso_piglia_tutto=True)

    def test_an_asso_takes_the_whole_table_and_it_is_not_a_scopa(self) -> None:
        g = position(self.rules, hands=["1b 2c", "1c 2d"], felt="3d 7d 10s")
        assert [str(m) for m in g.legal_moves() if m.card.value == 1] == ["1b:3d+7d+10s"]
        result = g.play("1b:3d+7d+10s")
        assert not result.scopa and g.scope == (0, 0) and g.felt == ()

    def test_an_asso_on_the_table_is_taken_by_the_asso_alone(self) -> None:
        g = position(self.rules, hands=["1b 2c", "1c 2d"], felt="1d 7d 10s")
        assert [str(m) for m in g.legal_moves() if m.card.value == 1] == ["1b:1d"]
        g = position(self.rules, hands=["1b 2c", "1c 2d"], felt="1d")
        assert g.play("1b:1d").scopa  # rule 1 capture that empties the table: a real scopa

    def test_an_asso_on_an_empty_table_stays_there(self) -> None:
        g = position(self.rules, hands=["1b 2c", "1c 2d"], felt="")
        assert [str(m) for m in g.legal_moves()] == ["1b", "2c"]
        g.play("1b")
        assert names(g.felt) == ["1b"]

    def test_without_the_option_an_asso_is_worth_one(self) -> None:
        g = position(Rules(), hands=["1b 2c", "1c 2d"], felt="3d 7d")
        assert [str(m) for m in g.legal_moves()] == ["1b", "2c"]


def test_a_refusal_carries_the_cards_a_front_end_names() -> None:
    g = position(hands=["6b 2c", "1c 2d"], felt="1d 5s")
    refusals = {}
    for text in ("3b", "6b:6c+1d", "6b", "2c:1d"):
        with pytest.raises(IllegalMoveError) as info:
            g.play(text)
        refusals[text] = info.value
    assert refusals["3b"].card == Card.parse("3b")
    assert refusals["6b:6c+1d"].missing == (Card.parse("6c"),)
    assert refusals["6b"].options == ((Card.parse("1d"), Card.parse("5s")),)
    assert refusals["2c:1d"].reason is IllegalReason.WRONG_SUM
    assert (refusals["2c:1d"].card, refusals["2c:1d"].options) == (Card.parse("2c"), ())
