"""Colours and the font shared by every picture.

Two themes follow Discord's own: a dark green felt for the dark theme and a pale felt for the
light one. The cards themselves are the same cream faces in both (a real card does not change
colour with the room), so they read on either background; suit colours are only a help, the
suits differ by shape.

The font is Source Sans Pro (Adobe, SIL Open Font License 1.1), installed with the
``font-source-sans-pro`` package, with Noto behind it for every other script and for emoji
(:mod:`scopabot.render.fonts`). Without those packages the pictures fall back on the Aileron
that Pillow (>= 10.1) carries inside itself (public domain), which has only ASCII letters, so
text is then written without accents ("e vuoto" for "è vuoto") rather than with boxes.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from PIL import ImageFont

from scopabot.engine import Suit

from .fonts import chain, drawable

RGB = tuple[int, int, int]


class Theme(StrEnum):
    DARK = "dark"
    LIGHT = "light"


@dataclass(frozen=True, slots=True)
class Palette:
    """The colours of the surroundings; ``turn`` and ``last`` are yellow and blue, a pair that
    stays apart for every common kind of colour blindness."""

    felt: RGB
    panel: RGB
    text: RGB
    muted: RGB
    turn: RGB
    last: RGB
    scopa: RGB
    card_edge: RGB


PALETTES: Final = {
    Theme.DARK: Palette(
        felt=(27, 77, 52),
        panel=(19, 56, 38),
        text=(246, 241, 226),
        muted=(170, 196, 180),
        turn=(255, 206, 64),
        last=(92, 184, 255),
        scopa=(255, 122, 89),
        card_edge=(20, 24, 22),
    ),
    Theme.LIGHT: Palette(
        felt=(214, 232, 218),
        panel=(190, 216, 198),
        text=(22, 40, 30),
        muted=(66, 92, 76),
        turn=(176, 112, 0),
        last=(18, 92, 196),
        scopa=(190, 50, 20),
        card_edge=(60, 66, 62),
    ),
}

CREAM: Final = (251, 246, 232)
INK: Final = (34, 30, 28)
GOLD: Final = (232, 185, 35)
GOLD_DARK: Final = (138, 98, 0)
SKIN: Final = (242, 205, 166)

SUIT_FILL: Final = {
    Suit.DENARI: GOLD,
    Suit.COPPE: (200, 48, 44),
    Suit.SPADE: (46, 104, 184),
    Suit.BASTONI: (74, 140, 58),
}
"""Colours of the suit signs: the Neapolitan deck's gold, red, blue and green."""

SUIT_INK: Final = {
    Suit.DENARI: (150, 96, 0),
    Suit.COPPE: (178, 30, 30),
    Suit.SPADE: (28, 74, 150),
    Suit.BASTONI: (40, 104, 40),
}
"""Darker versions for the value in the corner, readable on the cream face."""


FONT_FILES: Final = {False: "SourceSansPro-Regular.ttf", True: "SourceSansPro-Bold.ttf"}


def _font_path(bold: bool) -> str | None:
    try:
        from importlib.resources import files

        path = files("font_source_sans_pro") / "files" / FONT_FILES[bold]
    except ImportError:  # pragma: no cover - depends on what is installed
        return None
    return str(path) if path.is_file() else None


HAS_FONT: Final = _font_path(False) is not None
"""Whether Source Sans Pro is installed (else Pillow's ASCII-only Aileron is used)."""


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The pictures' first font at ``size`` pixels, regular or bold (the cards' letters)."""
    return chain(size, bold)[0]


def printable(text: str) -> str:
    """``text`` as the pictures draw it (:func:`scopabot.render.fonts.drawable`): every
    script and emoji, without invisible marks or missing-letter boxes."""
    return drawable(text)
