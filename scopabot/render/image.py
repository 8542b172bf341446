"""Pictures of what a seat may see: the table, a hand, a deal's breakdown, the standings.

Every picture is drawn from a :class:`~scopabot.engine.GameView` or from public results, like
the text; a hand picture takes the view of the seat whose hand it is, and a view holds no
other hand, so one seat's cards cannot be drawn for another. Each picture comes with its alt
text (:mod:`scopabot.render.alt_text`), the attachment's description for screen readers.

The table is 800 pixels wide, so that shown at 400 on a phone its card values are still about
13 pixels high. Pictures are PNG bytes (see :mod:`scopabot.render.canvas`), identical for the
same position.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from scopabot.engine import Card, GameView, PlayResult

from .alt_text import (
    deal_alt_text,
    hand_alt_text,
    hand_alt_text_of,
    outcome_phrase,
    primiera_cards,
    standings_alt_text,
    table_alt_text,
)
from .canvas import FORMAT, MAX_BYTES, Canvas, encode
from .cards_art import card_height
from .memo import PICTURES
from .score_images import deal_image, standings_image
from .seats import NAME, draw_seats, name_room, seat_mark, seats_height
from .theme import CREAM, Theme
from .words import card_name, side_names, word

__all__ = [
    "FORMAT",
    "MAX_BYTES",
    "Theme",
    "card_name",
    "deal_alt_text",
    "deal_image",
    "deal_piles",
    "encode",
    "hand_alt_text",
    "hand_alt_text_of",
    "hand_image",
    "hand_image_of",
    "primiera_cards",
    "standings_alt_text",
    "standings_image",
    "table_alt_text",
    "table_image",
    "write_game_images",
    "write_picture",
]

WIDTH = 800
PAD = 20
TABLE_CARD = 100
HAND_CARD = 150
SMALL_CARD = 64
GAP = 14
STRIP_H = 124
TITLE = 34
INFO = 28


def _table_layout(n: int) -> tuple[int, int]:
    """Card width and cards per row for ``n`` cards on the table."""
    if n <= 12:
        return TABLE_CARD, 6
    return 84, 8


def table_image(
    view: GameView,
    *,
    names: Sequence[str],
    theme: Theme = Theme.DARK,
    lang: str = "en",
) -> bytes:
    """The table as everyone sees it: seats, deck, the cards face up and the last play; drawn
    again only when one of those has changed."""
    key = (
        "table",
        view.rules,
        view.deal_number,
        view.felt,
        view.hand_sizes,
        view.deck_size,
        view.captured_counts,
        view.scope,
        view.plays[-1] if view.plays else None,
        view.totals,
        view.outcome,
        view.turn,
        view.dealer,
        tuple(names),
        theme,
        lang,
    )
    return PICTURES.get(key, lambda: _table_image(view, names, theme, lang))


def _table_image(view: GameView, names: Sequence[str], theme: Theme, lang: str) -> bytes:
    rules = view.rules
    width_card, per_row = _table_layout(len(view.felt))
    rows = -(-len(view.felt) // per_row)
    table_h = rows * (card_height(width_card) + GAP) - GAP if view.felt else 60
    last = view.plays[-1] if view.plays else None
    strip_h = 0 if last is None and view.outcome is None else STRIP_H
    header_h, seats_h = 80, seats_height(view)
    height = PAD + header_h + 12 + seats_h + 24 + table_h + 24 + strip_h + PAD
    cv = Canvas(WIDTH, height, theme)
    col = cv.colours
    labels = cv.labels(names, NAME, name_room(view, WIDTH - 2 * PAD))

    # Header: deal, goal, deck.
    y = PAD
    cv.text((PAD, y), word(lang, "deal", n=view.deal_number), TITLE, bold=True)
    goal = (
        word(lang, "to_target", n=rules.target)
        if rules.target is not None
        else word(lang, "fixed_deals", n=rules.deals)
    )
    cv.text((PAD, y + 44), goal, INFO, fill=col.muted)
    deck_x = WIDTH - PAD - 170
    for i in range(min(3, max(1, -(-view.deck_size // 10)))) if view.deck_size else ():
        cv.card(None, deck_x + i * 4, y + i * 2, 46)
    if not view.deck_size:
        cv.draw.rounded_rectangle(
            (deck_x, y, deck_x + 45, y + 71), radius=5, outline=col.muted, width=2
        )
    cv.text((deck_x + 66, y), str(view.deck_size), 38, bold=True)
    cv.text((deck_x + 66, y + 44), word(lang, "deck_label"), INFO, fill=col.muted)

    # Seats: name, dealer mark, hand size, and each side's cards taken, scope and points.
    y += header_h + 12
    draw_seats(cv, view, labels, PAD, y, WIDTH - 2 * PAD, lang)

    # The cards face up; a card just laid is ringed in the last-play colour.
    y += seats_h + 24
    laid = last.card if last is not None and not last.capture else None
    if not view.felt:
        cv.text((WIDTH / 2, y + 30), word(lang, "empty_table"), INFO, fill=col.muted, anchor="mm")
    for r in range(rows):
        row = view.felt[r * per_row : (r + 1) * per_row]
        row_w = len(row) * (width_card + GAP) - GAP
        x = (WIDTH - row_w) // 2
        for c in row:
            cv.card(c, x, y, width_card, ring=col.last if c == laid else None)
            x += width_card + GAP
        y += card_height(width_card) + GAP
    y += 24 - GAP if view.felt else 84

    # The last play (or the end of the match).
    if strip_h:
        cv.panel((PAD, y, WIDTH - PAD, y + strip_h), outline=col.last if last else None)
        if view.outcome is not None:
            said = outcome_phrase(view.outcome, side_names(rules, labels), lang=lang)
            text = f"{word(lang, 'over')}: {said}"
            cv.text(
                (WIDTH / 2, y + strip_h / 2),
                cv.fit(text, 30, WIDTH - 2 * PAD - 24, bold=True),
                30,
                anchor="mm",
                bold=True,
            )
        elif last is not None:
            room = PAD + 196 - (PAD + 14) - (26 if rules.sides < rules.players else 0)
            short = cv.labels(names, INFO, room, bold=True)
            _last_play(cv, view, last.seat, last.card, last.capture, last.scopa, short, y, lang)
    return cv.encode()


def _last_play(
    cv: Canvas,
    view: GameView,
    seat: int,
    card: Card,
    capture: Sequence[Card],
    scopa: bool,
    labels: Sequence[str],
    y: int,
    lang: str,
) -> None:
    """Who played (with the side's mark between partners), laid or took, the scopa, then the
    card played and the cards it took."""
    col = cv.colours
    x = PAD + 14
    rules = view.rules
    if rules.sides < rules.players:
        seat_mark(cv, rules.side_of(seat), x, y + 30)
        x += 26
    cv.text((x, y + 10), labels[seat], INFO, bold=True)
    cv.text((PAD + 14, y + 46), word(lang, "took" if capture else "laid"), INFO, fill=col.muted)
    if scopa:
        cx, cy = PAD + 84, y + 100
        cv.draw.rounded_rectangle((cx - 70, cy - 18, cx + 70, cy + 18), radius=18, fill=col.scopa)
        said = word(lang, "scopa").upper() + "!"
        cv.text((cx, cy), said, INFO, fill=CREAM, anchor="mm", bold=True, ground=col.scopa)
    x = PAD + 206
    top = y + (STRIP_H - card_height(SMALL_CARD)) // 2
    cv.card(card, x, top, SMALL_CARD, ring=col.last)
    x += SMALL_CARD + 14
    if capture:
        mid = y + STRIP_H // 2
        cv.draw.polygon(
            [
                (x, mid - 8),
                (x + 22, mid - 8),
                (x + 22, mid - 16),
                (x + 38, mid),
                (x + 22, mid + 16),
                (x + 22, mid + 8),
                (x, mid + 8),
            ],
            fill=col.text,
        )
        x += 50
        cv.cards_row(list(capture)[:6], x, top, SMALL_CARD, 6)


def hand_image(
    view: GameView, *, theme: Theme = Theme.DARK, lang: str = "en", numbered: bool = False
) -> bytes:
    """The seat's own hand, the cards in the order of their buttons (which are named by card,
    so on Discord the picture numbers nothing: each card's corner is its button's name; the
    terminal, where a card is typed by its number, asks for ``numbered``); drawn again only
    when the hand or whether it is the seat's turn has changed."""
    return hand_image_of(view.hand, view.is_my_turn, theme=theme, lang=lang, numbered=numbered)


