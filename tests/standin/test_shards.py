"""Shards: each session hears only of its guilds, DMs go to shard 0, as Discord does."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import pytest

from tests.standin import DiscordStandIn, World, default_world
from tests.standin.gateway import IDENTIFY, shard_of
from tests.standin.sample_bot import SampleBot


def two_shard_world() -> tuple[World, int, int]:
    """The default world (Osteria) plus "Bettola", each in its own shard of two."""
    world = default_world()
    osteria = next(iter(world.guilds.values()))
    first = shard_of(osteria.id, 2)
    alice = world.user_named("alice")
    bettola = world.add_guild("Bettola", owner=alice, shard=(1 - first, 2))
    world.add_member(bettola, world.user_named("bob"))
    world.add_text_channel(bettola, "banco")
    return world, osteria.id, bettola.id


async def identify(session: aiohttp.ClientSession, url: str, d: dict[str, Any]) -> Any:
    ws = await session.ws_connect(url)
    await ws.receive_json()  # HELLO
    await ws.send_json({"op": IDENTIFY, "d": d})
    return ws


async def test_a_guild_made_for_a_shard_lands_in_it() -> None:
    world = World()
    owner = world.add_user("alice")
    for shard in [(0, 1), (0, 8), (3, 8), (7, 8), (15, 16)]:
        guild = world.add_guild(f"g{shard}", owner=owner, shard=shard)
        assert shard_of(guild.id, shard[1]) == shard[0]


async def test_each_shard_is_ready_with_its_guilds_and_hears_only_of_them() -> None:
    world, osteria, bettola = two_shard_world()
    token = world.token
    async with DiscordStandIn(world=world) as s, aiohttp.ClientSession() as http:
        shard_osteria = shard_of(osteria, 2)
        wss = {
            n: await identify(http, s.gateway_url, {"token": token, "intents": 1, "shard": [n, 2]})
            for n in (0, 1)
        }
        for n, ws in wss.items():
            ready = await ws.receive_json()
            assert ready["t"] == "READY" and ready["d"]["shard"] == [n, 2]
            mine = osteria if n == shard_osteria else bettola
            assert [g["id"] for g in ready["d"]["guilds"]] == [str(mine)]
            created = await ws.receive_json()
            assert (created["t"], created["d"]["id"]) == ("GUILD_CREATE", str(mine))
        # A thread in Bettola: only Bettola's shard hears of it, and nothing else comes first.
        banco = world.channel_named("banco")
        world.add_thread(banco, "partita", owner=world.user_named("alice"))
        event = await wss[1 - shard_osteria].receive_json()
        assert (event["t"], event["d"]["guild_id"]) == ("THREAD_CREATE", str(bettola))
        assert [p["t"] for p in s.gateway.shards[(shard_osteria, 2)].buffer] == [
            "READY",
            "GUILD_CREATE",
        ]
        for ws in wss.values():
            await ws.close()


async def test_an_unsharded_session_hears_of_every_guild() -> None:
    world, osteria, bettola = two_shard_world()
    async with DiscordStandIn(world=world) as s, aiohttp.ClientSession() as http:
        ws = await identify(http, s.gateway_url, {"token": world.token, "intents": 1})
        ready = await ws.receive_json()
        assert {g["id"] for g in ready["d"]["guilds"]} == {str(osteria), str(bettola)}
        assert "shard" not in ready["d"]
        await ws.close()


@pytest.mark.parametrize("shard", [[2, 2], [-1, 2], [0, 0], [0], "0,1", [True, 2]])
async def test_an_invalid_shard_is_closed_with_4010(standin: DiscordStandIn, shard: Any) -> None:
    async with aiohttp.ClientSession() as http:
        ws = await identify(
            http, standin.gateway_url, {"token": standin.world.token, "shard": shard}
        )
        closing = await ws.receive()
        assert closing.type is aiohttp.WSMsgType.CLOSE
        assert closing.data == 4010
    assert standin.gateway.identifies == 0


async def test_gateway_bot_recommends_a_shard_per_thousand_guilds(standin: DiscordStandIn) -> None:
    owner = standin.world.user_named("alice")
    headers = {"Authorization": f"Bot {standin.world.token}"}
    async with aiohttp.ClientSession(headers=headers) as http:
        for count, shards in [(1, 1), (1000, 1), (1001, 2)]:
            while len(standin.world.guilds) < count:
                standin.world.add_guild(f"g{len(standin.world.guilds)}", owner=owner)
            async with http.get(standin.api_base + "/gateway/bot") as answer:
                assert json.loads(await answer.text())["shards"] == shards


async def test_discord_py_shards_get_their_guilds_and_dms_go_to_shard_0() -> None:
    world, osteria, bettola = two_shard_world()
    async with DiscordStandIn(world=world) as s:
        bots = {n: SampleBot(shard_id=n, shard_count=2) for n in (0, 1)}
        async with s.connected(bots[0]) as bot0, s.connected(bots[1]) as bot1:
            await bot0.tree.sync()
            by_guild = {
                osteria: bots[shard_of(osteria, 2)],
                bettola: bots[shard_of(bettola, 2)],
            }
            for guild_id, bot in by_guild.items():
                assert [g.id for g in bot.guilds] == [guild_id]
            alice = s.user("alice")
            assert (await alice.slash("echo", channel="banco", text="qui")).message is not None
            assert (await alice.slash("echo", channel="tavolo", text="là")).message is not None
            assert (await alice.slash("echo", channel="dm", text="solo")).message is not None
            assert by_guild[bettola].interactions_seen.count(bettola) == 1
            assert by_guild[osteria].interactions_seen.count(osteria) == 1
            assert bot0.interactions_seen.count(None) == 1
            assert None not in bot1.interactions_seen
            assert len(bot0.interactions_seen) + len(bot1.interactions_seen) == 3
        s.check()
