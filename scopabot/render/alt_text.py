"""What each picture shows, in words: the attachment's description, read by screen readers.

Each function reads exactly what its picture is drawn from, so the words can say no more than
the picture: the hand's alt text is built from the seat's own view, like the hand itself.
"""

from __future__ import annotations

from collections.abc import Sequence

from scopabot.engine import PRIMIERA_POINTS, SUITS, Card, DealScore, GameView, Outcome, Rules

from .words import card_list, card_name, clip, count_phrase, side_names, word


def table_alt_text(
    view: GameView, names: Sequence[str], *, lang: str = "en", reader: int | None = None
) -> str:
    """ "Table: 7 of coins, 3 of cups; 24 cards in the deck; Giulia deals; Marco's turn".

    ``reader`` is the seat the picture is drawn for, when only that seat sees it (the
    terminal): its turn is "your turn", not "You's turn"."""
    rules = view.rules
    table = card_list(view.felt, lang) if view.felt else word(lang, "empty")
    parts = [f"{word(lang, 'table')}: {table}"]
    if view.deck_size:
        parts.append(count_phrase(lang, view.deck_size, "deck_one", "deck"))
    else:
        parts.append(word(lang, "deck_none"))
    parts.append(word(lang, "deals", name=names[view.dealer]))
    if view.outcome is None and reader is not None and view.turn == reader:
        parts.append(word(lang, "your_turn"))
    elif view.outcome is None:
        parts.append(word(lang, "turn", name=names[view.turn]))
    if view.plays:
        last = view.plays[-1]
        said = word(
            lang, "last", name=names[last.seat], card=card_name(last.card, lang, article=True)
        )
        if last.capture:
            said += word(
                lang, "last_took", cards=card_list(last.capture, lang, last_and=True, article=True)
            )
        if last.scopa:
            said += f", {word(lang, 'scopa')}"
        parts.append(said)
    sides = side_names(rules, names)
    parts.append(", ".join(f"{n} {t}" for n, t in zip(sides, view.totals, strict=True)))
    if view.outcome is not None:
        parts.append(outcome_phrase(view.outcome, sides, lang=lang))
    return clip("; ".join(parts))


def hand_alt_text(view: GameView, *, lang: str = "en") -> str:
    """ "Your hand: 1: jack of cups; 2: 7 of coins (settebello)", numbered as the buttons."""
    return hand_alt_text_of(view.hand, view.is_my_turn, lang=lang)


def hand_alt_text_of(hand: Sequence[Card], my_turn: bool, *, lang: str = "en") -> str:
    """:func:`hand_alt_text` from the cards and whether it is the seat's turn."""
    if not hand:
        return clip(f"{word(lang, 'hand')}: {word(lang, 'hand_empty')}")
    cards = "; ".join(f"{i}: {card_name(c, lang)}" for i, c in enumerate(hand, 1))
    text = f"{word(lang, 'hand')}: {cards}"
    if my_turn:
        text += f" ({word(lang, 'your_turn')})"
    return clip(text)


def deal_alt_text(
    score: DealScore,
    *,
    rules: Rules,
    names: Sequence[str],
    piles: Sequence[Sequence[Card]] | None = None,
    lang: str = "en",
) -> str:
    """Each side's points of one deal with the counts behind them (and primiera cards)."""
    sides = side_names(rules, names)
    out = [word(lang, "deal", n=score.deal)]
    for side, name in zip(score.sides, sides, strict=True):
        bits = [
            f"{word(lang, 'cards').lower()} {side.cards}" + _won(side.carte),
            f"{word(lang, 'denari').lower()} {side.denari_count}" + _won(side.denari),
        ]
        if side.settebello:
            bits.append(word(lang, "settebello").lower())
        primiera = "-" if side.primiera_total is None else str(side.primiera_total)
        bits.append(f"{word(lang, 'primiera').lower()} {primiera}" + _won(side.primiera))
        if piles is not None:
            best = primiera_cards(piles[side.side])
            if best:
                bits.append(f"{word(lang, 'primiera_cards')} {card_list(best, lang)}")
        if side.scope:
            bits.append(f"{word(lang, 'scope').lower()} {side.scope}")
        if side.re_bello:
            bits.append(word(lang, "re_bello").lower())
        if side.napola:
            bits.append(f"{word(lang, 'napola').lower()} {side.napola}")
        points = count_phrase(lang, side.total, "point", "points")
        out.append(f"{name} {points} ({', '.join(bits)})")
    return clip("; ".join(out))


def standings_alt_text(
    totals: Sequence[int],
    *,
    rules: Rules,
    names: Sequence[str],
    outcome: Outcome | None = None,
    lang: str = "en",
) -> str:
    """ "Final standings, to 11 points: Marco 12, Giulia 7; Marco wins"."""
    sides = side_names(rules, names)
    head = word(lang, "final" if outcome else "standings")
    if rules.target is not None:
        head += ", " + word(lang, "to_target", n=rules.target)
    scores = ", ".join(f"{n} {t}" for n, t in zip(sides, totals, strict=True))
    text = f"{head}: {scores}"
    if outcome is not None:
        text += "; " + outcome_phrase(outcome, sides, lang=lang)
    return clip(text)


def outcome_phrase(outcome: Outcome, sides: Sequence[str], *, lang: str = "en") -> str:
    if outcome.winner is None:
        return word(lang, "undecided")
    return word(lang, "wins", name=sides[outcome.winner])


def _won(point: int) -> str:
    return " (+1)" if point else ""


def primiera_cards(pile: Sequence[Card]) -> tuple[Card, ...]:
    """The card that counts for the primiera in each suit of a pile (denari, coppe, spade,
    bastoni order; a missing suit is left out): the highest primiera value, the highest card
    among equals."""
    best: list[Card] = []
    for suit in SUITS:
        held = [c for c in pile if c.suit is suit]
        if held:
            best.append(max(held, key=lambda c: (PRIMIERA_POINTS[c.value], c.value)))
    return tuple(best)
