"""Card names and the few words written on the pictures and in their alt text, in two languages.

Cards are named by :func:`scopabot.render.cards.card_name`, the one vocabulary of every message
(asso, fante, cavallo, re; ace, jack, knight, king; coins, cups, swords, clubs), written here in
lower case for the middle of a sentence, with the settebello and the re bello called so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from scopabot.engine import Card, Rules

from .cards import card_name as card_words
from .i18n import Lang, elides, with_ad
from .text import SPECIAL_NAMES

LANGS: Final = ("en", "it")


WORDS: Final[dict[str, dict[str, str]]] = {
    "en": {
        "table": "Table",
        "empty": "empty",
        "empty_table": "The table is empty",
        "deck": "{n} cards in the deck",
        "deck_one": "1 card in the deck",
        "deck_none": "the deck is empty",
        "deck_label": "deck",
        "deals": "{name} deals",
        "turn": "{name}'s turn",
        "your_turn": "your turn",
        "deal": "Deal {n}",
        "to_target": "to {n} points",
        "to_target_one": "to 1 point",
        "fixed_deals": "{n} deals",
        "last": "last play: {name} played {card}",
        "last_took": " and took {cards}",
        "laid": "laid",
        "took": "took",
        "scopa": "scopa",
        "and": "and",
        "taken": "{n} taken",
        "hand": "Your hand",
        "hand_of": "{name}'s hand",
        "hand_empty": "no cards in hand",
        "total": "Total",
        "points": "{n} points",
        "point": "1 point",
        "cards": "Cards",
        "denari": "Coins",
        "settebello": "Settebello",
        "primiera": "Primiera",
        "scope": "Scope",
        "re_bello": "Re bello",
        "napola": "Napola",
        "primiera_cards": "primiera cards",
        "standings": "Standings",
        "final": "Final standings",
        "wins": "{name} wins",
        "undecided": "the match is undecided",
        "over": "Match over",
        "dealer_mark": "D",
    },
    "it": {
        "table": "Tavolo",
        "empty": "vuoto",
        "empty_table": "Il tavolo è vuoto",
        "deck": "{n} carte nel mazzo",
        "deck_one": "1 carta nel mazzo",
        "deck_none": "il mazzo è finito",
        "deck_label": "mazzo",
        "deals": "{name} dà le carte",
        "turn": "tocca a {name}",
        "your_turn": "tocca a te",
        "deal": "Smazzata {n}",
        "to_target": "ai {n} punti",
        "to_target_one": "a 1 punto",
        "to_target_vowel": "agli {n} punti",
        "fixed_deals": "{n} smazzate",
        "last": "ultima giocata: {name} ha giocato {card}",
        "last_took": " e ha preso {cards}",
        "laid": "calata",
        "took": "presa",
        "scopa": "scopa",
        "and": "e",
        "taken": "{n} prese",
        "hand": "La tua mano",
        "hand_of": "Mano di {name}",
        "hand_empty": "nessuna carta in mano",
        "total": "Totale",
        "points": "{n} punti",
        "point": "1 punto",
        "cards": "Carte",
        "denari": "Denari",
        "settebello": "Settebello",
        "primiera": "Primiera",
        "scope": "Scope",
        "re_bello": "Re bello",
        "napola": "Napola",
        "primiera_cards": "carte della primiera",
        "standings": "Classifica",
        "final": "Classifica finale",
        "wins": "vince {name}",
        "undecided": "la partita finisce senza vincitore",
        "over": "Partita finita",
        "dealer_mark": "M",
    },
}


def word(lang: str, key: str, **values: object) -> str:
    """A phrase in ``lang`` ("en" or "it"); any other language falls back to English.

    A phrase about ``n`` may have a singular (``key_one``) and an Italian form for a number
    read with a vowel first (``key_vowel``: "agli 11 punti")."""
    table = WORDS.get(lang, WORDS["en"])
    n = values.get("n")
    if isinstance(n, int):
        if n == 1 and f"{key}_one" in table:
            key = f"{key}_one"
        elif lang == "it" and elides(n) and f"{key}_vowel" in table:
            key = f"{key}_vowel"
    template = with_ad(table[key], values) if lang == "it" else table[key]
    return template.format(**values)


def card_name(card: Card, lang: str = "en", *, article: bool = False) -> str:
    """``7 of coins (settebello)``, ``jack of cups``; ``7 di denari (settebello)``, ``re di
    spade``; with ``article``, "the 7 of coins", "l'asso di spade", "il re di coppe"."""
    words = card_words(card, Lang(lang))
    name = words[0].lower() + words[1:]
    if article:
        the = ("l'" if card.value == 1 else "il ") if lang == "it" else "the "
        name = the + name
    special = SPECIAL_NAMES.get(str(card))
    return f"{name} ({special})" if special else name


def card_list(
    cards: Sequence[Card], lang: str = "en", *, last_and: bool = False, article: bool = False
) -> str:
    """Cards named and joined by commas (or "a, b and c" with ``last_and``)."""
    names = [card_name(c, lang, article=article) for c in cards]
    if last_and and len(names) > 1:
        return ", ".join(names[:-1]) + f" {word(lang, 'and')} " + names[-1]
    return ", ".join(names)


def count_phrase(lang: str, n: int, one: str, many: str) -> str:
    return word(lang, one) if n == 1 else word(lang, many, n=n)


def side_names(rules: Rules, names: Sequence[str]) -> tuple[str, ...]:
    """A side is named by its players: "Marco & Giulia" for a pair, else the player."""
    if len(names) != rules.players:
        raise ValueError(f"{rules.players} seat names needed, got {len(names)}")
    return tuple(" & ".join(names[s] for s in rules.seats_of(side)) for side in range(rules.sides))


ALT_TEXT_LIMIT: Final = 1024
"""Discord keeps at most this many characters of an attachment's description."""


def clip(text: str, limit: int = ALT_TEXT_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
