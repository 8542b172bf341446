"""Fixtures for driving the real bot end to end through the stand-in for Discord."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.standin import DiscordStandIn

from .helpers import BotProcess, unanswered, world_with_threads


@pytest.fixture
async def threaded() -> AsyncIterator[DiscordStandIn]:
    """The stand-in whose server lets the bot open threads, checked at the end like
    ``standin``: no violation, and every interaction answered in time."""
    async with DiscordStandIn(world_with_threads()) as server:
        yield server
    server.check()
    assert not unanswered(server), "interactions left unanswered"


@pytest.fixture
async def bot_py(threaded: DiscordStandIn, tmp_path: Path) -> AsyncIterator[BotProcess]:
    """``bot.py`` running against ``threaded`` on a fresh database."""
    bot = BotProcess(threaded, tmp_path / "bot.db")
    await bot.start()
    try:
        yield bot
    finally:
        code = await bot.stop()
        assert code == 0, bot.output()
        assert not bot.errors(), bot.output()
