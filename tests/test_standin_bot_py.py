"""bot.py, the real entry point, run as a child process against the stand-in."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import sys
from pathlib import Path

from tests.standin import DiscordStandIn
from tests.standin.gateway import IDENTIFY

REPO_ROOT = Path(__file__).resolve().parents[1]


async def _start(env: dict[str, str]) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        str(REPO_ROOT / "bot.py"),
        cwd=REPO_ROOT,
        env={**os.environ, **env},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )


async def test_bot_py_identifies_gets_ready_and_stops_cleanly(
    standin: DiscordStandIn, tmp_path: Path
) -> None:
    database = tmp_path / "bot.db"
    process = await _start({**standin.env(), "LOG_LEVEL": "INFO", "SCOPABOT_DB": str(database)})
    lines: list[str] = []

    async def read() -> None:
        assert process.stdout is not None
        async for line in process.stdout:
            lines.append(line.decode(errors="replace").rstrip())

    reader = asyncio.create_task(read())
    try:
        await standin.wait_for(lambda: standin.gateway.readies == 1, timeout=15)
        await standin.wait_for(
            lambda: any("Connected to the Discord gateway" in line for line in lines), timeout=5
        )
    finally:
        process.send_signal(signal.SIGTERM)
        returncode = await asyncio.wait_for(process.wait(), timeout=10)
        await reader
    identify = standin.gateway.ops_received(IDENTIFY)[0]["d"]
    assert identify["intents"] & 1  # GUILDS
    assert [r.route for r in standin.requests[:2]] == ["/users/@me", "/oauth2/applications/@me"]
    assert returncode == 0, "\n".join(lines)
    assert any("Stopped" in line for line in lines)
    # The store was opened and migrated before connecting.
    assert any(f"Database {database} ready" in line for line in lines)
    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] >= 1


async def test_bot_py_refuses_a_damaged_database_naming_it(
    standin: DiscordStandIn, tmp_path: Path
) -> None:
    database = tmp_path / "broken.db"
    database.write_bytes(b"this is not a database" * 100)
    process = await _start({**standin.env(), "SCOPABOT_DB": str(database)})
    output, _ = await asyncio.wait_for(process.communicate(), timeout=15)
    assert process.returncode == 1
    assert str(database) in output.decode()
    assert standin.gateway.readies == 0


async def test_bot_py_without_a_token_explains_and_exits_2() -> None:
    process = await _start({"DISCORD_TOKEN": ""})
    output, _ = await asyncio.wait_for(process.communicate(), timeout=15)
    text = output.decode()
    assert process.returncode == 2
    assert "DISCORD_TOKEN" in text and "Reset Token" in text
    assert "applications.commands" in text and ".env" in text
