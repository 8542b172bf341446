"""What a user would see fail fails the test, even when the bot swallows its own errors."""

from __future__ import annotations

import io
from typing import Any

import aiohttp
import discord
import pytest

from tests.standin import DiscordStandIn, StandInViolation
from tests.standin.sample_bot import SampleBot


async def _nothing_more(standin: DiscordStandIn) -> None:
    """Wait for the violation a step leaves behind (raised); time out if none comes."""
    await standin.wait_for(lambda: False, timeout=1.0)


async def test_answering_twice_fails_the_test(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    with pytest.raises(StandInViolation, match=r"\[refused\] .*answering /double by alice.*40060"):
        await standin.user("alice").slash("double")
        await _nothing_more(standin)


@pytest.mark.standin(response_deadline=0.2)
async def test_no_answer_in_time_fails_the_users_action(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    with pytest.raises(StandInViolation, match=r'\[failed\] /silent by alice: .*"This interaction'):
        await standin.user("alice").slash("silent")


@pytest.mark.standin(response_deadline=0.2)
async def test_a_late_answer_fails_the_users_action(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    with pytest.raises(StandInViolation, match=r"\[failed\] /late by alice"):
        await standin.user("alice").slash("late", seconds=0.3)
    with pytest.raises(StandInViolation, match=r"\[refused\] .*answering /late.*10062"):
        await _nothing_more(standin)


async def test_a_refused_request_the_bot_swallows_fails_the_test(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    dave = standin.world.user_named("dave")
    with pytest.raises(StandInViolation, match=r"\[refused\] POST /channels/.*403 50007"):
        await standin.user("alice").slash("dm", user=dave)  # the bot catches the Forbidden


@pytest.mark.standin(response_deadline=0.3)
async def test_an_empty_reply_is_refused_with_50006_and_the_user_sees_it_fail(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    async with (
        standin.expect_violation("failed") as failed,
        standin.expect_violation(code=50006) as refused,
    ):
        result = await standin.user("alice").slash("empty")
    assert result.failed and result.message is None
    assert "400 50006: Cannot send an empty message" in str(refused.caught[0])
    assert [v.code for v in failed.caught] == [10062]
    [error] = sample_bot.errors
    assert error.code == 50006
    assert standin.timeline("tavolo", as_user="alice") == []


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"content": ""},
        {"content": "  \n"},
        {"embeds": []},
        {"components": []},
        {"flags": 1 << 15, "components": []},
    ],
    ids=["nothing", "no content", "blank content", "no embeds", "no components", "empty V2"],
)
async def test_an_empty_message_is_refused(
    standin: DiscordStandIn, sample_bot: SampleBot, body: dict[str, Any]
) -> None:
    async with standin.expect_violation("refused", code=50006):
        with pytest.raises(discord.HTTPException) as caught:
            await sample_bot.raw_send(standin.channel("tavolo").id, body)
    assert caught.value.status == 400 and caught.value.code == 50006
    assert standin.timeline("tavolo", as_user="bob") == []


async def test_an_edit_that_empties_a_message_is_refused(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    channel = sample_bot.get_channel(standin.channel("tavolo").id)
    sent = await channel.send("ciao")  # type: ignore[union-attr]
    async with standin.expect_violation(code=50006):
        with pytest.raises(discord.HTTPException):
            await sent.edit(content="")
    embed = discord.Embed(title="il tavolo")
    await sent.edit(content="", embed=embed)  # an embed is something to show
    assert [m.embeds[0]["title"] for m in standin.timeline("tavolo", as_user="bob")] == [
        "il tavolo"
    ]


async def test_a_file_alone_is_not_empty(standin: DiscordStandIn, sample_bot: SampleBot) -> None:
    channel = sample_bot.get_channel(standin.channel("tavolo").id)
    picture = discord.File(io.BytesIO(b"\x89PNG"), filename="tavolo.png")
    await channel.send(file=picture)  # type: ignore[union-attr]
    [message] = standin.timeline("tavolo", as_user="bob")
    assert message.attachments[0]["filename"] == "tavolo.png"


async def test_expecting_a_violation_that_never_comes_fails(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    with pytest.raises(AssertionError, match=r"expected a violation \(code=40060\), but none came"):
        async with standin.expect_violation(code=40060, timeout=0.05):
            await standin.user("alice").slash("echo", text="ciao")


async def test_an_expectation_lets_other_violations_through(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    with pytest.raises(StandInViolation, match="40060"):
        async with standin.expect_violation(code=50007):
            await standin.user("alice").slash("double")
            await _nothing_more(standin)


async def test_outrunning_a_rate_limit_is_refused_but_an_injected_429_is_not(
    standin: DiscordStandIn,
) -> None:
    standin.rate_limits.inject(retry_after=0.01)
    headers = {"Authorization": f"Bot {standin.world.token}"}
    url = f"{standin.api_base}/users/@me"
    async with aiohttp.ClientSession() as session:
        async with session.get(url, headers=headers) as response:
            assert response.status == 429
        assert standin.violations == []
        standin.rate_limits.limit = 1
        async with standin.expect_violation("refused", match="outran the rate limit"):
            for _ in range(2):
                async with session.get(url, headers=headers) as response:
                    pass
        assert response.status == 429
