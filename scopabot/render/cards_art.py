"""The forty cards, drawn by the project in the Neapolitan style, and the back of a card.

Each face is drawn on a grid 100 units wide and 155 high at three times the size asked for,
then scaled down, which smooths the edges without any anti-aliasing code. The suit signs are
plain shapes: a coin of rings (denari), a chalice (coppe), a sword with its guard (spade) and a
knotted wooden cudgel (bastoni), so that the suits differ by outline and not only by colour;
the asso di denari has its eagle. Fante, cavallo and re each have their own figure (a page
with a feathered cap, a horse and rider, a crowned king) and their letter F, C, R, and hold
their suit's sign (a sword or a club raised); the settebello has a gold frame and stars.

Faces are cached by (card, width, theme): a table is a few pastes of ready images.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from PIL import Image, ImageChops, ImageDraw

from scopabot.engine import Card, Suit

from .theme import (
    CREAM,
    GOLD,
    GOLD_DARK,
    INK,
    PALETTES,
    RGB,
    SKIN,
    SUIT_FILL,
    SUIT_INK,
    Theme,
    font,
)

ASPECT: Final = 1.55
"""Height over width, close to a real Neapolitan card (58 x 90 mm)."""
SUPERSAMPLE: Final = 3
FIGURE_LETTERS: Final = {8: "F", 9: "C", 10: "R"}

Point = tuple[float, float]


def card_height(width: int) -> int:
    return round(width * ASPECT)


class _Pen:
    """Draws in card units (100 wide), whatever the pixel size."""

    def __init__(self, draw: ImageDraw.ImageDraw, scale: float, img: Image.Image) -> None:
        self.d = draw
        self.k = scale
        self.img = img

    def px(self, v: float) -> float:
        return v * self.k

    def pts(self, points: Sequence[Point]) -> list[tuple[float, float]]:
        return [(x * self.k, y * self.k) for x, y in points]

    def line_w(self, w: float) -> int:
        return max(1, round(w * self.k))

    def poly(
        self, points: Sequence[Point], fill: RGB, *, outline: RGB = INK, w: float = 1.2
    ) -> None:
        self.d.polygon(self.pts(points), fill=fill, outline=outline, width=self.line_w(w))

    def cloth(self, points: Sequence[Point], suit: Suit) -> None:
        """A garment in the suit's colour with the suit's own weave, so that a figure's suit
        shows in its clothes by pattern too: coins dotted, cups checked, swords banded across,
        clubs striped down (colour-blind players see the pattern where the colours merge)."""
        self.poly(points, SUIT_FILL[suit])
        xs = [x for x, _ in points]
        ys = [y for _, y in points]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        layer = Image.new("L", self.d.im.size, 0)
        pen = ImageDraw.Draw(layer)
        w = self.line_w(1.6)
        if suit is Suit.DENARI:
            for y in range(int(y0) + 4, int(y1) - 1, 6):
                for x in range(int(x0) + 3 + (y // 6 % 2) * 3, int(x1), 6):
                    r = self.px(1.1)
                    pen.ellipse(
                        (self.px(x) - r, self.px(y) - r, self.px(x) + r, self.px(y) + r), 255
                    )
        elif suit is Suit.COPPE:
            for x in range(int(x0) - 60, int(x1), 7):
                pen.line(self.pts([(x, y0), (x + 60, y0 + 60)]), fill=255, width=w)
                pen.line(self.pts([(x + 60, y0), (x, y0 + 60)]), fill=255, width=w)
        elif suit is Suit.SPADE:
            for y in range(int(y0) + 5, int(y1), 7):
                pen.line(self.pts([(x0, y), (x1, y)]), fill=255, width=w)
        else:
            for x in range(int(x0) + 3, int(x1), 5):
                pen.line(self.pts([(x, y0), (x, y1)]), fill=255, width=w)
        inside = Image.new("L", self.d.im.size, 0)
        ImageDraw.Draw(inside).polygon(self.pts(points), fill=255)
        mask = ImageChops.multiply(layer, inside)
        self.img.paste(SUIT_INK[suit] + (255,), (0, 0), mask)
        self.d.polygon(self.pts(points), outline=INK, width=self.line_w(1.2))

    def ellipse(
        self,
        cx: float,
        cy: float,
        rx: float,
        ry: float,
        fill: RGB | None,
        *,
        outline: RGB | None = INK,
        w: float = 1.2,
    ) -> None:
        box = (self.px(cx - rx), self.px(cy - ry), self.px(cx + rx), self.px(cy + ry))
        self.d.ellipse(box, fill=fill, outline=outline, width=self.line_w(w))

    def rect(
        self, x0: float, y0: float, x1: float, y1: float, fill: RGB, *, w: float = 1.2
    ) -> None:
        box = (self.px(x0), self.px(y0), self.px(x1), self.px(y1))
        self.d.rectangle(box, fill=fill, outline=INK, width=self.line_w(w))

    def text(self, cx: float, cy: float, s: str, size: float, fill: RGB) -> None:
        f = font(max(1, round(size * self.k)), True)
        self.d.text((self.px(cx), self.px(cy)), s, font=f, fill=fill, anchor="mm")


# ---------------------------------------------------------------------------- suit signs


def _denaro(p: _Pen, cx: float, cy: float, s: float) -> None:
    r = s / 2
    w = max(0.8, s / 28)
    p.ellipse(cx, cy, r, r, GOLD, w=w)
    p.ellipse(cx, cy, r * 0.72, r * 0.72, None, outline=SUIT_FILL[Suit.COPPE], w=w * 1.3)
    p.ellipse(cx, cy, r * 0.26, r * 0.26, SUIT_FILL[Suit.COPPE], w=w)
    for i in range(8):
        a = i * math.pi / 4
        p.ellipse(cx + math.cos(a) * r * 0.49, cy + math.sin(a) * r * 0.49, r * 0.08, r * 0.08, INK)


_EAGLE_HALF: Final = (
    (0.0, -0.42),
    (0.09, -0.40),
    (0.14, -0.22),
    (0.42, -0.58),
    (0.72, -0.70),
    (0.96, -0.52),
    (0.78, -0.44),
    (0.94, -0.28),
    (0.72, -0.22),
    (0.86, -0.04),
    (0.58, -0.02),
    (0.62, 0.14),
    (0.28, 0.04),
    (0.17, 0.24),
    (0.32, 0.50),
    (0.12, 0.40),
    (0.14, 0.64),
    (0.0, 0.50),
)
"""The right half of a spread eagle (x from the axis, in radii of its coin), head apart."""


def _eagle(p: _Pen, cx: float, cy: float, r: float) -> None:
    """The eagle in the asso di denari's coin: a black spread-wing silhouette, its head
    turned, as on the Neapolitan ace."""
    half = [(x * r, y * r) for x, y in _EAGLE_HALF]
    body = half + [(-x, y) for x, y in reversed(half[1:-1])]
    p.poly([(cx + x, cy + y) for x, y in body], INK, outline=INK, w=0.6)
    p.ellipse(cx + 0.04 * r, cy - 0.52 * r, 0.13 * r, 0.12 * r, INK, outline=None)
    p.poly(
        [
            (cx + 0.14 * r, cy - 0.57 * r),
            (cx + 0.30 * r, cy - 0.50 * r),
            (cx + 0.14 * r, cy - 0.46 * r),
        ],
        GOLD_DARK,
        outline=INK,
        w=0.6,
    )
    p.ellipse(cx + 0.07 * r, cy - 0.54 * r, 0.03 * r, 0.03 * r, GOLD, outline=None)


def _asso_di_denari(p: _Pen, cx: float, cy: float, s: float) -> None:
    """The ace of coins: one big coin whose centre carries the eagle instead of the dots."""
    r = s / 2
    w = max(0.8, s / 28)
    p.ellipse(cx, cy, r, r, GOLD, w=w)
    p.ellipse(cx, cy, r * 0.80, r * 0.80, None, outline=SUIT_FILL[Suit.COPPE], w=w * 1.3)
    for i in range(16):
        a = i * math.pi / 8
        p.ellipse(
            cx + math.cos(a) * r * 0.90, cy + math.sin(a) * r * 0.90, r * 0.035, r * 0.035, INK
        )
    _eagle(p, cx, cy + 0.04 * r, r * 0.68)


def _coppa(p: _Pen, cx: float, cy: float, s: float) -> None:
    w = max(0.8, s / 28)
    red = SUIT_FILL[Suit.COPPE]
    top = cy - 0.30 * s
    bowl = [
        (cx + 0.36 * s * math.cos(a), top + 0.40 * s * math.sin(a))
        for a in (i * math.pi / 16 for i in range(17))
    ]
    p.poly(bowl, red, w=w)
    p.ellipse(cx, top, 0.36 * s, 0.08 * s, GOLD, w=w)
    p.poly(
        [
            (cx - 0.05 * s, top + 0.38 * s),
            (cx + 0.05 * s, top + 0.38 * s),
            (cx + 0.05 * s, cy + 0.36 * s),
            (cx - 0.05 * s, cy + 0.36 * s),
        ],
        red,
        w=w,
    )
    p.ellipse(cx, cy + 0.20 * s, 0.10 * s, 0.05 * s, GOLD, w=w)
    p.poly(
        [
            (cx - 0.08 * s, cy + 0.34 * s),
            (cx + 0.08 * s, cy + 0.34 * s),
            (cx + 0.26 * s, cy + 0.47 * s),
            (cx - 0.26 * s, cy + 0.47 * s),
        ],
        red,
        w=w,
    )


def _spada(p: _Pen, cx: float, cy: float, s: float) -> None:
    w = max(0.8, s / 28)
    blue = SUIT_FILL[Suit.SPADE]
    guard = cy + 0.16 * s
    p.poly(
        [
            (cx, cy - 0.5 * s),
            (cx + 0.11 * s, cy - 0.36 * s),
            (cx + 0.11 * s, guard),
            (cx - 0.11 * s, guard),
            (cx - 0.11 * s, cy - 0.36 * s),
        ],
        blue,
        w=w,
    )
    p.d.line(p.pts([(cx, cy - 0.38 * s), (cx, guard - 0.03 * s)]), fill=CREAM, width=p.line_w(w))
    p.rect(cx - 0.06 * s, guard, cx + 0.06 * s, cy + 0.40 * s, GOLD_DARK, w=w)
    p.poly(
        [
            (cx - 0.29 * s, guard - 0.04 * s),
            (cx + 0.29 * s, guard - 0.04 * s),
            (cx + 0.23 * s, guard + 0.07 * s),
            (cx - 0.23 * s, guard + 0.07 * s),
        ],
        GOLD,
        w=w,
    )
    p.ellipse(cx - 0.29 * s, guard, 0.06 * s, 0.06 * s, GOLD, w=w)
    p.ellipse(cx + 0.29 * s, guard, 0.06 * s, 0.06 * s, GOLD, w=w)
    p.ellipse(cx, cy + 0.44 * s, 0.08 * s, 0.07 * s, GOLD, w=w)


WOOD: Final = (176, 120, 62)
WOOD_DARK: Final = (74, 44, 16)
"""The clubs' wood and its outline: a cudgel, not a green stick (the suit's green stays in
the corner value, the clothes and the figures' wash)."""


