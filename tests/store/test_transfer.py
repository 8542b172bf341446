"""``scopabot move-db``'s copy: a SQLite database into a new PostgreSQL one, on a real server."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import asyncpg
import pytest

from scopabot.store import StoreError
from scopabot.store.transfer import (
    SourceTooOldError,
    TargetNotEmptyError,
    copy_to_postgresql,
)

from .test_migrations import _full_database


def _add_a_tournament_and_a_rematch(path: Path) -> None:
    """Rows _full_database has none of: a tournament with its round and pairing, and a table
    that is a game's rematch (tables and games point at each other: a cycle to copy)."""
    # Closed here: the last connection to close writes the log back into the file.
    with closing(sqlite3.connect(path)) as db, db:
        game = db.execute("SELECT min(id) FROM games").fetchone()[0]
        db.execute(
            "INSERT INTO tables (guild_id, host_id, rules, status, created_at, updated_at,"
            " rematch_of) VALUES (1, 100, '{}', 'open', 5, 5, ?)",
            (game,),
        )
        db.execute(
            "INSERT INTO tournaments (guild_id, channel_id, organiser_id, name, format, preset,"
            " players, options, pace, on_timeout, level, round_seconds, seeding, seed, status,"
            " created_at, updated_at) VALUES (1, 2, 3, 'Coppa', 'swiss', 'scopa', 2, '{}', '{}',"
            " 'computer', 'normal', 3600, 'draw', 7, 'playing', 1, 1)"
        )
        tournament = db.execute("SELECT max(id) FROM tournaments").fetchone()[0]
        for user in (10, 11):
            db.execute(
                "INSERT INTO tournament_entries (tournament_id, user_id, joined_at)"
                " VALUES (?, ?, 1)",
                (tournament, user),
            )
            entry = db.execute("SELECT max(id) FROM tournament_entries").fetchone()[0]
            db.execute(
                "INSERT INTO tournament_people (tournament_id, user_id, entry_id) VALUES (?, ?, ?)",
                (tournament, user, entry),
            )
        db.execute(
            "INSERT INTO tournament_rounds (tournament_id, round, stage, started_at, deadline_at)"
            " VALUES (?, 1, 'league', 1, 2)",
            (tournament,),
        )
        db.execute(
            "INSERT INTO tournament_pairings (tournament_id, round, slot, entry_a, entry_b)"
            " VALUES (?, 1, 0, (SELECT min(id) FROM tournament_entries),"
            " (SELECT max(id) FROM tournament_entries))",
            (tournament,),
        )


