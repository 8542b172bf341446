"""bot.py, the real entry point, run as a child process against the stand-in."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import sys
from pathlib import Path

import pytest
from aiohttp import web

from tests.standin import DiscordStandIn
from tests.standin.gateway import IDENTIFY
from tests.standin.world import World

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
    # The command that works in the README's virtualenv, not a bare `python bot.py`.
    assert "`.venv/bin/python bot.py`" in text and "run `python bot.py`" not in text


# What stops it at start: a line or two naming the cause and the remedy, no traceback -------


def _errors(text: str) -> list[str]:
    """The lines a person must read: stderr's plain lines and the log's ERROR lines."""
    return [
        line
        for line in text.splitlines()
        if line.strip() and (" ERROR " in line or not line[:4].isdigit())
    ]


async def test_bot_py_without_network_says_so_in_two_lines_and_exits_1(tmp_path: Path) -> None:
    # Port 9 (discard) on the loopback refuses the connection, as a machine whose network is
    # not up yet does; a name under .invalid never resolves, as with DNS down at boot.
    for base in ("http://127.0.0.1:9/api/v10", "http://scopabot-test.invalid/api/v10"):
        process = await _start(
            {
                "DISCORD_TOKEN": "a-token",
                "SCOPABOT_DISCORD_API_BASE": base,
                "SCOPABOT_DB": str(tmp_path / "bot.db"),
            }
        )
        output, _ = await asyncio.wait_for(process.communicate(), timeout=30)
        text = output.decode()
        assert process.returncode == 1, text
        assert "Traceback" not in text
        errors = _errors(text)
        assert len(errors) == 2, text
        assert f"Cannot reach Discord at {base}" in errors[0]
        assert "network and DNS" in errors[1]


async def test_bot_py_with_discord_down_says_so_in_two_lines_and_exits_1(tmp_path: Path) -> None:
    """A Discord outage (a 503 at login) is not this machine's fault, and the lines say so."""

    async def unavailable(request: web.Request) -> web.Response:
        return web.json_response({"message": "Service Unavailable", "code": 0}, status=503)

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", unavailable)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    base = f"http://127.0.0.1:{port}/api/v10"
    try:
        process = await _start(
            {
                "DISCORD_TOKEN": "a-token",
                "SCOPABOT_DISCORD_API_BASE": base,
                "SCOPABOT_DB": str(tmp_path / "bot.db"),
            }
        )
        output, _ = await asyncio.wait_for(process.communicate(), timeout=30)
    finally:
        await runner.cleanup()
    text = output.decode()
    assert process.returncode == 1, text
    assert "Traceback" not in text
    errors = _errors(text)
    assert len(errors) == 2, text
    assert f"Discord answered 503 at {base}" in errors[0]
    assert "start the bot again in a few minutes" in errors[1]


async def test_bot_py_refuses_a_bad_log_level_or_pause_in_one_line(tmp_path: Path) -> None:
    for name, value in (("LOG_LEVEL", "loud"), ("SCOPABOT_COMPUTER_PAUSE", "soon")):
        process = await _start(
            {"DISCORD_TOKEN": "a-token", name: value, "SCOPABOT_DB": str(tmp_path / "x.db")}
        )
        output, _ = await asyncio.wait_for(process.communicate(), timeout=15)
        text = output.decode()
        assert process.returncode == 2, text
        assert text.strip().count("\n") == 0 and "Traceback" not in text, text
        assert f"{name}='{value}'" in text
        assert ("DEBUG, INFO, WARNING or ERROR" if name == "LOG_LEVEL" else "seconds") in text
    assert not (tmp_path / "x.db").exists()  # refused before anything is opened


async def test_bot_py_refuses_a_bad_number_of_picture_workers_in_one_line(tmp_path: Path) -> None:
    process = await _start(
        {
            "DISCORD_TOKEN": "a-token",
            "SCOPABOT_PICTURE_WORKERS": "many",
            "SCOPABOT_DB": str(tmp_path / "x.db"),
        }
    )
    output, _ = await asyncio.wait_for(process.communicate(), timeout=15)
    text = output.decode()
    assert process.returncode == 2, text
    assert text.strip().count("\n") == 0 and "Traceback" not in text, text
    assert "SCOPABOT_PICTURE_WORKERS='many'" in text and "processes" in text
    assert not (tmp_path / "x.db").exists()


def _bot_py_in(folder: Path) -> Path:
    """A copy of bot.py in ``folder``: its own .env and relative database live there."""
    folder.mkdir(parents=True, exist_ok=True)
    copy = folder / "bot.py"
    copy.write_text((REPO_ROOT / "bot.py").read_text(encoding="utf-8"), encoding="utf-8")
    return copy


async def _run_copy(copy: Path, env: dict[str, str], *, cwd: Path) -> asyncio.subprocess.Process:
    clean = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "SCOPABOT_DB")}
    return await asyncio.create_subprocess_exec(
        sys.executable,
        str(copy),
        cwd=cwd,
        env={**clean, **env},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )


