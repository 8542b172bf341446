"""Time, injectable: the real clock in production, a fake one that tests move by hand.

The scheduler asks the clock for ``now()`` and waits with :meth:`Clock.wait_until`; a
:class:`FakeClock` never sleeps, and its :meth:`FakeClock.advance` walks through every alarm
due on the way, in order, so a test runs a day of timeouts in a few milliseconds.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import suppress
from datetime import UTC, datetime, timedelta
from typing import Protocol


class AlarmSource(Protocol):
    """What a fake clock drives: the scheduler (when is the next alarm; run the due ones)."""

    async def next_alarm(self) -> datetime | None: ...

    async def run_due(self) -> None: ...


class Clock(Protocol):
    def now(self) -> datetime: ...

    async def wait_until(self, when: datetime | None, wake: asyncio.Event) -> None:
        """Return at ``when`` (never, if ``None``) or as soon as ``wake`` is set."""
        ...

    def attach(self, source: AlarmSource) -> Callable[[], None]:
        """Register a scheduler; returns a function that detaches it."""
        ...


class SystemClock:
    """The real time, UTC."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    async def wait_until(self, when: datetime | None, wake: asyncio.Event) -> None:
        timeout = None if when is None else max(0.0, (when - self.now()).total_seconds())
        with suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), timeout)

    def attach(self, source: AlarmSource) -> Callable[[], None]:
        return lambda: None


class FakeClock:
    """A clock that stands still until a test calls :meth:`advance`."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2025, 1, 1, 12, tzinfo=UTC)
        self._sources: list[AlarmSource] = []

    def now(self) -> datetime:
        return self._now

    async def wait_until(self, when: datetime | None, wake: asyncio.Event) -> None:
        # Time only moves in advance(), which runs the due alarms itself: just wait to be woken.
        await wake.wait()

    def attach(self, source: AlarmSource) -> Callable[[], None]:
        self._sources.append(source)
        return lambda: self._sources.remove(source) if source in self._sources else None

    async def advance(
        self, delta: timedelta | float = 0.0, *, until: datetime | None = None
    ) -> None:
        """Move time forward by ``delta`` seconds (or to ``until``), stopping at every alarm
        on the way: the clock shows that alarm's time while it runs, and whatever it leads to
        (a computer playing the turn, a new deadline) is finished before time moves on."""
        if not isinstance(delta, timedelta):
            delta = timedelta(seconds=delta)
        target = until or self._now + delta
        while True:
            due = [d for d in [await s.next_alarm() for s in self._sources] if d is not None]
            step = min(due, default=None)
            if step is None or step > target:
                break
            self._now = max(self._now, step)
            await self._run_all()
        self._now = max(self._now, target)
        await self._run_all()

    async def _run_all(self) -> None:
        for source in list(self._sources):
            await source.run_due()
