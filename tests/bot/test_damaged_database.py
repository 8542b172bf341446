"""The real ``bot.py`` on a damaged or empty database file: refused, named, left untouched."""

from __future__ import annotations

import asyncio
import hashlib
import os
import sys
from pathlib import Path

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
