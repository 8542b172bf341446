"""One aiosqlite connection, one lock: the discipline every part of the store follows.

The :class:`Database` is the one object the store's parts share (each is given it, none sees
the others). All statements go through :meth:`Database.write` (a write transaction,
``BEGIN IMMEDIATE``), :meth:`Database.read` (a read transaction), or their one-hop forms
:meth:`Database.write_once` and :meth:`Database.read_once`, so two coroutines never interleave
statements of different transactions on the shared connection. A ``write()`` or ``read()``
block holds one :class:`asyncio.Lock` from its ``BEGIN`` to its ``COMMIT``, since its
statements are separate hand-offs. A one-hop transaction needs no lock of its own: the
database thread runs hand-offs one at a time, in the order they were made, and the whole
transaction is one of them; it only waits for an open block to end. (Holding the lock for
a one-hop transaction, as the store once did, made every move wait for the event loop to come
back to each earlier one's result before its own could even be queued: under load the
loop's delays, not SQLite, were most of a move's time.) Other processes (a backup, a second
reader) are kept apart by SQLite's own locking in WAL mode.

Every awaited aiosqlite call is a hand-off to its worker thread and back (~100 µs here), so the
hot paths (a move, loading a game) run their whole transaction as one plain function on that
thread (:func:`on_worker`): one hand-off instead of four or more.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Self, TypeAlias, TypeVar, TypeVarTuple

import aiosqlite

from .errors import (
    DatabaseCorruptError,
    DatabaseUnreadableError,
    EmptyDatabaseError,
    StoreError,
    translate,
)
from .migrate import Migration, check_version, load_migrations, migrate

if TYPE_CHECKING:
    from .postgres_database import PostgresDatabase

log = logging.getLogger(__name__)

# Checkpoints (copying the write-ahead log into the database file, with an fsync of each) take
# milliseconds. Left to SQLite they run inside the commit that fills 1,000 pages of log, which
# stalls that move and every move queued behind it; so a second connection does them in the
# background instead, and the writer's own automatic checkpoint is only a safety net.
_CHECKPOINT_POLL = 0.1  # seconds
_CHECKPOINT_AFTER_COMMITS = 100  # or ...
_CHECKPOINT_AFTER_SECONDS = 1.0  # ... whichever comes first, when anything was written
_SAFETY_CHECKPOINT_PAGES = 10_000  # about 40 MB of log
T = TypeVar("T")
Ts = TypeVarTuple("Ts")
# What the store's parts run on: this SQLite database, or PostgreSQL's with the same methods
# (store/postgres_database.py), chosen by Store.open from what it is given.
AnyDatabase: TypeAlias = "Database | PostgresDatabase"


async def _connect(path: Path) -> aiosqlite.Connection:
    """``aiosqlite.connect`` whose worker thread has ended before a failure is raised.

    When sqlite3 cannot open the file (a folder the bot may not write to), aiosqlite queues
    the end of its worker thread without waiting for it; the thread then hands its last result
    to the event loop, which may be closed by then (``bot.py`` exits on the error), and the
    user sees "Exception in thread … Event loop is closed" after the clean message. Waiting
    here, while the loop still runs, keeps the clean message the only one. This reads
    aiosqlite's private ``Connection._thread`` (checked by ``tests/store/test_worker.py``).
    """
    connection = aiosqlite.connect(path, isolation_level=None)
    try:
        return await connection
    except BaseException as exc:
        thread = connection._thread
        for _ in range(5000):  # it ends within microseconds; never wait forever
            if not thread.is_alive():
                break
            await asyncio.sleep(0.001)
        if isinstance(exc, sqlite3.Error):
            raise translate(exc, path) from exc
        raise


def _refuse_empty(path: Path) -> None:
    """An existing 0-byte file where a database is expected: refused, never made anew."""
    try:
        empty = path.is_file() and path.stat().st_size == 0
    except OSError as exc:
        raise DatabaseUnreadableError(path, f"cannot reach the file ({exc.strerror})") from exc
    if empty:
        raise EmptyDatabaseError(
            path, "the file is empty (0 bytes) where the bot's database was expected"
        )


def _check_path(path: Path) -> None:
    """Refuse a folder or a missing folder with the store's own message, not an OSError."""
    try:
        if path.is_dir():
            raise DatabaseUnreadableError(path, "this is a folder, not a database file")
        if not path.parent.is_dir():
            raise DatabaseUnreadableError(path, f"the folder {path.parent} does not exist")
    except OSError as exc:  # a name too long, a folder the bot may not look into
        raise DatabaseUnreadableError(path, f"cannot reach the file ({exc.strerror})") from exc


