"""The seam that runs the store's sqlite3-shaped SQL on PostgreSQL (store/postgres_connection.py,
store/postgres_database.py), on a real server."""

from __future__ import annotations

import asyncio
import sqlite3
import threading

import pytest

from scopabot.store import DatabaseLockedError, StoreError
from scopabot.store.postgres_connection import placeholders
from scopabot.store.postgres_database import PostgresDatabase


def test_placeholders_are_numbered_outside_quotes_and_comments() -> None:
    assert placeholders("SELECT ? , ?") == "SELECT $1 , $2"
    assert placeholders("SELECT '?' || ?, \"a?\" FROM t -- why?\nWHERE x = ?") == (
        "SELECT '?' || $1, \"a?\" FROM t -- why?\nWHERE x = $2"
    )
    assert placeholders("SELECT 'it''s ?', ?") == "SELECT 'it''s ?', $1"
    assert placeholders("WHERE guild_id IS ? AND x is not ? AND y IS NULL AND z = ?") == (
        "WHERE guild_id IS NOT DISTINCT FROM $1 AND x IS DISTINCT FROM $2 AND y IS NULL AND z = $3"
    )


def _insert_table(conn: sqlite3.Connection, host: int) -> int:
    rows = conn.execute(
        "INSERT INTO tables (guild_id, host_id, rules, status, created_at, updated_at)"
        " VALUES (?, ?, ?, 'open', ?, ?) RETURNING id",
        (None, host, "{}", 1, 2),
    ).fetchall()
    return int(rows[0][0])


async def test_a_one_hop_function_runs_on_postgresql(postgres_url: str) -> None:
    database = await PostgresDatabase.open(postgres_url)
    try:
        first = await database.write_once(_insert_table, 7)
        second = await database.write_once(_insert_table, 8)
        assert second == first + 1

        def read(conn: sqlite3.Connection) -> list[tuple[object, ...]]:
            return list(conn.execute("SELECT id, host_id FROM tables ORDER BY id"))

        assert await database.read_once(read) == [(first, 7), (second, 8)]

        def touch(conn: sqlite3.Connection, host: int) -> int:
            # a bool for a BIGINT, an int for TEXT: converted as SQLite's affinity stores them
            cursor = conn.execute(
                "UPDATE tables SET thread_id = ?, rules = ? WHERE host_id = ?", (True, 5, host)
            )
            return cursor.rowcount

        assert await database.write_once(touch, 7) == 1
        assert await database.write_once(touch, 99) == 0
        rows = await database.read_once(
            lambda conn: conn.execute(
                "SELECT thread_id, rules FROM tables WHERE id = ?", (first,)
            ).fetchall()
        )
        assert rows == [(1, "5")]
    finally:
        await database.close()


async def test_a_failed_one_hop_function_writes_nothing(postgres_url: str) -> None:
    database = await PostgresDatabase.open(postgres_url)
    try:

        def half(conn: sqlite3.Connection) -> None:
            _insert_table(conn, 1)
            raise ValueError("changed my mind")

        with pytest.raises(ValueError):
            await database.write_once(half)

        def broken(conn: sqlite3.Connection) -> None:
            _insert_table(conn, 2)
            conn.execute(
                "INSERT INTO table_seats (table_id, seat, user_id, ai_level, joined_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (12345, 0, 1, None, 0),  # no such table: a foreign key refuses it
            )

        with pytest.raises(StoreError, match="PostgreSQL 23503"):
            await database.write_once(broken)
        count = await database.read_once(
            lambda conn: conn.execute("SELECT count(*) FROM tables").fetchall()[0][0]
        )
        assert count == 0
    finally:
        await database.close()


async def test_a_block_sees_sqlite3s_integrity_error(postgres_url: str) -> None:
    database = await PostgresDatabase.open(postgres_url)
    try:
        table = await database.write_once(_insert_table, 3)
        async with database.write() as db:
            await db.execute(
                "INSERT INTO table_seats (table_id, seat, user_id, ai_level, joined_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (table, 0, 3, None, 0),
            )
        with pytest.raises(StoreError):
            async with database.write() as db:
                try:
                    await db.execute(
                        "INSERT INTO table_seats (table_id, seat, user_id, ai_level, joined_at)"
                        " VALUES (?, ?, ?, ?, ?)",
                        (table, 0, 4, None, 0),
                    )
                except sqlite3.IntegrityError as exc:
                    raise StoreError("seat taken") from exc
        async with database.read() as db:
            assert await db.execute_fetchall("SELECT user_id FROM table_seats") == [(3,)]
            cursor = await db.execute("SELECT seat FROM table_seats WHERE table_id = ?", (table,))
            assert await cursor.fetchone() == (0,)
            assert await cursor.fetchone() is None
    finally:
        await database.close()


async def test_a_cancelled_caller_leaves_a_whole_transaction(postgres_url: str) -> None:
    database = await PostgresDatabase.open(postgres_url)
    try:
        started = asyncio.Event()
        loop = asyncio.get_running_loop()

        def slow(conn: sqlite3.Connection) -> int:
            first = _insert_table(conn, 1)
            loop.call_soon_threadsafe(started.set)
            conn.execute("SELECT pg_sleep(0.2)")
            _insert_table(conn, 2)
            return first

        task = asyncio.create_task(database.write_once(slow))
        await started.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await asyncio.sleep(0.5)
        rows = await database.read_once(
            lambda conn: conn.execute("SELECT host_id FROM tables ORDER BY id").fetchall()
        )
        assert rows == [(1,), (2,)]  # both or neither: here both, as on SQLite's thread
    finally:
        await database.close()


