"""Deadlines and reminders: when a turn runs out, and when to remind the person in turn.

Both live on the game's row (``deadline_at``, ``remind_at``), written in the transaction of the
move that starts the turn, so a crash can never leave a turn without its deadline. A
scheduler reads the earliest of them (:meth:`DeadlineStore.next`) and what is due
(:meth:`DeadlineStore.due`), both index range scans however many games are running, and claims
one (:meth:`DeadlineStore.claim`) before acting on it. The part is ``store.deadlines``; a
deadline or a reminder is an :class:`~.models.Alarm`.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime

from .database import AnyDatabase
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


class DeadlineStore:
    """Deadlines and reminders: ``store.deadlines`` (see the module's docstring)."""

    def __init__(self, database: AnyDatabase) -> None:
        self._db = database

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


def _rows(conn: sqlite3.Connection, sql: str, params: tuple[int, ...]) -> list[tuple[int, ...]]:
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
