"""The seats on the table picture: who plays, how many cards each holds, and each side's cards
taken, scope and points, written once per side.

Three layouts, each readable at 360 pixels wide (:data:`scopabot.render.canvas.MIN_TEXT`):

- two players: two panels side by side;
- three players: one line each;
- partners (four players): one panel per side, a partner a line, both marked with the side's
  shape (a disc, a diamond), and the side's cards, scope and points once, on the right.

A hand's size is a number beside a card back (ten backs in a row could not be counted).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from scopabot.engine import GameView

from .canvas import Canvas
from .theme import CREAM
from .words import word

NAME: Final = 32
INFO: Final = 28
POINTS: Final = 40
ARROW_W: Final = 22
MARK_W: Final = 26
DEALER_W: Final = 42
HAND_W: Final = 64
GAP: Final = 10


def seats_height(view: GameView) -> int:
    rules = view.rules
    if rules.players == 2:
        return 100
    if rules.sides == rules.players:
        return rules.players * 62 - 8
    return rules.sides * 108 - 8


def seat_mark(cv: Canvas, side: int, x: float, cy: float, r: float = 9) -> None:
    """The side's shape before a partner's name: a disc for the first side, a diamond for the
    second (told apart by shape, whatever the colours look like)."""
    fill = cv.colours.text
    if side == 0:
        cv.draw.ellipse((x, cy - r, x + 2 * r, cy + r), fill=fill)
    else:
        diamond = [(x + r, cy - r - 2), (x + 2 * r + 2, cy), (x + r, cy + r + 2), (x - 2, cy)]
        cv.draw.polygon(diamond, fill=fill)


def draw_seats(
    cv: Canvas, view: GameView, labels: Sequence[str], x0: float, y: float, width: float, lang: str
) -> None:
    rules = view.rules
    if rules.players == 2:
        pw = (width - GAP) / 2
        for seat in range(2):
            _two_panel(cv, view, labels, seat, x0 + seat * (pw + GAP), y, pw, lang)
    elif rules.sides == rules.players:
        for seat in range(rules.players):
            _one_line(cv, view, labels, seat, x0, y + seat * 62, width, lang)
    else:
        for side in range(rules.sides):
            _side_panel(cv, view, labels, side, x0, y + side * 108, width, lang)


def name_room(view: GameView, width: float) -> float:
    """How wide a name may be drawn (the same for every seat and turn, so that a name does not
    change as the turn goes round)."""
    rules = view.rules
    if rules.players == 2:
        pw = (width - GAP) / 2
        return pw - 24 - ARROW_W - DEALER_W - 70
    if rules.sides == rules.players:
        return 330 - 12 - ARROW_W - DEALER_W
    return 470 - 12 - ARROW_W - MARK_W - DEALER_W


def _on_turn(view: GameView, seat: int) -> bool:
    return view.outcome is None and seat == view.turn


def _name(
    cv: Canvas, view: GameView, labels: Sequence[str], seat: int, x: float, y: float, lang: str
) -> None:
    """Turn arrow, side mark (partners), name and dealer mark, from ``x``; ``y`` is the top."""
    col = cv.colours
    on_turn = _on_turn(view, seat)
    if on_turn:
        cv.draw.polygon([(x, y + 8), (x + 16, y + 20), (x, y + 32)], fill=col.turn)
    x += ARROW_W
    rules = view.rules
    if rules.sides < rules.players:
        seat_mark(cv, rules.side_of(seat), x, y + 21)
        x += MARK_W
    x += cv.text((x, y), labels[seat], NAME, bold=on_turn, fill=col.turn if on_turn else None)
    if seat == view.dealer:
        cv.badge(x + 30, y + 21, word(lang, "dealer_mark"), INFO, fill=CREAM)


def _hand(cv: Canvas, view: GameView, seat: int, x: float, y: float) -> None:
    """A card back and the number of cards in the hand, ``y`` the top of the line."""
    cv.card(None, x, y + 2, 24)
    cv.text((x + 32, y + 2), str(view.hand_sizes[seat]), INFO, bold=True)


def _taken(cv: Canvas, view: GameView, side: int, x: float, y: float, lang: str) -> float:
    """The side's cards taken; returns its width."""
    n = view.captured_counts[side]
    return cv.text((x, y), word(lang, "taken", n=n), INFO, fill=cv.colours.muted)


def _scope(cv: Canvas, view: GameView, side: int, x: float, y: float, lang: str) -> None:
    n = view.scope[side]
    if n:
        cv.text((x, y), word(lang, "scope_n", n=n), INFO, fill=cv.colours.scopa, bold=True)


def _points(cv: Canvas, view: GameView, side: int, x: float, y: float, turn: bool) -> None:
    fill = cv.colours.turn if turn else cv.colours.text
    cv.text((x, y), str(view.totals[side]), POINTS, anchor="rm", bold=True, fill=fill)


def _two_panel(
    cv: Canvas,
    view: GameView,
    labels: Sequence[str],
    seat: int,
    x0: float,
    y: float,
    pw: float,
    lang: str,
) -> None:
    on_turn = _on_turn(view, seat)
    col = cv.colours
    h = seats_height(view)
    cv.panel((x0, y, x0 + pw, y + h), outline=col.turn if on_turn else None, width=4)
    _name(cv, view, labels, seat, x0 + 12, y + 8, lang)
    _points(cv, view, seat, x0 + pw - 14, y + 28, on_turn)
    _hand(cv, view, seat, x0 + 12 + ARROW_W, y + 54)
    x = x0 + 12 + ARROW_W + HAND_W + 10
    x += _taken(cv, view, seat, x, y + 56, lang) + 16
    _scope(cv, view, seat, x, y + 56, lang)


def _one_line(
    cv: Canvas,
    view: GameView,
    labels: Sequence[str],
    seat: int,
    x0: float,
    y: float,
    width: float,
    lang: str,
) -> None:
    on_turn = _on_turn(view, seat)
    col = cv.colours
    cv.panel((x0, y, x0 + width, y + 54), outline=col.turn if on_turn else None, width=4)
    _name(cv, view, labels, seat, x0 + 12, y + 7, lang)
    _hand(cv, view, seat, x0 + 330, y + 9)
    _taken(cv, view, seat, x0 + 400, y + 11, lang)
    _scope(cv, view, seat, x0 + 530, y + 11, lang)
    _points(cv, view, seat, x0 + width - 14, y + 27, on_turn)


def _side_panel(
    cv: Canvas,
    view: GameView,
    labels: Sequence[str],
    side: int,
    x0: float,
    y: float,
    width: float,
    lang: str,
) -> None:
    rules = view.rules
    seats = rules.seats_of(side)
    on_turn = any(_on_turn(view, s) for s in seats)
    col = cv.colours
    cv.panel((x0, y, x0 + width, y + 100), outline=col.turn if on_turn else None, width=4)
    for line, seat in enumerate(seats):
        top = y + 8 + line * 46
        _name(cv, view, labels, seat, x0 + 12, top, lang)
        _hand(cv, view, seat, x0 + 470, top + 2)
    _taken(cv, view, side, x0 + 560, y + 10, lang)
    _scope(cv, view, side, x0 + 560, y + 56, lang)
    _points(cv, view, side, x0 + width - 14, y + 50, on_turn)
