"""A bot process's game service on a database another process shares, to be killed: two of
these on one database are two bot processes (tests/service/test_processes.py).

Run as ``python -m tests.service.service_process DATABASE EPOCH [TABLES]``: ``DATABASE`` a
SQLite file or a PostgreSQL URL, ``EPOCH`` the wall time (``time.time()``) both processes
count game time from, ``TABLES`` how many tables (a person who never plays against a random
computer, one deal) to open and start first. Game time runs :data:`SPEED` times faster than
the wall clock, the same in both processes, so a 60 s turn lasts half a second. Prints one
JSON line per thing the test counts, with the wall time it happened at:

- ``{"ready": holder}`` started (its tables opened first);
- ``{"lease": holder}`` it schedules now (it took the scheduler's lease);
- ``{"timeout": [game, version]}`` a deadline acted on (its TimeoutApplied);
- ``{"reminder": [game, version]}`` a reminder sent (its ReminderDue);
- ``{"think": [game, version]}`` a computer turn claimed, to be thought here;
- ``{"over": game}`` a match ended here.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import time
from datetime import UTC, datetime, timedelta

from scopabot.service import (
    Event,
    GameService,
    MatchOver,
    Pace,
    ReminderDue,
    TimeoutApplied,
)
from scopabot.service.clock import SystemClock
from scopabot.service.thinking import InlineThinker
from scopabot.store import Store

SPEED = 120.0  # game seconds per wall-clock second
LEASE_PERIOD = 1.0  # wall-clock seconds (the database's clock)
TURN_CLAIM = 2.0  # wall-clock seconds
START = datetime(2026, 6, 1, 12, tzinfo=UTC)


class FastClock(SystemClock):
    """Game time from a shared epoch, :data:`SPEED` times the wall clock's pace."""

    def __init__(self, epoch: float) -> None:
        self.epoch = epoch

    def now(self) -> datetime:
        return START + timedelta(seconds=(time.time() - self.epoch) * SPEED)

    async def wait_until(self, when: datetime | None, wake: asyncio.Event) -> None:
        timeout = None if when is None else max(0.0, (when - self.now()).total_seconds() / SPEED)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), timeout)


def say(**what: object) -> None:
    print(json.dumps({**what, "at": time.time()}), flush=True)


async def main(database: str, epoch: float, tables: int) -> None:
    store = await Store.open(database)
    service = await GameService.start(
        store,
        clock=FastClock(epoch),
        thinker=InlineThinker(),
        computer_pause=0,
        lease_period=LEASE_PERIOD,
    )
    games = service.games
    games.hand_over_after = 10**6  # the absent person keeps timing out: a deadline a turn
    games.turn_claim = TURN_CLAIM
    service.deadlines.retry_after = timedelta(seconds=60)  # half a second of wall clock
    claim = games.claim_turn

    async def claim_turn(game_id: int, version: int) -> bool:
        claimed = await claim(game_id, version)
        if claimed:
            say(think=[game_id, version])
        return claimed

    games.claim_turn = claim_turn  # type: ignore[method-assign]

    async def on_event(event: Event) -> None:
        if isinstance(event, TimeoutApplied):
            say(timeout=[event.game_id, event.version])
        elif isinstance(event, ReminderDue):
            say(reminder=[event.game_id, event.version])
        elif isinstance(event, MatchOver):
            say(over=event.game_id)

    service.subscribe(on_event)
    for n in range(tables):
        table = await service.tables.open(
            host=100 + n, computers=1, level="random", pace=Pace.live(60), options={"deals": 1}
        )
        await service.tables.start(table.id, by=100 + n, seed=n)
    say(ready=games.holder)
    told = False
    while True:  # until killed
        if service.deadlines.holds_lease and not told:
            say(lease=games.holder)
            told = True
        await asyncio.sleep(0.02)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], float(sys.argv[2]), int(sys.argv[3]) if sys.argv[3:] else 0))
