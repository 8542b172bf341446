"""Seat holders' names as a picture shows them: short enough to fit, and never two alike.

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

from collections.abc import Callable, Sequence

from .fonts import drawable

ELLIPSIS = "…"


def _cut(name: str, head: int, tail: int) -> str:
    return name[:head].rstrip() + ELLIPSIS + (name[len(name) - tail :].lstrip() if tail else "")


def shorten(name: str, fits: Callable[[str], bool], *, keep: str = "", way: str = "end") -> str:
    """``name + keep`` cut until it fits (``keep``, a seat mark, is never cut): at its end
    ("Alessandro Mar…"), in the middle ("Alessan…vecchio") or, ``way="start"``, keeping its
    end ("…Montevecchio")."""
    if fits(name + keep):
        return name + keep
    n = len(name)
    for left in range(n - 1, 0, -1):
        if way == "end":
            head, tail = left, 0
        elif way == "middle":
            head, tail = (left + 1) // 2, left // 2
        else:
            head, tail = 0, left
        shown = _cut(name, head, tail)
        if fits(shown + keep):
            return shown + keep
    return (name[:1] + ELLIPSIS if name else "") + keep


def labels(names: Sequence[str], fits: Callable[[str], bool]) -> list[str]:
    """Each seat's label by the rule above; ``fits`` says whether a label fits its room."""
    drawn = [drawable(n) for n in names]
    marked = [not d or drawn.count(d) > 1 for d in drawn]
    for _ in range(2):
        for way in ("end", "middle", "start"):
            shown = [
                shorten(
                    d, fits, keep=(f" #{seat + 1}" if d else f"#{seat + 1}") if m else "", way=way
                )
                for seat, (d, m) in enumerate(zip(drawn, marked, strict=True))
            ]
            alike = [shown.count(s) > 1 for s in shown]
            if not any(alike):
                return shown
        marked = [m or a for m, a in zip(marked, alike, strict=True)]
    return shown
