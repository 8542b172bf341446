"""Cards of the 40-card Italian deck and their text notation.

A card is written value-then-suit (``7d`` is the settebello, ``10d`` the re bello). Parsing
also accepts the Italian names players type (``settebello``, ``re di denari``, ``asso spade``)
so that the bot and the terminal take what a person would naturally write.

Internally every card is also a small integer (its *index*, ``suit * 10 + value - 1``): the
engine's hot paths work on indices, the public API on :class:`Card`.

>>> Card.parse("7d")
Card(value=7, suit=<Suit.DENARI: 'd'>)
>>> str(Card.parse("re di denari"))
'10d'
>>> Card.parse(str(Card(9, Suit.COPPE))) == Card(9, Suit.COPPE)
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Final


class Suit(StrEnum):
    """The four suits, by the letter used in the notation."""

    DENARI = "d"
    COPPE = "c"
    SPADE = "s"
    BASTONI = "b"

    @property
    def number(self) -> int:
        """0..3 in the order denari, coppe, spade, bastoni."""
        return _SUIT_INDEX[self]

    @property
    def italian(self) -> str:
        return _SUIT_ITALIAN[self]


SUITS: Final = (Suit.DENARI, Suit.COPPE, Suit.SPADE, Suit.BASTONI)
_SUIT_INDEX: Final = {s: i for i, s in enumerate(SUITS)}
_SUIT_ITALIAN: Final = {
    Suit.DENARI: "denari",
    Suit.COPPE: "coppe",
    Suit.SPADE: "spade",
    Suit.BASTONI: "bastoni",
}


class CardParseError(ValueError):
    """The text is not a card at all (as opposed to a card that may not be played)."""


@dataclass(frozen=True, slots=True, order=False)
class Card:
    """One card; its capture value is its number (fante 8, cavallo 9, re 10)."""

    value: int
    suit: Suit

    def __post_init__(self) -> None:
        if not 1 <= self.value <= 10:
            raise CardParseError(f"a card's value is 1..10, not {self.value}")

    @property
    def index(self) -> int:
        """The card's integer index, ``suit * 10 + value - 1`` (0..39)."""
        return _SUIT_INDEX[self.suit] * 10 + self.value - 1

    @property
    def italian(self) -> str:
        """The name an Italian player says: ``sette di denari``, ``re di coppe``."""
        return f"{VALUE_NAMES[self.value]} di {self.suit.italian}"

    @staticmethod
    def from_index(index: int) -> Card:
        return CARDS[index]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card from the notation or from its Italian name, ignoring case.

        >>> [str(Card.parse(t)) for t in ("1S", "fante coppe", "asso di spade", "settebello")]
        ['1s', '8c', '1s', '7d']
        """
        card = _parse(text)
        if card is None:
            shown = text if len(text) <= 24 else text[:21] + "..."
            raise CardParseError(
                f"{shown!r} is not a card: write value and suit like 7d, 10c, 1s "
                "(d denari, c coppe, s spade, b bastoni) or its name, like 'sette di denari'"
            )
        return card

    def sort_key(self) -> tuple[int, int]:
        return (self.value, _SUIT_INDEX[self.suit])

    def __str__(self) -> str:
        return f"{self.value}{self.suit.value}"


CARDS: Final = tuple(Card(v, s) for s in SUITS for v in range(1, 11))
"""Every card, so that ``CARDS[i].index == i``."""

VALUE_NAMES: Final = {
    1: "asso",
    2: "due",
    3: "tre",
    4: "quattro",
    5: "cinque",
    6: "sei",
    7: "sette",
    8: "fante",
    9: "cavallo",
    10: "re",
}

_WORD_VALUES: Final = {name: value for value, name in VALUE_NAMES.items()} | {
    "ace": 1,
    "uno": 1,
    "donna": 8,
    "jack": 8,
    "knight": 9,
    "king": 10,
    "rey": 10,
}
_WORD_SUITS: Final = {
    "denari": Suit.DENARI,
    "denaro": Suit.DENARI,
    "ori": Suit.DENARI,
    "coppe": Suit.COPPE,
    "coppa": Suit.COPPE,
    "spade": Suit.SPADE,
    "spada": Suit.SPADE,
    "bastoni": Suit.BASTONI,
    "bastone": Suit.BASTONI,
    "d": Suit.DENARI,
    "c": Suit.COPPE,
    "s": Suit.SPADE,
    "b": Suit.BASTONI,
}
_SPECIAL: Final = {
    "settebello": Card(7, Suit.DENARI),
    "sette bello": Card(7, Suit.DENARI),
    "re bello": Card(10, Suit.DENARI),
    "rebello": Card(10, Suit.DENARI),
}
_NOTATION = re.compile(r"^(10|[1-9])\s*([dcsb])$")
_FILLER: Final = {"di", "de", "del", "dei", "of"}


def _parse(text: str) -> Card | None:
    cleaned = " ".join(text.strip().lower().split())
    if cleaned in _SPECIAL:
        return _SPECIAL[cleaned]
    match = _NOTATION.match(cleaned)
    if match:
        return Card(int(match.group(1)), _WORD_SUITS[match.group(2)])
    words = [w for w in cleaned.replace("'", " ").split() if w not in _FILLER]
    if len(words) != 2:
        return None
    value_word, suit_word = words
    value = int(value_word) if value_word.isdigit() else _WORD_VALUES.get(value_word)
    suit = _WORD_SUITS.get(suit_word)
    if value is None or suit is None or not 1 <= value <= 10:
        return None
    return Card(value, suit)


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read several cards separated by spaces, commas or ``+``.

    Italian names may be used when separated by commas or ``+`` (``re di denari, asso spade``).

    >>> [str(c) for c in parse_cards("1d 3s+5b")]
    ['1d', '3s', '5b']
    """
    parts = [p for p in re.split(r"[,+]", text) if p.strip()]
    out: list[Card] = []
    for part in parts:
        tokens = part.split()
        if all(_NOTATION.match(t.lower()) for t in tokens):
            out.extend(Card.parse(t) for t in tokens)
        else:
            out.append(Card.parse(part))
    return tuple(out)


def format_cards(cards: tuple[Card, ...] | list[Card] | frozenset[Card]) -> str:
    """Cards in the notation, sorted by value then suit, joined by ``+``."""
    return "+".join(str(c) for c in sorted(cards, key=Card.sort_key))


# Per-index tables for the hot paths (the game's loop and the computer players' search), so
# that nothing outside this module need know how an index is made.
VALUE_OF: Final = tuple(i % 10 + 1 for i in range(40))
"""The value (1..10) of each card index: ``VALUE_OF[c.index] == c.value``."""
SUIT_OF: Final = tuple(i // 10 for i in range(40))
"""The suit number (0..3, as :attr:`Suit.number`) of each card index."""
DENARI_SUIT: Final = 0
"""The suit number of denari: indices 0..9 are the denari, so ``c < 10`` tests for one."""
SETTEBELLO: Final = 6
"""The index of the settebello (``7d``), which scores a point by itself."""
RE_BELLO: Final = 9
"""The index of the re bello (``10d``), a point by itself when ``Rules.re_bello`` is on."""