def _bastone(p: _Pen, cx: float, cy: float, s: float) -> None:
    """A knotted cudgel: a thick rounded head, a shaft tapering to the grip, three lopped
    branch stubs on alternate sides and two knot holes, so it reads as wood at any size."""
    w = max(0.8, s / 24)
    top, foot = cy - 0.40 * s, cy + 0.47 * s

    def half(y: float) -> float:
        return (0.055 + 0.115 * (foot - y) / (foot - top)) * s

    for side, t in ((1, 0.30), (-1, 0.55), (1, 0.78)):
        y = foot - t * (foot - top)
        x = cx + side * half(y) * 0.6
        tip = (x + side * 0.17 * s, y - 0.11 * s)
        p.poly(
            [
                (x, y - 0.05 * s),
                (x, y + 0.06 * s),
                (tip[0] + side * 0.02 * s, tip[1] + 0.04 * s),
                (tip[0] - side * 0.02 * s, tip[1] - 0.04 * s),
            ],
            WOOD,
            outline=WOOD_DARK,
            w=w,
        )
        p.ellipse(tip[0], tip[1], 0.035 * s, 0.045 * s, (222, 184, 130), outline=WOOD_DARK, w=w)
    ys = [top + i * (foot - top) / 8 for i in range(9)]
    bump = [0.0, 0.015, -0.01, 0.02, 0.0, 0.015, -0.01, 0.01, 0.0]
    left = [(cx - half(y) - b * s, y) for y, b in zip(ys, bump, strict=True)]
    right = [(cx + half(y) + b * s, y) for y, b in zip(ys, reversed(bump), strict=True)]
    p.poly(left + right[::-1], WOOD, outline=WOOD_DARK, w=w)
    p.ellipse(cx, top, 0.17 * s, 0.10 * s, WOOD, outline=WOOD_DARK, w=w)
    p.ellipse(cx, foot, 0.055 * s, 0.03 * s, WOOD_DARK, outline=None)
    for dx, y in ((-0.04, -0.12), (0.035, 0.20)):
        p.ellipse(cx + dx * s, cy + y * s, 0.035 * s, 0.05 * s, WOOD_DARK, outline=None)