def hand_image_of(
    hand: tuple[Card, ...],
    my_turn: bool,
    *,
    theme: Theme = Theme.DARK,
    lang: str = "en",
    numbered: bool = False,
) -> bytes:
    """:func:`hand_image` from what it shows: the cards, in order, and whether it is the
    seat's turn (all a drawing process needs to be sent)."""
    key = ("hand", hand, my_turn, theme, lang, numbered)
    return PICTURES.get(key, lambda: _hand_image(hand, my_turn, theme, lang, numbered))


def _hand_image(
    hand: tuple[Card, ...], my_turn: bool, theme: Theme, lang: str, numbered: bool
) -> bytes:
    per_row = 5
    n_row = min(per_row, max(1, len(hand)))
    rows = max(1, -(-len(hand) // per_row))
    gap = 18
    h = card_height(HAND_CARD)
    top = PAD + 52 + (46 if numbered else 0)
    width = max(460, 2 * PAD + n_row * HAND_CARD + (n_row - 1) * gap)
    height = top + rows * (h + gap) - gap + PAD if hand else top + 60 + PAD
    cv = Canvas(width, height, theme)
    col = cv.colours
    x = PAD + cv.text((PAD, PAD), word(lang, "hand"), TITLE, bold=True)
    if my_turn:
        cv.text((x + 12, PAD + 2), "· " + word(lang, "your_turn"), 32, fill=col.turn, bold=True)
    y = top
    if not hand:
        cv.text((width / 2, y + 30), word(lang, "hand_empty"), 30, fill=col.muted, anchor="mm")
    for r in range(rows):
        row = hand[r * per_row : (r + 1) * per_row]
        x = (width - (len(row) * (HAND_CARD + gap) - gap)) // 2
        for i, c in enumerate(row, r * per_row + 1):
            if numbered:
                fill = col.turn if my_turn else CREAM
                cv.badge(x + HAND_CARD / 2, y - 26, str(i), INFO, fill=fill)
            cv.card(c, x, y, HAND_CARD)
            x += HAND_CARD + gap
        y += h + gap + (46 if numbered else 0)
    return cv.encode()


def warm(theme: Theme = Theme.DARK) -> None:
    """Make what every picture of ``theme`` uses (its palette, which draws the forty faces at
    the table's size), for a drawing process to start ready."""
    from .canvas import inks

    inks(theme)


def deal_piles(before: GameView, result: PlayResult) -> tuple[tuple[Card, ...], ...]:
    """Each side's cards at the end of a deal, from a view taken just before its last play and
    what that play did (the capture and the leftovers): the piles the breakdown counted, for
    :func:`deal_image` to show the primiera cards (the game has moved on to the next deal)."""
    rules = before.rules
    piles = [list(p) for p in before.captured]
    side = rules.side_of(result.seat)
    if result.move.capture:
        piles[side] += [result.move.card, *result.move.sorted_capture()]
    if result.leftovers_to is not None:
        piles[result.leftovers_to] += result.leftovers
    return tuple(tuple(p) for p in piles)


def write_game_images(
    view: GameView,
    folder: str | Path,
    *,
    names: Sequence[str],
    prefix: str = "",
    theme: Theme = Theme.DARK,
    lang: str = "en",
    numbered: bool = False,
) -> list[Path]:
    """Write the table and this seat's hand as pictures into ``folder``, each with its alt text
    beside it (``.txt``), for the terminal game and for looking at the drawing without Discord
    (``numbered``: each card under the number the terminal takes for it).

    Files are ``{prefix}table.png`` and ``{prefix}hand.png``; returns the paths written.
    """
    pictures = {
        "table": (
            table_image(view, names=names, theme=theme, lang=lang),
            table_alt_text(view, names, lang=lang, reader=view.seat),
        ),
        "hand": (
            hand_image(view, theme=theme, lang=lang, numbered=numbered),
            hand_alt_text(view, lang=lang),
        ),
    }
    return [
        write_picture(folder, prefix + stem, data, alt) for stem, (data, alt) in pictures.items()
    ]


def write_picture(folder: str | Path, stem: str, data: bytes, alt: str) -> Path:
    """Write one picture as ``{stem}.png`` with its alt text beside it in ``{stem}.txt``, so
    what a screen reader would say travels with the file."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{stem}.{FORMAT}"
    path.write_bytes(data)
    path.with_suffix(".txt").write_text(alt + "\n", encoding="utf-8")
    return path
