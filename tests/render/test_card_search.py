"""What /scopa play's autocomplete offers for what a player types, in either language."""

from __future__ import annotations

import pytest

from scopabot.engine import CARDS, Card
from scopabot.render.cards import card_words, matches


def offered(typed: str) -> list[str]:
    return [str(c) for c in CARDS if matches(typed, card_words(c))]


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("nove di spade", ["9s"]),
        ("cavallo di spade", ["9s"]),
        ("otto di coppe", ["8c"]),
        ("dieci di bastoni", ["10b"]),
        ("king of cups", ["10c"]),
        ("seven of coins", ["7d"]),
        ("7♦", ["7d"]),
        ("⚔️ 3", ["3s"]),
        ("settebello", ["7d"]),
        ("den 7", ["7d"]),
    ],
)
def test_every_name_finds_its_card(typed: str, expected: list[str]) -> None:
    assert offered(typed) == expected


def test_whatever_the_autocomplete_finds_the_engine_reads() -> None:
    """A name typed in full and sent without picking a suggestion plays the same card."""
    for typed in ("nove di spade", "king of cups", "seven of coins", "7♦"):
        assert [str(Card.parse(typed))] == offered(typed)


def test_a_suit_offers_its_ten_cards_only() -> None:
    for typed, suit in (("spade", "s"), ("swords", "s"), ("coins", "d"), ("♣", "b")):
        assert offered(typed) == [str(c) for c in CARDS if c.suit.value == suit], typed
