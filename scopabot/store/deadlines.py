"""Deadlines and reminders: when a turn runs out, and when to remind the person in turn.

Both live on the game's row (``deadline_at``, ``remind_at``), written in the transaction of the
move that starts the turn, so a crash can never leave a turn without its deadline. A
scheduler reads the earliest of them (:meth:`DeadlineStore.next`) and what is due
(:meth:`DeadlineStore.due`), both index range scans however many games are running, and claims
one (:meth:`DeadlineStore.claim`) before acting on it. The part is ``store.deadlines``; a
deadline or a reminder is an :class:`~.models.Alarm`.

Several bot processes may share one database. Two more claims keep them from doing one thing
twice: the scheduler's lease (:meth:`DeadlineStore.hold_lease`: one scheduler at a time, the
others waiting to take over when its holder stops renewing it), and a computer seat's turn
(:meth:`DeadlineStore.claim_turn`: the process that thinks it, until when). Both expire on the
database's own clock, the one clock every process sharing it agrees on (processes on several
machines may not agree on theirs).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime

from .database import AnyDatabase, Database
from .errors import StaleVersionError
from .models import Alarm, AlarmKind, Deadline, from_ms, opt_dt, opt_ms, to_ms

DUE_DEADLINES_SQL = (
    "SELECT id, version, deadline_at FROM games WHERE deadline_at IS NOT NULL"
    " AND deadline_at <= ? ORDER BY deadline_at LIMIT ?"
)
DUE_REMINDERS_SQL = (
    "SELECT id, version, remind_at, deadline_at FROM games WHERE remind_at IS NOT NULL"
    " AND remind_at <= ? ORDER BY remind_at LIMIT ?"
)

NEXT_DEADLINE_SQL = "SELECT min(deadline_at) FROM games WHERE deadline_at IS NOT NULL"
NEXT_REMINDER_SQL = "SELECT min(remind_at) FROM games WHERE remind_at IS NOT NULL"


# The database's clock in milliseconds since the epoch, in each dialect's words.
_NOW_MS = {
    "sqlite": "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)",
    "postgresql": "CAST(extract(epoch FROM clock_timestamp()) * 1000 AS BIGINT)",
}


def _lease_sql(now: str) -> tuple[str, str]:
    """Take the lease if it is free, expired or already ours (then renew it); then read it."""
    take = (
        "INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, " + now + " + ?)"
        " ON CONFLICT (name) DO UPDATE SET holder = excluded.holder,"
        " expires_at = excluded.expires_at"
        " WHERE leases.holder = excluded.holder OR leases.expires_at < " + now
    )
    read = "SELECT holder, expires_at - " + now + " FROM leases WHERE name = ?"
    return take, read


def _turn_sql(now: str) -> str:
    """Claim a computer seat's turn: free, a later version's, expired, or already ours."""
    return (
        "INSERT INTO computer_turns (game_id, version, holder, expires_at)"
        " VALUES (?, ?, ?, " + now + " + ?)"
        " ON CONFLICT (game_id) DO UPDATE SET version = excluded.version,"
        " holder = excluded.holder, expires_at = excluded.expires_at"
        " WHERE computer_turns.version < excluded.version"
        " OR (computer_turns.version = excluded.version"
        " AND (computer_turns.holder = excluded.holder OR computer_turns.expires_at < " + now + "))"
    )


def _orphans_sql(now: str) -> str:
    """Computer turns claimed by a process that never wrote their move and stopped renewing."""
    return (
        "SELECT c.game_id FROM computer_turns c JOIN games g ON g.id = c.game_id"
        " WHERE c.expires_at < " + now + " AND g.version = c.version"
        " AND g.status = 'playing' ORDER BY c.game_id LIMIT ?"
    )


UNCLAIMED_TURNS_SQL = (
    "SELECT g.id, g.version FROM games g JOIN game_seats s ON s.game_id = g.id"
    " AND s.seat = CAST(json_extract(g.snapshot, '$.turn') AS BIGINT)"
    " WHERE g.status = 'playing' AND g.deadline_at IS NULL"
    " AND (s.user_id IS NULL OR s.away <> 0)"
    " AND NOT EXISTS (SELECT 1 FROM computer_turns c"
    " WHERE c.game_id = g.id AND c.version >= g.version)"
    " ORDER BY g.id LIMIT ?"
)
"""A computer seat in turn (or a seat handed to one) with no claim of this turn: its move's
process has not claimed it yet (milliseconds), or died before it could. No deadline: a
computer's turn never has one, so the index of deadlines is not what is read."""


@dataclass(frozen=True)
class _HoldSql:
    lease: tuple[str, str]
    turn: str
    orphans: str


