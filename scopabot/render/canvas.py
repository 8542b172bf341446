"""The small drawing kit every picture shares: the felt, text, cards with their highlight, and
the encoding to bytes.

Pictures are RGB on an opaque felt (a transparent picture would take Discord's background,
which differs between its themes) and are encoded as PNG with a 256-colour palette: the
drawings are flat colours, so the palette loses nothing visible and the file is a third of a
full-colour one, and PNG is shown by every Discord client, old ones included.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from PIL import Image, ImageDraw

from scopabot.engine import CARDS, Card

from .cards_art import back_image, card_height, card_image, corner_text
from .fonts import (
    chain,
    clusters,
    draw_piece,
    drawable,
    layout,
    piece_length,
    piece_metrics,
    text_length,
)
from .names import labels
from .theme import CREAM, INK, PALETTES, RGB, Palette, Theme

FORMAT: Final = "png"
"""The encoding of every picture; the file extension to give attachments."""
MIN_TEXT: Final = 12
"""The smallest text allowed, in pixels, once a picture is shown 360 pixels wide (a phone in a
Discord channel): Material Design's caption size. An 800-pixel picture thus writes nothing
under 27 pixels, card values included (:func:`smallest_text`)."""
MAX_BYTES: Final = 10 * 1024 * 1024
"""Discord refuses attachments above 10 MiB (for bots without boosts); ours are far below."""


class Canvas:
    """One picture being drawn: the image, its pen and its theme's colours."""

    def __init__(self, width: int, height: int, theme: Theme) -> None:
        self.theme = theme
        self.colours: Palette = PALETTES[theme]
        self.inks = inks(theme)
        self.img = Image.new("P", (width, height), self.inks.index(self.colours.felt))
        self.img.putpalette(self.inks.rgb)
        self.draw = Pen(ImageDraw.Draw(self.img), self.inks)
        self._pixels = self.img.load()
        self.texts: list[tuple[str, int]] = []
        """Every text drawn with its size (to check the smallest against :data:`MIN_TEXT`)."""
        self.faces: list[tuple[Card, float, float, int]] = []
        """Every card face drawn: card, x, y, width (its corner value is text too)."""

    @property
    def width(self) -> int:
        return self.img.width

    def text(
        self,
        xy: tuple[float, float],
        s: str,
        size: int,
        *,
        fill: RGB | None = None,
        anchor: str = "la",
        bold: bool = False,
        ground: RGB | None = None,
    ) -> float:
        """Draw ``s`` (any script, see :mod:`scopabot.render.fonts`) and return its width, so
        a line can continue after it. Each text is rendered once (:func:`text_mask`), blended
        into its ``ground`` (by default the colour where it starts) and pasted.."""
        self.texts.append((s, size))
        width, ascent, descent, above, (box_w, box_h) = text_metrics(s, size, bold)
        x, y = xy
        x -= {"l": 0.0, "m": width / 2, "r": width}[anchor[0]]
        y -= {"a": 0.0, "m": (ascent + descent) / 2, "s": ascent, "d": ascent + descent}[anchor[1]]
        left, top = round(x) - TEXT_PAD, round(y) - above
        if ground is None:
            ground = self._ground(left, top, box_w, box_h)
        tile, cover = text_tile(s, size, bold, fill or self.colours.text, ground, self.theme)
        self.img.paste(tile, (left, top), cover)
        return width

    def _ground(self, x: int, y: int, w: int, h: int) -> RGB:
        """The colour a box is drawn on: the most common of its corners and side middles
        (a rule or a frame may cross one of them); the felt outside the picture."""
        seen: list[int] = []
        pixels, (width, height) = self._pixels, self.img.size
        for px, py in ((x, y), (x + w - 1, y), (x, y + h // 2), (x + w - 1, y + h // 2)):
            for qy in (py, y + h - 1) if py == y else (py,):
                if 0 <= px < width and 0 <= qy < height:
                    seen.append(pixels[px, qy])  # type: ignore[index, arg-type]
        if not seen:
            return self.colours.felt
        return self.inks.colour(max(seen, key=seen.count))

    def length(self, s: str, size: int, *, bold: bool = False) -> float:
        return text_length(s, size, bold)

    def fit(self, s: str, size: int, width: float, *, bold: bool = False) -> str:
        """``s``, shortened with an ellipsis to fit ``width`` (long Discord names)."""
        s = drawable(s)
        if self.length(s, size, bold=bold) <= width:
            return s
        parts = clusters(s)  # never cut inside a flag or a letter with its marks
        while parts and self.length("".join(parts) + "…", size, bold=bold) > width:
            parts.pop()
        return "".join(parts).rstrip() + "…"

    def labels(
        self, names: Sequence[str], size: int, width: float, *, bold: bool = False
    ) -> list[str]:
        """The seat holders' names as one picture shows them: each fits ``width``, and no two
        look alike (see :func:`labels`)."""
        return labels(names, lambda s: self.length(s, size, bold=bold) <= width)

    def panel(
        self,
        box: tuple[float, float, float, float],
        *,
        outline: RGB | None = None,
        width: int = 3,
        radius: int = 12,
    ) -> None:
        x0, y0, x1, y1 = (round(v) for v in box)
        self.draw.rounded_rectangle(
            (x0, y0, x1, y1),
            radius=radius,
            fill=self.colours.panel,
            outline=outline,
            width=width if outline else 0,
        )

    def card(
        self, card: Card | None, x: float, y: float, width: int, *, ring: RGB | None = None
    ) -> None:
        """A card face (``None``: its back) with a shadow, and a coloured ring when marked:
        one ready image pasted (:func:`placed_card`)."""
        if card is not None:
            self.faces.append((card, x, y, width))
        pad = _card_pad(width, ring)
        left, top = round(x) - pad, round(y) - pad
        tile, mask = card_tile(card, width, self.theme, ring, self._ground(left, top, 1, 1))
        self.img.paste(tile, (left, top), mask)

    def cards_row(
        self,
        cards: Sequence[Card],
        x: int,
        y: int,
        width: int,
        gap: int,
        *,
        ring: RGB | None = None,
    ) -> int:
        """Cards side by side from ``x``; returns the x just past the last."""
        for c in cards:
            self.card(c, x, y, width, ring=ring)
            x += width + gap
        return x

    def badge(self, cx: float, cy: float, label: str, size: int, *, fill: RGB) -> None:
        """A number or letter in a disc, in dark or light ink, whichever reads on ``fill``."""
        ink = INK if luminance(fill) > 0.35 else CREAM
        r = size * 0.75
        self.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
        self.text((cx, cy), label, size, fill=ink, anchor="mm", bold=True, ground=fill)

    def smallest_text(self) -> float:
        """The smallest text drawn so far, in pixels once shown 360 wide (see MIN_TEXT)."""
        sizes = [size for _, size in self.texts]
        sizes += [corner_text(width) for *_, width in self.faces]
        return min(sizes, default=MIN_TEXT) * 360 / self.width

    def encode(self) -> bytes:
        """The picture as PNG: it is drawn in its palette already, so nothing is quantized."""
        out = io.BytesIO()
        self.img.save(out, format="PNG", optimize=False, compress_level=3)
        return out.getvalue()


TEXT_PAD: Final = 4
"""Room around a text's mask for letters reaching past their advance or line."""


@lru_cache(maxsize=16384)
def text_metrics(s: str, size: int, bold: bool) -> tuple[float, int, int, int, tuple[int, int]]:
    """What :func:`text_mask` says of a text but its mask: its width, the ascent and descent,
    how far above the ascender line the mask begins, and the mask's size."""
    mask, width, ascent, descent, above = text_mask(s, size, bold)
    return width, ascent, descent, above, mask.size


@lru_cache(maxsize=256)
def text_mask(s: str, size: int, bold: bool) -> tuple[Image.Image, float, int, int, int]:
    """``s`` drawn once as a coverage mask, with its width, the first font's ascent and
    descent, and how far above the ascender line the mask begins (:data:`TEXT_PAD`, more for
    a taller fallback font).

    Names, numbers and words come back move after move, and rendering a text is a good part of
    a picture's cost, so each is rendered once and pasted after."""
    ascent, descent = chain(size, bold)[0].getmetrics()
    pieces = layout(s)
    widths = [piece_length(p, size, bold) for p in pieces]
    width = float(sum(widths))
    metrics = [piece_metrics(p, size, bold) for p in pieces]
    pad = TEXT_PAD + max([0] + [a - ascent for a, _ in metrics])
    below = TEXT_PAD + max([0] + [d - descent for _, d in metrics])
    mask = Image.new("L", (round(width) + 2 * TEXT_PAD + 2, ascent + descent + pad + below))
    pen = ImageDraw.Draw(mask)
    x = float(TEXT_PAD)
    for p, w in zip(pieces, widths, strict=True):
        draw_piece(pen, (x, pad + ascent), p, size, bold)
        x += w
    return mask, width, ascent, descent, pad


def _card_pad(width: int, ring: RGB | None) -> int:
    """How far a card's shadow (below right) or ring (all round) reaches past it."""
    return max(4, width // 18) if ring is not None else max(2, width // 30)


@lru_cache(maxsize=2048)
def card_tile(
    card: Card | None, width: int, theme: Theme, ring: RGB | None, ground: RGB
) -> tuple[Image.Image, Image.Image]:
    """A face (or the back) with its shadow or ring, laid on ``ground`` and written in the
    theme's palette, with the mask of where it covers: made once, then each picture pastes it
    (a table is a few pastes of ready tiles)."""
    face = back_image(width, theme) if card is None else card_image(card, width, theme)
    h = card_height(width)
    r = max(4, width // 14)
    pad = _card_pad(width, ring)
    img = Image.new("RGBA", (width + 2 * pad, h + 2 * pad), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    if ring is not None:
        box = (0, 0, width + 2 * pad - 1, h + 2 * pad - 1)
        draw.rounded_rectangle(box, radius=r + pad, fill=ring)
    else:
        off = 2 * pad
        box = (off, off, width + off - 1, h + off - 1)
        draw.rounded_rectangle(box, radius=r, fill=PALETTES[theme].panel)
    img.alpha_composite(face, (pad, pad))
    return _tile(img, ground, theme)


@lru_cache(maxsize=2048)
def text_tile(
    s: str, size: int, bold: bool, fill: RGB, ground: RGB, theme: Theme
) -> tuple[Image.Image, Image.Image]:
    """A text in ``fill`` on ``ground``, in the theme's palette, and the mask of its letters."""
    mask = text_mask(s, size, bold)[0]
    img = Image.new("RGBA", mask.size, (*fill, 0))
    img.putalpha(mask)
    return _tile(img, ground, theme)


def _tile(img: Image.Image, ground: RGB, theme: Theme) -> tuple[Image.Image, Image.Image]:
    """An RGBA drawing blended into ``ground`` and mapped to the palette, with a two-level
    mask of the pixels it touches (a palette picture cannot blend as it pastes)."""
    flat = Image.new("RGB", img.size, ground)
    flat.paste(img, (0, 0), img)
    alpha = img.getchannel("A").point(lambda a: 255 if a else 0).convert("1")
    return flat.quantize(palette=palette(theme), dither=Image.Dither.NONE), alpha


class Inks:
    """A theme's palette: its 256 colours and the index of the nearest one to a colour."""

    def __init__(self, pal: Image.Image) -> None:
        flat = (pal.getpalette() or [])[: 256 * 3]
        self.rgb = flat + [0] * (768 - len(flat))
        self._colours = [tuple(self.rgb[i : i + 3]) for i in range(0, 768, 3)]
        self._nearest: dict[RGB, int] = {}

    def index(self, colour: RGB) -> int:
        found = self._nearest.get(colour)
        if found is None:
            found = min(
                range(256),
                key=lambda i: sum(
                    (a - b) ** 2 for a, b in zip(self._colours[i], colour, strict=True)
                ),
            )
            self._nearest[colour] = found
        return found

    def colour(self, index: int) -> RGB:
        return self._colours[index]  # type: ignore[return-value]


@lru_cache(maxsize=len(Theme))
def inks(theme: Theme) -> Inks:
    return Inks(palette(theme))


class Pen:
    """ImageDraw on the palette picture, taking colours (RGB) as the rest of the code does."""

    def __init__(self, draw: ImageDraw.ImageDraw, inks: Inks) -> None:
        self._d = draw
        self._inks = inks

    def _ink(self, colour: RGB | None) -> int | None:
        return None if colour is None else self._inks.index(colour)

    def polygon(self, xy: Sequence[tuple[float, float]], *, fill: RGB) -> None:
        self._d.polygon(list(xy), fill=self._ink(fill))

    def ellipse(self, box: Sequence[float], *, fill: RGB) -> None:
        self._d.ellipse(tuple(box), fill=self._ink(fill))

    def rectangle(self, box: Sequence[float], *, fill: RGB) -> None:
        self._d.rectangle(tuple(box), fill=self._ink(fill))

    def line(self, xy: Sequence[float], *, fill: RGB, width: int = 1) -> None:
        self._d.line(tuple(xy), fill=self._ink(fill), width=width)

    def rounded_rectangle(
        self,
        box: Sequence[float],
        *,
        radius: float,
        fill: RGB | None = None,
        outline: RGB | None = None,
        width: int = 1,
    ) -> None:
        self._d.rounded_rectangle(
            tuple(box),
            radius=radius,
            fill=self._ink(fill),
            outline=self._ink(outline),
            width=width,
        )


def luminance(colour: RGB) -> float:
    """Relative luminance (WCAG), to pick ink that contrasts with a fill."""

    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def encode(img: Image.Image, theme: Theme | None = None) -> bytes:
    """PNG with a palette: flat drawings lose nothing visible, and the bytes are deterministic
    (no timestamps, no random dither). With ``theme``, the colours are those of the theme's
    fixed palette (:func:`palette`), which costs a seventh of choosing a palette per picture."""
    if theme is None:
        quantized = img.quantize(
            colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
        )
    else:
        quantized = img.quantize(palette=palette(theme), dither=Image.Dither.NONE)
    out = io.BytesIO()
    quantized.save(out, format="PNG", optimize=False, compress_level=3)
    return out.getvalue()


@lru_cache(maxsize=len(Theme))
def palette(theme: Theme) -> Image.Image:
    """The 256 colours every picture of ``theme`` is written in, chosen once: the theme's own
    colours exactly, the edges of each text colour on each ground it is written on (six
    blends of each pair), and for the rest the colours of the forty faces and the back."""
    col = PALETTES[theme]
    pairs = [
        (ink, ground) for ink in (col.text, col.muted, col.turn) for ground in (col.felt, col.panel)
    ]
    pairs += [(col.scopa, col.panel), (CREAM, col.scopa), (INK, CREAM), (col.panel, col.turn)]
    pairs += [(CREAM, col.panel), (col.last, col.panel)]
    colours: list[RGB] = [col.felt, col.panel, col.text, col.muted, col.turn, col.last]
    colours += [col.scopa, col.card_edge, CREAM, INK]
    for ink, ground in pairs:
        for k in range(1, 7):
            t = k / 7
            blend = tuple(round(a * t + b * (1 - t)) for a, b in zip(ink, ground, strict=True))
            colours.append(blend)  # type: ignore[arg-type]
    unique = list(dict.fromkeys(colours))
    width = 100
    h = card_height(width)
    sheet = Image.new("RGB", (10 * width, 5 * h), col.felt)
    for i, c in enumerate(CARDS):
        face = card_image(c, width, theme)
        sheet.paste(face, ((i % 10) * width, (i // 10) * h), face)
    back = back_image(width, theme)
    sheet.paste(back, (0, 4 * h), back)
    faces = sheet.crop((0, 0, 10 * width, 4 * h + h))
    rest = faces.quantize(256 - len(unique), method=Image.Quantize.MEDIANCUT)
    flat = [v for c in unique for v in c] + (rest.getpalette() or [])[: 3 * (256 - len(unique))]
    out = Image.new("P", (1, 1))
    out.putpalette(flat + [0] * (768 - len(flat)))
    return out
