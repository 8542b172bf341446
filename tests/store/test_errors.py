"""Damaged, unreadable, locked and full databases: a clear error naming the file, no loss."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from scopabot.engine import Preset, Rules
from scopabot.service.live import LiveGames
from scopabot.store import (
    Actor,
    DatabaseCorruptError,
    DatabaseLockedError,
    DatabaseUnreadableError,
    DiskFullError,
    Store,
)

from .helpers import check_database, game_rows, new_game, play_random

REPO_ROOT = Path(__file__).resolve().parents[2]


async def test_a_file_that_is_not_a_database(db_path: Path) -> None:
    db_path.write_bytes(b"this is a text file, not SQLite\n" * 200)
    before = db_path.read_bytes()
    with pytest.raises(DatabaseCorruptError) as caught:
        await Store.open(db_path)
    message = str(caught.value)
    assert str(db_path) in message and "scopabot backup" in message
    assert db_path.read_bytes() == before


async def test_a_damaged_database(db_path: Path) -> None:
    store = await Store.open(db_path)
    stored = await new_game(store, Rules(), seed=1)
    await store.close()
    with sqlite3.connect(db_path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size = db.execute("PRAGMA page_size").fetchone()[0]
        roots = db.execute(
            "SELECT rootpage FROM sqlite_schema WHERE name IN ('games', 'moves')"
        ).fetchall()
    data = bytearray(db_path.read_bytes())
    for (root,) in roots:  # overwrite the pages holding the games and their moves
        data[(root - 1) * size : root * size] = b"\xa5" * size
    db_path.write_bytes(bytes(data))
    with pytest.raises(DatabaseCorruptError, match=str(db_path)):
        await Store.open(db_path, check=True)
    # Without the start-up check the damage shows on the first read of those pages.
    store = await Store.open(db_path)
    with pytest.raises(DatabaseCorruptError) as caught:
        await store.games.load(stored.id)
    assert str(db_path) in str(caught.value) and "scopabot backup" in str(caught.value)
    await store.close()


@pytest.mark.parametrize("where", ["folder", "missing folder"])
async def test_a_path_that_cannot_be_a_database(tmp_path: Path, where: str) -> None:
    path = tmp_path if where == "folder" else tmp_path / "nope" / "x.db"
    with pytest.raises(DatabaseUnreadableError) as caught:
        await Store.open(path)
    assert str(path) in str(caught.value) and "folder" in str(caught.value)


# Opens a path that cannot be created, ten times in one process (each in its own event loop,
# closed right after, as bot.py's is), printing only the store's messages. Run as root it first
# gives up what lets root write anywhere, so that a folder without write permission is one for
# it as for any other user. It stays root rather than becoming `nobody`: `nobody` may be unable
# to reach the checkout, the interpreter or the temporary folder (root's home and `mktemp -d`
# folders are private), and the test must prove the same thing wherever they are. Where the
# capabilities cannot be dropped (not Linux) it becomes `nobody`, after reading everything it
# needs from the checkout: the modules imported, the migrations loaded.
_OPEN_TEN_TIMES = """
import asyncio, ctypes, os, sys
from scopabot.store import DatabaseError, Store, load_migrations

def drop_dac_override():
    # capget/capset, version 3 header; CAP_DAC_OVERRIDE is bit 1, CAP_DAC_READ_SEARCH bit 2.
    libc = ctypes.CDLL(None, use_errno=True)
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)
    data = (ctypes.c_uint32 * 6)()
    if libc.capget(header, data) != 0:
        raise OSError(ctypes.get_errno(), "capget")
    for i in (0, 1):  # effective and permitted, of capabilities 0-31
        data[i] &= ~0b110 & 0xFFFFFFFF
    if libc.capset(header, data) != 0:
        raise OSError(ctypes.get_errno(), "capset")

migrations = load_migrations()
if os.getuid() == 0:
    try:
        drop_dac_override()
    except (OSError, AttributeError):
        os.setgid(65534)
        os.setuid(65534)
