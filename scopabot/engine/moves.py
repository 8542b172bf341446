"""A move: the card played and the table cards it takes, written ``9c:1d+3s+5b``.

The capture is part of the move because the player chooses it: with 1, 3, 4 and 5 on the table
a cavallo may take 1+3+5 or 4+5, and a front end offers both.

>>> m = Move.parse("9c:5b+1d+3s")
>>> str(m)
'9c:1d+3s+5b'
>>> Move.parse(str(m)) == m
True
>>> str(Move.parse("7d"))
'7d'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .cards import Card, CardParseError, format_cards, parse_cards


class InvalidMoveError(ValueError):
    """The text is not a move (bad notation), as opposed to a move the rules forbid."""


class IllegalReason(StrEnum):
    """Why the rules refuse a move; front ends translate these into sentences."""

    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    NOT_IN_HAND = "not_in_hand"
    MUST_CAPTURE = "must_capture"
    MUST_TAKE_SAME_VALUE = "must_take_same_value"
    NOT_ON_TABLE = "not_on_table"
    WRONG_SUM = "wrong_sum"


class IllegalMoveError(ValueError):
    """A well-formed move that the rules do not allow here; ``reason`` says which rule."""

    def __init__(self, reason: IllegalReason, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Move:
    card: Card
    capture: frozenset[Card] = frozenset()

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read ``CARD`` or ``CARD:CAPTURED+CAPTURED``; Italian card names work too."""
        played, sep, taken = text.partition(":")
        if sep and not played.strip():
            raise InvalidMoveError("name the card you play before ':', like 9c:4b+5c")
        try:
            card = Card.parse(played)
            capture = frozenset(parse_cards(taken)) if sep else frozenset()
        except CardParseError as exc:
            raise InvalidMoveError(str(exc)) from None
        if sep and not capture:
            raise InvalidMoveError(f"{text!r}: name the captured cards after ':'")
        if card in capture:
            raise InvalidMoveError(f"{text!r}: a card cannot capture itself")
        return cls(card, capture)

    @property
    def is_capture(self) -> bool:
        return bool(self.capture)

    def sorted_capture(self) -> tuple[Card, ...]:
        return tuple(sorted(self.capture, key=Card.sort_key))

    def __str__(self) -> str:
        if not self.capture:
            return str(self.card)
        return f"{self.card}:{format_cards(self.capture)}"
