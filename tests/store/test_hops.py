"""One-hop transactions go straight to the database thread; a ``write()`` block keeps them out.

A move is one hand-off to SQLite's thread (``Database.write_once``). Those hand-offs used to
wait for one lock each, taken back only when the event loop had come round to the previous
one's result: under load the loop's delays, not SQLite, were most of a move's time. Now the
thread's own order keeps them apart, and the lock is held by ``write()`` and ``read()`` blocks
alone, whose statements are separate hand-offs.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

from scopabot.store import Store
from scopabot.store.database import Database


async def _sqlite(tmp_path: Path) -> tuple[Store, Database]:
    store = await Store.open(tmp_path / "hops.db")
    assert isinstance(store.database, Database)
    await store.database.write_once(_create)
    return store, store.database


def _create(conn: sqlite3.Connection) -> None:
    conn.execute("CREATE TABLE IF NOT EXISTS marks (n INTEGER)")


def _mark(conn: sqlite3.Connection, n: int) -> int:
    conn.execute("INSERT INTO marks VALUES (?)", (n,))
    return int(conn.execute("SELECT count(*) FROM marks").fetchone()[0])


async def test_a_hop_is_queued_without_waiting_for_the_loop_to_take_the_last_ones_result(
    tmp_path: Path,
) -> None:
    store, db = await _sqlite(tmp_path)
    try:
        go, second_ran = threading.Event(), threading.Event()

        def first(conn: sqlite3.Connection) -> int:
            assert go.wait(10)
            return _mark(conn, 1)

        def second(conn: sqlite3.Connection) -> int:
            second_ran.set()
            return _mark(conn, 2)

        one = asyncio.ensure_future(db.write_once(first))
        await asyncio.sleep(0)
        two = asyncio.ensure_future(db.write_once(second))
        await asyncio.sleep(0)
        go.set()
        # The event loop is held here, so it cannot take the first hop's result: the second
        # runs only if it was queued on the thread without waiting for that.
        assert second_ran.wait(5), "the second hop waited for the loop to finish the first"
        assert (await one, await two) == (1, 2)  # in the order they were made
    finally:
        await store.close()


async def test_a_hop_made_during_a_write_block_runs_after_its_commit(tmp_path: Path) -> None:
    store, db = await _sqlite(tmp_path)
    try:
        seen: list[int] = []

        def count(conn: sqlite3.Connection) -> None:
            seen.append(int(conn.execute("SELECT count(*) FROM marks").fetchone()[0]))

        async with db.write() as conn:
            await conn.execute("INSERT INTO marks VALUES (1)")
            hop = asyncio.ensure_future(db.write_once(_mark, 10))
            reader = asyncio.ensure_future(db.read_once(count))
            for _ in range(5):
                await asyncio.sleep(0)
            assert not hop.done() and not reader.done()  # kept out of the open transaction
            await conn.execute("INSERT INTO marks VALUES (2)")
        assert await hop == 3  # after the block's two rows, in a transaction of its own
        await reader
        assert seen == [3]
    finally:
        await store.close()


async def test_a_block_started_after_a_hop_sees_what_the_hop_wrote(tmp_path: Path) -> None:
    store, db = await _sqlite(tmp_path)
    try:
        hop = asyncio.ensure_future(db.write_once(_mark, 1))
        await asyncio.sleep(0)  # queued, not yet answered
        async with db.read() as conn:
            rows = await conn.execute_fetchall("SELECT n FROM marks")
        assert [tuple(r) for r in rows] == [(1,)]
        assert await hop == 1
    finally:
        await store.close()
