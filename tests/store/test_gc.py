"""gc.freeze() is the process's decision: bot.py takes it at start-up, the store does not.

Each check runs in a fresh interpreter, as a freeze is for the life of a process.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def _freeze_count_after(code: str, tmp_path: Path) -> int:
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "gc.db")],
        cwd=REPO_ROOT,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return int(done.stdout.split()[-1])


def test_opening_the_store_leaves_the_collector_alone(tmp_path: Path) -> None:
    code = """
import asyncio, gc, sys
from scopabot.store import Store

async def main():
    store = await Store.open(sys.argv[1])
    await store.close()

asyncio.run(main())
print(gc.get_freeze_count())
"""
    assert _freeze_count_after(code, tmp_path) == 0


def test_bot_py_freezes_the_start_up_objects_before_it_connects(tmp_path: Path) -> None:
    # bot.py's own run(), up to the moment it would log in to Discord (refused here).
    code = """
import asyncio, gc, sys
import discord
import bot
from scopabot.bot.client import ScopaBot
from scopabot.bot.config import Config

seen = []

async def start(self, token, *, reconnect=True):
    seen.append(gc.get_freeze_count())
    raise discord.LoginFailure("refused")

ScopaBot.start = start
assert asyncio.run(bot.run(Config(token="x", db_path=sys.argv[1]))) == 1
print(seen[0])
"""
    assert _freeze_count_after(code, tmp_path) > 1000
    assert (tmp_path / "gc.db").is_file()  # the store was opened first
