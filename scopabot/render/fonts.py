"""The fonts of the pictures: Source Sans Pro first, then Noto for every other script, so that a
name is drawn as people wrote it, whatever its letters.

Discord names are often emoji, Chinese, Japanese, Korean or Arabic; drawn with one Latin font
they would come out as missing-letter boxes (or, filtered, as nothing). Each character is drawn
with the first font of the chain that has it: Source Sans Pro (``font-source-sans-pro``), then
Noto Sans, Noto Sans Symbols, Noto Emoji (a clean monochrome emoji) and Noto Sans for Arabic,
Hebrew, Indic, Thai and other scripts (``manimgx-fonts``), then Noto Sans CJK
(``manimgx-fonts-cjk``); all are SIL Open Font License 1.1 and come from PyPI with the project.

Letters that change with their neighbours (Devanagari conjuncts and vowel signs, Bengali,
Tamil, Thai, Arabic joining) and emoji sequences (a flag, a family, a keycap: one glyph each)
are laid out by Pillow's raqm where the machine has it (:data:`SHAPING`); Latin text keeps the
basic layout, which is faster and draws it the same. Without raqm every name still draws, and
apart from every other: letters one by one, Arabic joined by ``arabic-reshaper``, a flag as its
letters in a frame. Right-to-left names read right to left: the line is put in visual order by
the Unicode bidi algorithm (``python-bidi``).

A character no font has (a private-use point, an unassigned one) is left out rather than drawn
as a box; invisible ones (joiners outside an emoji sequence, variation selectors, skin-tone
modifiers, bidi controls) are dropped too. Names that come out empty or alike are told apart by
:func:`scopabot.render.canvas.Canvas.labels`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from importlib.resources import files
from typing import Final

from PIL import ImageDraw, ImageFont, features

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


def draws(index: int, char: str) -> bool:
    """Whether font ``index`` of the chain has ``char`` (else it would draw its missing-letter
    box, the "notdef" glyph)."""
    mask = font_at(index, PROBE).getmask(char)
    return (mask.size, bytes(mask)) != _missing(index)


@lru_cache(maxsize=16384)
def font_for(char: str) -> int | None:
    """The index in the chain of the first font that draws ``char`` (None: none does)."""
    if char.isascii():
        return 0
    return next((i for i in range(len(chain(PROBE))) if draws(i, char)), None)


SHAPING: bool = bool(features.check_feature("raqm"))
"""Whether Pillow's complex text layout is there (libraqm, built into Pillow's wheels, loads
the system's FriBiDi: Debian's ``libfribidi0``). With it, a piece of text in a script whose
letters change with their neighbours is shaped by its font: Devanagari conjuncts and vowel
signs, Bengali, Tamil, Thai marks, Arabic joining; and an emoji sequence is one glyph (a flag
🇮🇹, a family 👨‍👩‍👧, a keycap). Without it each letter is drawn on its own (Arabic still
joined by ``arabic-reshaper``) and an emoji sequence by a stand-in that keeps it apart from
any other (:func:`layout`). Read when a text is laid out, so tests may switch it."""


_DROPPED: Final = re.compile("[\ufe00-\ufe0f\U0001f3fb-\U0001f3ff\U000e0100-\U000e01ef]")
"""Variation selectors and skin tones: the monochrome emoji has one form of each."""
_INVISIBLE: Final = re.compile(
    "[\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff\U000e0000-\U000e007f]"
)
"""Zero-width and bidi controls, tags outside a flag: nothing to draw."""
_INVISIBLE_BUT_JOINERS: Final = re.compile(
    "[\u200b\u200e\u200f\u202a-\u202e\u2060-\u206f\ufeff\U000e0000-\U000e007f]"
)
JOINERS: Final = "\u200c\u200d"
"""The zero-width non-joiner and joiner: between two letters of a script that joins they say
how (a Persian "علی‌رضا" keeps its final ye, a Devanagari half form), so they are kept there
for raqm; anywhere else, and without raqm, they draw nothing."""


def _joins(c: str) -> bool:
    return bool(c) and not c.isascii() and unicodedata.category(c)[0] in "LM"


@lru_cache(maxsize=4096)
def _letter(c: str) -> str:
    """``c`` if a font has it; else the letters it is a styled form of, when a font has them
    ("𝓜" of the mathematical letters Discord names are often written in, read "M"), else
    nothing."""
    if font_for(c) is not None:
        return c
    folded = unicodedata.normalize("NFKC", c)
    if folded != c and all(font_for(f) is not None for f in folded):
        return folded
    return ""


def _plain(part: str) -> str:
    """Text between emoji sequences as it is drawn: invisible marks dropped, characters no font
    has left out, joiners kept only between two letters."""
    kept = [
        d
        for c in _INVISIBLE_BUT_JOINERS.sub("", part)
        for d in (c if c.isspace() or c in JOINERS else _letter(c))
    ]
    return "".join(
        c
        for k, c in enumerate(kept)
        if c not in JOINERS
        or (k > 0 and k + 1 < len(kept) and _joins(kept[k - 1]) and _joins(kept[k + 1]))
    )


_PICTURE: Final = "[\u00a9\u00ae\u203c-\u3299\U0001f000-\U0001faff]"
SEQUENCE: Final = re.compile(
    "[\U0001f1e6-\U0001f1ff]{2}"  # a flag: two regional indicators
    "|\U0001f3f4[\U000e0061-\U000e007a]{2,}\U000e007f"  # England, Scotland, Wales: tags
    "|[0-9#*]\u20e3"  # a keycap
    f"|{_PICTURE}(?:\u200d{_PICTURE})+"  # pictures joined (a family, the rainbow flag)
)
"""Emoji sequences, drawn as one glyph each (variation selectors and skin tones dropped)."""


def _split(text: str) -> list[tuple[str, bool]]:
    """``text`` cut into emoji sequences (True) and what lies between them (False)."""
    out: list[tuple[str, bool]] = []
    at = 0
    for m in SEQUENCE.finditer(text):
        if not _in_emoji_font(m.group()):
            continue  # pictures the emoji font lacks, drawn one by one by other fonts
        if m.start() > at:
            out.append((text[at : m.start()], False))
        out.append((m.group(), True))
        at = m.end()
    if at < len(text):
        out.append((text[at:], False))
    return out


@lru_cache(maxsize=1024)
def _in_emoji_font(sequence: str) -> bool:
    emoji = _emoji_font()
    return emoji is not None and all(
        draws(emoji, c) for c in sequence if c != "\u200d" and c != "\u20e3" and c < "\U000e0000"
    )


@lru_cache(maxsize=1)
def _emoji_font() -> int | None:
    """The index in the chain of the emoji font (None: not installed)."""
    for i, (path, _, _) in enumerate(_chain_files(False)):
        if "Emoji" in path:
            return i
    return None  # pragma: no cover - depends on what is installed


@lru_cache(maxsize=4096)
def drawable(text: str) -> str:
    """``text`` as it will be drawn, in reading order: one line (line breaks and controls
    become spaces), invisible marks dropped, characters no font has left out; emoji
    sequences (flags, families, keycaps) kept whole."""
    text = unicodedata.normalize("NFC", text)
    text = "".join(" " if unicodedata.category(c) in ("Cc", "Zl", "Zp") else c for c in text)
    text = _DROPPED.sub("", text)
    if not HAS_FONTS:
        folded = unicodedata.normalize("NFKD", _INVISIBLE.sub("", text))
        text = "".join(c for c in folded if c.isascii() or c in "…·’")
    else:
        keep = _emoji_font() is not None
        text = "".join(
            part if sequence and keep else _plain(part) for part, sequence in _split(text)
        )
    return " ".join(text.split())


def clusters(text: str) -> list[str]:
    """A drawable text as the pieces a reader sees as one: an emoji sequence, a letter with
    its marks; a name is cut between them, never inside a flag or a family."""
    out: list[str] = []
    for part, sequence in _split(text):
        if sequence:
            out.append(part)
            continue
        for c in part:
            mark = unicodedata.category(c).startswith("M") or c in JOINERS
            if out and mark and not out[-1].isspace():
                out[-1] += c
            else:
                out.append(c)
    return out


_STAND_INS: Final = "".join(map(chr, [*range(0x2400, 0x2427), *range(0x2FF0, 0x2FFC)]))
"""Neutral characters (bidi class ON, like an emoji) that hold an emoji sequence's place while
the line is put in visual order, so a flag in a right-to-left name is not turned round."""


def _ordered(text: str, shaped: bool) -> str:
    """``text`` in the order its letters are laid left to right (the bidi algorithm); without
    shaping, Arabic is joined first (presentation forms)."""
    if not any(unicodedata.bidirectional(c) in ("R", "AL", "AN") for c in text):
        return text
    import arabic_reshaper  # type: ignore[import-untyped]
    from bidi import get_display  # type: ignore[import-untyped]

    stand_ins = iter(c for c in _STAND_INS if c not in text)
    held: dict[str, str] = {}

    def hold(m: re.Match[str]) -> str:
        c = next(stand_ins, None)
        if c is None:  # pragma: no cover - more sequences than a name holds
            return m.group()
        held[c] = m.group()
        return c

    line = SEQUENCE.sub(hold, text)
    line = str(get_display(line if shaped else arabic_reshaper.reshape(line)))
    return "".join(held.get(c, c) for c in line)


@lru_cache(maxsize=4096)
def visual(text: str) -> str:
    """A drawable line in the order its letters are laid left to right when no shaping is
    available: Arabic joined, and right-to-left runs turned, so "محمد" reads from the right."""
    if text.isascii() or not HAS_FONTS:
        return text
    return _ordered(text, False)


PLAIN: Final = "plain"
"""A piece drawn letter by letter, left to right (Pillow's basic layout)."""
BADGE: Final = "badge"
"""A flag or keycap drawn without shaping: its letters or digit in a frame, as the emoji font
draws a flag ("IT" on a flag), so 🇮🇹 never reads as the letters I and T loose in a name."""


class Piece:
    """A run of a line drawn with one font in one way: :data:`PLAIN`, :data:`BADGE`, or shaped
    by raqm, ``"ltr"`` or ``"rtl"`` (the text then in logical order)."""

    __slots__ = ("font", "how", "text")

    def __init__(self, text: str, font: int, how: str) -> None:
        self.text, self.font, self.how = text, font, how

    def __repr__(self) -> str:
        return f"Piece({self.text!r}, {self.font}, {self.how!r})"


_DIGITS: Final = re.compile("[0-9\u0660-\u0669\u06f0-\u06f9]+")


def _logical(piece: str) -> str:
    """A right-to-left piece of a visual line back in reading order (numbers in it were kept
    left to right by the bidi algorithm), for raqm to shape and turn again."""
    return _DIGITS.sub(lambda m: m.group()[::-1], piece[::-1])


def _badge_label(sequence: str) -> str:
    if sequence[0] == "\U0001f3f4":  # a tag flag: gbeng -> ENG
        tags = "".join(chr(ord(c) - 0xE0000) for c in sequence[1:-1])
        return tags[2:].upper()
    if sequence[-1] == "\u20e3":
        return sequence[0]
    return "".join(chr(ord(c) - 0x1F1E6 + ord("A")) for c in sequence)


@lru_cache(maxsize=1024)
def _one_glyph(sequence: str) -> bool:
    """Whether the emoji font shapes ``sequence`` into one glyph of its own (not a sequence
    newer than the font, drawn as its parts, nor a flag it lacks, drawn as two letters)."""
    emoji = _emoji_font()
    assert emoji is not None
    f = shaped_font(emoji, PROBE)
    if f.getlength(sequence) > 1.5 * f.getlength(sequence[0]):
        return False
    return bytes(f.getmask(sequence)) != bytes(f.getmask(sequence[0]))


@lru_cache(maxsize=4096)
def pieces(text: str, shaped: bool) -> tuple[Piece, ...]:
    """A drawable text as the pieces it is drawn in, left to right."""
    line = _ordered(text, shaped)
    out: list[Piece] = []
    emoji = _emoji_font()

    def add(c: str) -> None:
        last = out[-1] if out else None
        if c in JOINERS:  # said to raqm with the letters around it; nothing to draw alone
            if shaped and last is not None and last.how == PLAIN:
                last.text += c
            return
        if c.isspace() and last is not None and last.how == PLAIN and last.font != emoji:
            last.text += c
            return
        i = 0 if c.isspace() else font_for(c)
        if i is None:
            return
        if last is not None and last.how == PLAIN and last.font == i:
            last.text += c
        else:
            out.append(Piece(c, i, PLAIN))

    for part, sequence in _split(line):
        if not sequence or emoji is None:
            for c in part:
                add(c)
        elif shaped and _one_glyph(part):
            out.append(Piece(part, emoji, "ltr"))
        elif "\u200d" in part:  # a family drawn as its people side by side
            for c in part.replace("\u200d", ""):
                add(c)
        else:
            out.append(Piece(_badge_label(part), 0, BADGE))
    if shaped:
        for p in out:
            if p.how == PLAIN and p.font == 0:  # basic layout: a joiner would be a box
                p.text = p.text.replace("\u200c", "").replace("\u200d", "")
            elif p.how == PLAIN:
                rtl = any(unicodedata.bidirectional(c) in ("R", "AL") for c in p.text)
                p.text, p.how = (_logical(p.text), "rtl") if rtl else (p.text, "ltr")
    return tuple(out)


def layout(s: str) -> tuple[Piece, ...]:
    """Any text as it is drawn: the pieces of its drawable line, left to right."""
    if s.isascii():
        return (Piece(s, 0, PLAIN),)
    return pieces(drawable(s), SHAPING)


def drawn_as(s: str) -> tuple[tuple[str, int, str], ...]:
    """What drawing ``s`` puts on the picture: two texts with the same are drawn alike (without
    raqm, a Devanagari half form written with a joiner and the conjunct written without, or a
    family and its people written side by side)."""
    return tuple((p.text, p.font, p.how) for p in layout(s))


@lru_cache(maxsize=1024)
def shaped_font(index: int, size: int, bold: bool = False) -> Font:
    """Font ``index`` of the chain at ``size`` pixels with raqm's layout (only with
    :data:`SHAPING`)."""
    path, face, variable = _chain_files(bold)[index]
    f = ImageFont.truetype(path, size, index=face, layout_engine=ImageFont.Layout.RAQM)
    if variable:
        f.set_variation_by_axes([700 if bold else 400])
    return f


def _badge(label: str, size: int) -> tuple[Font, float, int]:
    """The font of a badge's label (the name's size, bold), the badge's width and its frame's
    line width."""
    f = font_at(0, size, True)
    return f, f.getlength(label) + 0.36 * size, max(1, size // 14)


def piece_length(p: Piece, size: int, bold: bool = False) -> float:
    if p.how == PLAIN:
        return float(font_at(p.font, size, bold).getlength(p.text))
    if p.how == BADGE:
        return _badge(p.text, size)[1]
    return float(shaped_font(p.font, size, bold).getlength(p.text, direction=p.how))


def piece_metrics(p: Piece, size: int, bold: bool = False) -> tuple[int, int]:
    """The ascent and descent of the font a piece is drawn with."""
    return font_at(p.font, size, bold).getmetrics()


def draw_piece(
    pen: ImageDraw.ImageDraw, xy: tuple[float, float], p: Piece, size: int, bold: bool = False
) -> None:
    """Draw ``p`` with its left end at ``xy`` on its baseline, in coverage 255."""
    x, y = xy
    if p.how == PLAIN:
        pen.text(xy, p.text, font=font_at(p.font, size, bold), fill=255, anchor="ls")
    elif p.how == BADGE:
        f, width, line = _badge(p.text, size)
        box = (x + line, y - 0.8 * size, x + width - line, y + 0.16 * size)
        pen.rounded_rectangle(box, radius=max(2, size // 6), outline=255, width=line)
        pen.text((x + width / 2, y), p.text, font=f, fill=255, anchor="ms")
    else:
        f = shaped_font(p.font, size, bold)
        pen.text(xy, p.text, font=f, fill=255, anchor="ls", direction=p.how)


def text_length(s: str, size: int, bold: bool = False) -> float:
    """The width in pixels of any text as it is drawn."""
    if s.isascii():
        return float(font_at(0, size, bold).getlength(s))
    return float(sum(piece_length(p, size, bold) for p in layout(s)))


def fonts_used(texts: Sequence[str]) -> set[int]:
    """Which fonts of the chain some texts need (for tests and the docs)."""
    return {p.font for t in texts for p in layout(t) if p.how != BADGE}
