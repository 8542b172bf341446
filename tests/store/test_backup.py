from __future__ import annotations

import os
import signal
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from scopabot.cli.backup import main as backup_main
from scopabot.service.admin import destination_for
from scopabot.store import DatabaseCorruptError, DatabaseUnreadableError, backup
from scopabot.store.backup import backup_sync

from .helpers import check_database
from .test_crash import start_writer, wait_ready


async def test_backup_while_another_process_writes(tmp_path: Path) -> None:
    live = tmp_path / "live.db"
    proc = start_writer(live, 1)
    try:
        wait_ready(proc)
        copies = []
        for n in range(4):
            result = await backup(live, tmp_path / f"copy{n}.db")
            assert result.schema_version > 0 and result.bytes > 0
            copies.append(result.destination)
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    moves = []
    for copy in copies:
        with sqlite3.connect(copy) as db:
            assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        counts = await check_database(copy)  # every game whole, every record replays
        moves.append(sum(counts.values()))
    assert moves == sorted(moves) and moves[-1] > moves[0]  # taken while moves kept coming
    assert not list(tmp_path.glob(".*partial"))


def test_backup_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    live = tmp_path / "live.db"
    with sqlite3.connect(live) as db:
        db.execute("CREATE TABLE t (x)")
        db.execute("INSERT INTO t VALUES (42)")
    folder = tmp_path / "backups"
    # A path ending in / is a folder, created if needed; each copy gets a dated name.
    assert backup_main(["backup", str(live), f"{folder}/"]) == 0
    (copy,) = folder.glob("live-*.db")
    with sqlite3.connect(copy) as db:
        assert db.execute("SELECT x FROM t").fetchone() == (42,)
    assert "copied" in capsys.readouterr().out
    assert backup_main(["backup", str(live), str(tmp_path / "plain.db")]) == 0
    assert (tmp_path / "plain.db").is_file()
    missing_folder = tmp_path / "never"
    assert backup_main(["backup", str(tmp_path / "missing.db"), f"{missing_folder}/"]) == 1
    assert "missing.db" in capsys.readouterr().err
    assert not missing_folder.exists()


def test_dated_names_keep_earlier_copies(tmp_path: Path) -> None:
    when = datetime(2026, 11, 29, 3, 0, 0, tzinfo=UTC)
    target = destination_for(Path("scopabot.db"), f"{tmp_path}/", now=when)
    assert target == tmp_path / "scopabot-20261129-030000.db"
    assert destination_for(Path("x.db"), str(tmp_path / "y.db")) == tmp_path / "y.db"


async def test_backup_of_nothing_is_refused(tmp_path: Path) -> None:
    with pytest.raises(DatabaseUnreadableError, match="missing"):
        await backup(tmp_path / "missing.db", tmp_path / "copy.db")
    assert not (tmp_path / "missing.db").exists()


def test_backup_of_a_truncated_source_names_the_source(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    live = tmp_path / "live.db"
    with sqlite3.connect(live) as db:
        db.execute("CREATE TABLE t (x)")
        db.execute("INSERT INTO t VALUES (42)")
    live.write_bytes(live.read_bytes()[:40])  # a few dozen bytes left of it
    before = live.read_bytes()
    folder = tmp_path / "backups"
    assert backup_main(["backup", str(live), f"{folder}/"]) == 1
    message = capsys.readouterr().err
    assert message.startswith(f"backup failed: {live}: database is damaged")
    assert "partial" not in message and "no copy was made" in message
    assert f"keep {live} for inspection" in message and "restore" in message
    assert not folder.exists()  # nothing at the destination, not even its folder
    with pytest.raises(DatabaseCorruptError) as caught:
        backup_sync(live, tmp_path / "copy.db")
    assert caught.value.path == live
    assert live.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["live.db"]
