"""Rate-limit emulation: 429s discord.py honours, and headers it paces itself by."""

from __future__ import annotations

import time

import aiohttp

from tests.standin import DiscordStandIn
from tests.standin.sample_bot import SampleBot

MESSAGES = "/channels/{channel_id}/messages"


async def test_a_429_is_waited_out_and_retried(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    standin.rate_limits.inject(retry_after=0.1, route=MESSAGES)
    channel = sample_bot.get_channel(standin.channel("tavolo").id)
    started = time.monotonic()
    await channel.send("dopo l'attesa")  # type: ignore[union-attr]
    assert time.monotonic() - started >= 0.1
    statuses = [r.status for r in standin.requests if r.route == MESSAGES]
    assert statuses == [429, 200]
    assert [m.content for m in standin.timeline("tavolo", as_user="bob")] == ["dopo l'attesa"]


async def test_429_body_and_headers_are_discords(standin: DiscordStandIn) -> None:
    standin.rate_limits.inject(retry_after=0.25, is_global=True)
    headers = {"Authorization": f"Bot {standin.world.token}"}
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{standin.api_base}/users/@me", headers=headers) as response:
            assert response.status == 429
            assert response.headers["Via"]
            assert response.headers["X-RateLimit-Global"] == "true"
            body = await response.json()
        assert body == {
            "message": "You are being rate limited.",
            "retry_after": 0.25,
            "global": True,
        }
        async with session.get(f"{standin.api_base}/users/@me", headers=headers) as response:
            assert response.status == 429  # the global limit holds for every route


async def test_buckets_pace_discord_py_without_429s(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    standin.rate_limits.enabled = True
    standin.rate_limits.limit, standin.rate_limits.window = 2, 0.2
    channel = sample_bot.get_channel(standin.channel("tavolo").id)
    started = time.monotonic()
    for i in range(4):
        await channel.send(f"n{i}")  # type: ignore[union-attr]
    assert time.monotonic() - started >= 0.2
    sent = [r for r in standin.requests if r.route == MESSAGES]
    assert [r.status for r in sent] == [200] * 4
    assert len(standin.timeline("tavolo", as_user="bob")) == 4


async def test_each_interaction_answers_in_its_own_bucket(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    """Discord keys an interaction's answers by the interaction: people clicking at once do
    not share one bucket (a shared one made a 429 the bot was never told about)."""
    standin.rate_limits.enabled = True
    standin.rate_limits.limit, standin.rate_limits.window = 1, 10.0
    for name in ("alice", "bob", "carol"):
        reply = (await standin.user(name).slash("echo", text=name)).message
        assert reply is not None and reply.content == name
    callbacks = [r for r in standin.requests if r.route and r.route.endswith("/callback")]
    assert len(callbacks) == 3 and all(r.status < 300 for r in callbacks)
    assert standin.violations == []
