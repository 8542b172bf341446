"""A SQLite database copied whole into a new PostgreSQL database (``scopabot move-db``).

Everything a server has is copied — games with their records, tables and seats, results,
ratings and statistics, score sheets, settings, tournaments — in one PostgreSQL transaction:
the target ends with all of it or with none of it. The source file is opened read-only (no
byte of it changes, not even its journal mode) and read in one read transaction, so a copy
taken while a bot still writes is still one consistent moment; the counts of every table are
compared in the target before the commit.

The target must be empty of games (a new database, or one ScopaBot only migrated): copying
into a database already in use would mix two servers' histories, and ids would collide.
The ids are kept as they were (a game is the same game in both); each table's id sequence is
then set past the largest, so new rows continue the numbering.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import (
    DatabaseError,
    DatabaseTooNewError,
    DatabaseUnreadableError,
    NotScopaBotDatabaseError,
    StoreError,
)
from .migrate import load_migrations
from .postgres import VERSION_TABLE, connect, migrate, redacted

_BATCH = 5_000  # rows per COPY


class TargetNotEmptyError(DatabaseError):
    advice = (
        "move-db copies into a new, empty PostgreSQL database only (CREATE DATABASE …); "
        "nothing was written"
    )


class SourceTooOldError(DatabaseError):
    advice = (
        "start this ScopaBot once on the file (it brings the schema up to date), stop it, "
        "and run move-db again; the file was left untouched"
    )


@dataclass(frozen=True, slots=True)
class TransferResult:
    """What was copied: every table's rows, as counted in both databases."""

    source: Path
    target: str  # the URL without its password
    schema_version: int
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def rows(self) -> int:
        return sum(self.counts.values())


def _open_read_only(path: Path) -> sqlite3.Connection:
    if not path.is_file():
        raise DatabaseUnreadableError(path, "there is no database file here")
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        conn.execute("BEGIN")  # one read transaction: one consistent moment
        conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()
    except sqlite3.Error as exc:
        raise DatabaseUnreadableError(path, f"cannot read it ({exc})") from exc
    return conn


def _tables_in_order(conn: sqlite3.Connection) -> tuple[list[str], dict[str, list[str]]]:
    """The tables, each after the tables its rows point to; and per table the columns that
    point to a table copied after it (a cycle: filled in once both are there)."""
    tables = [
        r[0]
        for r in conn.execute(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            " ORDER BY name"
        )
    ]
    parents: dict[str, dict[str, str]] = {}  # table -> column -> the table it points to
    for table in tables:
        parents[table] = {
            row[3]: row[2]
            for row in conn.execute(f'PRAGMA foreign_key_list("{table}")')
            if row[2] != table
        }
    nullable = {
        table: {r[1] for r in conn.execute(f'PRAGMA table_info("{table}")') if not r[3]}
        for table in tables
    }
    ordered: list[str] = []
    late: dict[str, list[str]] = {}
    pending = list(tables)
    while pending:
        ready = [t for t in pending if all(p in ordered for p in parents[t].values())]
        if not ready:
            # A cycle (tables.rematch_of and games.table_id): copy first a table whose columns
            # pointing forward may be empty, and fill them once the rows they name are there.
            def forward(table: str) -> list[str]:
                return [c for c, p in parents[table].items() if p not in ordered]

            breakable = [t for t in pending if all(c in nullable[t] for c in forward(t))]
            if not breakable:
                raise StoreError(f"the tables {', '.join(pending)} point at each other")
            first = min(breakable, key=lambda t: len(forward(t)))
            late[first] = forward(first)
            ready = [first]
        for table in ready:
            ordered.append(table)
            pending.remove(table)
    return ordered, late


