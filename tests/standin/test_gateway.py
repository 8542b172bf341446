"""The gateway: handshake, close codes, compression, and the reconnect paths discord.py takes."""

from __future__ import annotations

import json
import zlib

import aiohttp
import discord
import pytest

from tests.standin import DiscordStandIn
from tests.standin.gateway import HEARTBEAT, IDENTIFY, RESUME
from tests.standin.sample_bot import SampleBot


async def test_plain_text_handshake_heartbeat_and_ready(standin: DiscordStandIn) -> None:
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(standin.gateway_url + "?v=10&encoding=json") as ws,
    ):
        hello = await ws.receive()
        assert hello.type is aiohttp.WSMsgType.TEXT
        assert json.loads(hello.data)["op"] == 10
        await ws.send_json({"op": HEARTBEAT, "d": None})
        assert (await ws.receive_json())["op"] == 11
        await ws.send_json({"op": IDENTIFY, "d": {"token": standin.world.token, "intents": 1}})
        ready = await ws.receive_json()
        assert (ready["t"], ready["s"]) == ("READY", 1)
        assert ready["d"]["resume_gateway_url"] == standin.gateway_url
        guild = await ws.receive_json()
        assert guild["t"] == "GUILD_CREATE"
        assert {c["name"] for c in guild["d"]["channels"]} == {"tavolo", "chiacchiere"}
        assert len(guild["d"]["members"]) == guild["d"]["member_count"] == 5
        assert guild["d"]["roles"][0]["name"] == "@everyone"


async def test_bad_token_closes_with_4004(standin: DiscordStandIn) -> None:
    async with aiohttp.ClientSession() as session, session.ws_connect(standin.gateway_url) as ws:
        await ws.receive()
        await ws.send_json({"op": IDENTIFY, "d": {"token": "wrong"}})
        closing = await ws.receive()
        assert closing.type is aiohttp.WSMsgType.CLOSE
        assert closing.data == 4004


async def test_bad_token_is_a_login_failure_for_discord_py(standin: DiscordStandIn) -> None:
    client = discord.Client(intents=discord.Intents.none())
    async with standin.expect_violation("refused", match="401: Unauthorized"):
        with standin.patch_discord(), pytest.raises(discord.LoginFailure):
            await client.login("wrong")
    await client.close()


async def test_zlib_stream_when_asked(standin: DiscordStandIn) -> None:
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(standin.gateway_url + "?v=10&encoding=json&compress=zlib-stream") as ws,
    ):
        inflate = zlib.decompressobj()
        await ws.send_json({"op": IDENTIFY, "d": {"token": standin.world.token}})
        events: list[dict[str, object]] = []
        while len(events) < 3:
            frame = await ws.receive()
            assert frame.type is aiohttp.WSMsgType.BINARY
            assert frame.data.endswith(b"\x00\x00\xff\xff")
            events.append(json.loads(inflate.decompress(frame.data)))
        assert [e["op"] for e in events] == [10, 0, 0]
        assert [e.get("t") for e in events[1:]] == ["READY", "GUILD_CREATE"]


async def test_zstd_stream_when_asked(standin: DiscordStandIn) -> None:
    """One zstd stream for the connection, each event a flushed block (discord.py asks for it
    when zstandard is installed, as the project's dependencies have it)."""
    zstandard = pytest.importorskip("zstandard")
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(standin.gateway_url + "?v=10&encoding=json&compress=zstd-stream") as ws,
    ):
        stream = zstandard.ZstdDecompressor().decompressobj()
        await ws.send_json({"op": IDENTIFY, "d": {"token": standin.world.token}})
        events: list[dict[str, object]] = []
        while len(events) < 3:
            frame = await ws.receive()
            assert frame.type is aiohttp.WSMsgType.BINARY
            events.append(json.loads(stream.decompress(frame.data)))
        assert [e["op"] for e in events] == [10, 0, 0]
        assert [e.get("t") for e in events[1:]] == ["READY", "GUILD_CREATE"]


async def test_discord_py_connects_compressed_and_gets_ready(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    assert sample_bot.ready_count == 1
    assert sample_bot.get_guild(next(iter(standin.world.guilds))) is not None
    assert standin.gateway.connections[0].compress
    identify = standin.gateway.ops_received(IDENTIFY)[0]["d"]
    assert identify["token"] == "<redacted>"
    assert identify["intents"] == discord.Intents.default().value


async def test_op7_reconnect_resumes_and_replays_missed_events(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    await standin.gateway.request_reconnect()
    await standin.user("bob").send("mentre eri via")  # may land while the bot is away
    await standin.wait_for(lambda: sample_bot.resumed_count == 1)
    assert standin.gateway.identifies == 1 and standin.gateway.resumes == 1
    await standin.wait_for(lambda: len(sample_bot.seen_messages) == 1)
    result = await standin.user("alice").slash("echo", text="ancora qui")
    assert result.message is not None


@pytest.mark.parametrize("code", [None, 4000, 1001])
async def test_dropped_connection_resumes(
    standin: DiscordStandIn, sample_bot: SampleBot, code: int | None
) -> None:
    await standin.gateway.drop(code=code)
    await standin.wait_for(lambda: standin.gateway.resumes == 1)
    assert standin.gateway.ops_received(RESUME)[0]["d"]["seq"] >= 2
    assert (await standin.user("alice").slash("echo", text="ok")).message is not None


async def test_op9_invalid_session_makes_the_bot_identify_again(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    await standin.gateway.invalidate_session(resumable=False)
    await standin.wait_for(lambda: sample_bot.ready_count == 2)
    assert standin.gateway.identifies == 2 and standin.gateway.resumes == 0
    assert (await standin.user("alice").slash("echo", text="ok")).message is not None


async def test_resume_replays_exactly_the_missed_events(standin: DiscordStandIn) -> None:
    token = standin.world.token
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(standin.gateway_url) as ws:
            await ws.receive()
            await ws.send_json({"op": IDENTIFY, "d": {"token": token, "intents": 1 << 9}})
            ready = await ws.receive_json()
            await ws.receive_json()  # GUILD_CREATE, s=2
        bot_session = standin.gateway.current
        await standin.wait_for(lambda: bot_session is not None and bot_session.connection is None)
        await standin.user("bob").send("mentre eri via")
        async with session.ws_connect(standin.gateway_url) as ws:
            await ws.receive()
            await ws.send_json(
                {
                    "op": RESUME,
                    "d": {"token": token, "seq": 2, "session_id": ready["d"]["session_id"]},
                }
            )
            missed, resumed = await ws.receive_json(), await ws.receive_json()
        async with session.ws_connect(standin.gateway_url) as ws:
            await ws.receive()
            await ws.send_json(
                {"op": RESUME, "d": {"token": token, "seq": 0, "session_id": "gone"}}
            )
            invalid = await ws.receive_json()
    assert (missed["t"], missed["s"], missed["d"]["content"]) == ("MESSAGE_CREATE", 3, "")
    assert (resumed["t"], resumed["s"]) == ("RESUMED", 4)
    assert invalid == {"op": 9, "d": False}
