"""One aiosqlite connection, one lock: the discipline every store method follows.

All statements go through :meth:`StoreBase._tx` (a write transaction, ``BEGIN IMMEDIATE``) or
:meth:`StoreBase._read` (a read transaction), both under one :class:`asyncio.Lock`, so two
coroutines never interleave statements of different transactions on the shared connection.
Other processes (a backup, a second reader) are kept apart by SQLite's own locking in WAL mode.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Self

import aiosqlite

from scopabot.engine import Game

from .errors import DatabaseCorruptError, DatabaseUnreadableError, StoreError, translate
from .migrate import Migration, migrate
from .models import RatingPolicy

_CACHE_SIZE = 512


class StoreBase:
    """The connection, its lock and the cache of live games; see :class:`Store`."""

    path: Path
    _db: aiosqlite.Connection
    _lock: asyncio.Lock
    _cache: OrderedDict[int, tuple[int, Game]]
    _rating_policy: RatingPolicy | None

    @classmethod
    async def open(
        cls,
        path: Path | str,
        *,
        rating_policy: RatingPolicy | None = None,
        synchronous: str = "NORMAL",
        busy_timeout: float = 5.0,
        max_size_bytes: int | None = None,
        check: bool = False,
        migrations: tuple[Migration, ...] | None = None,
    ) -> Self:
        """Open (creating if needed) and migrate the database at ``path``.

        With the default ``synchronous="NORMAL"`` (WAL) a committed move survives any crash,
        kill or restart of the bot; only a power cut or kernel crash may take back the last
        moves before a checkpoint (never half of one). ``"FULL"`` syncs the log at every
        commit and survives power cuts too, at the disk's fsync cost per move.
        ``max_size_bytes`` caps the file (a full cap behaves as a full disk). ``check`` reads
        the whole file first (:meth:`check`), so damage shows at start-up, not mid-game.
        """
        if synchronous.upper() not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError("synchronous must be FULL, NORMAL or EXTRA")
        path = Path(path)
        if path.is_dir():
            raise DatabaseUnreadableError(path, "this is a folder, not a database file")
        if not path.parent.is_dir():
            raise DatabaseUnreadableError(path, f"the folder {path.parent} does not exist")
        self = cls()
        self.path = path
        self._lock = asyncio.Lock()
        self._cache = OrderedDict()
        self._rating_policy = rating_policy
        try:
            self._db = await aiosqlite.connect(path, isolation_level=None)
        except sqlite3.Error as exc:
            raise translate(exc, path) from exc
        try:
            await self._configure(synchronous.upper(), busy_timeout, max_size_bytes)
            if check:
                await self.check()
            await migrate(self._db, path, migrations=migrations)
        except BaseException:
            await self._db.close()
            raise
        return self

    async def _configure(self, synchronous: str, busy_timeout: float, max_size: int | None) -> None:
        db = self._db
        try:
            # PRAGMAs take no ? parameters; every value put in them here is a checked int or
            # one of a fixed set of words.
            # busy_timeout first: switching to WAL needs a lock another process may hold.
            await db.execute("PRAGMA busy_timeout = " + str(int(busy_timeout * 1000)))
            rows = list(await db.execute_fetchall("PRAGMA journal_mode = WAL"))
            if str(rows[0][0]).lower() != "wal":
                raise StoreError(f"{self.path}: cannot switch to WAL journal mode ({rows[0][0]})")
            await db.execute("PRAGMA synchronous = " + synchronous)  # checked in open()
            await db.execute("PRAGMA foreign_keys = ON")
            if max_size is not None:
                page = next(iter(await db.execute_fetchall("PRAGMA page_size")))[0]
                await db.execute("PRAGMA max_page_count = " + str(max(1, max_size // int(page))))
            # Reading the schema makes a damaged or foreign file fail here, not mid-game.
            await db.execute_fetchall("SELECT count(*) FROM sqlite_schema")
        except sqlite3.Error as exc:
            raise translate(exc, self.path) from exc

    async def check(self) -> None:
        """Read every page (``PRAGMA quick_check``); raise DatabaseCorruptError on damage."""
        async with self._lock:
            try:
                rows = list(await self._db.execute_fetchall("PRAGMA quick_check"))
            except sqlite3.Error as exc:
                raise translate(exc, self.path) from exc
        problems = [str(r[0]) for r in rows]
        if problems != ["ok"]:
            raise DatabaseCorruptError(self.path, "damaged pages: " + "; ".join(problems[:3]))

    async def close(self) -> None:
        async with self._lock:
            with suppress(sqlite3.Error):
                await self._db.execute("PRAGMA optimize")
            await self._db.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[aiosqlite.Connection]:
        """A write transaction: everything inside commits together or not at all."""
        async with self._lock:
            db = self._db
            try:
                await db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise translate(exc, self.path) from exc
            try:
                yield db
                await db.execute("COMMIT")
            except BaseException as exc:
                if db.in_transaction:
                    # SQLite may have rolled back already (e.g. after SQLITE_FULL).
                    with suppress(sqlite3.Error):
                        await db.execute("ROLLBACK")
                if isinstance(exc, sqlite3.Error):
                    raise translate(exc, self.path) from exc
                raise

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        """A read transaction: every query inside sees the same committed state."""
        async with self._lock:
            db = self._db
            try:
                await db.execute("BEGIN")
                yield db
            except sqlite3.Error as exc:
                raise translate(exc, self.path) from exc
            finally:
                if db.in_transaction:
                    with suppress(sqlite3.Error):
                        await db.execute("COMMIT")

    def _remember(self, game_id: int, version: int, game: Game) -> None:
        self._cache[game_id] = (version, game)
        self._cache.move_to_end(game_id)
        while len(self._cache) > _CACHE_SIZE:
            self._cache.popitem(last=False)

    def _forget(self, game_id: int) -> None:
        self._cache.pop(game_id, None)
