"""One scheduler drives every deadline and reminder, read from the store.

Not a sleeping task per game: a single loop asks the store for the earliest alarm, sleeps on
the clock until then (or until a move writes an earlier one), and acts on everything due, in
order. Deadlines live in the store, so at start-up the loop simply begins, and whatever passed
while the process was down is due at once. A timeout may need a computer to think, so each
due deadline runs as its own task; a reminder is quick and runs in the loop.

**One scheduler across processes.** Several bot processes may share one database; one of them
at a time schedules, the one holding the store's ``scheduler`` lease (a row with its holder
and an expiry on the database's clock, renewed every third of :data:`LEASE_PERIOD`). The
others ask for it as often; when its holder dies (or stops cleanly: it gives the lease up),
one of them takes it within a lease period and a third, and plays the computer turns the dead
process was thinking (:meth:`Deadlines._orphans`) or had not claimed yet, killed between a
person's move and the computer's turn after it (:meth:`Deadlines._unclaimed_turns`). A lease
rather than PostgreSQL's advisory lock: one code path on both databases (two processes may
share a SQLite file too, e.g. a restart racing the old process), a bounded takeover even when
the holder's machine is cut off without its connection being closed, and the lease's state
readable in a table. Acting is still safe without it: every deadline and reminder is claimed
before it is acted on, so two schedulers meeting (a holder paused past its lease) never act on
one alarm twice; the lease keeps them from both reading every alarm and racing for it.
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import socket
import time
from contextlib import suppress
from datetime import datetime, timedelta
from typing import Protocol

from scopabot.store import Alarm, AlarmKind, StaleVersionError

from .core import Core
from .errors import ErrorCode, ServiceError
from .events import ReminderDue
from .games import HOLDERS_HERE, Games
from .live import as_stored

log = logging.getLogger(__name__)

_BATCH = 100
_RETRY_AFTER = timedelta(minutes=1)  # a deadline whose handling failed is tried again then
_LOST_RACE = (ErrorCode.STALE_VERSION, ErrorCode.GAME_OVER)
_IDLE_CHECK = 1.0  # seconds: how long to wait on running timeouts before looking again
LEASE = "scheduler"
LEASE_PERIOD = 10.0
"""Seconds the scheduler's lease lasts unless renewed (every third of it): how long at most
the deadlines wait for another process when the scheduler's process dies."""


def gone_from_here(holder: str) -> bool:
    """Whether ``holder`` (``host:pid:token``, :func:`~.games.process_holder`) names a process
    of this machine that no longer runs: this process's own id with another token (a
    container restarted as process 1 again), or an id no process has now."""
    rest = holder.split(":")
    if len(rest) < 3 or not rest[-2].isdigit():
        return False
    host, pid = ":".join(rest[:-2]), int(rest[-2])
    if host != socket.gethostname():
        return False
    if pid == os.getpid():
        return holder not in HOLDERS_HERE  # an earlier process that had this one's id
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # PermissionError: a process of another user has that id now
        return False
    return False


class DueSource(Protocol):
    """Another part's alarms driven by this one scheduler (a tournament's round deadlines):
    when the next falls, and act on all due at ``now`` (returning how many were acted on)."""

    async def next_due(self) -> datetime | None: ...

    async def run_due(self, now: datetime) -> int: ...