async def copy_to_postgresql(
    source: Path | str,
    url: str,
    *,
    progress: Callable[[str, int], None] | None = None,
) -> TransferResult:
    """Copy the SQLite database at ``source`` into the empty PostgreSQL database at ``url``
    (migrated first, if new); see the module's text for what is promised."""
    import asyncpg

    source = Path(source)
    where = redacted(url)
    sqlite_series = load_migrations()
    latest = len(sqlite_series)
    conn = _open_read_only(source)
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if version > latest:
            raise DatabaseTooNewError(
                source, f"schema version {version}, but this ScopaBot knows up to {latest}"
            )
        if version == 0:
            raise NotScopaBotDatabaseError(source, "not a ScopaBot database (schema version 0)")
        if version < latest:
            raise SourceTooOldError(
                source, f"schema version {version}; this ScopaBot's is {latest}"
            )
        order, late = _tables_in_order(conn)
        target = await connect(url)
        try:
            await migrate(target, where)
            present = {
                r[0]
                for r in await target.fetch(
                    "SELECT table_name FROM information_schema.tables"
                    " WHERE table_schema = current_schema() AND table_name <> $1",
                    VERSION_TABLE,
                )
            }
            missing = [t for t in order if t not in present]
            if missing:
                raise StoreError(f"{where}: the PostgreSQL schema has no {', '.join(missing)}")
            used = [
                t for t in order if await target.fetchval(f'SELECT EXISTS (SELECT 1 FROM "{t}")')
            ]
            if used:
                raise TargetNotEmptyError(
                    where, f"the database already holds rows in {', '.join(used[:5])}"
                )
            counts: dict[str, int] = {}
            try:
                async with target.transaction():
                    for table in order:
                        counts[table] = await _copy_table(
                            conn, target, table, late.get(table, []), progress
                        )
                    for table, columns in late.items():
                        await _fill_late(conn, target, table, columns)
                    for table in order:
                        theirs = await target.fetchval(f'SELECT count(*) FROM "{table}"')
                        if theirs != counts[table]:
                            raise StoreError(
                                f"{where}: {table} has {theirs} rows after the copy, the file "
                                f"{counts[table]}; nothing was written"
                            )
                    await _continue_numbering(target, order)
            except asyncpg.PostgresError as exc:
                raise StoreError(
                    f"{where}: the copy was refused ({type(exc).__name__}: {exc}); nothing was "
                    "written to PostgreSQL and the file is untouched"
                ) from exc
        finally:
            await target.close()
    finally:
        conn.close()
    return TransferResult(source, where, version, counts)


def _columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in conn.execute(f'PRAGMA table_info("{table}")')]


async def _copy_table(
    conn: sqlite3.Connection,
    target: Any,
    table: str,
    late: list[str],
    progress: Callable[[str, int], None] | None,
) -> int:
    columns = _columns(conn, table)
    chosen = ", ".join(f'"{c}"' if c not in late else "NULL" for c in columns)
    cursor = conn.execute(f'SELECT {chosen} FROM "{table}"')
    copied = 0
    while True:
        rows = cursor.fetchmany(_BATCH)
        if not rows:
            break
        try:
            await target.copy_records_to_table(table, records=rows, columns=columns)
        except (TypeError, ValueError, OverflowError) as exc:
            # asyncpg refuses before sending: SQLite kept a value its column's type cannot
            # hold (text in an INTEGER column, say).
            raise StoreError(
                f"{table}: a row holds a value PostgreSQL's column cannot take ({exc}); nothing "
                "was written to PostgreSQL and the file is untouched"
            ) from exc
        copied += len(rows)
        if progress is not None:
            progress(table, copied)
    counted = int(conn.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0])
    if counted != copied:  # pragma: no cover - one read transaction: cannot differ
        raise StoreError(f"{table}: read {copied} rows, counted {counted}")
    return copied


async def _fill_late(conn: sqlite3.Connection, target: Any, table: str, columns: list[str]) -> None:
    """The columns left out of a table's copy (they pointed to rows not yet there)."""
    keys = [
        r[1]
        for r in sorted(conn.execute(f'PRAGMA table_info("{table}")'), key=lambda r: r[5])
        if r[5]
    ]
    if not keys:
        raise StoreError(f"{table} has no primary key to fill {', '.join(columns)} by")
    names = ", ".join(f'"{c}"' for c in [*columns, *keys])
    sets = ", ".join(f'"{c}" = ${i}' for i, c in enumerate(columns, start=1))
    match = " AND ".join(f'"{k}" = ${i}' for i, k in enumerate(keys, start=len(columns) + 1))
    where = " OR ".join(f'"{c}" IS NOT NULL' for c in columns)
    rows = conn.execute(f'SELECT {names} FROM "{table}" WHERE {where}').fetchall()
    if rows:
        await target.executemany(f'UPDATE "{table}" SET {sets} WHERE {match}', rows)


async def _continue_numbering(target: Any, tables: list[str]) -> None:
    """Each identity column's sequence past the largest id copied."""
    for table in tables:
        rows = await target.fetch(
            "SELECT column_name FROM information_schema.columns WHERE table_schema ="
            " current_schema() AND table_name = $1 AND is_identity = 'YES'",
            table,
        )
        for row in rows:
            column = row[0]
            await target.execute(
                f"SELECT setval(pg_get_serial_sequence('\"{table}\"', '{column}'),"
                f' coalesce((SELECT max("{column}") FROM "{table}"), 0) + 1, false)'
            )
