"""One numbered series of migrations for SQLite and PostgreSQL, checked on a real server.

The tests that need a server take ``postgres_url`` (tests/conftest.py): without
``SCOPABOT_TEST_DATABASE_URL`` they are skipped; ``tests/postgres.py`` starts a throwaway one.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from scopabot.store import (
    DatabaseTooNewError,
    Migration,
    MigrationError,
    NotScopaBotDatabaseError,
    Store,
    StoreError,
    load_migrations,
)
from scopabot.store import postgres as pg

from .schema import postgres_schema, sqlite_schema
from .test_migrations import _DERIVED, _full_database, _latest, _tables_at

LATEST = len(load_migrations())
# Tables in an order where a row's foreign keys point to rows already there.
_PARENTS_FIRST = [
    "lobbies",
    "tables",
    "lobby_seats",
    "table_seats",
    "games",
    "game_seats",
    "match_results",
    "scorekeeper_sessions",
    "score_sheets",
    "tournaments",
    "tournament_entries",
    "tournament_rounds",
]


def _parents_first(tables: list[str]) -> list[str]:
    return sorted(tables, key=lambda t: _PARENTS_FIRST.index(t) if t in _PARENTS_FIRST else 99)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_a_postgresql_variant_takes_the_place_of_its_file(tmp_path: Path) -> None:
    _write(tmp_path / "0001_first.sql", "-- Reason: first\nCREATE TABLE a (x INTEGER);\n")
    _write(tmp_path / "0002_second.sql", "-- Reason: second\nCREATE TABLE b (x REAL);\n")
    _write(
        tmp_path / "postgresql" / "0002_second.sql",
        "-- Reason: second, in PostgreSQL\nCREATE TABLE b (x DOUBLE PRECISION);\n",
    )
    sqlite = load_migrations(tmp_path)
    postgres = load_migrations(tmp_path, dialect="postgresql")
    assert [m.sql for m in sqlite] == [
        "-- Reason: first\nCREATE TABLE a (x INTEGER);\n",
        "-- Reason: second\nCREATE TABLE b (x REAL);\n",
    ]
    assert postgres[0] == sqlite[0]  # the same file where the SQL agrees
    assert postgres[1].reason == "second, in PostgreSQL" and "DOUBLE" in postgres[1].sql
    with pytest.raises(ValueError):
        load_migrations(tmp_path, dialect="oracle")


def test_a_variant_without_its_file_in_the_series_is_refused(tmp_path: Path) -> None:
    _write(tmp_path / "0001_first.sql", "-- Reason: first\nCREATE TABLE a (x INTEGER);\n")
    _write(tmp_path / "postgresql" / "0002_second.sql", "-- Reason: x\nCREATE TABLE b (x);\n")
    with pytest.raises(StoreError, match=r"there is no 0002_second\.sql"):
        load_migrations(tmp_path, dialect="postgresql")
    assert len(load_migrations(tmp_path)) == 1  # SQLite's series ignores the folder
    (tmp_path / "postgresql" / "0002_second.sql").unlink()
    _write(tmp_path / "postgresql" / "0001_first.sql", "CREATE TABLE a (x BIGINT);\n")
    with pytest.raises(StoreError, match="Reason"):
        load_migrations(tmp_path, dialect="postgresql")


def test_both_series_have_the_same_numbers_and_names() -> None:
    sqlite = load_migrations()
    postgres = load_migrations(dialect="postgresql")
    assert [m.name for m in postgres] == [m.name for m in sqlite]
    assert all(m.reason for m in postgres)
    # Every variant says why it differs, right after the reason it shares.
    for ours, theirs in zip(postgres, sqlite, strict=True):
        if ours.sql != theirs.sql:
            assert f"PostgreSQL's variant of migrations/{ours.name}" in ours.sql


async def _migrated(url: str, **options: object) -> int:
    conn = await pg.connect(url)
    try:
        return await pg.migrate(conn, pg.redacted(url), **options)  # type: ignore[arg-type]
    finally:
        await conn.close()


async def test_a_new_postgresql_database_gets_the_same_schema_as_sqlite(
    postgres_url: str, tmp_path: Path
) -> None:
    path = tmp_path / "scopabot.db"
    store = await Store.open(path)
    await store.close()
    assert await _migrated(postgres_url) == LATEST
    conn = await asyncpg.connect(postgres_url)
    try:
        theirs = await postgres_schema(conn, skip=(pg.VERSION_TABLE,))
    finally:
        await conn.close()
    ours = sqlite_schema(path)
    assert sorted(theirs) == sorted(ours)
    for table in ours:
        for part in ("columns", "foreign keys", "unique", "indexes"):
            assert theirs[table][part] == ours[table][part], (table, part)


async def test_the_version_is_kept_in_the_database(postgres_url: str) -> None:
    assert await _migrated(postgres_url, target=3) == 3
    conn = await asyncpg.connect(postgres_url)
    try:
        assert await pg.schema_version(conn) == 3
        assert await conn.fetchval("SELECT count(*) FROM scopabot_schema") == 1
    finally:
        await conn.close()
    assert await _migrated(postgres_url) == LATEST
    assert await _migrated(postgres_url) == LATEST  # nothing left: running again is harmless
    conn = await asyncpg.connect(postgres_url)
    try:
        assert await pg.schema_version(conn) == LATEST
        with pytest.raises(asyncpg.CheckViolationError):  # one row, never two
            await conn.execute("INSERT INTO scopabot_schema (one_row, version) VALUES (false, 1)")
    finally:
        await conn.close()


async def test_two_processes_migrating_at_once_apply_each_migration_once(
    postgres_url: str,
) -> None:
    assert await asyncio.gather(*(_migrated(postgres_url) for _ in range(4))) == [LATEST] * 4
    conn = await asyncpg.connect(postgres_url)
    try:
        assert await pg.schema_version(conn) == LATEST
        assert await conn.fetchval("SELECT count(*) FROM games") == 0
    finally:
        await conn.close()


async def test_a_newer_or_foreign_postgresql_database_is_refused_untouched(
    postgres_url: str,
) -> None:
    conn = await asyncpg.connect(postgres_url)
    try:
        await conn.execute("CREATE TABLE contacts (name TEXT, phone TEXT)")
        with pytest.raises(NotScopaBotDatabaseError) as caught:
            await pg.migrate(conn, "the test's database")
        assert "contacts" in str(caught.value) and "untouched" in str(caught.value)
        assert await conn.fetchval("SELECT to_regclass('games')") is None
        await conn.execute("DROP TABLE contacts")
        await pg.migrate(conn, "the test's database")
        await conn.execute("UPDATE scopabot_schema SET version = $1", LATEST + 1)
        with pytest.raises(DatabaseTooNewError, match="upgrade ScopaBot"):
            await pg.migrate(conn, "the test's database")
        assert await pg.schema_version(conn) == LATEST + 1
    finally:
        await conn.close()


async def test_a_failing_postgresql_migration_is_rolled_back_whole(postgres_url: str) -> None:
    good = load_migrations(dialect="postgresql")[:2]
    bad = Migration(
        3, "0003_bad.sql", "bad", "CREATE TABLE half_done (x BIGINT);\nSELECT no_such_column;\n"
    )
    conn = await asyncpg.connect(postgres_url)
    try:
        with pytest.raises(MigrationError, match=r"0003_bad\.sql failed") as caught:
            await pg.migrate(conn, "the test's database", migrations=(*good, bad))
        assert "rolled back" in str(caught.value)
        assert await pg.schema_version(conn) == 2
        assert await conn.fetchval("SELECT to_regclass('half_done')") is None
    finally:
        await conn.close()


async def test_an_unreachable_server_says_what_to_check() -> None:
    with pytest.raises(StoreError, match="SCOPABOT_DATABASE_URL") as caught:
        await pg.connect("postgresql://scopa:secret@127.0.0.1:1/scopabot")
    assert "secret" not in str(caught.value) and "127.0.0.1:1" in str(caught.value)


def test_a_url_is_shown_without_its_password() -> None:
    assert pg.redacted("postgresql://scopa:s3cret@db.example:5433/bot") == (
        "postgresql://scopa:***@db.example:5433/bot"
    )
    assert pg.redacted("postgresql://db/bot") == "postgresql://db/bot"
    assert pg.is_postgres_url("postgres://x/y") and pg.is_postgres_url("postgresql://x/y")
    assert not pg.is_postgres_url("scopabot.db") and not pg.is_postgres_url(Path("a.db"))


@pytest.mark.parametrize("version", range(1, LATEST))
async def test_postgresql_upgrades_from_every_earlier_version_as_sqlite_does(
    version: int, postgres_url: str, tmp_path: Path
) -> None:
    """The rows of a SQLite database, put into a PostgreSQL database at an older version,
    upgrade to what SQLite holds at the latest: kept, and backfilled the same way."""
    full = tmp_path / "full.db"
    await _full_database(full)
    tables = _tables_at(version, tmp_path)
    assert await _migrated(postgres_url, target=version) == version
    conn = await asyncpg.connect(postgres_url)
    columns: dict[str, list[str]] = {}
    try:
        with sqlite3.connect(full) as db:
            for table in _parents_first(tables):
                statement = await conn.prepare(f"SELECT * FROM {table} LIMIT 0")
                old = [a.name for a in statement.get_attributes()]
                latest = db.execute(f"SELECT * FROM {_latest(table)} LIMIT 0").description
                names = [c[0] for c in latest][: len(old)]
                columns[_latest(table)] = names
                rows = db.execute(f"SELECT {', '.join(names)} FROM {_latest(table)}").fetchall()
                await conn.copy_records_to_table(table, records=rows, columns=old)
    finally:
        await conn.close()
    assert await _migrated(postgres_url) == LATEST
    conn = await asyncpg.connect(postgres_url)
    try:
        with sqlite3.connect(full) as db:
            for table, names in columns.items():
                sql = f"SELECT {', '.join(names)} FROM {table}"
                theirs = sorted(map(tuple, await conn.fetch(sql)), key=repr)
                assert theirs == sorted(db.execute(sql).fetchall(), key=repr), table
            for table, sql in _DERIVED.items():
                if table not in tables and "games" in tables:
                    theirs = sorted(map(tuple, await conn.fetch(sql)), key=repr)
                    ours = sorted(db.execute(sql).fetchall(), key=repr)
                    if table == "match_results":  # JSON text: PostgreSQL puts a space after ,
                        theirs = [(*r[:5], r[5].replace(" ", ""), *r[6:]) for r in theirs]
                    assert theirs == ours and ours, table
    finally:
        await conn.close()


async def test_every_integer_column_is_a_bigint(migrated_postgres_url: str) -> None:
    """SQLite's INTEGER holds 64 bits; so does every integer column on PostgreSQL (0013 made
    0011's two INTEGER columns BIGINT: a Discord id or a count never overflows on one database
    and not on the other)."""
    conn = await asyncpg.connect(migrated_postgres_url)
    try:
        narrow = await conn.fetch(
            "SELECT table_name, column_name, data_type FROM information_schema.columns"
            " WHERE table_schema = 'public' AND data_type IN ('integer', 'smallint')"
        )
    finally:
        await conn.close()
    assert [tuple(r) for r in narrow] == []
