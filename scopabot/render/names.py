"""People's names as data: whatever a display name holds, it is drawn and written on one line.

A Discord display name may hold newlines, tabs, right-to-left overrides, zero-width
characters, a pile of combining marks or backticks. Drawn as it is, a newline breaks the
picture (a multi-line text cannot be anchored), an override turns the rest of a line around
and backticks close the code block of a deal's breakdown. :func:`plain_name` keeps what a
person reads as the name and makes the rest harmless.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

MAX_NAME: Final = 32
"""Characters of a name shown (Discord's own limit for a display name)."""
_MARKS_PER_LETTER: Final = 2  # accents stack; a hundred of them is a wall of ink
_KEEP_FORMAT: Final = frozenset("\u200d")  # the zero-width joiner of emoji sequences
_SPACES: Final = frozenset({"Zs", "Zl", "Zp", "Cc"})


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
        elif category == "Cf" and char not in _KEEP_FORMAT:
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