async def on_worker(
    db: aiosqlite.Connection, fn: Callable[[sqlite3.Connection, *Ts], T], *args: *Ts
) -> T:
    """Run ``fn(connection, *args)`` on aiosqlite's worker thread: one hand-off, not one each.

    aiosqlite has no public way to do this, so this is the one place that uses its private
    ``Connection._execute`` (queue a function on the worker thread) and ``_conn`` (the sqlite3
    connection, which belongs to that thread); both are unchanged from 0.17 to 0.22.
    ``tests/store/test_worker.py`` fails loudly if a new aiosqlite drops them.
    """
    if not isinstance(db, aiosqlite.Connection):
        # PostgreSQL's connection in a write() or read() block: the same function, on a
        # worker thread of its own (store/postgres_connection.py).
        from .postgres_connection import AsyncConnection, run_blocking

        assert isinstance(db, AsyncConnection)
        return await run_blocking(db, fn, *args)
    conn: sqlite3.Connection = db._conn
    result: T = await db._execute(fn, conn, *args)  # type: ignore[no-untyped-call]
    return result


class Database:
    """The connection, its lock and its background checkpoints: what every part of the store
    runs its transactions on. Opened by :meth:`Store.open <scopabot.store.Store.open>`."""

    path: Path
    _db: aiosqlite.Connection
    _lock: asyncio.Lock
    _commits: int
    _checkpointer: aiosqlite.Connection | None
    _checkpoints: asyncio.Task[None] | None

    @classmethod
    async def open(
        cls,
        path: Path | str,
        *,
        synchronous: str = "NORMAL",
        busy_timeout: float = 5.0,
        max_size_bytes: int | None = None,
        check: bool = False,
        expected: bool = False,
        migrations: tuple[Migration, ...] | None = None,
    ) -> Self:
        """Open (creating if needed) and migrate the database at ``path``.

        With the default ``synchronous="NORMAL"`` (WAL) a committed move survives any crash,
        kill or restart of the bot; only a power cut or kernel crash may take back the last
        moves before a checkpoint (never half of one). ``"FULL"`` syncs the log at every
        commit and survives power cuts too, at the disk's fsync cost per move.
        ``max_size_bytes`` caps the file (a full cap behaves as a full disk). ``check`` reads
        the whole file first (:meth:`check`), before anything in it changes, so damage shows
        at start-up, not mid-game, and the damaged file keeps every byte. ``expected`` says a
        database should be there (the bot's own): an existing empty file is then refused
        (:class:`EmptyDatabaseError`) instead of becoming a new, empty database; a missing
        file is still a first start. A refused file (damaged, empty, too new, another
        program's) is left as it was, journal mode included.
        """
        if synchronous.upper() not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError("synchronous must be FULL, NORMAL or EXTRA")
        path = Path(path)
        _check_path(path)
        if expected:
            _refuse_empty(path)
        migrations = load_migrations() if migrations is None else migrations
        self = cls()
        self.path = path
        self._lock = asyncio.Lock()
        self._commits = 0
        self._checkpointer = None
        self._checkpoints = None
        self._db = await _connect(path)
        try:
            await self._configure(
                synchronous.upper(),
                busy_timeout,
                max_size_bytes,
                latest=len(migrations),
                check=check,
            )
            await migrate(self._db, path, migrations=migrations)
            await self._check_writable()
            await self._start_checkpoints(synchronous.upper())
        except BaseException:
            try:
                await self._stop_checkpoints()
            finally:
                with suppress(sqlite3.Error):
                    await self._db.close()
            raise
        return self

    async def _start_checkpoints(self, synchronous: str) -> None:
        db = self._db
        await db.execute("PRAGMA wal_autocheckpoint = " + str(_SAFETY_CHECKPOINT_PAGES))
        self._checkpointer = await _connect(self.path)
        # A checkpoint syncs as its own connection says: the same setting as the writer's.
        await self._checkpointer.execute("PRAGMA synchronous = " + synchronous)
        self._checkpoints = asyncio.create_task(self._checkpoint_loop())

    async def _checkpoint_loop(self) -> None:
        """Checkpoint in the background (``PASSIVE``: never blocks a writer or a reader)."""
        assert self._checkpointer is not None
        seen, last = self._commits, time.monotonic()
        while True:
            await asyncio.sleep(_CHECKPOINT_POLL)
            pending = self._commits - seen
            if pending >= _CHECKPOINT_AFTER_COMMITS or (
                pending and time.monotonic() - last >= _CHECKPOINT_AFTER_SECONDS
            ):
                seen, last = self._commits, time.monotonic()
                try:
                    await self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error:
                    # The writer's own automatic checkpoint still bounds the log.
                    log.warning("background checkpoint of %s failed", self.path, exc_info=True)

    async def _stop_checkpoints(self) -> None:
        if self._checkpoints is not None:
            self._checkpoints.cancel()
            with suppress(asyncio.CancelledError):
                await self._checkpoints
            self._checkpoints = None
        if self._checkpointer is not None:
            await self._checkpointer.close()
            self._checkpointer = None

    async def _configure(
        self,
        synchronous: str,
        busy_timeout: float,
        max_size: int | None,
        *,
        latest: int,
        check: bool = False,
    ) -> None:
        db = self._db
        try:
            # PRAGMAs take no ? parameters; every value put in them here is a checked int or
            # one of a fixed set of words.
            # busy_timeout first: reading the version and switching to WAL need locks another
            # process may hold.
            await db.execute("PRAGMA busy_timeout = " + str(int(busy_timeout * 1000)))
        except sqlite3.Error as exc:
            raise translate(exc, self.path) from exc
        if check:
            # Before anything in the file changes (the switch to WAL rewrites its header):
            # a damaged file is refused with every byte as it was.
            await self.check()
        # Before anything in the file changes: a refused file keeps its journal mode too.
        await check_version(db, self.path, latest=latest)
        try:
            rows = list(await db.execute_fetchall("PRAGMA journal_mode = WAL"))
            if str(rows[0][0]).lower() != "wal":
                raise StoreError(f"{self.path}: cannot switch to WAL journal mode ({rows[0][0]})")
            await db.execute("PRAGMA synchronous = " + synchronous)  # checked in open()
            await db.execute("PRAGMA foreign_keys = ON")
            if max_size is not None:
                page = next(iter(await db.execute_fetchall("PRAGMA page_size")))[0]
                await db.execute("PRAGMA max_page_count = " + str(max(1, max_size // int(page))))
            # Reading the schema makes a damaged file fail here, not mid-game.
            await db.execute_fetchall("SELECT count(*) FROM sqlite_schema")
        except sqlite3.Error as exc:
            raise translate(exc, self.path) from exc

    async def _check_writable(self) -> None:
        """Refuse a file the bot may read but not write (its permissions, a read-only
        volume): started on it, every move would be refused at its write. The version is
        written again, unchanged, and rolled back: nothing reaches the file (taking the write
        lock alone succeeds on a read-only file)."""
        db = self._db
        try:
            version = next(iter(await db.execute_fetchall("PRAGMA user_version")))[0]
            await db.execute("BEGIN IMMEDIATE")
            try:
                await db.execute("PRAGMA user_version = " + str(int(version)))
            finally:
                with suppress(sqlite3.Error):
                    await db.execute("ROLLBACK")
        except sqlite3.Error as exc:
            raise translate(exc, self.path) from exc

    async def check(self) -> None:
        """Read every page (``PRAGMA quick_check``); raise DatabaseCorruptError on damage."""
        async with self._lock:
            try:
                rows = list(await self._db.execute_fetchall("PRAGMA quick_check"))
            except sqlite3.Error as exc:
                raise translate(exc, self.path) from exc
        problems = [" ".join(str(r[0]).split()) for r in rows]
        if problems != ["ok"]:
            # Worded as a damaged file is wherever SQLite finds it (store.errors.translate), so
            # the administrator reads one sentence whichever check saw the damage first.
            shown = "; ".join(problems[:3])
            raise DatabaseCorruptError(self.path, f"database is damaged ({shown})")

    async def close(self) -> None:
        # The checkpointer goes first: the last connection to close checkpoints the whole log
        # into the file and removes it.
        await self._stop_checkpoints()
        async with self._lock:
            with suppress(sqlite3.Error):
                await self._db.execute("PRAGMA optimize")
            await self._db.close()

    async def analyze(self) -> None:
        """Refresh the query planner's statistics (after a large import)."""
        async with self._lock:
            await self._db.execute("ANALYZE")

    @asynccontextmanager
    async def write(self) -> AsyncIterator[aiosqlite.Connection]:
        """A write transaction: everything inside commits together or not at all."""
        async with self._lock:
            db = self._db
            try:
                await on_worker(db, _begin, "BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise translate(exc, self.path) from exc
            try:
                yield db
                await db.execute("COMMIT")
                self._commits += 1
            except BaseException as exc:
                if db.in_transaction:
                    # SQLite may have rolled back already (e.g. after SQLITE_FULL).
                    with suppress(sqlite3.Error):
                        await db.execute("ROLLBACK")
                if isinstance(exc, sqlite3.Error):
                    raise translate(exc, self.path) from exc
                raise

    @asynccontextmanager
    async def read(self) -> AsyncIterator[aiosqlite.Connection]:
        """A read transaction: every query inside sees the same committed state."""
        async with self._lock:
            db = self._db
            try:
                await on_worker(db, _begin, "BEGIN")
                yield db
            except sqlite3.Error as exc:
                raise translate(exc, self.path) from exc
            finally:
                if db.in_transaction:
                    with suppress(sqlite3.Error):
                        await db.execute("COMMIT")

    async def write_once(self, fn: Callable[[sqlite3.Connection, *Ts], T], *args: *Ts) -> T:
        """A write transaction in one hand-off: ``BEGIN IMMEDIATE``, ``fn``, ``COMMIT``.

        ``fn`` runs on the database thread and must only use the connection it is given; if it
        raises, the transaction is rolled back there and the error comes back here.
        """
        await self._no_block_open()
        try:
            result = await on_worker(self._db, _in_write_transaction(fn), *args)
        except sqlite3.Error as exc:
            raise translate(exc, self.path) from exc
        self._commits += 1
        return result

    async def read_once(self, fn: Callable[[sqlite3.Connection, *Ts], T], *args: *Ts) -> T:
        """A read transaction in one hand-off: every query in ``fn`` sees the same state."""
        await self._no_block_open()
        try:
            return await on_worker(self._db, _in_read_transaction(fn), *args)
        except sqlite3.Error as exc:
            raise translate(exc, self.path) from exc

    async def _no_block_open(self) -> None:
        """Wait while a ``write()`` or ``read()`` block (or a close) holds the connection.

        The hand-off that follows is made in the same step of the event loop as this returns
        (nothing is awaited in between), so it is queued on the database thread after every
        statement of the block that just ended and before the ``BEGIN`` of any block that
        starts after it: the thread's own order keeps the transactions apart.
        """
        if self._lock.locked():
            async with self._lock:
                pass


def _begin(conn: sqlite3.Connection, sql: str) -> None:
    """Start a transaction, first rolling back one left open by a cancelled caller.

    A coroutine cancelled while its ``BEGIN`` (or a statement after it) was queued on the
    database thread leaves the lock without finishing its transaction; the work still runs
    there. Rolling that orphan back here, on the same thread and in queue order, before the
    next transaction starts, means a cancelled caller has written nothing and the next caller
    is not refused with "cannot start a transaction within a transaction".
    """
    if conn.in_transaction:
        with suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
    conn.execute(sql)


def _in_write_transaction(
    fn: Callable[[sqlite3.Connection, *Ts], T],
) -> Callable[[sqlite3.Connection, *Ts], T]:
    def run(conn: sqlite3.Connection, *args: *Ts) -> T:
        _begin(conn, "BEGIN IMMEDIATE")
        try:
            result = fn(conn, *args)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                # SQLite may have rolled back already (e.g. after SQLITE_FULL).
                with suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
            raise
        return result

    return run


def _in_read_transaction(
    fn: Callable[[sqlite3.Connection, *Ts], T],
) -> Callable[[sqlite3.Connection, *Ts], T]:
    def run(conn: sqlite3.Connection, *args: *Ts) -> T:
        _begin(conn, "BEGIN")
        try:
            return fn(conn, *args)
        finally:
            if conn.in_transaction:
                with suppress(sqlite3.Error):
                    conn.execute("COMMIT")

    return run