async def test_two_processes_comparing_and_setting_the_same_row_change_it_once(
    postgres_url: str,
) -> None:
    """Two databases (as two bot processes would hold) each try 50 times to move a table
    from 'open' to 'playing': exactly one succeeds, the others see it already moved."""
    one = await PostgresDatabase.open(postgres_url)
    two = await PostgresDatabase.open(postgres_url)
    try:
        table = await one.write_once(_insert_table, 1)

        def claim(conn: sqlite3.Connection, table_id: int) -> bool:
            status = conn.execute("SELECT status FROM tables WHERE id = ?", (table_id,)).fetchall()
            if status[0][0] != "open":
                return False
            cursor = conn.execute(
                "UPDATE tables SET status = 'playing' WHERE id = ? AND status = 'open'",
                (table_id,),
            )
            return cursor.rowcount == 1

        async def attempt(database: PostgresDatabase) -> bool:
            try:
                return await database.write_once(claim, table)
            except DatabaseLockedError:
                return False

        results = await asyncio.gather(*(attempt(d) for _ in range(50) for d in (one, two)))
        assert results.count(True) == 1
    finally:
        await one.close()
        await two.close()


async def test_a_connection_the_server_dropped_is_replaced(
    postgres_url: str, postgres_server: str
) -> None:
    """A server restart or an idle timeout ends the bot's connection: the next transaction
    connects again instead of failing every move until the bot is restarted."""
    import asyncpg

    database = await PostgresDatabase.open(postgres_url)
    try:
        await database.write_once(_insert_table, 1)
        name = postgres_url.rsplit("/", 1)[1]
        admin = await asyncpg.connect(postgres_server)
        try:
            ended = await admin.fetchval(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE datname = $1 AND pid <> pg_backend_pid()",
                name,
            )
        finally:
            await admin.close()
        assert ended == 1
        await asyncio.sleep(0.2)
        await database.write_once(_insert_table, 2)
        rows = await database.read_once(
            lambda conn: conn.execute("SELECT host_id FROM tables ORDER BY id").fetchall()
        )
        assert rows == [(1,), (2,)]
    finally:
        await database.close()


async def test_a_one_hop_function_runs_on_the_event_loops_thread(postgres_url: str) -> None:
    """No worker thread and no hand-off per statement (docs/speed.md): the function runs
    where the connection's event loop runs, and a statement's error reaches it where it was
    sent, as on SQLite."""
    database = await PostgresDatabase.open(postgres_url)
    try:

        def where(conn: sqlite3.Connection) -> tuple[str, str]:
            conn.execute("SELECT count(*) FROM tables")
            try:
                conn.execute("SELECT no_such_column FROM tables")
            except sqlite3.OperationalError as exc:
                return threading.current_thread().name, str(exc)
            return threading.current_thread().name, ""

        name, error = await database.read_once(where)
        assert name == threading.current_thread().name
        assert "no_such_column" in error
    finally:
        await database.close()


async def test_a_plain_move_is_one_statement_and_refused_as_on_sqlite(
    migrated_postgres_url: str,
) -> None:
    """A move that writes only the game's row and the move's takes one round trip on
    PostgreSQL (game_rows.MOVE_AT_ONCE_SQL), not a one-hop transaction; one refused by the
    version, or by a finished game, is refused with the same error as on SQLite."""
    from scopabot.engine import Game, Rules
    from scopabot.service.live import LiveGames
    from scopabot.store import Actor, GameClosedError, SeatHolder, StaleVersionError, Store

    store = await Store.open(migrated_postgres_url)
    other = await Store.open(migrated_postgres_url)
    try:
        stored = await store.games.create(
            Game.new(Rules(), seed=5), seats=[SeatHolder.human(1), SeatHolder.human(2)]
        )
        database = store.database
        assert isinstance(database, PostgresDatabase)
        hops: list[object] = []
        write_once = database.write_once

        async def counted(fn: object, *args: object) -> object:
            hops.append(fn)
            return await write_once(fn, *args)  # type: ignore[arg-type]

        database.write_once = counted  # type: ignore[method-assign, assignment]
        live = LiveGames.of(store)
        game, version = stored.game, stored.version
        plain = 0
        while game.deal_scores == () and plain < 5:
            move = game.legal_moves()[0]
            applied = await live.apply_move(stored.id, version, move, by=Actor.user(1))
            game, version, plain = applied.game, applied.version, plain + 1
        assert hops == []  # every one a single statement
        reread = await other.games.load(stored.id)
        assert (reread.version, reread.game.move_count) == (version, plain)
        assert [m.move for m in await other.games.moves(stored.id)] == [
            str(m) for m in reread.game.record().moves
        ]
        # Another process moves it on: this one's plain move is refused by the version.
        move = reread.game.legal_moves()[0]
        await LiveGames.of(other).apply_move(stored.id, version, move, by=Actor.user(1))
        with pytest.raises(StaleVersionError) as stale:
            await live.apply_move(stored.id, version, move, by=Actor.user(1))
        assert (stale.value.expected, stale.value.actual) == (version, version + 1)
        now = (await other.games.load(stored.id)).game
        await other.games.abandon(stored.id, version + 1)
        with pytest.raises(GameClosedError):
            await live.apply_move(stored.id, version + 1, now.legal_moves()[0], by=Actor.user(1))
    finally:
        await store.close()
        await other.close()
