from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import aiosqlite
import pytest

from scopabot.engine import Preset, Rules
from scopabot.store import (
    DatabaseTooNewError,
    GuildSettings,
    Migration,
    MigrationError,
    NotScopaBotDatabaseError,
    SeatHolder,
    Store,
    StoreError,
    load_migrations,
    migrate,
)

from .helpers import check_database, new_game, play_random

LATEST = len(load_migrations())


def test_migration_files_are_numbered_and_give_a_reason(tmp_path: Path) -> None:
    migrations = load_migrations()
    assert [m.version for m in migrations] == list(range(1, LATEST + 1))
    assert all(m.reason for m in migrations)
    (tmp_path / "0001_first.sql").write_text("-- Reason: first\nCREATE TABLE a (x);\n")
    (tmp_path / "0003_third.sql").write_text("-- Reason: third\nCREATE TABLE c (x);\n")
    with pytest.raises(StoreError, match="0002 is missing"):
        load_migrations(tmp_path)
    (tmp_path / "0003_third.sql").unlink()
    (tmp_path / "0001_again.sql").write_text("-- Reason: a branch's own 1\nCREATE TABLE d (x);\n")
    with pytest.raises(StoreError, match="two migrations are numbered 0001"):
        load_migrations(tmp_path)
    (tmp_path / "0001_again.sql").unlink()
    (tmp_path / "0002_second.sql").write_text("CREATE TABLE b (x);\n")
    with pytest.raises(StoreError, match="Reason"):
        load_migrations(tmp_path)