SIGNS: Final = {
    Suit.DENARI: _denaro,
    Suit.COPPE: _coppa,
    Suit.SPADE: _spada,
    Suit.BASTONI: _bastone,
}


def draw_sign(p: _Pen, suit: Suit, cx: float, cy: float, size: float) -> None:
    SIGNS[suit](p, cx, cy, size)


# ---------------------------------------------------------------------------- pip layouts

_L, _R, _M = 39.0, 65.0, 52.0
PIPS: Final[dict[int, tuple[float, tuple[Point, ...]]]] = {
    1: (60, ((_M, 77.5),)),
    2: (38, ((_M, 42), (_M, 113))),
    3: (32, ((_M, 34), (_M, 77.5), (_M, 121))),
    4: (26, ((_L, 45), (_R, 45), (_L, 110), (_R, 110))),
    5: (25, ((_L, 38), (_R, 38), (_M, 77.5), (_L, 117), (_R, 117))),
    6: (24, ((_L, 32), (_R, 32), (_L, 77.5), (_R, 77.5), (_L, 123), (_R, 123))),
    7: (22, ((_L, 28), (_R, 28), (_M, 52), (_L, 77.5), (_R, 77.5), (_L, 124), (_R, 124))),
}


PIP_SCALE: Final = {Suit.DENARI: 1.0, Suit.COPPE: 1.1, Suit.SPADE: 1.25, Suit.BASTONI: 1.25}
"""Swords and clubs are tall and narrow: drawn taller, they cover as much as a coin."""