class Deadlines:
    """The scheduler (``service.deadlines``): every turn's deadline and reminder, and the
    alarms of other parts (:meth:`add_source`), acted on when due."""

    def __init__(self, core: Core, games: Games, *, lease_period: float = LEASE_PERIOD) -> None:
        self.core = core
        self.games = games
        self.lease_period = lease_period
        self.retry_after = _RETRY_AFTER
        self._held_until = 0.0  # time.monotonic() until which the lease is surely ours
        self._renewed_at = -math.inf  # when the lease was last asked for
        self._due_lock = asyncio.Lock()
        self._lease_lock = asyncio.Lock()
        self._scheduler: asyncio.Task[None] | None = None
        self._inflight: dict[tuple[int, int], asyncio.Task[None]] = {}
        self._due_sources: list[DueSource] = []
        self._unclaimed: set[tuple[int, int]] = set()  # computer turns unclaimed at the last look

    def add_source(self, source: DueSource) -> None:
        """Let this scheduler wake for, and run, ``source``'s alarms too."""
        self._due_sources.append(source)

    def wake(self, when: datetime) -> None:
        """A deadline was written (by another part, e.g. a tournament round's): wake the
        loop if it sleeps past it."""
        self.core.wakeup.deadline_set(when)

    def start(self) -> None:
        self._scheduler = asyncio.create_task(self._schedule(), name="scheduler")

    async def stop(self) -> None:
        if self._scheduler is not None:
            self._scheduler.cancel()
            await asyncio.gather(self._scheduler, return_exceptions=True)
            self._scheduler = None
        tasks = list(self._inflight.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._held_until:
            # A clean stop hands the scheduling over at once, not a lease period later.
            self._held_until = 0.0
            try:
                await self.core.store.deadlines.release_lease(LEASE, self.games.holder)
            except Exception:
                log.warning("the scheduler's lease could not be given up", exc_info=True)

    async def forget_the_dead(self) -> None:
        """Give up the lease and the computer turns held by a process of this machine that is
        gone (the bot killed and started again): it never renews them, and waiting for them
        to run out would hold every deadline and computer seat for a lease period. A holder
        on another machine, or whose process id is in use again, is left to run out."""
        try:
            holders = await self.core.store.deadlines.holders()
            for holder in holders:
                if holder != self.games.holder and gone_from_here(holder):
                    log.info("%s stopped without giving up its claims: taking them", holder)
                    await self.core.store.deadlines.release_turns(holder)
                    await self.core.store.deadlines.release_lease(LEASE, holder)
        except Exception:
            log.warning("the claims of stopped processes could not be read", exc_info=True)

    @property
    def holds_lease(self) -> bool:
        """Whether this service schedules now (it holds the lease, by its own clock)."""
        return time.monotonic() < self._held_until

    async def _hold_lease(self) -> bool:
        """Take or renew the lease when a third of its period has passed since the last ask;
        whether this service holds it now. A holder that takes it over (it was another's, or
        no one's) first plays the computer turns a dead process left."""
        async with self._lease_lock:
            started = time.monotonic()
            if started - self._renewed_at < self.lease_period / 3:
                return self.holds_lease
            self._renewed_at = started
            was_held = self.holds_lease
            try:
                left = await self.core.store.deadlines.hold_lease(
                    LEASE, self.games.holder, self.lease_period
                )
            except Exception:
                log.warning("the scheduler's lease could not be renewed", exc_info=True)
                return self.holds_lease  # still ours until it runs out, as far as we know
            # Counted from before the ask: the database's expiry is no earlier than that.
            self._held_until = started + left if left > 0 else 0.0
            if left > 0 and not was_held:
                log.info("this process schedules the deadlines now (%s)", self.games.holder)
            if left > 0:
                try:
                    await self._orphans()
                    await self._unclaimed_turns()
                except Exception:
                    log.warning("the orphaned computer turns could not be read", exc_info=True)
            return left > 0

    async def _orphans(self) -> int:
        """Play the computer turns whose thinking process died (their claims ran out with the
        turn still to play); how many were found. Run by the scheduler's holder."""
        found = await self.core.store.deadlines.orphaned_turns()
        for game_id in found:
            log.info(
                "game %s: the process thinking its computer turn stopped; playing it here", game_id
            )
            self.games.drive(game_id, fresh=True)
        return len(found)

    async def _unclaimed_turns(self) -> int:
        """Play the computer turns no process drives: a person's move (or a timeout's)
        written by a process killed before it claimed the computer turn after it. Seen
        unclaimed at one version at two looks in a row (a third of the lease's period
        apart): the mover's process claims it within milliseconds of its move when it lives.
        The turn is still claimed by version before it is thought, so a mover that was only
        slow and this holder never both think it (one driving it here looks again). How
        many were found."""
        found = set(await self.core.store.deadlines.unclaimed_turns())
        seen, self._unclaimed = self._unclaimed, found
        again = sorted(found & seen)
        for game_id, version in again:
            log.info(
                "game %s: no process claimed its computer turn at %s; playing it here",
                game_id,
                version,
            )
            self.games.drive(game_id, fresh=True)
        return len(again)

    async def _schedule(self) -> None:
        while not self.core.closing:
            wakeup = self.core.wakeup
            wakeup.event.clear()
            if not await self._hold_lease():
                # Another process schedules: ask again a third of a period later.
                await asyncio.sleep(self.lease_period / 3)
                continue
            try:
                await self._run_due_now()
                upcoming = await self.next_alarm()
            except Exception:
                log.exception("the scheduler could not read the deadlines; trying again")
                upcoming = self.core.now() + timedelta(seconds=5)
            now = self.core.now()
            if upcoming is not None and upcoming <= now:
                # Only deadlines already being handled are due: look again when one is done.
                upcoming = now + timedelta(seconds=_IDLE_CHECK)
            wakeup.sleeping_until = upcoming
            # Awake in time to renew the lease, in the wall clock's seconds whatever the game
            # clock (a fake one, or one running faster in a test).
            with suppress(TimeoutError):
                await asyncio.wait_for(
                    self.core.clock.wait_until(upcoming, wakeup.event), self.lease_period / 3
                )
            wakeup.sleeping_until = None

    async def _run_due_now(self) -> int:
        """Act on every alarm due now that is not already being handled; how many started.
        Nothing while another process holds the scheduler's lease."""
        if not await self._hold_lease():
            return 0
        async with self._due_lock:  # the loop and a fake clock's advance() may both call
            started = await self._run_due_locked()
        for source in self._due_sources:
            try:
                started += await source.run_due(self.core.now())
            except Exception:
                log.exception("the alarms of %r failed", source)
        return started

    async def _run_due_locked(self) -> int:
        started = 0
        while True:
            due = await self.core.store.deadlines.due(
                self.core.now(), limit=_BATCH + len(self._inflight)
            )
            fresh = [a for a in due if (a.game_id, a.version) not in self._inflight]
            for alarm in fresh:
                if not self.holds_lease:
                    return started  # lost meanwhile (this process paused past it)
                if alarm.kind is AlarmKind.REMINDER:
                    await self._remind(alarm)
                elif await self._claim_deadline(alarm):
                    self._start_timeout(alarm)
                started += 1
            if len(due) < _BATCH + len(self._inflight) or not fresh:
                return started

    async def _claim_deadline(self, alarm: Alarm) -> bool:
        """Take the deadline before acting on it, so that a second scheduler on the same
        database (another process, or a restart racing the old one) leaves it alone; should
        this one never finish, the deadline falls due again a minute later."""
        try:
            return await self.core.store.deadlines.claim(
                alarm, then=self.core.now() + self.retry_after
            )
        except Exception:
            log.exception("the deadline of game %s could not be claimed", alarm.game_id)
            return False

    def _start_timeout(self, alarm: Alarm) -> None:
        key = (alarm.game_id, alarm.version)
        task = asyncio.create_task(self._handle_deadline(alarm), name=f"timeout-{key}")
        self._inflight[key] = task

        def done(_: asyncio.Task[None]) -> None:
            self._inflight.pop(key, None)
            self.core.wakeup.event.set()

        task.add_done_callback(done)

    async def _handle_deadline(self, alarm: Alarm) -> None:
        try:
            await self.games.timeout(alarm.game_id, alarm.version)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if isinstance(exc, ServiceError) and exc.code in _LOST_RACE:
                # A move or a resignation beat the deadline: a lost race, nothing to do.
                log.debug("game %s moved on before its deadline was acted on", alarm.game_id)
                return
            log.exception("the deadline of game %s failed; trying again later", alarm.game_id)
            later = self.core.now() + self.retry_after
            with suppress(StaleVersionError):
                await self.core.store.deadlines.set(alarm.game_id, alarm.version, later)
                live = self.core.live.kept(alarm.game_id)
                if live is not None and live.version == alarm.version:
                    live.deadline = as_stored(later)

    async def _remind(self, alarm: Alarm) -> None:
        """Tell the person in turn their time runs out soon, once: the reminder is claimed
        (moved to the next one) before it is sent, so two schedulers never both send it."""
        try:
            ctx = await self.core.context(alarm.game_id)
            then = ctx.pace.next_reminder(alarm.deadline_at, max(self.core.now(), alarm.due_at))
            if not await self.core.store.deadlines.claim(alarm, then=then):
                return  # another scheduler sent it, or the turn is over
            if ctx.version != alarm.version:
                await self.core.live.refresh(ctx)  # claimed at that version: another process wrote
            if ctx.version == alarm.version and alarm.deadline_at is not None:
                seat = ctx.game.turn
                self.core.emit(
                    [
                        ReminderDue(
                            table_id=ctx.table_id,
                            game_id=alarm.game_id,
                            seat=seat,
                            user_id=ctx.user_of(seat),
                            deadline=alarm.deadline_at,
                            version=alarm.version,
                        )
                    ]
                )
        except Exception:
            log.exception("the reminder of game %s failed", alarm.game_id)
            await self.core.store.deadlines.set_reminder(alarm.game_id, alarm.version, None)

    # ------------------------------------------------------------------ a fake clock's hooks

    async def next_alarm(self) -> datetime | None:
        """When the next deadline or reminder falls (also for :class:`~.clock.FakeClock`)."""
        found = [await self.core.store.deadlines.next()]
        found += [await source.next_due() for source in self._due_sources]
        return min((when for when in found if when is not None), default=None)

    async def run_due(self) -> None:
        """Handle everything due now, and all it leads to, before returning (for a fake
        clock: time stands still until the computers have played and events are queued)."""
        while True:
            started = await self._run_due_now()
            await self.settle()
            if not started:
                return

    async def settle(self) -> None:
        """Wait until no timeout is running and no computer seat is in turn."""
        while True:
            playing = self.games.computers_playing()
            if not self._inflight and not playing:
                return
            await asyncio.gather(*self._inflight.values(), *playing, return_exceptions=True)
