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
    outcome_phrase,
    primiera_cards,
    standings_alt_text,
    table_alt_text,
)
from .canvas import FORMAT, MAX_BYTES, Canvas, encode
from .cards_art import card_height
from .score_images import deal_image, standings_image
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
    "hand_image",
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
SMALL_CARD = 56
GAP = 14
STRIP_H = 112


def _table_layout(n: int) -> tuple[int, int]:
    """Card width and cards per row for ``n`` cards on the table."""
    if n <= 12:
        return TABLE_CARD, 6
    return 82, 8


def table_image(
    view: GameView,
    *,
    names: Sequence[str],
    theme: Theme = Theme.DARK,
    lang: str = "en",
) -> bytes:
    """The table as everyone sees it: seats, deck, the cards face up and the last play."""
    rules = view.rules
    width_card, per_row = _table_layout(len(view.table))
    rows = -(-len(view.table) // per_row)
    table_h = rows * (card_height(width_card) + GAP) - GAP if view.table else 60
    last = view.plays[-1] if view.plays else None
    strip_h = 0 if last is None and view.outcome is None else STRIP_H
    header_h, seats_h = 64, 78
    height = PAD + header_h + 12 + seats_h + 24 + table_h + 24 + strip_h + PAD
    cv = Canvas(WIDTH, height, theme)
    col = cv.colours

    # Header: deal, goal, deck.
    y = PAD
    cv.text((PAD, y + 4), word(lang, "deal", n=view.deal_number), 30, bold=True)
    goal = (
        word(lang, "to_target", n=rules.target)
        if rules.target is not None
        else word(lang, "fixed_deals", n=rules.deals)
    )
    cv.text((PAD, y + 42), goal, 20, fill=col.muted)
    deck_x = WIDTH - PAD - 150
    for i in range(min(3, max(1, -(-view.deck_size // 10)))) if view.deck_size else ():
        cv.card(None, deck_x + i * 4, y - 4 + i * 2, 42)
    if not view.deck_size:
        cv.draw.rounded_rectangle(
            (deck_x, y - 4, deck_x + 41, y + 60), radius=5, outline=col.muted, width=2
        )
    cv.text((deck_x + 62, y + 2), str(view.deck_size), 34, bold=True)
    cv.text((deck_x + 62, y + 42), word(lang, "deck_label"), 18, fill=col.muted)

    # Seats: name, dealer mark, hand size, captures, scope and the side's points.
    y += header_h + 12
    n = rules.players
    pw = (WIDTH - 2 * PAD - (n - 1) * 10) / n
    for seat in range(n):
        x0 = PAD + seat * (pw + 10)
        on_turn = view.outcome is None and seat == view.turn
        cv.panel((x0, y, x0 + pw, y + seats_h), outline=col.turn if on_turn else None, width=4)
        nx = x0 + 12
        if on_turn:
            cv.draw.polygon([(nx, y + 12), (nx + 14, y + 22), (nx, y + 32)], fill=col.turn)
            nx += 20
        total = str(view.totals[rules.side_of(seat)])
        room = pw - (nx - x0) - 16 - 14 * len(total) - (34 if seat == view.dealer else 0)
        shown = cv.fit(names[seat], 28, room, bold=on_turn)
        nx += cv.text((nx, y + 7), shown, 28, bold=on_turn)
        if seat == view.dealer:
            cv.badge(nx + 18, y + 23, word(lang, "dealer_mark"), 16, fill=CREAM)
        cv.text(
            (x0 + pw - 12, y + 8),
            total,
            28,
            anchor="ra",
            bold=True,
            fill=col.turn if on_turn else col.text,
        )
        hx = x0 + 12
        for _ in range(view.hand_sizes[seat]):
            cv.card(None, hx, y + 44, 16)
            hx += 10 if view.hand_sizes[seat] > 5 else 14
        info = word(lang, "taken", n=view.captured_counts[rules.side_of(seat)])
        ix = hx + 14 if view.hand_sizes[seat] else hx
        ix += cv.text((ix, y + 46), info, 20, fill=col.muted)
        scope = view.scope[rules.side_of(seat)]
        if scope:
            cv.text(
                (ix + 8, y + 46), f"{word(lang, 'scope')} {scope}", 20, fill=col.scopa, bold=True
            )

    # The cards face up; a card just laid is ringed in the last-play colour.
    y += seats_h + 24
    laid = last.card if last is not None and not last.capture else None
    if not view.table:
        cv.text((WIDTH / 2, y + 30), word(lang, "empty_table"), 24, fill=col.muted, anchor="mm")
    for r in range(rows):
        row = view.table[r * per_row : (r + 1) * per_row]
        row_w = len(row) * (width_card + GAP) - GAP
        x = (WIDTH - row_w) // 2
        for c in row:
            cv.card(c, x, y, width_card, ring=col.last if c == laid else None)
            x += width_card + GAP
        y += card_height(width_card) + GAP
    y += 24 - GAP if view.table else 84

    # The last play (or the end of the match).
    if strip_h:
        cv.panel((PAD, y, WIDTH - PAD, y + strip_h), outline=col.last if last else None)
        if view.outcome is not None:
            said = outcome_phrase(view.outcome, side_names(rules, names), lang=lang)
            cv.text(
                (WIDTH / 2, y + strip_h / 2),
                f"{word(lang, 'over')}: {said}",
                28,
                anchor="mm",
                bold=True,
            )
        elif last is not None:
            _last_play(cv, last.seat, last.card, last.capture, last.scopa, names, y, lang)
    return cv.encode()


def _last_play(
    cv: Canvas,
    seat: int,
    card: Card,
    capture: Sequence[Card],
    scopa: bool,
    names: Sequence[str],
    y: int,
    lang: str,
) -> None:
    col = cv.colours
    x = PAD + 16
    cv.text((x, y + 14), cv.fit(names[seat], 24, 170, bold=True), 24, bold=True)
    cv.text((x, y + 46), word(lang, "took" if capture else "laid"), 22, fill=col.muted)
    x = PAD + 200
    top = y + (STRIP_H - card_height(SMALL_CARD)) // 2
    cv.card(card, x, top, SMALL_CARD, ring=col.last)
    x += SMALL_CARD + 16
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
        x += 52
        shown = list(capture)[:6]
        x = cv.cards_row(shown, x, top, SMALL_CARD, 8)
    if scopa:
        cx = WIDTH - PAD - 80
        mid = y + STRIP_H // 2
        cv.draw.rounded_rectangle((cx - 62, mid - 20, cx + 62, mid + 20), radius=20, fill=col.scopa)
        cv.text(
            (cx, mid), word(lang, "scopa").upper() + "!", 24, fill=CREAM, anchor="mm", bold=True
        )


def hand_image(view: GameView, *, theme: Theme = Theme.DARK, lang: str = "en") -> bytes:
    """The seat's own hand, each card under the number of its button (1..n in hand order)."""
    hand = view.hand
    per_row = 5
    n_row = min(per_row, max(1, len(hand)))
    rows = max(1, -(-len(hand) // per_row))
    gap = 18
    h = card_height(HAND_CARD)
    width = max(420, 2 * PAD + n_row * HAND_CARD + (n_row - 1) * gap)
    height = PAD + 44 + rows * (50 + h + gap) - gap + PAD if hand else PAD + 44 + 60 + PAD
    cv = Canvas(width, height, theme)
    col = cv.colours
    title = word(lang, "hand")
    x = PAD + cv.text((PAD, PAD), title, 28, bold=True)
    if view.is_my_turn:
        cv.text((x + 12, PAD + 4), "· " + word(lang, "your_turn"), 24, fill=col.turn)
    y = PAD + 44
    if not hand:
        cv.text((width / 2, y + 30), word(lang, "hand_empty"), 24, fill=col.muted, anchor="mm")
    for r in range(rows):
        row = hand[r * per_row : (r + 1) * per_row]
        x = (width - (len(row) * (HAND_CARD + gap) - gap)) // 2
        for i, c in enumerate(row, r * per_row + 1):
            fill = col.turn if view.is_my_turn else CREAM
            cv.badge(x + HAND_CARD / 2, y + 20, str(i), 24, fill=fill)
            cv.card(c, x, y + 50, HAND_CARD)
            x += HAND_CARD + gap
        y += 50 + h + gap
    return cv.encode()


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
) -> list[Path]:
    """Write the table and this seat's hand as pictures into ``folder``, each with its alt text
    beside it (``.txt``), for the terminal game and for looking at the drawing without Discord.

    Files are ``{prefix}table.png`` and ``{prefix}hand.png``; returns the paths written.
    """
    pictures = {
        "table": (
            table_image(view, names=names, theme=theme, lang=lang),
            table_alt_text(view, names, lang=lang, reader=view.seat),
        ),
        "hand": (hand_image(view, theme=theme, lang=lang), hand_alt_text(view, lang=lang)),
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
