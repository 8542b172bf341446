"""A clock that runs faster than real time, for end-to-end tests of deadlines only.

``SCOPABOT_CLOCK_SPEED=3600`` makes an hour pass in a second, so a correspondence turn
(at least an hour) runs out during a test of the real ``bot.py``. Never set in production.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from contextlib import suppress
from datetime import UTC, datetime, timedelta
from typing import Any


class FastClock:
    def __init__(self, speed: float) -> None:
        self.speed = speed
        self._start = datetime.now(UTC)
        self._t0 = time.monotonic()

    def now(self) -> datetime:
        return self._start + timedelta(seconds=(time.monotonic() - self._t0) * self.speed)

    async def wait_until(self, when: datetime | None, wake: asyncio.Event) -> None:
        timeout = None
        if when is not None:
            timeout = max(0.0, (when - self.now()).total_seconds() / self.speed)
        with suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), timeout)

    def attach(self, source: Any) -> Callable[[], None]:
        return lambda: None
