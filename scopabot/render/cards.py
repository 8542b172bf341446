"""Cards in words, as people say them: "7 di denari", "King of cups" — never only a symbol.

Screen readers read these aloud and phones show them without special fonts, so every card a
person sees is written this way (a suit symbol may sit beside it, never replace it).

>>> from scopabot.engine import Card, Move
>>> card_name(Card.parse("7d"), Lang.IT), card_name(Card.parse("10c"), Lang.EN)
('7 di denari', 'King of cups')
>>> move_name(Move.parse("9c:4b+5c"), Lang.EN)
'Knight of cups takes 4 of clubs + 5 of cups'
"""

from __future__ import annotations

from collections.abc import Iterable

from scopabot.engine import (
    FILLER_WORDS,
    SPOKEN_SUITS,
    SPOKEN_VALUES,
    VALUE_NAMES,
    Card,
    Move,
    Suit,
)

from .i18n import Lang, current_lang

_VALUES = {
    Lang.EN: {1: "Ace", 8: "Jack", 9: "Knight", 10: "King"},
    Lang.IT: {1: "Asso", 8: "Fante", 9: "Cavallo", 10: "Re"},
}
_SUITS = {
    Lang.EN: {
        Suit.DENARI: "coins",
        Suit.COPPE: "cups",
        Suit.SPADE: "swords",
        Suit.BASTONI: "clubs",
    },
    Lang.IT: {
        Suit.DENARI: "denari",
        Suit.COPPE: "coppe",
        Suit.SPADE: "spade",
        Suit.BASTONI: "bastoni",
    },
}
_OF = {Lang.EN: "of", Lang.IT: "di"}
SUIT_SYMBOLS = {Suit.DENARI: "🪙", Suit.COPPE: "🏆", Suit.SPADE: "⚔️", Suit.BASTONI: "🪵"}


def card_name(card: Card, lang: Lang | None = None) -> str:
    lang = lang or current_lang.get()
    value = _VALUES[lang].get(card.value, str(card.value))
    return f"{value} {_OF[lang]} {_SUITS[lang][card.suit]}"


def card_the(card: Card, lang: Lang | None = None) -> str:
    """The card in the middle of a sentence, with its article and no capital: "il fante di
    denari", "l'asso di coppe", "il 7 di spade"; "the jack of coins", "the 7 of swords".

    >>> card_the(Card.parse("8d"), Lang.IT), card_the(Card.parse("1c"), Lang.IT)
    ('il fante di denari', "l'asso di coppe")
    >>> card_the(Card.parse("10c"), Lang.EN)
    'the king of cups'
    """
    lang = lang or current_lang.get()
    name = card_name(card, lang)
    name = name[0].lower() + name[1:]
    if lang is Lang.IT:
        return ("l'" if card.value == 1 else "il ") + name
    return "the " + name


def cards_the(cards: Iterable[Card], lang: Lang | None = None) -> str:
    """Several cards mid-sentence, each with its article, the last after "e"/"and":
    "l'asso di spade, il 3 di bastoni e il 5 di coppe"."""
    lang = lang or current_lang.get()
    names = [card_the(c, lang) for c in sorted(cards, key=Card.sort_key)]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + (" e " if lang is Lang.IT else " and ") + names[-1]


def cards_names(cards: Iterable[Card], lang: Lang | None = None, *, sep: str = " · ") -> str:
    return sep.join(card_name(c, lang) for c in sorted(cards, key=Card.sort_key))


def capture_name(move: Move, lang: Lang | None = None) -> str:
    """What a move takes, "4 of clubs + 5 of cups" (empty when it only lays the card)."""
    return " + ".join(card_name(c, lang) for c in move.sorted_capture())


def move_name(move: Move, lang: Lang | None = None) -> str:
    lang = lang or current_lang.get()
    if not move.is_capture:
        verb = "gioca" if lang is Lang.IT else "lays"
        return f"{card_name(move.card, lang)} ({verb})"
    takes = "prende" if lang is Lang.IT else "takes"
    return f"{card_name(move.card, lang)} {takes} {capture_name(move, lang)}"


_SPECIAL_NAMES = {Card(7, Suit.DENARI): "settebello", Card(10, Suit.DENARI): "re bello"}


def card_words(card: Card) -> str:
    """Every way a person may name ``card``, lower case, for matching what they type: both
    languages' names, every word the engine reads for its value and suit ("nove", "nine",
    "swords", "♠"), a nickname ("settebello") and the notation — so a player on an English
    client may still type "denari", and "nove di spade" finds the cavallo di spade."""
    names = [card_name(card, lang) for lang in Lang]
    names += [f"{VALUE_NAMES[card.value]} {_SUITS[Lang.IT][card.suit]}", str(card)]
    if card in _SPECIAL_NAMES:
        names.append(_SPECIAL_NAMES[card])
    names += [" ".join(SPOKEN_VALUES[card.value]), " ".join(SPOKEN_SUITS[card.suit])]
    names.append(" ".join(sorted(FILLER_WORDS)))
    return " · ".join(names).lower()


def matches(typed: str, words: str) -> bool:
    """Whether every word typed is found in ``words`` ("den 7" finds "7 di denari"); a suit
    symbol typed against the value ("7♦") counts as two words."""
    spaced = typed.lower().replace("\ufe0f", "")
    for symbols in SPOKEN_SUITS.values():
        for symbol in symbols:
            if len(symbol) == 1:
                spaced = spaced.replace(symbol, f" {symbol} ")
    return all(part in words for part in spaced.split())