# ---------------------------------------------------------------------------- figures


def _star(p: _Pen, cx: float, cy: float, r: float, fill: RGB) -> None:
    pts = [
        (
            cx + (r if i % 2 == 0 else r * 0.45) * math.sin(i * math.pi / 5),
            cy - (r if i % 2 == 0 else r * 0.45) * math.cos(i * math.pi / 5),
        )
        for i in range(10)
    ]
    p.poly(pts, fill, w=0.8)


HELD: Final = {Suit.SPADE: (-7.0, 1.45), Suit.BASTONI: (-6.0, 1.4)}
"""How a figure holds a sword or a club, raised and larger (a shift up, a scale), where a coin
or a cup is held out as it is: the suits' figures differ in outline, not only in colour."""


def _held(p: _Pen, suit: Suit, cx: float, cy: float, size: float) -> None:
    dy, scale = HELD.get(suit, (0.0, 1.0))
    size *= scale
    draw_sign(p, suit, cx, max(cy + dy * size / 36, 10 + size / 2), size)


def _fante(p: _Pen, suit: Suit) -> None:
    cloth = SUIT_FILL[suit]
    p.rect(41, 88, 48, 112, INK)
    p.rect(52, 88, 59, 112, INK)
    p.cloth([(39, 46), (61, 46), (66, 92), (34, 92)], suit)
    p.poly([(39, 46), (61, 46), (57, 54), (43, 54)], CREAM)
    p.ellipse(50, 36, 8, 9, SKIN)
    p.poly([(39, 31), (61, 31), (58, 24), (42, 24)], INK)
    p.poly([(58, 25), (70, 12), (66, 24)], SUIT_FILL[Suit.COPPE] if suit != Suit.COPPE else GOLD)
    p.poly([(61, 52), (72, 66), (69, 70), (59, 58)], cloth)
    _held(p, suit, 73, 66, 36)