async def test_a_new_database_reaches_the_latest_version(db_path: Path) -> None:
    store = await Store.open(db_path)
    await store.close()
    with sqlite3.connect(db_path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == LATEST
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    again = await Store.open(db_path)  # nothing left to apply: opening twice is harmless
    await again.close()


async def _full_database(path: Path) -> None:
    """A database at the latest version with finished and unfinished games of every kind."""
    store = await Store.open(path)
    rng = random.Random(9)
    for n, preset in enumerate([Preset.SCOPA, Preset.SCOPONE_SCIENTIFICO, Preset.SCOPA]):
        rules = Rules(preset=preset)
        await play_random(store, await new_game(store, rules, n, guild_id=n % 2 or None), rng)
        await play_random(store, await new_game(store, rules, 10 + n), rng, 25)
    await store.settings.save_guild(GuildSettings(1, "en", {"target": 21}, 55))
    table = await store.tables.create(host_id=100, rules=Rules(), guild_id=1)
    await store.tables.take_seat(table.id, 0, SeatHolder.human(100))
    sheet = await store.score_sheets.open(owner_id=5, sides=["noi", "voi"])
    await store.score_sheets.add_score(sheet.id, 0, 3)
    await store.close()


def _tables_at(version: int, tmp: Path) -> list[str]:
    path = tmp / f"schema{version}.db"
    with sqlite3.connect(path, isolation_level=None) as db:
        for migration in load_migrations()[:version]:
            db.executescript(migration.sql)
        names = db.execute(
            "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name"
        ).fetchall()
    return [n[0] for n in names]


def _dump(path: Path, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as db:
        return sorted(db.execute(sql).fetchall(), key=repr)


# Tables a later migration renamed (0004: one word per idea): old name -> name at LATEST.
_RENAMED = {
    "lobbies": "tables",
    "lobby_seats": "table_seats",
    "scorekeeper_sessions": "score_sheets",
    "scorekeeper_entries": "score_entries",
}


def _latest(table: str) -> str:
    return _RENAMED.get(table, table)


_DERIVED = {
    "match_results": "SELECT game_id, guild_id, category, winner_side, reason, totals, deals,"
    " finished_at FROM match_results",
    "match_players": "SELECT r.game_id, p.seat, p.side, p.user_id, p.ai_level, p.won"
    " FROM match_players p JOIN match_results r ON r.id = p.match_id",
    "player_stats": "SELECT guild_id, category, user_id, games, wins, deals, scope, settebelli,"
    " primiere, points FROM player_stats",
}


@pytest.mark.parametrize("version", range(LATEST))
async def test_upgrading_from_every_earlier_version_keeps_the_data(
    version: int, tmp_path: Path
) -> None:
    full = tmp_path / "full.db"
    await _full_database(full)
    old = tmp_path / f"v{version}.db"
    # The old database: the schema of `version`, holding every row that schema can hold.
    async with aiosqlite.connect(old, isolation_level=None) as db:
        assert await migrate(db, old, target=version) == version
    tables = _tables_at(version, tmp_path)
    columns: dict[str, str] = {}  # latest table -> its columns that `version` had, in order
    with sqlite3.connect(old, isolation_level=None) as db:
        db.execute("ATTACH DATABASE ? AS full", (str(full),))
        for table in tables:
            # Later migrations only add columns at the end (or rename them in place), so the
            # old schema's columns are the first ones of the latest table.
            width = len(db.execute("SELECT * FROM main." + table + " LIMIT 0").description)
            latest = db.execute("SELECT * FROM full." + _latest(table) + " LIMIT 0").description
            columns[_latest(table)] = ", ".join(c[0] for c in latest[:width])
            db.execute(
                "INSERT INTO main."
                + table
                + " SELECT "
                + columns[_latest(table)]
                + " FROM full."
                + _latest(table)
            )
        db.execute("DETACH DATABASE full")
        assert db.execute("PRAGMA user_version").fetchone()[0] == version
    store = await Store.open(old)  # the upgrade
    await store.close()
    with sqlite3.connect(old) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == LATEST
    for table in map(_latest, tables):
        sql = "SELECT " + columns[table] + " FROM " + table
        assert _dump(old, sql) == _dump(full, sql)
    # Tables added after `version` are backfilled from the games, as the code would have.
    for table, sql in _DERIVED.items():
        if table not in tables and "games" in tables:
            assert _dump(old, sql) == _dump(full, sql), table
            assert _dump(old, sql), table
    counts = await check_database(old)
    assert len(counts) == (6 if "games" in tables else 0)


async def test_a_database_newer_than_the_code_is_refused_untouched(db_path: Path) -> None:
    store = await Store.open(db_path)
    await store.close()
    with sqlite3.connect(db_path) as db:
        db.execute("PRAGMA user_version = " + str(LATEST + 1))
    before = db_path.read_bytes()
    with pytest.raises(DatabaseTooNewError) as caught:
        await Store.open(db_path)
    assert str(db_path) in str(caught.value) and "upgrade ScopaBot" in str(caught.value)
    assert db_path.read_bytes() == before


async def test_a_newer_database_in_rollback_journal_mode_keeps_its_journal_mode(
    db_path: Path,
) -> None:
    # What `scopabot backup` writes: journal_mode=DELETE. Switching it to WAL, even to then
    # refuse it, would change the file's header and leave -wal/-shm beside it.
    store = await Store.open(db_path)
    await store.close()
    with sqlite3.connect(db_path, isolation_level=None) as db:
        assert db.execute("PRAGMA journal_mode = DELETE").fetchone()[0] == "delete"
        db.execute("PRAGMA user_version = " + str(LATEST + 1))
    before = db_path.read_bytes()
    with pytest.raises(DatabaseTooNewError) as caught:
        await Store.open(db_path)
    assert str(db_path) in str(caught.value) and "left untouched" in str(caught.value)
    assert db_path.read_bytes() == before
    assert sorted(p.name for p in db_path.parent.iterdir()) == [db_path.name]  # no -wal, -shm
    with sqlite3.connect(db_path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"


async def test_another_programs_database_is_refused_untouched(db_path: Path) -> None:
    with sqlite3.connect(db_path, isolation_level=None) as db:
        db.execute("CREATE TABLE contacts (name TEXT, phone TEXT)")
        db.execute("INSERT INTO contacts VALUES ('Giulia', '555')")
    before = db_path.read_bytes()
    with pytest.raises(NotScopaBotDatabaseError) as caught:
        await Store.open(db_path)
    message = str(caught.value)
    assert str(db_path) in message and "contacts" in message and "untouched" in message
    async with aiosqlite.connect(db_path, isolation_level=None) as db:  # the runner alone too
        with pytest.raises(NotScopaBotDatabaseError):
            await migrate(db, db_path)
    assert db_path.read_bytes() == before
    assert sorted(p.name for p in db_path.parent.iterdir()) == [db_path.name]
    with sqlite3.connect(db_path) as db:
        assert db.execute("SELECT name FROM sqlite_schema").fetchall() == [("contacts",)]
        assert db.execute("PRAGMA user_version").fetchone()[0] == 0
    # An empty file is not another program's: it becomes a ScopaBot database.
    empty = db_path.with_name("empty.db")
    empty.touch()
    store = await Store.open(empty)
    await store.close()


async def test_a_failing_migration_is_rolled_back_whole(db_path: Path) -> None:
    broken = Migration(
        LATEST + 1,
        "9999_broken.sql",
        "test",
        "-- Reason: test\nCREATE TABLE half_done (x);\nINSERT INTO no_such_table VALUES (1);\n",
    )
    with pytest.raises(MigrationError, match="9999_broken"):
        await Store.open(db_path, migrations=(*load_migrations(), broken))
    with sqlite3.connect(db_path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == LATEST
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_schema")}
    assert "half_done" not in names and "games" in names