_HOLD_SQL = {
    dialect: _HoldSql(_lease_sql(now), _turn_sql(now), _orphans_sql(now))
    for dialect, now in _NOW_MS.items()
}


class DeadlineStore:
    """Deadlines and reminders: ``store.deadlines`` (see the module's docstring)."""

    def __init__(self, database: AnyDatabase) -> None:
        self._db = database  # the one thing a part holds (tests/store/test_parts.py)

    @property
    def _sql(self) -> _HoldSql:
        return _HOLD_SQL["sqlite" if isinstance(self._db, Database) else "postgresql"]

    async def hold_lease(self, name: str, holder: str, seconds: float) -> float:
        """Take the lease ``name`` for ``holder``, or renew it, for ``seconds`` from now on
        the database's clock: only if it is free, run out, or ``holder``'s already. Returns
        the seconds it is still held by ``holder`` (0: another holds it)."""
        take, read = self._sql.lease
        return await self._db.write_once(_hold, take, read, name, holder, round(seconds * 1000))

    async def release_lease(self, name: str, holder: str) -> None:
        """Give the lease up now (a clean stop), so that another process takes it at once."""
        await self._db.write_once(_release, name, holder)

    async def lease_holder(self, name: str) -> tuple[str, float] | None:
        """Who holds the lease ``name``, and for how many more seconds (negative: it ran out)."""
        _, read = self._sql.lease
        rows = await self._db.read_once(_rows, read, (name,))
        return (str(rows[0][0]), int(rows[0][1]) / 1000) if rows else None

    async def claim_turn(self, game_id: int, version: int, holder: str, seconds: float) -> bool:
        """Claim the computer seat's turn of ``game_id`` at ``version`` for ``holder``, for
        ``seconds``, before thinking it: False when another process's claim of that turn is
        still alive (it thinks it), so that a turn is thought once whichever process hosts it.
        Claiming again a turn one holds renews it."""
        return await self._db.write_once(
            _claim_turn, self._sql.turn, game_id, version, holder, round(seconds * 1000)
        )

    async def holders(self) -> list[str]:
        """Every holder of a lease or of a computer turn's claim, alive or not (a process
        starting gives up those of its own machine's processes that are gone)."""
        rows = await self._db.read_once(
            _rows,
            "SELECT holder FROM leases UNION SELECT holder FROM computer_turns ORDER BY 1",
            (),
        )
        return [str(r[0]) for r in rows]

    async def release_turns(self, holder: str) -> None:
        """Give up every computer turn ``holder`` claimed (its service stops cleanly): the
        process that starts next plays them at once, not when the claims run out."""
        await self._db.write_once(_release_turns, holder)

    async def orphaned_turns(self, *, limit: int = 100) -> list[int]:
        """Games whose computer turn was claimed and whose claim ran out with the turn still
        to play: the process thinking it died. Whoever holds the scheduler plays them."""
        rows = await self._db.read_once(_rows, self._sql.orphans, (limit,))
        return [int(r[0]) for r in rows]

    async def unclaimed_turns(self, *, limit: int = 100) -> list[tuple[int, int]]:
        """Games (with their versions) whose computer seat is in turn and whose turn no
        process has claimed: the process that wrote the move before it usually claims it at
        once; one seen here twice, a few seconds apart, is a turn no one drives (its mover
        was killed between the move and the claim). Whoever holds the scheduler plays them."""
        rows = await self._db.read_once(_rows, UNCLAIMED_TURNS_SQL, (limit,))
        return [(int(r[0]), int(r[1])) for r in rows]

    async def set(
        self,
        game_id: int,
        expected_version: int,
        due: datetime | None,
        *,
        remind_at: datetime | None = None,
    ) -> None:
        """Set or clear the current turn's deadline (and reminder) without bumping the version."""
        await self._db.write_once(
            _set_times,
            "deadline_at = ?, remind_at = ?",
            (opt_ms(due), opt_ms(remind_at)),
            game_id,
            expected_version,
        )

    async def set_reminder(self, game_id: int, expected_version: int, at: datetime | None) -> None:
        """The next reminder of the current turn (``None``: no more), after one was sent."""
        await self._db.write_once(
            _set_times, "remind_at = ?", (opt_ms(at),), game_id, expected_version
        )

    async def claim(self, alarm: Alarm, *, then: datetime | None) -> bool:
        """Take ``alarm`` before acting on it: move it to ``then`` (the next reminder; for a
        deadline, when to try again should its handler never finish) only if it is still as
        it was read. False: another scheduler took it first, or the turn is over."""
        column = "remind_at" if alarm.kind is AlarmKind.REMINDER else "deadline_at"
        return await self._db.write_once(
            _claim,
            column,
            opt_ms(then),
            alarm.game_id,
            alarm.version,
            to_ms(alarm.due_at),
        )

    async def due_deadlines(self, until: datetime, *, limit: int = 100) -> list[Deadline]:
        """Turns whose time ran out by ``until``, earliest first (an index range scan)."""
        rows = await self._db.read_once(_rows, DUE_DEADLINES_SQL, (to_ms(until), limit))
        return [Deadline(r[0], r[1], from_ms(r[2])) for r in rows]

    async def next_deadline(self) -> datetime | None:
        """When the next deadline falls, to know how long the timer may sleep."""
        rows = await self._db.read_once(_rows, NEXT_DEADLINE_SQL, ())
        return opt_dt(rows[0][0]) if rows else None

    async def next(self) -> datetime | None:
        """When the next deadline or reminder falls, whichever is first."""
        return opt_dt(await self._db.read_once(_next_alarm))

    async def due(self, until: datetime, *, limit: int = 100) -> list[Alarm]:
        """Deadlines and reminders due by ``until``, earliest first; a reminder due at the
        same moment as a deadline comes first."""
        deadlines, reminders = await self._db.read_once(_due, to_ms(until), limit)
        alarms = [
            Alarm(r[0], r[1], AlarmKind.DEADLINE, from_ms(r[2]), from_ms(r[2])) for r in deadlines
        ]
        alarms += [
            Alarm(r[0], r[1], AlarmKind.REMINDER, from_ms(r[2]), opt_dt(r[3])) for r in reminders
        ]
        alarms.sort(key=lambda a: (a.due_at, a.kind is AlarmKind.DEADLINE, a.game_id))
        return alarms[:limit]


