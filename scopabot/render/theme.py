"""Colours and the font shared by every picture.

Two themes follow Discord's own: a dark green felt for the dark theme and a pale felt for the
light one. The cards themselves are the same cream faces in both (a real card does not change
colour with the room), so they read on either background; suit colours are only a help, the
suits differ by shape.

The font is Source Sans Pro (Adobe, SIL Open Font License 1.1), installed with the
``font-source-sans-pro`` package: it has the accented letters of Italian and of most players'
names. Without that package the pictures fall back on the Aileron that Pillow (>= 10.1) carries
inside itself (public domain), which has only ASCII letters, so text is then written without
accents ("e vuoto" for "è vuoto") rather than with missing-glyph boxes.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Final

from PIL import ImageFont

from scopabot.engine import Suit

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


@lru_cache(maxsize=128)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The pictures' font at ``size`` pixels, regular or bold."""
    path = _font_path(bold)
    if path is None:
        return ImageFont.load_default(size)
    return ImageFont.truetype(path, size)


def printable(text: str) -> str:
    """``text`` as the font can draw it, without the empty boxes of missing letters: with
    Source Sans Pro, letters it lacks (emoji, most non-European scripts) are left out; with the
    ASCII-only fallback, accents are dropped and anything else becomes "?". The alt text keeps
    every name as written."""
    if text.isascii():
        return text
    if HAS_FONT:
        kept = "".join(c for c in text if c.isspace() or _has_glyph(c)).strip()
        return kept or "?"
    folded = unicodedata.normalize("NFKD", text)
    return "".join(
        c if c.isascii() or c in _FALLBACK_EXTRA else ("" if unicodedata.combining(c) else "?")
        for c in folded
    )


_FALLBACK_EXTRA: Final = "…·’"


@lru_cache(maxsize=4096)
def _has_glyph(char: str) -> bool:
    """Whether the font draws ``char`` as itself rather than as its missing-letter box."""
    f = font(20)
    mask = f.getmask(char)
    return (mask.size, bytes(mask)) != _missing()


@lru_cache(maxsize=1)
def _missing() -> tuple[tuple[int, int], bytes]:
    mask = font(20).getmask("\ue000")  # a private-use point: no font draws it
    return mask.size, bytes(mask)
