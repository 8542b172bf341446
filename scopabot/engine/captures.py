"""Which felt cards a played card may take: same value first, otherwise sums.

This is the innermost loop of every playout the computer players run, so it works on card
values and positions and caches the answer per table shape: the same few hundred table shapes
recur in almost every deal. The answer for a shape lists, for each played value 1..10, every
capture the rules allow, as tuples of positions in the table.

>>> options = capture_options((3, 5, 8), asso_piglia_tutto=False)
>>> options[8]       # a fante takes only the fante, although 3 + 5 = 8
((2,),)
>>> options[9]
()
>>> sorted(capture_options((1, 3, 4, 5), asso_piglia_tutto=False)[9])
[(0, 1, 3), (2, 3)]
"""

from __future__ import annotations

from itertools import combinations
from typing import Final

Positions = tuple[int, ...]
Options = tuple[tuple[Positions, ...], ...]
"""Indexed by played value 0..10 (0 unused): every allowed capture, as table positions."""

_CACHE: dict[tuple[tuple[int, ...], bool], Options] = {}
_CACHE_LIMIT: Final = 200_000

VALUE_CODE: Final = tuple(1 << (4 * (i % 10 + 1)) for i in range(40))
"""A table's *code* is the sum of its cards' ``VALUE_CODE``: four bits counting each value.
It names the multiset of values, which is all the capture rules look at, as one small int
that the game keeps up to date play by play; hashing it is much cheaper than a tuple."""

_BY_CODE: tuple[dict[int, Options], dict[int, Options]] = ({}, {})


def options_for_code(code: int, asso_piglia_tutto: bool) -> Options:
    """:func:`capture_options` for a table given by its code; positions index the table
    sorted by value (as the game keeps it)."""
    cache = _BY_CODE[asso_piglia_tutto]
    found = cache.get(code)
    if found is None:
        if len(cache) >= _CACHE_LIMIT:
            cache.clear()
        values = tuple(v for v in range(1, 11) for _ in range((code >> (4 * v)) & 15))
        found = cache[code] = capture_options(values, asso_piglia_tutto)
    return found


def code_cache(asso_piglia_tutto: bool) -> dict[int, Options]:
    """The per-code cache itself, for loops that look it up inline before calling
    :func:`options_for_code` (a dictionary lookup is cheaper than a call)."""
    return _BY_CODE[asso_piglia_tutto]


def capture_options(values: tuple[int, ...], asso_piglia_tutto: bool) -> Options:
    """Every capture allowed for each played value on a table with these card values."""
    key = (values, asso_piglia_tutto)
    found = _CACHE.get(key)
    if found is None:
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        found = _CACHE[key] = _compute(values, asso_piglia_tutto)
    return found


def _compute(values: tuple[int, ...], asso_piglia_tutto: bool) -> Options:
    n = len(values)
    singles: list[list[Positions]] = [[] for _ in range(11)]
    for i, v in enumerate(values):
        singles[v].append((i,))
    sums: list[list[Positions]] = [[] for _ in range(11)]
    for size in range(2, n + 1):
        for combo in combinations(range(n), size):
            total = 0
            for i in combo:
                total += values[i]
                if total > 10:
                    break
            else:
                sums[total].append(combo)
    options: list[tuple[Positions, ...]] = [()]
    for v in range(1, 11):
        if singles[v]:
            options.append(tuple(singles[v]))
        elif v == 1 and asso_piglia_tutto and n:
            options.append((tuple(range(n)),))
        else:
            options.append(tuple(sums[v]))
    return tuple(options)
