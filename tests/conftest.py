"""Shared fixtures.

``standin`` starts the Discord stand-in (see ``tests/standin``) and, when the test is over,
fails it if the bot left behind anything Discord would have refused. Options for the stand-in
come from ``@pytest.mark.standin(response_deadline=0.3, ...)``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.standin import DiscordStandIn
from tests.standin_sample_bot import SampleBot


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "standin(**options): keyword arguments for the DiscordStandIn of this test"
    )


@pytest.fixture
async def standin(request: pytest.FixtureRequest) -> AsyncIterator[DiscordStandIn]:
    marker = request.node.get_closest_marker("standin")
    options = dict(marker.kwargs) if marker else {}
    async with DiscordStandIn(**options) as server:
        yield server
    server.check()


@pytest.fixture
async def sample_bot(standin: DiscordStandIn) -> AsyncIterator[SampleBot]:
    """The stand-in's sample bot, connected, ready and with its commands synced."""
    async with standin.connected(SampleBot()) as bot:
        await bot.tree.sync()
        yield bot