def _cavallo(p: _Pen, suit: Suit) -> None:
    horse = (236, 226, 206)
    for x in (34, 42, 60, 68):
        p.rect(x, 80, x + 5, 108, horse)
    p.poly([(24, 74), (16, 96), (21, 97), (30, 78)], INK)
    p.ellipse(48, 76, 26, 12, horse)
    p.poly([(60, 72), (68, 46), (78, 46), (86, 58), (82, 62), (74, 56), (72, 78)], horse)
    p.poly([(66, 48), (70, 40), (72, 47)], horse)
    p.cloth([(40, 44), (56, 44), (58, 70), (38, 70)], suit)
    p.ellipse(48, 35, 7, 8, SKIN)
    p.poly([(40, 29), (56, 29), (48, 20)], INK)
    p.poly([(54, 46), (66, 30), (69, 33), (58, 52)], SUIT_FILL[suit])
    _held(p, suit, 73, 26, 32)


def _re(p: _Pen, suit: Suit) -> None:
    p.cloth([(36, 50), (64, 50), (74, 114), (26, 114)], suit)
    p.poly([(44, 50), (56, 50), (54, 114), (46, 114)], CREAM)
    p.ellipse(50, 38, 8, 9, SKIN)
    p.poly([(43, 42), (57, 42), (50, 56)], (120, 78, 36))
    p.poly([(40, 31), (40, 16), (45, 23), (50, 13), (55, 23), (60, 16), (60, 31)], GOLD)
    _held(p, suit, 72, 78, 38)


FIGURES: Final = {8: _fante, 9: _cavallo, 10: _re}


# ---------------------------------------------------------------------------- faces


MINI: Final = 72
"""Below this width a face is drawn as a mini card: a big value and one big suit sign (the
last play, the primiera), so that its value stays readable on a phone."""


def corner_text(width: int) -> int:
    """The pixel size of the smallest value a face of ``width`` writes (a "10")."""
    if width < MINI:
        return round(width * 0.44)
    return round(width * 0.30 * _boost(width))


def _boost(width: int) -> float:
    """Corner values grow on smaller faces, up to a "10" of 27 pixels at 90 and below."""
    return max(1.0, min(1.25, 90 / width))


def _corner(card: Card, width: int) -> Image.Image:
    """The value and suit sign of the top-left corner.

    Only one corner: a picture is never seen upside down, and a turned 9 reads as a 6.
    """
    k = width / 100 * SUPERSAMPLE
    b = _boost(width)
    img = Image.new("RGBA", (round(27 * b * k), round(58 * b * k)), (0, 0, 0, 0))
    p = _Pen(ImageDraw.Draw(img), k, img)
    label = str(card.value)
    size = 40.0 if len(label) == 1 else 30.0
    p.text(13 * b, 17 * b, label, size * b, SUIT_INK[card.suit])
    draw_sign(p, card.suit, 13 * b, 47 * b, 17 * b)
    return img


def _mini(p: _Pen, card: Card) -> None:
    label = str(card.value)
    p.text(30, 32, label, 56 if len(label) == 1 else 44, SUIT_INK[card.suit])
    draw_sign(p, card.suit, 58, 104, 62 * PIP_SCALE[card.suit])


