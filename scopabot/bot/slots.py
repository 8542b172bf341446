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
    """Keeps one message fresh: ``refresh`` shows the service's state now and returns its
    version; a request for a version already shown costs nothing."""

    def __init__(self, name: str, refresh: Callable[[], Awaitable[int | None]]) -> None:
        self.name = name
        self._refresh = refresh
        self.shown = -1  # the game version the message shows
        self.wanted = -1  # the newest version an event asked for
        self._force = False  # a change without a version (the table itself)
        self._task: asyncio.Task[None] | None = None
        self.paused = 0  # an interaction is editing this message itself
        self._overtaken = False  # a refresh was on its way when an interaction began
        self.idle = asyncio.Event()
        self.idle.set()

    @property
    def forced(self) -> bool:
        """A change without a version is waiting for the next refresh."""
        return self._force

    @property
    def stale(self) -> bool:
        return self._force or self.wanted > self.shown

    @property
    def settled(self) -> bool:
        """Nothing on its way, nothing wanted, no interaction editing the message: the slot
        may be let go (a later request makes a new one, which shows the message as it is)."""
        return not self.stale and not self.paused and self.idle.is_set()

    def request(self, version: int | None = None) -> None:
        if version is None:
            self._force = True
        elif version <= self.shown:
            return
        else:
            self.wanted = max(self.wanted, version)
        if self.paused:
            return
        if self._task is None or self._task.done():
            self.idle.clear()
            self._task = asyncio.get_running_loop().create_task(self._run(), name=self.name)

    def pause(self) -> None:
        """Hold refreshes while an interaction answers by editing this very message."""
        self.paused += 1
        if self._task is not None and not self._task.done():
            # A refresh on its way read the game before this interaction's move, and its edit
            # may land after the interaction's answer (a rate limit holds it back): the
            # message would show the hand a move behind, its played card still live.
            self._overtaken = True

    def resume(self, *, shown: int | None) -> None:
        """The interaction showed version ``shown`` (None: it did not edit the message)."""
        self.paused = max(0, self.paused - 1)
        if shown is not None:
            self.shown = max(self.shown, shown)
        if self._overtaken and not self.paused:
            # Shown once more, as it is now, whichever of the two edits landed last.
            self._overtaken = False
            self._force = True
        if self.stale and not self.paused:
            self.request(self.wanted if not self._force else None)

    async def _run(self) -> None:
        attempt = 0
        try:
            while self.stale and not self.paused:
                target = self.wanted
                self._force = False
                try:
                    version = await self._refresh()
                    attempt = 0
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("refreshing %s failed; will retry", self.name)
                    if attempt >= len(RETRY_DELAYS):
                        log.error("giving up on %s until its next change", self.name)
                        self.shown = max(self.shown, self.wanted)
                        break
                    self._force = True
                    await asyncio.sleep(RETRY_DELAYS[attempt])
                    attempt += 1
                    continue
                # The refresh read the state as it is now, which includes every event so far.
                self.shown = max(self.shown, version if version is not None else target, target)
        finally:
            self.idle.set()

    async def wait_idle(self) -> None:
        await self.idle.wait()

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()