for path in sys.argv[1:]:
    for _ in range(10):
        try:
            asyncio.run(Store.open(path, migrations=migrations))
        except DatabaseError as exc:
            print(exc, file=sys.stderr)
"""


def test_a_path_in_a_folder_that_cannot_be_written_gives_one_clean_message() -> None:
    # aiosqlite's worker thread, left running after a failed connect, used to report
    # "Exception in thread ... Event loop is closed" after the clean message, about half the
    # time. Two ways to fail: a folder without write permission, and a symlink into a folder
    # that does not exist (which fails even for root). Outside pytest's tmp_path, which is
    # private to its user.
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        root.chmod(0o755)
        locked = root / "locked"
        locked.mkdir(mode=0o555)
        dangling = root / "dangling.db"
        dangling.symlink_to(root / "missing" / "x.db")
        paths = [str(locked / "scopabot.db"), str(dangling)]
        try:
            done = subprocess.run(
                [sys.executable, "-c", _OPEN_TEN_TIMES, *paths],
                cwd=REPO_ROOT,
                env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
                capture_output=True,
                text=True,
                timeout=60,
            )
        finally:
            locked.chmod(0o755)
        assert done.returncode == 0, done.stderr
        lines = done.stderr.splitlines()
        assert len(lines) == 20, done.stderr
        for path, messages in ((paths[0], lines[:10]), (paths[1], lines[10:])):
            assert len(set(messages)) == 1, done.stderr
            assert messages[0].startswith(f"{path}: cannot read or write the file")
            assert "may read and write" in messages[0]
        assert not (locked / "scopabot.db").exists() and not (root / "missing").exists()


def test_bot_py_on_a_path_that_cannot_be_created_says_one_thing(tmp_path: Path) -> None:
    dangling = tmp_path / "dangling.db"
    dangling.symlink_to(tmp_path / "missing" / "x.db")
    for _ in range(3):
        done = subprocess.run(
            [sys.executable, str(REPO_ROOT / "bot.py")],
            cwd=tmp_path,  # no .env here
            env={**os.environ, "DISCORD_TOKEN": "x", "SCOPABOT_DB": str(dangling)},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 1
        assert done.stdout == ""
        (line,) = done.stderr.splitlines()
        assert f"{dangling}: cannot read or write the file" in line


async def test_a_locked_database(db_path: Path) -> None:
    store = await Store.open(db_path, busy_timeout=0.2)
    stored = await new_game(store, Rules(), seed=1)
    other = sqlite3.connect(db_path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another program holding the write lock
    move = stored.game.legal_moves()[0]
    with pytest.raises(DatabaseLockedError) as caught:
        await LiveGames.of(store).apply_move(stored.id, stored.version, move, by=Actor.user(100))
    assert str(db_path) in str(caught.value) and "another program" in str(caught.value)
    other.execute("ROLLBACK")
    other.close()
    # Once the lock is gone the same move goes through: nothing was lost or half-written.
    applied = await LiveGames.of(store).apply_move(
        stored.id, stored.version, move, by=Actor.user(100)
    )
    assert applied.version == stored.version + 1
    await store.close()


async def test_a_full_disk_rolls_the_move_back(db_path: Path) -> None:
    store = await Store.open(db_path, max_size_bytes=400_000)
    last = None
    with pytest.raises(DiskFullError) as caught:
        for seed in range(1000):
            stored = await new_game(store, Rules(preset=Preset.SCOPONE_SCIENTIFICO), seed)
            last = await play_random(store, stored, __import__("random").Random(seed))
    assert str(db_path) in str(caught.value) and "free some space" in str(caught.value)
    assert last is not None
    await store.close()
    # Every game in the file is whole: each move was stored completely or not at all.
    counts = await check_database(db_path)
    assert counts[last.id] == last.game.move_count
    assert all(v == m + 1 for v, m, _ in game_rows(db_path).values())