async def test_bot_py_says_when_env_cannot_be_read(tmp_path: Path) -> None:
    copy = _bot_py_in(tmp_path / "app")
    env_file = copy.parent / ".env"
    for make, why in (
        (lambda: env_file.mkdir(), "it is not a file"),
        (lambda: env_file.write_bytes(b"DISCORD_TOKEN=\xff\xfe\n"), "not UTF-8 text"),
    ):
        make()
        process = await _run_copy(copy, {}, cwd=tmp_path)
        output, _ = await asyncio.wait_for(process.communicate(), timeout=15)
        text = output.decode()
        assert process.returncode == 2, text
        assert "Traceback" not in text
        lines = text.strip().splitlines()
        assert lines[0] == f"Cannot read {env_file}: {why}.", text
        assert len(lines) == 2 and "readable by the user running the bot" in lines[1]
        if env_file.is_dir():
            env_file.rmdir()
        else:
            env_file.unlink()
    if os.geteuid() != 0:  # root reads whatever the mode says
        env_file.write_text("DISCORD_TOKEN=x\n", encoding="utf-8")
        env_file.chmod(0)
        process = await _run_copy(copy, {}, cwd=tmp_path)
        output, _ = await asyncio.wait_for(process.communicate(), timeout=15)
        assert process.returncode == 2
        assert f"Cannot read {env_file}: Permission denied." in output.decode()


@pytest.mark.standin(world=World())  # a bot in no server yet
async def test_bot_py_keeps_a_relative_database_next_to_itself_and_logs_the_invite(
    standin: DiscordStandIn, tmp_path: Path
) -> None:
    """Started from another folder (a service without WorkingDirectory=), the same database
    opens: a relative SCOPABOT_DB is taken from bot.py's folder, where .env is read too."""
    copy = _bot_py_in(tmp_path / "app")
    (copy.parent / ".env").write_text("SCOPABOT_DB=games.db\n", encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in standin.env().items()}
    process = await _run_copy(copy, {**env, "LOG_LEVEL": "INFO"}, cwd=elsewhere)
    lines: list[str] = []

    async def read() -> None:
        assert process.stdout is not None
        async for line in process.stdout:
            lines.append(line.decode(errors="replace").rstrip())

    reader = asyncio.create_task(read())
    try:
        await standin.wait_for(lambda: standin.gateway.readies == 1, timeout=15)
        for _ in range(100):  # the log line follows READY within a few event-loop turns
            if any("in no server yet" in line for line in lines):
                break
            await asyncio.sleep(0.05)
    finally:
        process.send_signal(signal.SIGTERM)
        returncode = await asyncio.wait_for(process.wait(), timeout=10)
        await reader
    text = "\n".join(lines)
    assert returncode == 0, text
    database = copy.parent / "games.db"
    assert f"Database {database} ready" in text
    assert database.exists() and list(elsewhere.iterdir()) == []
    app_id = standin.world.application_id
    invite = (
        f"https://discord.com/oauth2/authorize?client_id={app_id}"
        "&scope=bot+applications.commands&permissions=309237746688"
    )
    assert f"invite it with {invite}" in text
    # ScopaBot has no voice: discord.py's warnings about voice libraries are not shown.
    assert "voice" not in text.lower() and "WARNING" not in text, text
    assert "waiting for 1 messages" not in text and "1 interaction handlers" not in text


async def test_bot_py_runs_on_the_postgresql_database_it_is_given(
    standin: DiscordStandIn, tmp_path: Path, postgres_url: str
) -> None:
    import asyncpg

    from scopabot.store import load_migrations

    env = {
        **standin.env(),
        "LOG_LEVEL": "INFO",
        "SCOPABOT_DB": str(tmp_path / "unused.db"),
        "SCOPABOT_DATABASE_URL": postgres_url,
    }
    process = await _start(env)
    lines: list[str] = []

    async def read() -> None:
        assert process.stdout is not None
        async for line in process.stdout:
            lines.append(line.decode(errors="replace").rstrip())

    reader = asyncio.create_task(read())
    try:
        await standin.wait_for(lambda: standin.gateway.readies == 1, timeout=20)
    finally:
        process.send_signal(signal.SIGTERM)
        returncode = await asyncio.wait_for(process.wait(), timeout=10)
        await reader
    assert returncode == 0, "\n".join(lines)
    assert any(f"Database {postgres_url} ready" in line for line in lines), "\n".join(lines)
    assert not (tmp_path / "unused.db").exists()  # the file is not made beside it
    conn = await asyncpg.connect(postgres_url)
    try:
        version = await conn.fetchval("SELECT version FROM scopabot_schema")
    finally:
        await conn.close()
    assert version == len(load_migrations())


async def test_bot_py_says_an_unreachable_postgresql_server_is_one_and_exits_1(
    standin: DiscordStandIn,
) -> None:
    url = "postgresql://scopa:hunter2@127.0.0.1:1/scopabot"
    process = await _start({**standin.env(), "SCOPABOT_DATABASE_URL": url})
    output, _ = await asyncio.wait_for(process.communicate(), timeout=20)
    text = output.decode()
    assert process.returncode == 1, text
    assert "SCOPABOT_DATABASE_URL" in text and "127.0.0.1:1" in text
    assert "hunter2" not in text  # the password never reaches the log
    assert "Traceback" not in text
    assert standin.gateway.readies == 0
