"""Messages as users see them: DMs, threads, edits, timelines, privacy, the request log."""

from __future__ import annotations

import io
import re

import aiohttp
import discord
import pytest

from tests.standin import DiscordStandIn, StandInViolation
from tests.standin.permissions import CREATE_PUBLIC_THREADS, SEND_MESSAGES_IN_THREADS
from tests.standin.sample_bot import SampleBot


async def test_dm_reaches_only_its_recipient(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    bob = standin.world.user_named("bob")
    result = await standin.user("alice").slash("dm", user=bob)
    assert result.message is not None and result.message.content == "inviato"
    assert [m.content for m in standin.dm_timeline("bob")] == ["ciao bob"]
    assert standin.dm_timeline("carol") == []
    assert standin.timeline("tavolo", as_user="bob") == []


async def test_closed_dms_give_50007(standin: DiscordStandIn, sample_bot: SampleBot) -> None:
    dave = standin.world.user_named("dave")
    async with standin.expect_violation("refused", code=50007):
        result = await standin.user("alice").slash("dm", user=dave)
    assert result.message is not None and result.message.content == "non posso scrivere a dave"
    assert [e.code for e in sample_bot.errors] == [50007]
    assert standin.dm_timeline("dave") == []


async def test_slash_command_in_a_dm(standin: DiscordStandIn, sample_bot: SampleBot) -> None:
    result = await standin.user("carol").slash("echo", channel="dm", text="privato")
    assert result.message is not None
    assert [m.content for m in standin.dm_timeline("carol")] == ["privato"]
    assert standin.dm_timeline("alice") == []


async def test_thread_is_created_echoed_and_joined(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    world = standin.world
    guild = next(iter(world.guilds.values()))
    threads = world.add_role(
        guild, "threads", permissions=CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS
    )
    world.add_member(guild, world.bot, roles=[threads])  # without it: 50013
    await standin.user("alice").slash("thread", name="partita-1")
    thread = standin.channel("partita-1")
    assert thread.is_thread and thread.parent_id == standin.channel("tavolo").id
    assert standin.world.user_named("alice").id in thread.thread_members
    assert sample_bot.get_channel(thread.id) is not None  # THREAD_CREATE reached the bot
    assert [m.content for m in standin.timeline(thread, as_user="bob")] == ["benvenuti"]


async def test_edits_are_kept_and_echoed(standin: DiscordStandIn, sample_bot: SampleBot) -> None:
    result = await standin.user("alice").slash("edit")
    reply = await result.finished()
    assert reply.content == "corretto" and reply.ephemeral
    public = standin.timeline("tavolo", as_user="bob")
    assert [m.content for m in public] == ["tre"]
    assert [r.content for r in public[0].history] == ["uno", "due", "tre"]
    assert public[0].edited_timestamp is not None
    await standin.wait_for(lambda: sample_bot.edits_seen.count(public[0].id) == 2)


async def test_user_messages_reach_the_bot(standin: DiscordStandIn, sample_bot: SampleBot) -> None:
    await standin.user("bob").send("buongiorno")
    await standin.wait_for(lambda: sample_bot.seen_messages)
    # without the message content intent, Discord blanks other people's messages
    assert sample_bot.seen_messages == [""]


async def test_privacy_guard_flags_a_public_leak(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    alice = standin.user("alice")
    standin.privacy.set_secrets(alice.user, ["7♥", re.compile(r"re di \w+")])
    await alice.slash("hand")  # ephemeral: fine
    with pytest.raises(StandInViolation, match=r"reveals alice's secret '7♥' to bob, carol, dave"):
        await alice.slash("show")


async def test_privacy_guard_allows_what_only_the_owner_sees(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    bob = standin.world.user_named("bob")
    standin.privacy.set_secrets(bob, ["ciao bob"])
    await standin.user("alice").slash("dm", user=bob)
    assert standin.violations == []


async def test_every_request_is_logged(standin: DiscordStandIn, sample_bot: SampleBot) -> None:
    await standin.user("alice").slash("echo", text="x")
    routes = [(r.method, r.route, r.status) for r in standin.requests]
    assert routes[:2] == [("GET", "/users/@me", 200), ("GET", "/oauth2/applications/@me", 200)]
    assert ("PUT", "/applications/{application_id}/commands", 200) in routes
    assert routes[-1] == (
        "POST",
        "/interactions/{interaction_id}/{interaction_token}/callback",
        200,
    )


async def test_errors_are_json_with_the_exact_content_type(standin: DiscordStandIn) -> None:
    headers = {"Authorization": f"Bot {standin.world.token}"}
    async with aiohttp.ClientSession() as session:
        url = f"{standin.api_base}/channels/123/messages"
        async with (
            standin.expect_violation(code=10003),
            session.post(url, json={"content": "x"}, headers=headers) as response,
        ):
            assert response.status == 404
            assert response.headers["Content-Type"] == "application/json"
            assert await response.json() == {"message": "Unknown Channel", "code": 10003}
        async with (
            standin.expect_violation(match="401: Unauthorized"),
            session.get(f"{standin.api_base}/users/@me") as response,
        ):
            assert response.status == 401


async def test_unknown_routes_are_reported(standin: DiscordStandIn, sample_bot: SampleBot) -> None:
    channel = standin.channel("tavolo")
    with pytest.raises(Exception, match="404"):
        await sample_bot.http.pin_message(channel.id, 1)
    [violation] = standin.take_violations()
    assert violation.kind == "unsupported"
    assert "/pins/" in violation.request


async def test_files_arrive_as_attachments(standin: DiscordStandIn, sample_bot: SampleBot) -> None:
    channel = sample_bot.get_channel(standin.channel("tavolo").id)
    picture = discord.File(io.BytesIO(b"\x89PNG fake"), filename="tavolo.png")
    sent = await channel.send("il tavolo", file=picture)  # type: ignore[union-attr]
    assert [a.filename for a in sent.attachments] == ["tavolo.png"]
    [message] = standin.timeline("tavolo", as_user="bob")
    assert message.attachments[0]["size"] == len(b"\x89PNG fake")


async def test_unknown_message_and_channel_codes(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    channel = standin.channel("tavolo")
    async with standin.expect_violation(code=10008):
        with pytest.raises(discord.NotFound) as unknown_message:
            await sample_bot.http.get_message(channel.id, 42)
    async with standin.expect_violation(code=10003):
        with pytest.raises(discord.NotFound) as unknown_channel:
            await sample_bot.fetch_channel(42)
    assert unknown_message.value.code == 10008
    assert unknown_channel.value.code == 10003


async def test_players_may_name_their_own_cards(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    alice = standin.user("alice")
    standin.privacy.set_secrets(alice.user, ["7♥"])
    await alice.send("ho il 7♥, eh")
    assert standin.violations == []


async def test_a_nonce_enforced_gives_back_the_message_it_made(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    """Create Message with ``nonce`` and ``enforce_nonce`` (discord.py sends both for every
    nonce): the same author sending the same nonce within a few minutes gets the message
    made the first time, and no second one; another nonce, a nonce not enforced, or the same
    one once the minutes are past make a new message."""
    tavolo = standin.channel("tavolo")
    channel = sample_bot.get_partial_messageable(tavolo.id)
    first = await channel.send("conta", nonce="count-1-1")
    again = await channel.send("conta di nuovo", nonce="count-1-1")
    assert again.id == first.id and again.content == "conta"  # as made, not the new text
    sent = [r for r in standin.requests if r.method == "POST" and r.route.endswith("/messages")]
    assert all(r.body and r.body.get("enforce_nonce") is True for r in sent)
    other = await channel.send("mano", nonce=12345678901234567)
    assert other.id != first.id
    assert [m.content for m in standin.timeline(tavolo, as_user="bob")] == ["conta", "mano"]

    headers = {"Authorization": f"Bot {standin.world.token}"}
    async with aiohttp.ClientSession() as session:
        url = f"{standin.api_base}/channels/{tavolo.id}/messages"
        async with session.post(
            url, json={"content": "non forzato", "nonce": "count-1-1"}, headers=headers
        ) as response:
            assert response.status == 200
            assert (await response.json())["id"] != str(first.id)  # not enforced: a new one
    standin.world.clock.advance(6 * 60)
    later = await channel.send("dopo", nonce="count-1-1")
    assert later.id != first.id
    assert len(standin.timeline(tavolo, as_user="bob")) == 4
