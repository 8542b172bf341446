"""Notices from one bot process to another: what a move did, for the process that shows it.

Several processes share one database, each sending the messages of its own servers' tables
(README, "Several processes"). A move applied by another process (a DM click reaches shard
0's process; the scheduler's process plays a timeout) writes a row here in the move's own
transaction (``MoveRecord.notice``, ``MatchEndRecord.notice``): whatever happens to the
process after its commit, the notice is there, and a move refused or rolled back leaves none.

The process that shows the table reads the rows of its servers (:meth:`OutboxStore.pending`),
claims them before it acts (:meth:`OutboxStore.claim`, a compare-and-set: of two processes one
gets each row), and deletes them once handed to its messages (:meth:`OutboxStore.done`). A row
claimed by a process that died before deleting it may be claimed again after ``stale`` (its
messages are then refreshed again, from the stored state). On PostgreSQL a written row wakes
the readers at once (a trigger NOTIFYs ``scopabot_outbox`` at the commit:
:meth:`OutboxStore.listen`); on SQLite they look every second or so. The part is
``store.outbox``.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .database import AnyDatabase

CHANNEL = "scopabot_outbox"  # what PostgreSQL's trigger NOTIFYs (migrations/postgresql/0014)

_INSERT_SQL = (
    "INSERT INTO outbox (game_id, table_id, guild_id, version, notes, created_at)"
    " SELECT id, table_id, guild_id, ?, ?, ? FROM games WHERE id = ?"
)
TELL_SQL = (
    "INSERT INTO outbox (game_id, table_id, guild_id, version, notes, created_at)"
    " VALUES (NULL, NULL, ?, ?, ?, ?)"
)
_PENDING_SQL = (
    "SELECT id, guild_id FROM outbox WHERE claimed_at IS NULL OR claimed_at < ? ORDER BY id LIMIT ?"
)
_CLAIM_SQL = (
    "UPDATE outbox SET claimed_by = ?, claimed_at = ?"
    " WHERE id = ? AND (claimed_at IS NULL OR claimed_at < ?)"
)
_CLAIMED_SQL = (
    "SELECT id, game_id, table_id, guild_id, version, notes FROM outbox"
    " WHERE id = ? AND claimed_by = ? AND claimed_at = ?"
)


@dataclass(frozen=True, slots=True)
class Notice:
    """One move's notice: the game, its table and server, the version it made, and the notes
    the service wrote of what it did (a list of plain JSON objects). A tournament's news (a
    round opened, the end) names no game nor table: ``game_id`` None, the server's all."""

    id: int
    game_id: int | None
    table_id: int | None
    guild_id: int | None
    version: int
    notes: tuple[dict[str, Any], ...]


def write_notice(
    conn: sqlite3.Connection,
    game_id: int,
    version: int,
    notes: Sequence[dict[str, Any]],
    stamp: int,
) -> None:
    """Inside the move's transaction: the notice of the move that made ``version``."""
    text = notes_text(notes)
    conn.execute(_INSERT_SQL, (version, text, stamp, game_id))


def notes_text(notes: Sequence[dict[str, Any]]) -> str:
    """A notice's notes as the outbox keeps them."""
    return json.dumps(list(notes), separators=(",", ":"))


def _tell(
    conn: sqlite3.Connection, guild_id: int | None, version: int, text: str, stamp: int
) -> None:
    conn.execute(TELL_SQL, (guild_id, version, text, stamp))


class Listening:
    """A LISTEN on its own connection (PostgreSQL); ``close`` ends it."""

    def __init__(self, conn: Any, callback: Callable[..., None]) -> None:
        self._conn = conn
        self._callback = callback

    @property
    def alive(self) -> bool:
        return not self._conn.is_closed()

    async def close(self) -> None:
        if self._conn.is_closed():
            return
        try:
            await self._conn.remove_listener(CHANNEL, self._callback)
        finally:
            await self._conn.close()


class OutboxStore:
    """Notices between bot processes: ``store.outbox`` (see the module's docstring)."""

    def __init__(self, database: AnyDatabase) -> None:
        self._db = database

    async def tell(
        self, guild_id: int | None, notes: Sequence[dict[str, Any]], *, version: int, at: int
    ) -> None:
        """A notice of no game for the process of ``guild_id``'s server: a tournament's news
        reached elsewhere (``version``: the tournament's, ``at`` in ms). It follows, in the
        outbox's order, the notices of the moves and tables that led to it."""
        text = notes_text(notes)
        await self._db.write_once(_tell, guild_id, version, text, at)

    async def pending(self, *, stale_before: int, limit: int = 200) -> list[tuple[int, int | None]]:
        """The notices nobody holds (or whose claimer died: claimed before ``stale_before``,
        in ms), oldest first, as (id, guild id): the caller keeps those of its servers."""
        rows = await self._db.read_once(_rows, _PENDING_SQL, (stale_before, limit))
        return [(int(r[0]), None if r[1] is None else int(r[1])) for r in rows]

    async def claim(
        self, ids: Sequence[int], *, by: str, at: int, stale_before: int
    ) -> list[Notice]:
        """Take the notices ``ids`` before acting on them; those another process took first
        are left out. ``at`` and ``stale_before`` are in ms."""
        if not ids:
            return []
        return await self._db.write_once(_claim, list(ids), by, at, stale_before)

    async def done(self, ids: Sequence[int]) -> None:
        """The notices were handed to the messages: gone."""
        if ids:
            await self._db.write_once(_delete, list(ids))

    async def count(self) -> int:
        rows = await self._db.read_once(_rows, "SELECT count(*) FROM outbox", ())
        return int(rows[0][0])

    async def listen(self, wake: Callable[[], None]) -> Listening | None:
        """On PostgreSQL, ``wake()`` at each commit of a notice (on a connection of its own);
        None on SQLite, whose readers look from time to time instead."""
        connect = getattr(self._db, "connect_another", None)
        if connect is None:
            return None
        conn = await connect()

        def callback(*_: object) -> None:
            wake()

        await conn.add_listener(CHANNEL, callback)
        return Listening(conn, callback)


def _rows(conn: sqlite3.Connection, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    return [tuple(r) for r in conn.execute(sql, params)]


def _claim(
    conn: sqlite3.Connection, ids: list[int], by: str, at: int, stale_before: int
) -> list[Notice]:
    claimed = []
    for notice_id in ids:
        if conn.execute(_CLAIM_SQL, (by, at, notice_id, stale_before)).rowcount != 1:
            continue
        row = conn.execute(_CLAIMED_SQL, (notice_id, by, at)).fetchone()
        if row is not None:
            claimed.append(
                Notice(
                    int(row[0]),
                    None if row[1] is None else int(row[1]),
                    None if row[2] is None else int(row[2]),
                    None if row[3] is None else int(row[3]),
                    int(row[4]),
                    tuple(json.loads(row[5])),
                )
            )
    return claimed


def _delete(conn: sqlite3.Connection, ids: list[int]) -> None:
    for notice_id in ids:
        conn.execute("DELETE FROM outbox WHERE id = ?", (notice_id,))
