"""Computer players' thinking, kept off the event loop.

``random``, ``greedy`` and ``normal`` answer in well under a millisecond and run inline;
``hard`` and ``expert`` search for up to 1.5 s and run in a pool of worker processes (one per
core by default), created at the first search and shut down by :meth:`Thinker.close`. Workers
receive only the seat's :class:`~scopabot.engine.GameView`, as a computer player always does.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import threading
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import suppress
from typing import Protocol

from scopabot.ai import Level, make_player
from scopabot.engine import GameView, Move

SEARCH_LEVELS = frozenset({Level.HARD, Level.EXPERT})


def choose_move(level: str, view: GameView, seed: int) -> Move:
    """The move of a computer player of ``level`` (runs in a worker process for searches)."""
    return make_player(level, seed=seed).choose(view)


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
    """Searches in worker processes, the rest inline; the pool is made when first needed."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or os.cpu_count() or 1
        self._pool: Executor | None = None
        self._lock = threading.Lock()

    async def choose(self, level: str, view: GameView, *, seed: int) -> Move:
        if Level(level) not in SEARCH_LEVELS:
            return choose_move(level, view, seed)
        # Starting worker processes (and the fork server) takes tens of milliseconds of
        # work in the submitting thread: a helper thread does it, never the event loop.
        future = await asyncio.to_thread(self._submit, level, view, seed)
        return await asyncio.wrap_future(future)

    def _submit(self, level: str, view: GameView, seed: int) -> Future[Move]:
        with self._lock:
            if self._pool is None:
                # Not fork: the parent has threads (the database's), whose locks a forked child
                # could inherit held. The fork server starts clean and forks workers itself.
                methods = multiprocessing.get_all_start_methods()
                context = multiprocessing.get_context(
                    "forkserver" if "forkserver" in methods else "spawn"
                )
                self._pool = ProcessPoolExecutor(
                    max_workers=self.workers, mp_context=context, initializer=_yield_to_the_loop
                )
            return self._pool.submit(choose_move, level, view, seed)

    async def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.get_running_loop().run_in_executor(None, pool.shutdown)
