"""People's names as data: whatever a display name holds, it is drawn and written on one line.

A Discord display name may hold newlines, tabs, right-to-left overrides, zero-width
characters, a pile of combining marks or backticks. Drawn as it is, a newline breaks the
picture (a multi-line text cannot be anchored), an override turns the rest of a line around
and backticks close the code block of a deal's breakdown. :func:`plain_name` keeps what a
person reads as the name and makes the rest harmless.

Seat holders' names as a picture shows them are short enough to fit, and never two alike.

Discord lets two members share a display name, three computers of one level are all
"Computer (medio)", a name may be only characters no font draws, and a long name cut to fit
can become another's ("Computer (facile)" and "Computer (difficile)" both "Compu…"). A table
where two seats read the same cannot be followed, so the rule is:

1. the name as drawn (:func:`scopabot.render.fonts.drawable`); nothing left: "#2" (the seat);
2. names that still read alike get their seat after them: "Marco #1", "Marco #3";
3. a name too long is cut at its end ("Computer (diffi…"); if that makes two alike, in the
   middle, else keeping its end ("…(difficile)"), where names of one kind differ;
4. if two cut names still read alike, they get their seat mark and are cut again.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from typing import Final

from .fonts import clusters, drawable, drawn_as

MAX_NAME: Final = 32
"""Characters of a name shown (Discord's own limit for a display name)."""
_MARKS_PER_LETTER: Final = 2  # accents stack; a hundred of them is a wall of ink
_KEEP_FORMAT: Final = frozenset("\u200c\u200d")  # joiners: emoji sequences, Persian, Indic
_SPACES: Final = frozenset({"Zs", "Zl", "Zp", "Cc"})
_BLACK_FLAG: Final = "\U0001f3f4"


def _flag_tag(out: list[str], char: str) -> bool:
    """Whether ``char`` is a tag that spells a flag after a black flag (England 🏴 is 🏴 and
    the tags "gbeng"): kept, or the name would show a pirate's flag."""
    return (
        "\U000e0020" <= char <= "\U000e007f"
        and bool(out)
        and (out[-1] == _BLACK_FLAG or "\U000e0020" <= out[-1] <= "\U000e007f")
    )


def plain_name(text: str | None) -> str | None:
    """``text`` on one line: line breaks, tabs and other controls become spaces, invisible
    format characters (direction overrides, zero-width spaces) go, accents stack at most two
    deep, backticks become a look-alike (a code block stays one), spaces are collapsed and
    the name cut at 32 characters. ``None`` when nothing visible is left.

    >>> plain_name("Marco\\nIl Capo")
    'Marco Il Capo'
    >>> plain_name("\\u200b\\u200b") is None
    True
    """
    if text is None:
        return None
    out: list[str] = []
    marks = 0
    for char in unicodedata.normalize("NFC", text):
        category = unicodedata.category(char)
        if category in _SPACES:
            out.append(" ")
            marks = 0
        elif category == "Cf" and char not in _KEEP_FORMAT and not _flag_tag(out, char):
            continue
        elif category in ("Cs", "Co", "Cn"):
            continue  # lone surrogates, private use, unassigned: nothing a font draws
        elif category.startswith("M"):
            marks += 1
            if marks <= _MARKS_PER_LETTER and out and out[-1] != " ":
                out.append(char)
        else:
            out.append("ˋ" if char == "`" else char)
            marks = 0
    name = " ".join("".join(out).split())
    if not name:
        return None
    return name if len(name) <= MAX_NAME else name[: MAX_NAME - 1].rstrip() + "…"


_MARKUP = re.compile(r"([\\*_~|`>#\[\]()<@:\-])")


def typed_text(text: str) -> str:
    r"""What a person typed (a score sheet's side name or note), shown as they typed it:
    one line, every Markdown character escaped, so no masked link, spoiler, heading, code,
    mention or emoji of theirs renders in the bot's message.

    >>> print(typed_text("[clicca](https://x.it) ||spoiler|| <@1>"))
    \[clicca\]\(https\://x.it\) \|\|spoiler\|\| \<\@1\>
    """
    return _MARKUP.sub(r"\\\1", " ".join(text.split()))


ELLIPSIS: Final = "…"


def _cut(parts: Sequence[str], head: int, tail: int) -> str:
    kept = "".join(parts[len(parts) - tail :]).lstrip() if tail else ""
    return "".join(parts[:head]).rstrip() + ELLIPSIS + kept


def shorten(name: str, fits: Callable[[str], bool], *, keep: str = "", way: str = "end") -> str:
    """``name + keep`` cut until it fits (``keep``, a seat mark, is never cut): at its end
    ("Alessandro Mar…"), in the middle ("Alessan…vecchio") or, ``way="start"``, keeping its
    end ("…Montevecchio")."""
    if fits(name + keep):
        return name + keep
    parts = clusters(name)  # a cut never splits a flag or a letter from its accent
    n = len(parts)
    for left in range(n - 1, 0, -1):
        if way == "end":
            head, tail = left, 0
        elif way == "middle":
            head, tail = (left + 1) // 2, left // 2
        else:
            head, tail = 0, left
        shown = _cut(parts, head, tail)
        if fits(shown + keep):
            return shown + keep
    return (parts[0] + ELLIPSIS if parts else "") + keep


def labels(names: Sequence[str], fits: Callable[[str], bool]) -> list[str]:
    """Each seat's label by the rule above; ``fits`` says whether a label fits its room."""
    drawn = [drawable(n) for n in names]
    looks = [drawn_as(d) for d in drawn]
    marked = [not d or looks.count(k) > 1 for d, k in zip(drawn, looks, strict=True)]
    for _ in range(2):
        for way in ("end", "middle", "start"):
            shown = [
                shorten(
                    d, fits, keep=(f" #{seat + 1}" if d else f"#{seat + 1}") if m else "", way=way
                )
                for seat, (d, m) in enumerate(zip(drawn, marked, strict=True))
            ]
            looks = [drawn_as(s) for s in shown]
            alike = [looks.count(k) > 1 for k in looks]
            if not any(alike):
                return shown
        marked = [m or a for m, a in zip(marked, alike, strict=True)]
    return shown


def seat_marked(names: Sequence[str], *, empty: str = "") -> list[str]:
    """Rule 2 in words: names that read alike get their seat after them, "Computer (normale)
    #2" and "Computer (normale) #4", so "Tocca a Computer (normale) #4" says which; the
    pictures' :func:`labels` then find them distinct and draw them the same. ``empty`` (an
    open seat's dash) is not a name and is never marked."""
    return [
        f"{name} #{seat + 1}" if name != empty and names.count(name) > 1 else name
        for seat, name in enumerate(names)
    ]