def _rows(
    conn: sqlite3.Connection, sql: str, params: tuple[int | str, ...]
) -> list[tuple[int, ...]]:
    return [tuple(r) for r in conn.execute(sql, params)]


def _next_alarm(conn: sqlite3.Connection) -> int | None:
    deadline = conn.execute(
        "SELECT min(deadline_at) FROM games WHERE deadline_at IS NOT NULL"
    ).fetchone()[0]
    reminder = conn.execute(
        "SELECT min(remind_at) FROM games WHERE remind_at IS NOT NULL"
    ).fetchone()[0]
    found = [t for t in (deadline, reminder) if t is not None]
    return min(found) if found else None


def _due(
    conn: sqlite3.Connection, until: int, limit: int
) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    return (
        [tuple(r) for r in conn.execute(DUE_DEADLINES_SQL, (until, limit))],
        [tuple(r) for r in conn.execute(DUE_REMINDERS_SQL, (until, limit))],
    )


_CLAIM_SQL = {
    column: "UPDATE games SET " + column + " = ? WHERE id = ? AND version = ?"
    " AND " + column + " = ?"
    for column in ("remind_at", "deadline_at")
}


def _claim(
    conn: sqlite3.Connection, column: str, then: int | None, game_id: int, version: int, due: int
) -> bool:
    return conn.execute(_CLAIM_SQL[column], (then, game_id, version, due)).rowcount == 1


def _set_times(
    conn: sqlite3.Connection,
    assignments: str,
    values: tuple[int | None, ...],
    game_id: int,
    expected_version: int,
) -> None:
    # ``assignments`` is one of the fixed strings above, never built from input.
    cursor = conn.execute(
        "UPDATE games SET " + assignments + " WHERE id = ? AND version = ?",
        (*values, game_id, expected_version),
    )
    if cursor.rowcount != 1:
        row = conn.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()
        raise StaleVersionError(game_id, expected_version, None if row is None else row[0])


def _hold(conn: sqlite3.Connection, take: str, read: str, name: str, holder: str, ms: int) -> float:
    conn.execute(take, (name, holder, ms))
    row = conn.execute(read, (name,)).fetchone()
    if row is None or row[0] != holder:
        return 0.0
    return max(0.0, int(row[1]) / 1000)


def _release(conn: sqlite3.Connection, name: str, holder: str) -> None:
    conn.execute("DELETE FROM leases WHERE name = ? AND holder = ?", (name, holder))


def _claim_turn(
    conn: sqlite3.Connection, sql: str, game_id: int, version: int, holder: str, ms: int
) -> bool:
    return conn.execute(sql, (game_id, version, holder, ms)).rowcount == 1


def _release_turns(conn: sqlite3.Connection, holder: str) -> None:
    conn.execute("DELETE FROM computer_turns WHERE holder = ?", (holder,))
