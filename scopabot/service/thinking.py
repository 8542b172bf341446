"""Computer players' thinking, kept off the event loop.

``random``, ``greedy`` and ``normal`` answer in well under a millisecond and run inline;
``hard`` and ``expert`` search for up to half a second and run in a pool of worker processes
(one per core by default), created at the first search and shut down by
:meth:`Thinker.close`. Workers receive only the seat's :class:`~scopabot.engine.GameView`, as
a computer player always does.

**Under load.** A person waits for a computer's move for as long as the move waits for a
worker plus the search itself. When more searches are asked for than there are workers, each
gets a share of :data:`WAIT_TARGET` (the workers' number over the searches waiting) instead of
its level's whole budget, and every search stops by :data:`WAIT_TARGET` after it was asked
for, however long it queued, never below :data:`LEAST_TIME`. A busy bot plays its computers
a little weaker; nobody waits much more than :data:`WAIT_TARGET` for one computer move.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import suppress
from typing import Final, Protocol

from scopabot.ai import Level, make_player
from scopabot.ai.search import BUDGETS
from scopabot.engine import GameView, Move

SEARCH_LEVELS = frozenset({Level.HARD, Level.EXPERT})

WAIT_TARGET: Final = 1.5
"""Seconds from asking for a search's move to having it, at most (bar :data:`LEAST_TIME`);
below the 2 s a person should ever wait, leaving room for the queue and the machine."""
LEAST_TIME: Final = 0.05
"""A search keeps this much time however late it starts: enough for a few dozen deals."""


def choose_move(level: str, view: GameView, seed: int, *, time_budget: float | None = None) -> Move:
    """The move of a computer player of ``level`` (runs in a worker process for searches);
    ``time_budget`` overrides a search level's own."""
    return make_player(level, seed=seed, time_budget=time_budget).choose(view)


def search_in_time(level: str, view: GameView, seed: int, share: float, deadline: float) -> Move:
    """A search given ``share`` seconds, and stopped by ``deadline`` (``time.time()``) if it
    was queued so long that the share would overrun it."""
    budget = max(LEAST_TIME, min(share, deadline - time.time()))
    return choose_move(level, view, seed, time_budget=budget)


def _yield_to_the_loop() -> None:
    """Workers run at a lower priority: with one worker per core busy searching, the event
    loop's process still gets a core the moment it has a move to handle. They ignore Ctrl-C,
    which a terminal sends to the whole process group: the process that owns them decides
    what a Ctrl-C does and shuts them down, instead of each dying with a traceback."""
    with suppress(OSError, AttributeError):
        os.nice(10)
    with suppress(ValueError, OSError):
        signal.signal(signal.SIGINT, signal.SIG_IGN)


class Thinker(Protocol):
    async def choose(self, level: str, view: GameView, *, seed: int) -> Move: ...

    async def close(self) -> None: ...


class InlineThinker:
    """Every level on the event loop: for tests and for the cheap levels."""

    async def choose(self, level: str, view: GameView, *, seed: int) -> Move:
        return choose_move(level, view, seed)

    async def close(self) -> None:
        return None


class PoolThinker:
    """Searches in worker processes, the rest inline; the pool is made when first needed.

    ``waiting`` counts the searches asked for and not yet answered: it sets each new
    search's share of the time (see the module's docstring)."""

    def __init__(self, workers: int | None = None, *, wait_target: float = WAIT_TARGET) -> None:
        self.workers = workers or os.cpu_count() or 1
        self.wait_target = wait_target
        self.waiting = 0
        self._pool: Executor | None = None
        self._lock = threading.Lock()

    def share(self, level: str) -> float:
        """The time a search asked for now may take: its level's budget, or less when more
        searches wait than there are workers."""
        rounds = max(1.0, self.waiting / self.workers)
        return min(BUDGETS[Level(level)].time_budget, self.wait_target / rounds)

    async def choose(self, level: str, view: GameView, *, seed: int) -> Move:
        if Level(level) not in SEARCH_LEVELS:
            return choose_move(level, view, seed)
        self.waiting += 1
        try:
            share = self.share(level)
            deadline = time.time() + self.wait_target
            # Starting worker processes (and the fork server) takes tens of milliseconds of
            # work in the submitting thread: a helper thread does it, never the event loop.
            future = await asyncio.to_thread(self._submit, level, view, seed, share, deadline)
            return await asyncio.wrap_future(future)
        finally:
            self.waiting -= 1

    def _submit(
        self, level: str, view: GameView, seed: int, share: float, deadline: float
    ) -> Future[Move]:
        with self._lock:
            if self._pool is None:
                # Not fork: the parent has threads (the database's), whose locks a forked child
                # could inherit held. The fork server starts clean and forks workers itself.
                methods = multiprocessing.get_all_start_methods()
                context = multiprocessing.get_context(
                    "forkserver" if "forkserver" in methods else "spawn"
                )
                if context.get_start_method() == "forkserver":
                    # The fork server imports the players once; every worker forks from it
                    # with them loaded, rather than importing them at its first search.
                    context.set_forkserver_preload(["scopabot.ai", "scopabot.engine"])
                self._pool = ProcessPoolExecutor(
                    max_workers=self.workers, mp_context=context, initializer=_yield_to_the_loop
                )
            return self._pool.submit(search_in_time, level, view, seed, share, deadline)

    async def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.get_running_loop().run_in_executor(None, pool.shutdown)
