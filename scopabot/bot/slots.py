"""One message kept up to date: refreshes are coalesced, one at a time, never lost.

A game emits several events for one move (the play, the next turn, the computer's answer);
each only marks its message as stale, and a single task re-reads the service and edits the
message until nothing newer is wanted. So a burst of computer plays costs one edit, an edit
that fails (rate limit, Discord down) is retried later, and what is shown is always what the
service says now, never an event's stale picture.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

RETRY_DELAYS = (1.0, 5.0, 30.0)


class Slot:
    """Keeps one message fresh by running ``refresh`` whenever it was marked stale."""

    def __init__(self, name: str, refresh: Callable[[], Awaitable[None]]) -> None:
        self.name = name
        self._refresh = refresh
        self._stale = False
        self._task: asyncio.Task[None] | None = None
        self.paused = 0  # an interaction is editing this message itself
        self.idle = asyncio.Event()
        self.idle.set()

    def request(self) -> None:
        self._stale = True
        if self.paused:
            return
        if self._task is None or self._task.done():
            self.idle.clear()
            self._task = asyncio.get_running_loop().create_task(self._run(), name=self.name)

    def pause(self) -> None:
        """Hold refreshes while an interaction answers by editing this very message."""
        self.paused += 1

    def resume(self, *, fresh: bool) -> None:
        """``fresh``: the interaction showed the current state, pending refreshes are moot."""
        self.paused = max(0, self.paused - 1)
        if fresh:
            self._stale = False
        if self._stale and not self.paused:
            self.request()

    async def _run(self) -> None:
        attempt = 0
        try:
            while self._stale and not self.paused:
                self._stale = False
                try:
                    await self._refresh()
                    attempt = 0
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("refreshing %s failed; will retry", self.name)
                    self._stale = True
                    if attempt >= len(RETRY_DELAYS):
                        log.error("giving up on %s until its next change", self.name)
                        self._stale = False
                        break
                    await asyncio.sleep(RETRY_DELAYS[attempt])
                    attempt += 1
        finally:
            self.idle.set()

    async def wait_idle(self) -> None:
        await self.idle.wait()

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()