def _rows(path: Path) -> dict[str, list[tuple[object, ...]]]:
    with sqlite3.connect(path) as db:
        tables = [
            r[0]
            for r in db.execute(
                "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        return {t: sorted(db.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in tables}


async def _pg_rows(url: str, tables: list[str]) -> dict[str, list[tuple[object, ...]]]:
    conn = await asyncpg.connect(url)
    try:
        return {
            t: sorted((tuple(r) for r in await conn.fetch(f"SELECT * FROM {t}")), key=repr)
            for t in tables
        }
    finally:
        await conn.close()


async def test_every_row_is_copied_and_the_file_is_untouched(
    postgres_url: str, tmp_path: Path
) -> None:
    source = tmp_path / "scopabot.db"
    await _full_database(source)
    _add_a_tournament_and_a_rematch(source)
    before = source.read_bytes()
    files = sorted(p.name for p in tmp_path.iterdir())
    ours = _rows(source)
    seen: list[str] = []

    result = await copy_to_postgresql(source, postgres_url, progress=lambda t, n: seen.append(t))

    assert source.read_bytes() == before
    # Reading a WAL file, even read-only, goes through its -wal and -shm: they may be there
    # now, with nothing written to the log.
    assert (
        set(files)
        <= {p.name for p in tmp_path.iterdir()}
        <= {*files, "scopabot.db-wal", "scopabot.db-shm"}
    )
    wal = tmp_path / "scopabot.db-wal"
    assert not wal.exists() or wal.stat().st_size == 0
    assert result.counts == {t: len(rows) for t, rows in ours.items()}
    assert result.rows == sum(len(r) for r in ours.values()) > 100
    for table in ("games", "moves", "shuffles", "match_results", "score_entries", "tournaments"):
        assert result.counts[table] > 0, table
    assert "guild_settings" in seen
    theirs = await _pg_rows(postgres_url, list(ours))
    for table, rows in ours.items():
        assert theirs[table] == rows, table
    # New rows continue each table's numbering after the copied ids.
    conn = await asyncpg.connect(postgres_url)
    try:
        new = await conn.fetchval(
            "INSERT INTO tables (host_id, rules, status, created_at, updated_at)"
            " VALUES (1, '{}', 'open', 1, 1) RETURNING id"
        )
        assert new == max(r[0] for r in ours["tables"]) + 1
    finally:
        await conn.close()


async def test_a_database_already_in_use_is_refused(postgres_url: str, tmp_path: Path) -> None:
    source = tmp_path / "scopabot.db"
    await _full_database(source)
    await copy_to_postgresql(source, postgres_url)
    with pytest.raises(TargetNotEmptyError, match="already holds rows"):
        await copy_to_postgresql(source, postgres_url)


async def test_a_refused_row_leaves_postgresql_empty(postgres_url: str, tmp_path: Path) -> None:
    source = tmp_path / "scopabot.db"
    await _full_database(source)
    with sqlite3.connect(source) as db:  # SQLite keeps text in an INTEGER column; PostgreSQL not
        db.execute("UPDATE moves SET at = 'yesterday' WHERE ply = 3")
    with pytest.raises(StoreError, match="nothing was written"):
        await copy_to_postgresql(source, postgres_url)
    conn = await asyncpg.connect(postgres_url)
    try:
        assert await conn.fetchval("SELECT count(*) FROM games") == 0
        assert await conn.fetchval("SELECT count(*) FROM guild_settings") == 0
    finally:
        await conn.close()


async def test_a_file_of_an_older_schema_or_none_is_refused_untouched(
    postgres_url: str, tmp_path: Path
) -> None:
    old = tmp_path / "old.db"
    with sqlite3.connect(old) as db:
        db.execute("CREATE TABLE guild_settings (guild_id INTEGER PRIMARY KEY)")
        db.execute("PRAGMA user_version = 3")
    before = old.read_bytes()
    with pytest.raises(SourceTooOldError, match="start this ScopaBot once"):
        await copy_to_postgresql(old, postgres_url)
    assert old.read_bytes() == before
    with pytest.raises(StoreError, match="no database file"):
        await copy_to_postgresql(tmp_path / "missing.db", postgres_url)
    assert not (tmp_path / "missing.db").exists()


async def test_the_command_copies_and_says_what_it_copied(
    postgres_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import asyncio

    from scopabot.cli.main import main

    source = tmp_path / "scopabot.db"
    await _full_database(source)
    code = await asyncio.to_thread(main, ["move-db", "--from", str(source), "--to", postgres_url])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "rows copied" in out.out and "unchanged" in out.out and "games" in out.out
    code = await asyncio.to_thread(main, ["move-db", "--from", str(source), "--to", postgres_url])
    assert code == 1 and "already holds rows" in capsys.readouterr().err


def test_the_command_wants_a_postgresql_url(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from scopabot.cli.main import main

    assert main(["move-db", "--from", str(tmp_path / "a.db"), "--to", "mysql://x/y"]) == 2
    assert "postgresql://" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["backup", "check"])
def test_backup_and_check_send_a_postgresql_database_to_its_own_tools(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from scopabot.cli.main import main

    args = [command, "postgresql://scopa:pw@db/scopabot"] + (
        ["out/"] if command == "backup" else []
    )
    with pytest.raises(SystemExit) as exit_:
        main(args)
    assert exit_.value.code == 2
    assert "pg_dump" in capsys.readouterr().err
