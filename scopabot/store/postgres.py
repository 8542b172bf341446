"""PostgreSQL through asyncpg: its URLs, its connections, and its migrations.

``SCOPABOT_DATABASE_URL=postgresql://user:password@host:5432/scopabot`` puts the store on a
PostgreSQL server instead of the SQLite file, for a bot that outgrows one machine. The driver
is asyncpg (the ``postgres`` extra: ``pip install 'scopabot[postgres]'``): made for asyncio
from the start, with its own connection pool, prepared statements cached per connection, and
the binary protocol; it is what large discord.py bots run on. psycopg 3's async pool would
bring DB-API's shape (``%s`` placeholders, cursors) closer to sqlite3's, but the store's SQL
is written once with its own placeholders anyway (docs/postgresql.md says more).

The schema comes from the same numbered series as SQLite's (:func:`.migrate.load_migrations`
with ``dialect="postgresql"``). Its version is kept in the database itself, in the one row of
``scopabot_schema``, written in the same transaction as the migration it records: PostgreSQL
changes its schema transactionally, so a failed or interrupted migration leaves the database
at the last whole version. The migrations are applied under an advisory lock, so two bot
processes starting together apply each migration once.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Final
from urllib.parse import urlsplit, urlunsplit

from .errors import (
    DatabaseTooNewError,
    DatabaseUnreachableError,
    MigrationError,
    NotScopaBotDatabaseError,
)
from .migrate import Migration, load_migrations

if TYPE_CHECKING:
    import asyncpg

SCHEMES: Final = ("postgresql", "postgres")
VERSION_TABLE: Final = "scopabot_schema"
# pg_advisory_xact_lock's key for "a migration is being applied": any fixed 64-bit number
# that no other program on the same database is likely to pick ("SCOPA" in ASCII).
_MIGRATION_LOCK: Final = 0x53434F5041


def is_postgres_url(target: object) -> bool:
    """Whether ``target`` (a path or a URL) names a PostgreSQL database."""
    return isinstance(target, str) and target.split("://", 1)[0].lower() in SCHEMES


def redacted(url: str) -> str:
    """``url`` with its password hidden: what logs and error messages show."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if ":" in host:  # an IPv6 address
        host = f"[{host}]"
    netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def require_driver(url: str = "postgresql://") -> None:
    """Refuse with the install command when asyncpg (the ``postgres`` extra) is missing."""
    try:
        import asyncpg  # noqa: F401
        import greenlet  # noqa: F401
    except ImportError as exc:  # pragma: no cover - the extra is missing
        raise DatabaseUnreachableError(
            redacted(url),
            f"this names a PostgreSQL database, but its driver ({exc.name}) is not installed",
            "pip install 'scopabot[postgres]' (or -e '.[postgres]' in a checkout), or leave "
            "SCOPABOT_DATABASE_URL out to use the SQLite file",
        ) from exc


async def connect(url: str) -> asyncpg.Connection:
    """One connection to the database at ``url``; a refusal says what to check."""
    require_driver(url)
    import asyncpg

    try:
        return await asyncpg.connect(url)
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        raise DatabaseUnreachableError(redacted(url), f"cannot connect ({exc})") from exc


async def schema_version(conn: asyncpg.Connection) -> int:
    """The version recorded in the database; 0 for a database ScopaBot never migrated."""
    if not await conn.fetchval("SELECT to_regclass($1) IS NOT NULL", VERSION_TABLE):
        return 0
    version = await conn.fetchval(f"SELECT version FROM {VERSION_TABLE}")
    return int(version or 0)


async def _foreign_tables(conn: asyncpg.Connection) -> list[str]:
    rows = await conn.fetch(
        "SELECT table_name FROM information_schema.tables"
        " WHERE table_schema = current_schema() AND table_name <> $1"
        " ORDER BY table_name LIMIT 6",
        VERSION_TABLE,
    )
    return [str(r[0]) for r in rows]


async def check_version(conn: asyncpg.Connection, where: str, *, latest: int) -> int:
    """The database's schema version; refuse one written by a newer ScopaBot, or one holding
    another program's tables (only reads: a refused database is left as it was)."""
    current = await schema_version(conn)
    if current > latest:
        raise DatabaseTooNewError(
            where, f"schema version {current}, but this ScopaBot knows versions up to {latest}"
        )
    if current == 0:
        foreign = await _foreign_tables(conn)
        if foreign:
            shown = ", ".join(foreign[:5]) + (", …" if len(foreign) > 5 else "")
            raise NotScopaBotDatabaseError(
                where, f"not a ScopaBot database (schema version 0, holding {shown})"
            )
    return current


async def migrate(
    conn: asyncpg.Connection,
    where: str,
    *,
    migrations: tuple[Migration, ...] | None = None,
    target: int | None = None,
) -> int:
    """Bring the database up to ``target`` (default: the latest); return the version reached."""
    import asyncpg

    migrations = load_migrations(dialect="postgresql") if migrations is None else migrations
    latest = len(migrations)
    target = latest if target is None else target
    current = await check_version(conn, where, latest=latest)
    if current >= target:
        return current
    # A session lock, taken before the migrations' transactions begin: each of them then
    # starts after the previous holder's commit and sees its tables (a lock taken inside a
    # transaction would leave that transaction with the catalog it saw before waiting).
    await conn.execute("SELECT pg_advisory_lock($1)", _MIGRATION_LOCK)
    try:
        for migration in migrations[current:target]:
            try:
                async with conn.transaction():
                    # Another process may have applied it between our reading the version
                    # and taking the lock: read it again under the lock.
                    if await schema_version(conn) >= migration.version:
                        continue
                    await conn.execute(
                        f"CREATE TABLE IF NOT EXISTS {VERSION_TABLE} ("
                        " one_row BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one_row),"
                        " version BIGINT NOT NULL)"
                    )
                    await conn.execute(
                        f"INSERT INTO {VERSION_TABLE} (version) VALUES (0)"
                        " ON CONFLICT (one_row) DO NOTHING"
                    )
                    # No parameters: the simple protocol, which runs a script of statements.
                    await conn.execute(migration.sql)
                    await conn.execute(
                        f"UPDATE {VERSION_TABLE} SET version = $1", migration.version
                    )
            except asyncpg.PostgresError as exc:
                raise MigrationError(where, f"{migration.name} failed: {exc}") from exc
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", _MIGRATION_LOCK)
    return max(current, target)


def describe(target: Path | str) -> str:
    """How errors and logs name a database: a file's path, or a URL without its password."""
    return redacted(target) if isinstance(target, str) and is_postgres_url(target) else str(target)
