"""A store method PostgreSQL refused for another process's transaction is run again.

On PostgreSQL several bot processes write at once, each transaction ``SERIALIZABLE``; when
two of them touch rows in a way no serial order explains (often only the same index page of a
small table: two tables opened or started at once in two processes), PostgreSQL refuses one
(:class:`~.errors.ConflictError`: nothing of it was written). SQLite's one writer at a time
never refuses so: a person clicking "Start" would see an error on PostgreSQL alone. A one-hop
write is run again inside the database (``PostgresDatabase.write_once``); a method built on a
``write()`` block is marked :func:`conflicts_retried` and run again whole, from its start:
the store's methods do nothing outside their transaction, so running one again is as if its
caller had called it once more.
"""

from __future__ import annotations

import asyncio
import functools
import random
from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

from .errors import ConflictError

P = ParamSpec("P")
T = TypeVar("T")
RETRIES = 8  # tries in all; waits of about 5, 10, 20 ... 320 ms between them (1.3 s at most)


def conflicts_retried(method: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
    """Run ``method`` again from its start when PostgreSQL refused its transaction for a
    concurrent one of another process (a few times, after a short random wait, so that the
    two do not meet again); the last refusal is raised as it came."""

    @functools.wraps(method)
    async def retried(*args: P.args, **kwargs: P.kwargs) -> T:
        for attempt in range(RETRIES - 1):
            try:
                return await method(*args, **kwargs)
            except ConflictError:
                await asyncio.sleep(0.005 * 2**attempt * random.uniform(0.5, 1.5))
        return await method(*args, **kwargs)

    return retried
