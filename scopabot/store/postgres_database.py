"""The store's :class:`Database` on PostgreSQL: one asyncpg connection, one lock.

The same discipline as on SQLite: every part's transaction goes through :meth:`write`,
:meth:`read`, :meth:`write_once` or :meth:`read_once`, one at a time per process (an
:class:`asyncio.Lock`), so a process's transactions never interleave and its behaviour is the
SQLite store's. Between processes PostgreSQL keeps them apart: a write transaction is
``SERIALIZABLE`` (SQLite's ``BEGIN IMMEDIATE`` lets one writer at a time; this lets several
run and refuses the commit of one that another's changes would contradict). A one-hop write
refused so is run again from its start, a few times, since it only ever used its own
connection; a ``write()`` block cannot be run again from inside and is refused with
:class:`~.errors.ConflictError` (nothing written), and the store's method built on it, marked
:func:`~.conflicts.conflicts_retried`, runs again whole (:mod:`.conflicts`). Moves
stay exactly-once either way: the version check in the move's UPDATE is itself a
compare-and-set.

The connection is opened again when the server dropped it (a restart, a failover, an idle
timeout): found dead when a transaction begins, it is replaced and the transaction goes on; a
connection lost in the middle of a transaction fails that transaction (PostgreSQL rolled it
back), and the next one connects again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, Self, TypeVar, TypeVarTuple, cast

from .errors import ConflictError, DatabaseUnreachableError, StoreError
from .migrate import Migration, load_migrations
from .postgres import connect, migrate, redacted, require_driver, schema_version
from .postgres_connection import AsyncConnection, run_blocking

if TYPE_CHECKING:
    import sqlite3

    import aiosqlite
    import asyncpg

log = logging.getLogger(__name__)
T = TypeVar("T")
Ts = TypeVarTuple("Ts")
_RETRIES = 5  # a one-hop write refused for a conflict with another process's
_SERIALIZATION_FAILURE, _DEADLOCK = "40001", "40P01"


class PostgresDatabase:
    """What the store's parts run their transactions on, for ``postgresql://`` URLs."""

    url: str  # without its password: what messages show
    kind = "postgresql"

    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self._commits = 0
        self._url = ""
        self._conn: asyncpg.Connection | None = None
        self._connection: AsyncConnection | None = None

    @property
    def path(self) -> str:
        return self.url

    @classmethod
    async def open(cls, url: str, *, migrations: tuple[Migration, ...] | None = None) -> Self:
        require_driver(url)
        self = cls()
        self._url = url
        self.url = redacted(url)
        migrations = load_migrations(dialect="postgresql") if migrations is None else migrations
        conn = await connect(url)
        try:
            await migrate(conn, self.url, migrations=migrations)
            await _serializable(conn)
        except BaseException:
            await conn.close()
            raise
        self._conn = conn
        self._connection = AsyncConnection(conn)
        return self

    async def connect_another(self) -> asyncpg.Connection:
        """A connection of its own to the same database (a LISTEN must not share the
        store's: store/outbox.py)."""
        return await connect(self._url)

    async def _connected(self) -> AsyncConnection:
        if self._conn is None or self._conn.is_closed():
            log.warning("the connection to %s was lost: connecting again", self.url)
            self._conn = await connect(self._url)
            await _serializable(self._conn)
            self._connection = AsyncConnection(self._conn)
        assert self._connection is not None
        return self._connection

    async def _drop(self) -> None:
        if self._conn is not None:
            self._conn.terminate()
        self._conn = None
        self._connection = None

    def _error(self, exc: BaseException) -> StoreError:
        import asyncpg

        if isinstance(exc, StoreError):
            return exc
        sqlstate = str(getattr(exc, "sqlstate", "") or "")
        if sqlstate in (_SERIALIZATION_FAILURE, _DEADLOCK):
            return ConflictError(
                self.url,
                f"another process changed the same rows at the same time ({exc})",
                "nothing was written; try again",
            )
        if isinstance(exc, (OSError, asyncpg.InterfaceError, asyncpg.ConnectionDoesNotExistError)):
            return DatabaseUnreachableError(self.url, f"the connection failed ({exc})")
        return StoreError(f"{self.url}: {type(exc).__name__}: {exc}")

    async def check(self) -> None:
        """PostgreSQL checks its own pages; this checks that the server answers and that the
        schema is the one this ScopaBot migrated."""
        async with self._lock:
            connection = await self._connected()
            await schema_version(connection._conn)

    async def analyze(self) -> None:
        async with self._lock:
            connection = await self._connected()
            await connection._conn.execute("ANALYZE")

    async def close(self) -> None:
        async with self._lock:
            if self._conn is not None and not self._conn.is_closed():
                await self._conn.close()
            self._conn = None
            self._connection = None

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @asynccontextmanager
    async def _transaction(self, *, write: bool) -> AsyncIterator[AsyncConnection]:
        import asyncpg

        async with self._lock:
            for attempt in (1, 2):
                try:
                    connection = await self._connected()
                    transaction = connection._conn.transaction(
                        isolation="serializable" if write else "repeatable_read",
                        readonly=not write,
                    )
                    await transaction.start()
                    break
                except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                    # A connection the server dropped (a restart, a failover, an idle
                    # timeout) is found here, before anything of this transaction was sent:
                    # connect again once and go on.
                    if attempt == 1 and _lost(exc):
                        await self._drop()
                        continue
                    raise self._error(exc) from exc
            try:
                yield connection
            except BaseException:
                with contextlib.suppress(Exception):
                    await transaction.rollback()
                raise
            try:
                await transaction.commit()
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                with contextlib.suppress(Exception):
                    await transaction.rollback()
                raise self._error(exc) from exc
            if write:
                self._commits += 1

    @asynccontextmanager
    async def write(self) -> AsyncIterator[aiosqlite.Connection]:
        """A write transaction: everything inside commits together or not at all."""
        try:
            async with self._transaction(write=True) as connection:
                yield cast("aiosqlite.Connection", connection)
        except Exception as exc:
            raise self._translated(exc) from exc

    @asynccontextmanager
    async def read(self) -> AsyncIterator[aiosqlite.Connection]:
        """A read transaction: every query inside sees the same committed state."""
        try:
            async with self._transaction(write=False) as connection:
                yield cast("aiosqlite.Connection", connection)
        except Exception as exc:
            raise self._translated(exc) from exc

    def _translated(self, exc: Exception) -> Exception:
        """A sqlite3-shaped error of the seam, as the SQLite store would have raised it."""
        import sqlite3

        if isinstance(exc, sqlite3.Error):
            sqlstate = getattr(exc, "sqlstate", "")
            cause = exc.__cause__ if exc.__cause__ is not None else exc
            if sqlstate in (_SERIALIZATION_FAILURE, _DEADLOCK):
                return self._error(cause)
            if isinstance(exc, sqlite3.IntegrityError):
                return StoreError(f"{self.url}: {exc}")
            return self._error(cause)
        return exc

    async def write_once(self, fn: Callable[[sqlite3.Connection, *Ts], T], *args: *Ts) -> T:
        """A write transaction running ``fn`` (in a greenlet on the loop's thread,
        :func:`~.postgres_connection.run_blocking`); run again from its start when a
        concurrent transaction of another process made it fail."""
        return await self._retried(lambda: self._once(fn, args, write=True))

    async def statement_once(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        """One statement in a transaction of its own (PostgreSQL's implicit one): one round
        trip to the server instead of four (``BEGIN``, two statements, ``COMMIT``), for a
        write that one statement can say whole (a plain move: ``game_rows.MOVE_AT_ONCE_SQL``).
        Returns its rows. Run again, like a one-hop write, when a concurrent transaction of
        another process made it fail."""
        return await self._retried(lambda: self._statement(sql, params))

    async def _retried(self, attempt_once: Callable[[], Awaitable[T]]) -> T:
        """Run a write from its start again when a concurrent transaction of another
        process made it fail. Shielded: a caller cancelled meanwhile leaves a transaction
        that ends whole (committed or rolled back), never one cut off between statements."""
        for attempt in range(_RETRIES):
            running = asyncio.ensure_future(attempt_once())
            try:
                return await asyncio.shield(running)
            except asyncio.CancelledError:
                # The caller is gone; the transaction ends whole on its own, and whatever it
                # ends with is this method's to take (asyncio would complain otherwise).
                running.add_done_callback(_ended)
                raise
            except Exception as exc:
                error = self._translated(exc)
                if not isinstance(error, ConflictError) or attempt == _RETRIES - 1:
                    raise error from exc
                await asyncio.sleep(0.005 * 2**attempt)
        raise AssertionError("unreachable")

    async def _statement(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        import asyncpg

        async with self._lock:
            for attempt in (1, 2):
                try:
                    connection = await self._connected()
                    # The seam's statement, prepared once per connection; outside a
                    # transaction block PostgreSQL commits it on its own.
                    rows = await connection.execute_fetchall(sql, params)
                    break
                except (OSError, asyncpg.InterfaceError) as exc:
                    if attempt == 1 and _lost(exc):  # found dead before it was sent
                        await self._drop()
                        continue
                    raise self._error(exc) from exc
        self._commits += 1
        return rows

    async def read_once(self, fn: Callable[[sqlite3.Connection, *Ts], T], *args: *Ts) -> T:
        try:
            return await self._once(fn, args, write=False)
        except Exception as exc:
            raise self._translated(exc) from exc

    async def _once(
        self, fn: Callable[[sqlite3.Connection, *Ts], T], args: tuple[*Ts], *, write: bool
    ) -> T:
        async with self._transaction(write=write) as connection:
            return await run_blocking(connection, fn, *args)


async def _serializable(conn: asyncpg.Connection) -> None:
    """A statement sent on its own (:meth:`PostgresDatabase.statement_once`: a plain move,
    ``game_rows.MOVE_AT_ONCE_SQL``) runs in a ``READ COMMITTED`` transaction of its own, said
    here whatever the server's default; every ``write()`` and one-hop transaction asks for
    ``SERIALIZABLE`` itself. The plain move needs no more: its ``UPDATE … WHERE id = ? AND
    version = ?`` is a compare-and-set on one row (a concurrent writer of the row waits for
    the first to commit, then finds the version moved on and changes nothing), and it reads
    nothing else. Serializable, it was refused for another process's move of another game
    (PostgreSQL's predicate locks cover whole pages, or a small table whole), a hundred
    times in five seconds with two processes (bench/processes.py), each refusal a retry."""
    await conn.execute("SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL READ COMMITTED")


def _ended(task: asyncio.Future[Any]) -> None:
    """A write whose caller was cancelled ended: take its outcome (a refusal no one waits
    for is no error), so that asyncio does not report it as never retrieved."""
    if not task.cancelled() and task.exception() is not None:
        log.debug("a write whose caller was cancelled failed", exc_info=task.exception())


def _lost(exc: BaseException) -> bool:
    """Whether ``exc`` says the connection itself is gone (not that a statement failed)."""
    import asyncpg

    if isinstance(exc, OSError | asyncpg.InterfaceError):
        return True
    sqlstate = str(getattr(exc, "sqlstate", "") or "")
    return sqlstate.startswith(("08", "57P"))  # connection exceptions; shutdown, crash
