"""The private aiosqlite APIs the store relies on, checked so an upgrade fails here first."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import aiosqlite
import pytest

from scopabot.store.database import on_worker


async def test_aiosqlite_still_runs_a_function_on_its_worker_thread(tmp_path: Path) -> None:
    # If this fails after upgrading aiosqlite, Connection._execute or Connection._conn changed:
    # fix scopabot/store/database.py:on_worker (every move and load goes through it), or pin the
    # older aiosqlite.
    assert callable(getattr(aiosqlite.Connection, "_execute", None)), "aiosqlite dropped _execute"
    assert isinstance(getattr(aiosqlite.Connection, "_conn", None), property), "no _conn"
    async with aiosqlite.connect(tmp_path / "x.db") as db:

        def work(conn: sqlite3.Connection, a: int, b: int) -> tuple[int, int, bool]:
            value = conn.execute("SELECT ? + ?", (a, b)).fetchone()[0]
            return value, threading.get_ident(), conn.in_transaction

        value, thread, _ = await on_worker(db, work, 2, 3)
        assert value == 5
        assert thread != threading.get_ident()  # it ran on aiosqlite's thread, not the loop's
        # The same connection aiosqlite itself uses: a transaction begun one way is seen the other.
        await db.execute("BEGIN")
        assert (await on_worker(db, work, 0, 0))[2] is True
        await db.execute("ROLLBACK")

        def fail(conn: sqlite3.Connection) -> None:
            conn.execute("SELECT * FROM no_such_table")

        with pytest.raises(sqlite3.OperationalError):
            await on_worker(db, fail)


def test_aiosqlite_still_keeps_its_worker_thread_in_thread() -> None:
    # scopabot/store/database.py:_connect waits for this thread after a failed connect, so that it
    # does not outlive the event loop; if it moved, fix _connect there.
    connection = aiosqlite.connect(":memory:")
    assert isinstance(getattr(connection, "_thread", None), threading.Thread)
