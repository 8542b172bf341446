"""The migration runner: numbered SQL files applied in order, the version kept in the file.

``migrations/NNNN_reason.sql`` starts with a ``-- Reason:`` comment; file *n* takes the
schema from version *n-1* to *n*. Each is applied in one transaction together with
``PRAGMA user_version = n``, so a crash or an error leaves the database at the last whole
version. A database newer than the code, or another program's, is refused before anything is
written.

One numbered series serves both databases: where PostgreSQL needs other SQL than SQLite, its
variant ``migrations/postgresql/NNNN_reason.sql`` (the same name, its own ``-- Reason:``) takes
that file's place; every other file is applied to both as it is. PostgreSQL's runner is in
:mod:`.postgres`.
"""

from __future__ import annotations

import re
import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import aiosqlite

from .errors import (
    DatabaseTooNewError,
    MigrationError,
    NotScopaBotDatabaseError,
    StoreError,
    translate,
)


def _migrations_dir() -> Path:
    """``migrations/`` beside the package in a checkout (and an editable install); an
    installed wheel carries the same files under ``<prefix>/share/scopabot/migrations``."""
    checkout = Path(__file__).resolve().parents[2] / "migrations"
    if checkout.is_dir():
        return checkout
    return Path(sys.prefix) / "share" / "scopabot" / "migrations"


MIGRATIONS_DIR: Final = _migrations_dir()
_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    reason: str
    sql: str


DIALECTS: Final = ("sqlite", "postgresql")


def load_migrations(
    directory: Path = MIGRATIONS_DIR, dialect: str = "sqlite"
) -> tuple[Migration, ...]:
    """Read and check the migration files: numbered 1, 2, 3… without gaps, each with a reason.

    For ``dialect="postgresql"`` a file of ``directory/postgresql/`` replaces the file of the
    same name; a variant without such a file is refused, so the two series cannot drift apart.
    """
    if dialect not in DIALECTS:
        raise ValueError(f"dialect must be one of {DIALECTS}")
    found = [_read(path) for path in sorted(directory.glob("*.sql"))]
    for expected, migration in enumerate(found, start=1):
        if migration.version < expected:  # two files of one number (branches merged)
            raise StoreError(f"{directory}: two migrations are numbered {migration.version:04d}")
        if migration.version != expected:
            raise StoreError(f"{directory}: migration {expected:04d} is missing")
    variants = directory / dialect
    if dialect != "sqlite" and variants.is_dir():
        names = {m.name: m.version for m in found}
        for path in sorted(variants.glob("*.sql")):
            if path.name not in names:
                raise StoreError(
                    f"{path}: a {dialect} variant replaces the migration of the same name in "
                    f"{directory}, and there is no {path.name} there"
                )
            found[names[path.name] - 1] = _read(path)
    return tuple(found)


def _read(path: Path) -> Migration:
    match = _NAME.match(path.name)
    if match is None:
        raise StoreError(f"{path}: migration files are named NNNN_reason.sql")
    sql = path.read_text(encoding="utf-8")
    first = sql.lstrip().splitlines()[0] if sql.strip() else ""
    if not first.startswith("-- Reason:") or not first.removeprefix("-- Reason:").strip():
        raise StoreError(f"{path}: a migration starts with a '-- Reason: …' line")
    return Migration(int(match[1]), path.name, first.removeprefix("-- Reason:").strip(), sql)


async def schema_version(db: aiosqlite.Connection) -> int:
    rows = list(await db.execute_fetchall("PRAGMA user_version"))
    return int(rows[0][0])


async def check_version(db: aiosqlite.Connection, path: Path | str, *, latest: int) -> int:
    """The file's schema version, read before anything in the file is changed; refuse a file
    written by a newer ScopaBot, or one that holds another program's tables.

    Only reads: run first, before switching to WAL, so that a refused file keeps its bytes and
    its journal mode. An empty file (or a new one) has version 0 and nothing in its schema.
    """
    try:
        current = await schema_version(db)
        foreign = [] if current else await _schema_names(db)
    except sqlite3.Error as exc:
        raise translate(exc, path) from exc
    if current > latest:
        raise DatabaseTooNewError(
            path, f"schema version {current}, but this ScopaBot knows versions up to {latest}"
        )
    if foreign:
        shown = ", ".join(foreign[:5]) + (", …" if len(foreign) > 5 else "")
        raise NotScopaBotDatabaseError(
            path, f"not a ScopaBot database (schema version 0, holding {shown})"
        )
    return current


async def _schema_names(db: aiosqlite.Connection) -> list[str]:
    rows = await db.execute_fetchall(
        "SELECT type || ' ' || name FROM sqlite_schema ORDER BY rowid LIMIT 6"
    )
    return [str(r[0]) for r in rows]


async def migrate(
    db: aiosqlite.Connection,
    path: Path | str,
    *,
    migrations: tuple[Migration, ...] | None = None,
    target: int | None = None,
) -> int:
    """Bring the database up to ``target`` (default: the latest); return the version reached.

    ``db`` must be in autocommit mode (``isolation_level=None``) and not in a transaction.
    """
    migrations = load_migrations() if migrations is None else migrations
    latest = len(migrations)
    target = latest if target is None else target
    current = await check_version(db, path, latest=latest)
    for migration in migrations[current:target]:
        await _apply(db, path, migration)
    return max(current, target)


async def _apply(db: aiosqlite.Connection, path: Path | str, migration: Migration) -> None:
    # Foreign keys are checked at the end instead of per statement, so that a migration may
    # rebuild a table (SQLite's documented 12-step ALTER); the pragma is a no-op inside a
    # transaction, hence set before BEGIN.
    try:
        await db.execute("PRAGMA foreign_keys = OFF")
        await db.execute("BEGIN IMMEDIATE")
    except sqlite3.Error as exc:
        raise translate(exc, path) from exc
    try:
        # Another process (a second bot, `scopabot backup`, a test) may have applied this
        # migration between our reading the version and taking the write lock: read it again
        # under the lock and skip what is already there.
        if await schema_version(db) >= migration.version:
            await db.execute("ROLLBACK")
            return
        for statement in _statements(migration.sql):
            await db.execute(statement)
        problems = list(await db.execute_fetchall("PRAGMA foreign_key_check"))
        if problems:
            raise MigrationError(path, f"{migration.name} breaks foreign keys: {problems[:5]}")
        # user_version lives in the file header and is written inside this transaction.
        await db.execute("PRAGMA user_version = " + str(int(migration.version)))
        await db.execute("COMMIT")
    except BaseException as exc:
        if db.in_transaction:
            await db.execute("ROLLBACK")
        if isinstance(exc, sqlite3.Error):
            error = translate(exc, path)
            if type(error) is StoreError:
                error = MigrationError(path, f"{migration.name} failed: {exc}")
            raise error from exc
        raise
    finally:
        await db.execute("PRAGMA foreign_keys = ON")


def _statements(sql: str) -> list[str]:
    """Split a script into statements (``executescript`` would commit on its own)."""
    out: list[str] = []
    pending = ""
    for line in sql.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            if pending.strip():
                out.append(pending.strip())
            pending = ""
    if pending.strip() and not all(
        ln.strip().startswith("--") or not ln.strip() for ln in pending.splitlines()
    ):
        raise StoreError(f"unterminated statement in migration: {pending.strip()[:80]!r}")
    return out
