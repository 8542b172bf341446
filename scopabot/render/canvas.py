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
from typing import Final

from PIL import Image, ImageDraw

from scopabot.engine import Card

from .cards_art import back_image, card_height, card_image, corner_text
from .fonts import chain, drawable, runs, text_length, visual
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
        self.img = Image.new("RGB", (width, height), self.colours.felt)
        self.draw = ImageDraw.Draw(self.img)
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
    ) -> float:
        """Draw ``s`` (any script, see :mod:`scopabot.render.fonts`) and return its width, so
        a line can continue after it."""
        self.texts.append((s, size))
        fill = fill or self.colours.text
        fonts = chain(size, bold)
        if s.isascii():
            self.draw.text(xy, s, font=fonts[0], fill=fill, anchor=anchor)
            return float(self.draw.textlength(s, font=fonts[0]))
        line = visual(drawable(s))
        pieces = runs(line)
        widths = [fonts[i].getlength(t) for t, i in pieces]
        total = float(sum(widths))
        x, y = xy
        x -= {"l": 0.0, "m": total / 2, "r": total}[anchor[0]]
        ascent, descent = fonts[0].getmetrics()
        y += {"a": ascent, "m": (ascent - descent) / 2, "s": 0, "d": -descent}[anchor[1]]
        for (t, i), w in zip(pieces, widths, strict=True):
            self.draw.text((x, y), t, font=fonts[i], fill=fill, anchor="ls")
            x += w
        return total

    def length(self, s: str, size: int, *, bold: bool = False) -> float:
        return text_length(s if s.isascii() else visual(drawable(s)), size, bold)

    def fit(self, s: str, size: int, width: float, *, bold: bool = False) -> str:
        """``s``, shortened with an ellipsis to fit ``width`` (long Discord names)."""
        s = drawable(s)
        if self.length(s, size, bold=bold) <= width:
            return s
        while s and self.length(s + "…", size, bold=bold) > width:
            s = s[:-1]
        return s.rstrip() + "…"

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
        self.draw.rounded_rectangle(
            box,
            radius=radius,
            fill=self.colours.panel,
            outline=outline,
            width=width if outline else 0,
        )

    def card(
        self, card: Card | None, x: float, y: float, width: int, *, ring: RGB | None = None
    ) -> None:
        """A card face (``None``: its back) with a shadow, and a coloured ring when marked."""
        h = card_height(width)
        r = max(4, width // 14)
        if ring is not None:
            pad = max(4, width // 18)
            self.draw.rounded_rectangle(
                (x - pad, y - pad, x + width + pad - 1, y + h + pad - 1), radius=r + pad, fill=ring
            )
        else:
            off = max(2, width // 30)
            self.draw.rounded_rectangle(
                (x + off, y + off, x + width + off - 1, y + h + off - 1),
                radius=r,
                fill=self.colours.panel,
            )
        if card is None:
            face = back_image(width, self.theme)
        else:
            face = card_image(card, width, self.theme)
            self.faces.append((card, x, y, width))
        self.img.paste(face, (round(x), round(y)), face)

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
        self.text((cx, cy), label, size, fill=ink, anchor="mm", bold=True)

    def smallest_text(self) -> float:
        """The smallest text drawn so far, in pixels once shown 360 wide (see MIN_TEXT)."""
        sizes = [size for _, size in self.texts]
        sizes += [corner_text(width) for *_, width in self.faces]
        return min(sizes, default=MIN_TEXT) * 360 / self.width

    def encode(self) -> bytes:
        return encode(self.img)


def luminance(colour: RGB) -> float:
    """Relative luminance (WCAG), to pick ink that contrasts with a fill."""

    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def encode(img: Image.Image) -> bytes:
    """PNG with a palette: flat drawings lose nothing visible, and the bytes are deterministic
    (no timestamps, no random dither)."""
    quantized = img.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    quantized.save(out, format="PNG", optimize=False, compress_level=3)
    return out.getvalue()
