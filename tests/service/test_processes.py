"""Two bot processes on one database (two real OS processes, each with its own game service):
one scheduler at a time, taken over when its process is SIGKILLed mid-match; every deadline
acted on once, no reminder sent twice, a computer turn thought once. On both databases.

Each process is ``tests/service/service_process.py``, whose game time runs 120 times the wall
clock's pace (a 60 s turn lasts half a second) and whose scheduler's lease lasts one second:
the test waits for states (lines the processes print, rows in the store), never for a time.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from scopabot.store import Store

ROOT = Path(__file__).resolve().parents[2]
TABLES = 4
PATIENCE = 120.0  # seconds: a state that has not come by then never will


class Process:
    """One service process and every line it printed."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.lines: list[dict[str, Any]] = []
        self.holder = ""
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def start(cls, database: Path | str, epoch: float, tables: int = 0) -> Process:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.service.service_process",
            str(database),
            repr(epoch),
            str(tables),
            cwd=ROOT,
            stdout=asyncio.subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        self = cls(proc)
        await until(lambda: any("ready" in line for line in self.lines), "the process started")
        self.holder = next(line["ready"] for line in self.lines if "ready" in line)
        return self

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        async for raw in self.proc.stdout:
            self.lines.append(json.loads(raw))

    def said(self, what: str, after: float = 0.0) -> list[tuple[Any, ...]]:
        found = [line for line in self.lines if what in line and line["at"] >= after]
        return [
            tuple(line[what]) if isinstance(line[what], list) else (line[what],) for line in found
        ]

    async def kill(self) -> None:
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGKILL)
            await self.proc.wait()
        await self.reader


async def until(done: Any, what: str) -> None:
    """Wait for a state (``done()`` true; a coroutine function is awaited), not for a time."""
    limit = time.monotonic() + PATIENCE
    while True:
        result = done()
        if asyncio.iscoroutine(result):
            result = await result
        if result:
            return
        assert time.monotonic() < limit, f"never came: {what}"
        await asyncio.sleep(0.05)


@pytest.mark.slow
async def test_the_schedulers_process_killed_mid_match_another_takes_over(
    database: Path | str,
) -> None:
    epoch = time.time()
    opener = await Process.start(database, epoch, tables=TABLES)
    other = await Process.start(database, epoch)
    processes = [opener, other]
    store = await Store.open(database)
    try:
        game_ids = [info.id for info in await store.games.playing()]
        assert len(game_ids) == TABLES

        async def lease_holder() -> str | None:
            held = await store.deadlines.lease_holder("scheduler")
            return held[0] if held is not None and held[1] > 0 else None

        await until(lease_holder, "a process took the scheduler's lease")
        name = await lease_holder()
        (holder,) = [p for p in processes if p.holder == name]
        (survivor,) = [p for p in processes if p is not holder]
        # Mid-match: the scheduler has acted on a few deadlines of every game, none is over.
        await until(lambda: len(holder.said("timeout")) >= 2 * TABLES, "deadlines acted on")
        assert not survivor.said("timeout")  # only the holder schedules
        killed_at = time.time()
        await holder.kill()
        assert holder.proc.returncode == -signal.SIGKILL

        async def all_over() -> bool:
            infos = [await store.games.info(g) for g in game_ids]
            return all(info.status.value == "finished" for info in infos)

        await until(lambda: survivor.said("lease", after=killed_at), "the other took over")
        await until(all_over, "every match played to its end by timeouts")
        await survivor.kill()

        # The other process acted on the deadlines after the kill: none was lost.
        assert survivor.said("timeout", after=killed_at)
        lines = {p.holder: p for p in processes}
        timeouts = Counter(t for p in processes for t in p.said("timeout"))
        assert timeouts and max(timeouts.values()) == 1, "a deadline acted on twice"
        reminders = Counter(r for p in processes for r in p.said("reminder"))
        assert reminders and max(reminders.values()) == 1, "a reminder sent twice"
        # A computer turn thought once: in both processes only if the first died thinking it
        # (its claim ran out, then the other played it).
        thought = {h: Counter(p.said("think")) for h, p in lines.items()}
        assert thought[holder.holder] and thought[survivor.holder]
        assert all(max(c.values(), default=1) == 1 for c in thought.values())
        both = set(thought[holder.holder]) & set(thought[survivor.holder])
        assert len(both) <= TABLES  # at most one turn in flight per game at the kill
        for turn in both:
            assert all(at[0] > killed_at for at in _times(survivor, "think", turn))
        # Every timeout in the store was told once, bar those the killed process wrote but
        # had not printed yet (at most one a game).
        async with store.database.read() as db:
            rows = await db.execute_fetchall("SELECT count(*) FROM moves WHERE actor = 'timeout'")
        written = int(rows[0][0])
        assert sum(timeouts.values()) <= written <= sum(timeouts.values()) + TABLES
    finally:
        for process in processes:
            await process.kill()
        await store.close()


def _times(process: Process, what: str, key: tuple[Any, ...]) -> list[tuple[float]]:
    return [(line["at"],) for line in process.lines if what in line and tuple(line[what]) == key]


