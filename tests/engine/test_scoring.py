"""Scoring a deal: every point of docs/rulebook.md, ties, and the options that add points."""

from __future__ import annotations

from scopabot.engine import CARDS, PrimieraRule, Rules, parse_cards, primiera_total, score_deal

from .helpers import breakdown

DENARI = [c for c in CARDS if c.suit.value == "d"]


def idx(text: str) -> list[int]:
    return [c.index for c in parse_cards(text)]


def split(first: str) -> list[list[int]]:
    """Side 0 takes the cards named; side 1 takes the rest of the deck."""
    mine = set(idx(first))
    return [sorted(mine), [c for c in range(40) if c not in mine]]


def test_carte_denari_settebello_primiera_and_scope() -> None:
    # Side 0: 21 cards with 6 denari, the settebello and the better primiera.
    side0 = "7d 7c 7s 6b 1d 2d 3d 4d 5d 1c 2c 3c 4c 5c 1s 2s 3s 4s 5s 1b 2b"
    score = score_deal(Rules(), split(side0), [2, 1], deal=1)
    a, b = score.sides
    assert (a.cards, b.cards) == (21, 19)
    assert (a.carte, a.denari, a.settebello, a.primiera, a.scope) == (1, 1, 1, 1, 2)
    assert (b.carte, b.denari, b.settebello, b.primiera, b.scope) == (0, 0, 0, 0, 1)
    assert a.total == 6 and b.total == 1
    assert a.primiera_total == 21 + 21 + 21 + 18


def test_twenty_cards_each_and_five_denari_each_score_nothing() -> None:
    side0 = "1d 2d 3d 4d 5d 1c 2c 3c 4c 5c 6c 7c 8c 9c 10c 1s 2s 3s 4s 5s"
    score = score_deal(Rules(), split(side0), [0, 0], deal=1)
    assert [s.carte for s in score.sides] == [0, 0]
    assert [s.denari for s in score.sides] == [0, 0]


def test_primiera_values_follow_the_scale() -> None:
    assert primiera_total(idx("7d 6c 1s 5b")) == 21 + 18 + 16 + 15
    assert primiera_total(idx("4d 3c 2s 8b")) == 14 + 13 + 12 + 10
    assert primiera_total(idx("9d 10c 8s 10b")) == 40
    assert primiera_total(idx("7d 7c 7s")) is None


def test_a_side_missing_a_suit_cannot_win_the_primiera() -> None:
    # Side 0 has three sevens but no bastoni at all: side 1 wins the primiera.
    side0 = "7d 7c 7s 6d 6c 6s 1d 1c 1s"
    score = score_deal(Rules(), split(side0), [0, 0], deal=1)
    assert score.sides[0].primiera_total is None
    assert [s.primiera for s in score.sides] == [0, 1]


def test_equal_primiera_scores_nothing() -> None:
    a = idx("7d 7c 6s 6b 1d 1c")
    b = idx("7s 7b 6d 6c 1s 1b")
    score = score_deal(Rules(), [a, b], [0, 0], deal=1)
    assert score.sides[0].primiera_total == score.sides[1].primiera_total
    assert [s.primiera for s in score.sides] == [0, 0]


def test_primiera_by_sevens() -> None:
    rules = Rules(primiera=PrimieraRule.SEVENS)
    # More sevens wins even without all suits.
    assert [s.primiera for s in score_deal(rules, split("7d 7c 7s"), [0, 0], deal=1).sides] == [
        1,
        0,
    ]
    # Equal sevens: more sixes.
    piles = [idx("7d 7c 6d 6c 6s"), idx("7s 7b 6b 1d 1c 1s")]
    assert [s.primiera for s in score_deal(rules, piles, [0, 0], deal=1).sides] == [1, 0]
    # Equal sevens and sixes: more assi.
    piles = [idx("7d 7c 6d 6c 1s"), idx("7s 7b 6s 6b 1d 1c")]
    assert [s.primiera for s in score_deal(rules, piles, [0, 0], deal=1).sides] == [0, 1]
    # All equal: nobody.
    piles = [idx("7d 7c 6d 6c 1d 1c"), idx("7s 7b 6s 6b 1s 1b")]
    assert [s.primiera for s in score_deal(rules, piles, [0, 0], deal=1).sides] == [0, 0]


def test_re_bello_only_with_its_option() -> None:
    piles = split("10d")
    assert [s.re_bello for s in score_deal(Rules(), piles, [0, 0], deal=1).sides] == [0, 0]
    on = score_deal(Rules(re_bello=True), piles, [0, 0], deal=1)
    assert [s.re_bello for s in on.sides] == [1, 0]


def test_napola_three_plus_each_further_denaro() -> None:
    rules = Rules(napola=True)

    def napola(cards: str) -> int:
        return score_deal(rules, split(cards), [0, 0], deal=1).sides[0].napola

    assert napola("1d 2d 3d") == 3
    assert napola("1d 2d 3d 4d 5d 7d") == 5
    assert napola("1d 2d 4d 5d") == 0
    assert score_deal(Rules(), split("1d 2d 3d"), [0, 0], deal=1).sides[0].napola == 0


def test_napola_to_the_re_is_flagged() -> None:
    rules = Rules(napola=True)
    all_denari = " ".join(str(c) for c in DENARI)
    score = score_deal(rules, split(all_denari), [0, 0], deal=1)
    assert score.napola_reale == 0 and score.sides[0].napola == 10
    assert score_deal(Rules(), split(all_denari), [0, 0], deal=1).napola_reale is None


def test_three_players_need_a_unique_maximum() -> None:
    rules = Rules(players=3)
    a = idx("1d 2d 3d 4c 5c 6c 7c 8c 9c 10c 1s 2s 3s")  # 13 cards, 3 denari
    b = idx("4d 5d 6d 4s 5s 6s 7s 8s 9s 10s 1b 2b 3b")  # 13 cards, 3 denari
    c = [i for i in range(40) if i not in set(a) | set(b)]  # 14 cards, 4 denari
    score = score_deal(rules, [a, b, c], [0, 0, 0], deal=1)
    assert [s.carte for s in score.sides] == [0, 0, 1]
    assert [s.denari for s in score.sides] == [0, 0, 1]
    score = score_deal(rules, [a, b, []], [0, 0, 0], deal=1)
    assert [s.carte for s in score.sides] == [0, 0, 0]  # 13 and 13: a tie at the top


def test_points_add_up_to_the_breakdown() -> None:
    score = score_deal(Rules(napola=True, re_bello=True), split("1d 2d 3d 7d 10d"), [3, 0], deal=2)
    for side in score.sides:
        assert side.total == sum(breakdown(side))
    assert score.sides[0].total == 1 + 3 + 1 + 3  # settebello, scope, re bello, napola (5-5 denari)
    assert score.deal == 2
