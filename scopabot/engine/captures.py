"""Which table cards a played card may take: same value first, otherwise sums.

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


def capture_options(values: tuple[int, ...], asso_piglia_tutto: bool) -> Options:
    """Every capture allowed for each played value on a table with these card values."""
    key = (values, asso_piglia_tutto)
    found = _CACHE.get(key)
    if found is None:
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        found = _CACHE[key] = _compute(values, asso_piglia_tutto)
    return found


def capture_cache() -> dict[tuple[tuple[int, ...], bool], Options]:
    """The cache itself, for loops that look it up inline before calling
    :func:`capture_options` (a dictionary lookup is cheaper than a call)."""
    return _CACHE


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
