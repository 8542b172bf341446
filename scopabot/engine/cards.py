"""Cards of the 40-card Italian deck and their text notation.

A card is written value-then-suit (``7d`` is the settebello, ``10d`` the re bello). Parsing
also accepts every name players type, in Italian and in English (``settebello``, ``re di
denari``, ``nove di spade``, ``asso spade``, ``king of cups``, ``seven of coins``) and the suit
symbols cards are shown with (``7♦``, ``7🪙``), so that the bot and the terminal take what a
person would naturally write.

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
import unicodedata
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
        >>> [str(Card.parse(t)) for t in ("nove di spade", "King of Cups", "7 ♦", "il re bello")]
        ['9s', '10c', '7d', '10d']
        """
        card = _parse(text)
        if card is None:
            shown = text if len(text) <= 24 else text[:21] + "..."
            raise CardParseError(
                f"{shown!r} is not a card: write value and suit like 7d, 10c, 1s "
                "(d denari, c coppe, s spade, b bastoni) or its name, like 'sette di denari' "
                "or 'seven of coins'"
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

SPOKEN_VALUES: Final[dict[int, tuple[str, ...]]] = {
    1: ("asso", "uno", "ace", "one"),
    2: ("due", "two"),
    3: ("tre", "three"),
    4: ("quattro", "four"),
    5: ("cinque", "five"),
    6: ("sei", "six"),
    7: ("sette", "seven"),
    8: ("fante", "otto", "donna", "jack", "knave", "eight"),
    9: ("cavallo", "nove", "cavaliere", "knight", "horse", "nine"),
    10: ("re", "dieci", "king", "ten", "rey"),
}
"""Every word a player may type for a value, Italian then English: the court cards by their
figure (fante, cavallo, re) and by their number (otto, nove, dieci), as both are said."""

SPOKEN_SUITS: Final[dict[Suit, tuple[str, ...]]] = {
    Suit.DENARI: ("denari", "denaro", "danari", "ori", "oro", "coins", "coin", "♦", "♢", "🪙"),
    Suit.COPPE: ("coppe", "coppa", "cups", "cup", "♥", "♡", "🏆"),
    Suit.SPADE: ("spade", "spada", "swords", "sword", "♠", "♤", "⚔", "🗡"),
    Suit.BASTONI: ("bastoni", "bastone", "clubs", "club", "batons", "baton", "♣", "♧", "🪵"),
}
"""Every word or symbol a player may type for a suit, Italian then English; the symbols are
the ones cards are printed with (French suits as the usual keyboard stand-ins)."""

FILLER_WORDS: Final = frozenset({"di", "de", "del", "dei", "d", "of", "the", "il", "l", "un", "a"})
"""Words around a card's name that name nothing: "il sette di denari", "the king of cups"."""

_WORD_VALUES: Final = {word: value for value, words in SPOKEN_VALUES.items() for word in words}
_WORD_SUITS: Final = {word: suit for suit, words in SPOKEN_SUITS.items() for word in words} | {
    suit.value: suit for suit in SUITS
}
_SYMBOLS: Final = "".join(w for words in SPOKEN_SUITS.values() for w in words if len(w) == 1)
_SPECIAL: Final = {
    "settebello": Card(7, Suit.DENARI),
    "sette bello": Card(7, Suit.DENARI),
    "re bello": Card(10, Suit.DENARI),
    "rebello": Card(10, Suit.DENARI),
}
_NOTATION = re.compile(r"^(10|[1-9])\s*([dcsb])$")
_PUNCTUATION = re.compile(r"[.!;]+$")
_SHOWN = re.compile(r"^([^()]+?)\s*\([^()]*\)$")


def _clean(text: str) -> str:
    """Lower case, no accents or emoji variation marks, symbols spaced out as words."""
    decomposed = unicodedata.normalize("NFKD", text.strip().lower())
    kept = "".join(ch for ch in decomposed if not unicodedata.combining(ch) and ch != "\ufe0f")
    for symbol in _SYMBOLS:
        kept = kept.replace(symbol, f" {symbol} ")
    return " ".join(_PUNCTUATION.sub("", kept).replace("'", " ").replace("’", " ").split())


def _parse(text: str) -> Card | None:
    cleaned = _clean(text)
    if cleaned in _SPECIAL:
        return _SPECIAL[cleaned]
    match = _NOTATION.match(cleaned)
    if match:
        return Card(int(match.group(1)), _WORD_SUITS[match.group(2)])
    shown = _SHOWN.match(cleaned)  # copied from the screen: "7d (settebello)"
    if shown:
        return _parse(shown.group(1))
    words = [w for w in cleaned.split() if w not in FILLER_WORDS]
    if " ".join(words) in _SPECIAL:  # "il settebello"
        return _SPECIAL[" ".join(words)]
    if len(words) != 2:
        return None
    value_word, suit_word = words
    if value_word in _WORD_SUITS and (suit_word.isdigit() or suit_word in _WORD_VALUES):
        value_word, suit_word = suit_word, value_word  # "♦7", "denari sette"
    value = int(value_word) if value_word.isascii() and value_word.isdigit() else None
    if value is None:
        value = _WORD_VALUES.get(value_word)
    suit = _WORD_SUITS.get(suit_word)
    if value is None or suit is None or not 1 <= value <= 10:
        return None
    return Card(value, suit)


_BETWEEN_CARDS = re.compile(r"[,+&]|\s+(?:e|and)\s+", re.IGNORECASE)


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read several cards separated by spaces, commas or ``+``.

    Names may be used when separated by commas, ``+``, "e" or "and" (``re di denari, asso
    spade``, ``four of clubs and five of cups``).

    >>> [str(c) for c in parse_cards("1d 3s+5b")]
    ['1d', '3s', '5b']
    >>> [str(c) for c in parse_cards("quattro di bastoni e cinque di coppe")]
    ['4b', '5c']
    """
    parts = [p for p in _BETWEEN_CARDS.split(text) if p.strip()]
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