async def test_a_restart_takes_the_claims_of_its_machines_dead_process_at_once(
    store: Store,
) -> None:
    """The bot killed while a computer seat thinks, and started again on the same machine:
    the dead process never renews its lease or its turn's claim, and the new one takes both
    at once (the process is gone) instead of waiting for them to run out."""
    from scopabot.service import GameService
    from scopabot.service.thinking import InlineThinker

    from .helpers import play_once

    first = await GameService.start(store, thinker=InlineThinker(), computer_pause=60)
    table = await first.tables.open(host=1, computers=1, level="random")
    game_id = (await first.tables.start(table.id, by=1, seed=2)).game_id
    if (await first.games.public_view(game_id)).turn == 0:
        await play_once(first, game_id, 1)
    await until(lambda: first.deadlines.holds_lease, "the first took the lease")
    version = (await first.games.public_view(game_id)).version

    async def claimed() -> bool:
        return version in [v for (g, v) in await _claims(store) if g == game_id]

    await until(claimed, "the computer seat's turn was claimed")  # it pauses, then thinks
    # Its process dies: the claims are a gone process's (a finished child's id).
    child = await asyncio.create_subprocess_exec(sys.executable, "-c", "pass")
    await child.wait()
    dead = f"{socket.gethostname()}:{child.pid}:0dead"
    async with store.database.write() as db:
        await db.execute("UPDATE computer_turns SET holder = ?", (dead,))
        await db.execute("UPDATE leases SET holder = ?", (dead,))
    await first.close()  # gives up only what is its own: nothing now
    assert await store.deadlines.holders() == [dead]

    second = await GameService.start(store, thinker=InlineThinker(), computer_pause=0)
    try:
        assert await store.deadlines.holders() != [dead]

        async def played() -> bool:
            return (await second.games.public_view(game_id)).version > version

        await until(played, "the computer turn played by the new process")
        await until(lambda: second.deadlines.holds_lease, "the new process took the lease")
    finally:
        await second.close()


async def _claims(store: Store) -> list[tuple[int, int]]:
    async with store.database.read() as db:
        rows = await db.execute_fetchall("SELECT game_id, version FROM computer_turns")
    return [(int(r[0]), int(r[1])) for r in rows]


async def test_a_holder_is_gone_only_if_its_process_on_this_machine_is() -> None:
    from scopabot.service.games import process_holder
    from scopabot.service.scheduler import gone_from_here

    child = await asyncio.create_subprocess_exec(sys.executable, "-c", "pass")
    await child.wait()
    here, pid = socket.gethostname(), os.getpid()
    mine = process_holder()  # a live service of this process
    assert not gone_from_here(mine)
    assert gone_from_here(f"{here}:{pid}:0dead")  # an earlier process that had this id
    assert gone_from_here(f"{here}:{child.pid}:0dead")  # an id no process has now
    assert not gone_from_here(f"{here}:1:0dead")  # a running process (init) has it
    assert not gone_from_here(f"another-{here}:{child.pid}:0dead")  # another machine's
    assert not gone_from_here("not a holder")


async def test_a_computer_turn_whose_movers_process_died_before_claiming_it_is_played(
    database: Path | str, store: Store
) -> None:
    """A person's move applied by one process (a DM click on shard 0's), which is SIGKILLed
    right after writing it, before it claims the computer's turn that follows: the
    scheduler's holder, which does not drive that game, plays the turn once, without waiting
    for a process to start."""
    from scopabot.service import GameService
    from scopabot.service.thinking import InlineThinker
    from scopabot.store import ActorKind

    from .helpers import play_once

    holder = await GameService.start(
        store, thinker=InlineThinker(), computer_pause=0, lease_period=1.0
    )
    try:
        table = await holder.tables.open(host=1, computers=1, level="random")
        game_id = (await holder.tables.start(table.id, by=1, seed=2)).game_id
        await holder.settle()
        if (await holder.games.public_view(game_id)).turn != 0:
            await play_once(holder, game_id, 1)
            await holder.settle()
        assert (await holder.games.public_view(game_id)).turn == 0
        await until(lambda: holder.deadlines.holds_lease, "the holder took the lease")
        mover = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.service.mover_process",
            str(database),
            str(game_id),
            "1",
            cwd=ROOT,
            stdout=asyncio.subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        out, _ = await mover.communicate()
        assert mover.returncode == -signal.SIGKILL, out
        moves = await store.games.moves(game_id)
        assert moves[-1].actor.kind is ActorKind.USER  # written, and nothing after it

        async def played() -> bool:
            return len(await store.games.moves(game_id)) > len(moves)

        await until(played, "the computer's turn played by the scheduler's holder")
        await holder.settle()
        after = await store.games.moves(game_id)
        assert [m.actor.kind for m in after[len(moves) :]] == [ActorKind.COMPUTER]  # once
        assert (await holder.games.public_view(game_id)).turn == 0  # the person's again
    finally:
        await holder.close()
