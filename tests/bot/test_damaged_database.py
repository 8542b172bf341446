"""The real ``bot.py`` on a damaged or empty database file: refused, named, left untouched."""

from __future__ import annotations

import asyncio
import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.standin import DiscordStandIn
from tests.store.damage import garbage_in_the_middle, played_database

from .helpers import REPO_ROOT, world_with_threads


async def _run_bot_py(standin: DiscordStandIn, database: Path) -> tuple[int | None, str]:
    """``bot.py`` on ``database``; its exit code (None if it was still running after 30 s,
    i.e. it started on the file) and everything it printed."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        str(REPO_ROOT / "bot.py"),
        cwd=REPO_ROOT,
        env={**os.environ, **standin.env(), "SCOPABOT_DB": str(database), "LOG_LEVEL": "INFO"},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    try:
        out, _ = await asyncio.wait_for(process.communicate(), timeout=30)
    except TimeoutError:
        process.kill()
        out, _ = await process.communicate()
        return None, out.decode(errors="replace")
    return process.returncode, out.decode(errors="replace")


def _digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()}


async def test_a_damaged_database_is_refused_and_left_untouched(tmp_path: Path) -> None:
    database = tmp_path / "scopabot.db"
    await played_database(database)
    garbage_in_the_middle(database)
    before = _digest(tmp_path)
    async with DiscordStandIn(world_with_threads()) as standin:
        code, output = await _run_bot_py(standin, database)
        assert standin.gateway.readies == 0, "the bot connected on a damaged database"
    assert code == 1, output
    assert f"{database}: database is damaged" in output
    assert "scopabot backup" in output and "copy the backup to this path" in output
    assert "Traceback" not in output
    assert _digest(tmp_path) == before  # not a byte changed, no journal left beside it


async def test_an_empty_database_file_is_refused_not_made_anew(tmp_path: Path) -> None:
    database = tmp_path / "scopabot.db"
    database.touch()  # a failed restore, a volume mounted empty
    async with DiscordStandIn(world_with_threads()) as standin:
        code, output = await _run_bot_py(standin, database)
        assert standin.gateway.readies == 0
    assert code == 1, output
    assert f"{database}: the file is empty (0 bytes)" in output
    assert "scopabot backup" in output and "delete the empty file" in output
    assert "Traceback" not in output
    assert database.stat().st_size == 0
    assert [p.name for p in tmp_path.iterdir()] == ["scopabot.db"]


# bot.py run by root without what lets root write any file (CAP_DAC_OVERRIDE), as
# tests/store/test_errors.py does, so that a read-only file is one for it; where that cannot
# be dropped it becomes `nobody`, after importing everything it needs.
_WITHOUT_OVERRIDE = """
import ctypes, os, sys
sys.path.insert(0, os.getcwd())
import bot
import discord
import scopabot.bot.client, scopabot.bot.clock, scopabot.bot.sync

def drop_dac_override():
    libc = ctypes.CDLL(None, use_errno=True)
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)
    data = (ctypes.c_uint32 * 6)()
    if libc.capget(header, data) != 0:
        raise OSError(ctypes.get_errno(), "capget")
    for i in (0, 1):
        data[i] &= ~0b110 & 0xFFFFFFFF
    if libc.capset(header, data) != 0:
        raise OSError(ctypes.get_errno(), "capset")

try:
    drop_dac_override()
except (OSError, AttributeError):
    os.setgid(65534)
    os.setuid(65534)
sys.argv = ["bot.py"]
sys.exit(bot.main())
"""


def test_a_read_only_database_is_refused_at_start() -> None:
    """Chosen: the bot does not start on a file it may read but not write (every move would
    be refused at its write); it says so, and how to fix it."""
    if os.getuid() != 0:
        pytest.skip("needs root, to give up its right to write any file")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        folder.chmod(0o777)  # the folder is writable: only the file is read-only
        database = folder / "scopabot.db"
        asyncio.run(played_database(database, games=3))
        database.chmod(0o444)
        before = database.read_bytes()
        done = subprocess.run(
            [sys.executable, "-c", _WITHOUT_OVERRIDE],
            cwd=REPO_ROOT,
            env={
                **os.environ,
                "DISCORD_TOKEN": "x",
                "SCOPABOT_DB": str(database),
                "SCOPABOT_DISCORD_API_BASE": "http://127.0.0.1:9/api/v10",
            },
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 1, done.stderr
        assert f"{database}: the file is read-only" in done.stderr, done.stderr
        assert "write permission" in done.stderr and "Traceback" not in done.stderr
        assert database.read_bytes() == before
