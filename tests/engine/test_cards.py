from __future__ import annotations

import pytest

from scopabot.engine import (
    CARDS,
    DENARI_SUIT,
    FELT_ORDER,
    PRIMIERA_OF,
    PRIMIERA_POINTS,
    RE_BELLO,
    SETTEBELLO,
    SUIT_OF,
    VALUE_OF,
    Card,
    CardParseError,
    Game,
    InvalidMoveError,
    Move,
    Rules,
    Suit,
    format_cards,
    index_move_of,
    move_of,
    parse_cards,
)


def test_every_card_round_trips_through_its_notation() -> None:
    assert len(CARDS) == 40 and len(set(CARDS)) == 40
    for card in CARDS:
        assert Card.parse(str(card)) == card
        assert Card.from_index(card.index) == card


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7d", "7d"),
        ("7D", "7d"),
        (" 10c ", "10c"),
        ("1s", "1s"),
        ("8c", "8c"),
        ("settebello", "7d"),
        ("Settebello", "7d"),
        ("re di denari", "10d"),
        ("re bello", "10d"),
        ("fante coppe", "8c"),
        ("fante di coppe", "8c"),
        ("asso spade", "1s"),
        ("Asso di Spade", "1s"),
        ("cavallo di bastoni", "9b"),
        ("sette denari", "7d"),
        ("3 bastoni", "3b"),
    ],
)
def test_parse_accepts_notation_and_italian_names(text: str, expected: str) -> None:
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize("text", ["", "11d", "0c", "7x", "d7", "asso", "re di picche", "7d 8d"])
def test_parse_rejects_what_is_not_a_card(text: str) -> None:
    with pytest.raises(CardParseError) as info:
        Card.parse(text)
    assert "is not a card" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_card_values_and_suits() -> None:
    assert Card.parse("8c").value == 8 and Card.parse("8c").suit is Suit.COPPE
    assert Card.parse("10d").italian == "re di denari"
    with pytest.raises(CardParseError):
        Card(11, Suit.DENARI)


def test_several_cards() -> None:
    assert [str(c) for c in parse_cards("1d 3s+5b")] == ["1d", "3s", "5b"]
    assert [str(c) for c in parse_cards("re di denari, asso spade")] == ["10d", "1s"]
    assert format_cards(parse_cards("5b 1d 3s")) == "1d+3s+5b"


def test_moves_round_trip_and_parse_errors_are_their_own_kind() -> None:
    move = Move.parse("9c:5b+1d+3s")
    assert str(move) == "9c:1d+3s+5b" and Move.parse(str(move)) == move
    assert Move.parse("settebello") == Move(Card.parse("7d"))
    assert Move.parse("re di coppe:re di denari").capture == frozenset({Card.parse("10d")})
    for bad in ["", "9c:", "9c:9c", "9q", "9c:1z"]:
        with pytest.raises(InvalidMoveError):
            Move.parse(bad)


def test_the_index_tables_say_what_the_cards_say() -> None:
    for card in CARDS:
        i = card.index
        assert VALUE_OF[i] == card.value and SUIT_OF[i] == card.suit.number
        assert PRIMIERA_OF[i] == PRIMIERA_POINTS[card.value]
        assert (SUIT_OF[i] == DENARI_SUIT) == (card.suit is Suit.DENARI)
        assert FELT_ORDER[i] == card.sort_key()[0] * 4 + card.sort_key()[1]
    assert CARDS[SETTEBELLO] == Card.parse("settebello")
    assert CARDS[RE_BELLO] == Card.parse("re bello")


def test_moves_and_actions_convert_both_ways() -> None:
    g = Game.from_position(
        Rules(), hands=[["9c", "1b", "4s"], ["10s", "2c", "3c"]], felt=["1d", "3s", "4b", "5c"]
    )
    moves = g.legal_moves()
    assert [index_move_of(m) for m in moves] == g.legal_index_moves()
    assert [move_of(a) for a in g.legal_index_moves()] == list(moves)
    assert len(moves) == 4