@lru_cache(maxsize=512)
def card_image(card: Card, width: int, theme: Theme = Theme.DARK) -> Image.Image:
    """The face of ``card``, ``width`` pixels wide, with transparent rounded corners."""
    k = width / 100 * SUPERSAMPLE
    big = (round(width * SUPERSAMPLE), round(card_height(width) * SUPERSAMPLE))
    img = Image.new("RGBA", big, (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    p = _Pen(draw, k, img)
    settebello = card.value == 7 and card.suit is Suit.DENARI
    face = (255, 240, 190) if settebello else CREAM
    if card.value in FIGURES and width < MINI:
        face = _tint(SUIT_FILL[card.suit])
    draw.rounded_rectangle(
        (0, 0, big[0] - 1, big[1] - 1),
        radius=p.px(7),
        fill=face,
        outline=PALETTES[theme].card_edge,
        width=p.line_w(2.2),
    )
    if settebello:
        draw.rounded_rectangle(
            (p.px(3.5), p.px(3.5), p.px(96.5), p.px(151.5)),
            radius=p.px(5),
            outline=GOLD_DARK,
            width=p.line_w(2.5),
        )
        if width >= MINI:
            for x, y in ((50, 10), (50, 145)):
                _star(p, x, y, 6, GOLD)
    if width < MINI:
        _mini(p, card)
    elif card.value in FIGURES:
        draw.rounded_rectangle(
            (p.px(27), p.px(9), p.px(73 + 14), p.px(146)),
            radius=p.px(4),
            fill=_tint(SUIT_FILL[card.suit]),
        )
        FIGURES[card.value](p, card.suit)
        p.text(42, 131, FIGURE_LETTERS[card.value], 28, INK)
        draw_sign(p, card.suit, 66, 131, 20)
    else:
        size, spots = PIPS[card.value]
        scale = PIP_SCALE[card.suit] if card.value > 1 else 1.0
        for px, py in spots:
            if card.value == 1 and card.suit is Suit.DENARI:
                _asso_di_denari(p, px, py, size)
            else:
                draw_sign(p, card.suit, px, py, size * scale)
    if width >= MINI:
        img.alpha_composite(_corner(card, width), (round(p.px(2)), round(p.px(3))))
    return img.resize((width, card_height(width)), Image.Resampling.LANCZOS)


def _tint(colour: RGB) -> RGB:
    """A pale wash of a suit colour behind the figures (the cream face shows through)."""
    return tuple(round(c * 0.18 + 255 * 0.82) for c in colour)  # type: ignore[return-value]


@lru_cache(maxsize=32)
def back_image(width: int, theme: Theme = Theme.DARK) -> Image.Image:
    """The back of a card: a red lattice, the same for every card (the deck, other hands)."""
    k = width / 100 * SUPERSAMPLE
    big = (round(width * SUPERSAMPLE), round(card_height(width) * SUPERSAMPLE))
    img = Image.new("RGBA", big, (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    p = _Pen(draw, k, img)
    draw.rounded_rectangle(
        (0, 0, big[0] - 1, big[1] - 1),
        radius=p.px(7),
        fill=CREAM,
        outline=PALETTES[theme].card_edge,
        width=p.line_w(2.2),
    )
    red = (150, 36, 40)
    draw.rounded_rectangle((p.px(7), p.px(7), p.px(93), p.px(148)), radius=p.px(4), fill=red)
    for i in range(-16, 17):
        x = 50 + i * 10
        draw.line(p.pts([(x - 70, 7), (x + 70, 148)]), fill=(196, 90, 80), width=p.line_w(1.4))
        draw.line(p.pts([(x + 70, 7), (x - 70, 148)]), fill=(196, 90, 80), width=p.line_w(1.4))
    draw.rounded_rectangle(
        (p.px(0), p.px(0), big[0] - 1, big[1] - 1),
        radius=p.px(7),
        outline=CREAM,
        width=p.line_w(7),
    )
    draw.rounded_rectangle(
        (0, 0, big[0] - 1, big[1] - 1),
        radius=p.px(7),
        outline=PALETTES[theme].card_edge,
        width=p.line_w(2.2),
    )
    _star(p, 50, 77.5, 14, GOLD)
    return img.resize((width, card_height(width)), Image.Resampling.LANCZOS)
