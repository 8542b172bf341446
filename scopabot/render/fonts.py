"""The fonts of the pictures: Source Sans Pro first, then Noto for every other script, so that a
name is drawn as people wrote it, whatever its letters.

Discord names are often emoji, Chinese, Japanese, Korean or Arabic; drawn with one Latin font
they would come out as missing-letter boxes (or, filtered, as nothing). Each character is drawn
with the first font of the chain that has it: Source Sans Pro (``font-source-sans-pro``), then
Noto Sans, Noto Sans Symbols, Noto Emoji (a clean monochrome emoji) and Noto Sans for Arabic,
Hebrew, Indic, Thai and other scripts (``manimgx-fonts``), then Noto Sans CJK
(``manimgx-fonts-cjk``); all are SIL Open Font License 1.1 and come from PyPI with the project.

Right-to-left names read right to left: Arabic letters are joined into their contextual forms
(``arabic-reshaper``) and the line put in visual order by the Unicode bidi algorithm
(``python-bidi``), then drawn with Pillow's basic layout. That gives the same pixels on every
machine (Pillow's raqm layout needs a system library a fresh machine may lack).

A character no font has (a private-use point, an unassigned one) is left out rather than drawn
as a box; invisible ones (joiners, variation selectors, skin-tone modifiers, bidi controls) are
dropped too. Names that come out empty or alike are told apart by
:func:`scopabot.render.canvas.Canvas.labels`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from importlib.resources import files
from typing import Final

from PIL import ImageFont

Font = ImageFont.FreeTypeFont

_SOURCE: Final = ("font_source_sans_pro", "files")
_NOTO: Final = "manimgx_fonts"
_NOTO_SCRIPTS: Final = (
    "NotoSans[wght].ttf",
    "NotoSansSymbols[wght].ttf",
    "NotoEmoji[wght].ttf",
    "NotoSansArabic[wght].ttf",
    "NotoSansHebrew[wght].ttf",
    "NotoSansDevanagari[wght].ttf",
    "NotoSansBengali[wght].ttf",
    "NotoSansTamil[wght].ttf",
    "NotoSansTelugu[wght].ttf",
    "NotoSansKannada[wght].ttf",
    "NotoSansMalayalam[wght].ttf",
    "NotoSansGujarati[wght].ttf",
    "NotoSansGurmukhi[wght].ttf",
    "NotoSansOriya[wght].ttf",
    "NotoSansSinhala[wght].ttf",
    "NotoSansThai[wght].ttf",
    "NotoSansLao[wght].ttf",
    "NotoSansKhmer[wght].ttf",
    "NotoSansMyanmar[wght].ttf",
    "NotoSansGeorgian[wght].ttf",
    "NotoSansArmenian[wght].ttf",
    "NotoSansEthiopic[wght].ttf",
)
_CJK: Final = ("manimgx_fonts_cjk", "NotoSansCJK-VF.otf.ttc", 2)
"""The collection's Simplified Chinese face (index 2): Han names are mostly Chinese; kana and
Hangul are in every face of it."""


def _path(package: str, *parts: str) -> str | None:
    try:
        path = files(package).joinpath(*parts)
    except ImportError:  # pragma: no cover - depends on what is installed
        return None
    return str(path) if path.is_file() else None


@lru_cache(maxsize=2)
def _chain_files(bold: bool) -> tuple[tuple[str, int, bool], ...]:
    """(file, collection index, variable) of each font of the chain, in order."""
    out: list[tuple[str, int, bool]] = []
    source = _path(
        _SOURCE[0], _SOURCE[1], "SourceSansPro-Bold.ttf" if bold else "SourceSansPro-Regular.ttf"
    )
    if source is not None:
        out.append((source, 0, False))
    for name in _NOTO_SCRIPTS:
        path = _path(_NOTO, name)
        if path is not None:
            out.append((path, 0, True))
    cjk = _path(_CJK[0], _CJK[1])
    if cjk is not None:
        out.append((cjk, _CJK[2], True))
    return tuple(out)


@lru_cache(maxsize=1024)
def font_at(index: int, size: int, bold: bool = False) -> Font:
    """Font ``index`` of the chain at ``size`` pixels (Pillow's own ASCII font when none of the
    packages is installed); each is opened only when a text needs it."""
    files = _chain_files(bold)
    if not files:  # pragma: no cover - depends on what is installed
        default = ImageFont.load_default(size)
        assert isinstance(default, ImageFont.FreeTypeFont)  # Pillow >= 10.1 with FreeType
        return default
    path, face, variable = files[index]
    f = ImageFont.truetype(path, size, index=face, layout_engine=ImageFont.Layout.BASIC)
    if variable:
        f.set_variation_by_axes([700 if bold else 400])
    return f


class Chain:
    """The fonts at one size, first choice first: ``chain[i]`` opens font ``i`` when asked."""

    def __init__(self, size: int, bold: bool) -> None:
        self.size, self.bold = size, bold

    def __getitem__(self, index: int) -> Font:
        return font_at(index, self.size, self.bold)

    def __len__(self) -> int:
        return max(1, len(_chain_files(self.bold)))


@lru_cache(maxsize=256)
def chain(size: int, bold: bool = False) -> Chain:
    """The fonts at ``size`` pixels, regular or bold."""
    return Chain(size, bold)


HAS_FONTS: Final = len(_chain_files(False)) > 1
"""Whether the fonts are installed (else Pillow's ASCII-only Aileron draws plain letters)."""


PROBE: Final = 20
"""The size at which a font is asked whether it draws a character."""


@lru_cache(maxsize=64)
def _missing(index: int) -> tuple[tuple[int, int], bytes]:
    mask = font_at(index, PROBE).getmask("\U0010fffd")  # a private-use point: no font has it
    return mask.size, bytes(mask)


@lru_cache(maxsize=16384)
def font_for(char: str) -> int | None:
    """The index in the chain of the first font that draws ``char`` (None: none does)."""
    if char.isascii():
        return 0
    for i in range(len(chain(PROBE))):
        mask = font_at(i, PROBE).getmask(char)
        if (mask.size, bytes(mask)) != _missing(i):
            return i
    return None


_INVISIBLE: Final = re.compile(
    "[\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufe00-\ufe0f\ufeff\U0001f3fb-\U0001f3ff"
    "\U000e0000-\U000e007f\U000e0100-\U000e01ef]"
)
"""Zero-width and bidi controls, variation selectors, skin tones, tags: nothing to draw."""


@lru_cache(maxsize=4096)
def drawable(text: str) -> str:
    """``text`` as it will be drawn, in reading order: one line (line breaks and controls
    become spaces), invisible marks dropped, characters no font has left out."""
    text = unicodedata.normalize("NFC", text)
    text = "".join(" " if unicodedata.category(c) in ("Cc", "Zl", "Zp") else c for c in text)
    text = _INVISIBLE.sub("", text)
    if not HAS_FONTS:
        folded = unicodedata.normalize("NFKD", text)
        text = "".join(c for c in folded if c.isascii() or c in "…·’")
    else:
        text = "".join(c for c in text if c.isspace() or font_for(c) is not None)
    return " ".join(text.split())


@lru_cache(maxsize=4096)
def visual(text: str) -> str:
    """A drawable line in the order its letters are laid left to right: Arabic joined, and
    right-to-left runs turned (the bidi algorithm), so "محمد" reads from the right."""
    if text.isascii() or not HAS_FONTS:
        return text
    if any(unicodedata.bidirectional(c) in ("R", "AL", "AN") for c in text):
        import arabic_reshaper  # type: ignore[import-untyped]
        from bidi import get_display  # type: ignore[import-untyped]

        return str(get_display(arabic_reshaper.reshape(text)))
    return text


def runs(line: str) -> list[tuple[str, int]]:
    """A visual line cut into pieces each drawn by one font of the chain (a space goes with
    the piece before it)."""
    out: list[tuple[str, int]] = []
    for c in line:
        if c.isspace() and out:
            out[-1] = (out[-1][0] + c, out[-1][1])
            continue
        i = font_for(c)
        if i is None:
            continue
        if out and out[-1][1] == i:
            out[-1] = (out[-1][0] + c, i)
        else:
            out.append((c, i))
    return out


def text_length(line: str, size: int, bold: bool = False) -> float:
    """The width in pixels of a visual line drawn by :func:`runs`."""
    fonts = chain(size, bold)
    if line.isascii():
        return float(fonts[0].getlength(line))
    return float(sum(fonts[i].getlength(t) for t, i in runs(line)))


def fonts_used(texts: Sequence[str]) -> set[int]:
    """Which fonts of the chain some texts need (for tests and the docs)."""
    return {i for t in texts for _, i in runs(visual(drawable(t)))}
