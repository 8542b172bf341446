"""Every name a player would type for a card, in Italian and in English, reads as that card."""

from __future__ import annotations

import pytest

from scopabot.engine import CARDS, Card, CardParseError, Move, parse_cards

IT_NUMBERS = ["asso", "due", "tre", "quattro", "cinque", "sei", "sette", "otto", "nove", "dieci"]
IT_FIGURES = {8: "fante", 9: "cavallo", 10: "re"}
EN_NUMBERS = ["ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
EN_FIGURES = {8: "jack", 9: "knight", 10: "king"}
IT_SUITS = {"d": "denari", "c": "coppe", "s": "spade", "b": "bastoni"}
EN_SUITS = {"d": "coins", "c": "cups", "s": "swords", "b": "clubs"}
SYMBOLS = {"d": "🪙", "c": "🏆", "s": "⚔️", "b": "🪵"}
FRENCH = {"d": "♦", "c": "♥", "s": "♠", "b": "♣"}


def names_of(card: Card) -> list[str]:
    v, s = card.value, card.suit.value
    names = [
        f"{IT_NUMBERS[v - 1]} di {IT_SUITS[s]}",
        f"{IT_NUMBERS[v - 1]} {IT_SUITS[s]}",
        f"il {IT_NUMBERS[v - 1]} di {IT_SUITS[s]}",
        f"{v} di {IT_SUITS[s]}",
        f"{EN_NUMBERS[v - 1]} of {EN_SUITS[s]}",
        f"the {EN_NUMBERS[v - 1].title()} of {EN_SUITS[s].title()}",
        f"{v} of {EN_SUITS[s]}",
        f"{v}{SYMBOLS[s]}",
        f"{v} {SYMBOLS[s]}",
        f"{v}{FRENCH[s]}",
        f"{SYMBOLS[s]}{v}",
        f"{card} ",
    ]
    if v in IT_FIGURES:
        names += [f"{IT_FIGURES[v]} di {IT_SUITS[s]}", f"{EN_FIGURES[v]} of {EN_SUITS[s]}"]
    return names


@pytest.mark.parametrize("card", CARDS, ids=str)
def test_every_card_is_read_from_every_name_a_player_types(card: Card) -> None:
    for name in names_of(card):
        assert Card.parse(name) == card, name


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("nove di spade", "9s"),  # the three refusals
        ("otto di coppe", "8c"),
        ("dieci di bastoni", "10b"),
        ("king of cups", "10c"),
        ("seven of coins", "7d"),
        ("Sette di Denari.", "7d"),
        ("asso d'oro", "1d"),
        ("un asso di coppe", "1c"),
        ("il settebello", "7d"),
        ("7d (settebello)", "7d"),  # copied from the terminal's hand
        ("10d (re bello)", "10d"),
        ("denari sette", "7d"),
        ("knave of swords", "8s"),
    ],
)
def test_names_as_typed(text: str, expected: str) -> None:
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize("text", ["re", "di denari", "sette di", "nove nove", "7 of", "♦", "11d"])
def test_half_a_name_is_not_a_card(text: str) -> None:
    with pytest.raises(CardParseError, match="is not a card"):
        Card.parse(text)


def test_captures_and_moves_take_names_in_both_languages() -> None:
    assert [str(c) for c in parse_cards("four of clubs and five of cups")] == ["4b", "5c"]
    assert [str(c) for c in parse_cards("quattro di bastoni e cinque di coppe")] == ["4b", "5c"]
    assert str(Move.parse("nove di coppe: 4♣ + 5♥")) == str(Move.parse("9c:4b+5c"))
