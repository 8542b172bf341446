"""Several bot.py processes, each running a slice of the shards, on one PostgreSQL database.

Discord sends each process the events of its own servers only, and every DM interaction to
the process of shard 0 (the stand-in does as Discord: tests/standin/test_shards.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.standin import DiscordStandIn
from tests.standin.gateway import IDENTIFY

from .helpers import BotProcess, unanswered, world_of_two_shards


@pytest.fixture
async def sharded() -> AsyncIterator[tuple[DiscordStandIn, dict[int, str]]]:
    """The stand-in with two servers in two shards; the name of each shard's server's
    channel (shard 0's, shard 1's)."""
    world, osteria_shard, bettola_shard = world_of_two_shards()
    async with DiscordStandIn(world) as server:
        yield server, {osteria_shard: "tavolo", bettola_shard: "banco"}
    server.check()
    assert not unanswered(server), "interactions left unanswered"


async def start_shards(standin: DiscordStandIn, tmp_path: Path, url: str) -> dict[int, BotProcess]:
    """bot.py twice on one database: shard 0 of 2, then shard 1 of 2."""
    bots = {}
    for shard in (0, 1):
        bot = BotProcess(
            standin,
            tmp_path / f"shard{shard}.db",  # only its commands' hash: the games are in `url`
            env={"SCOPABOT_DATABASE_URL": url},
            args=["--shards", str(shard), "--shard-count", "2"],
        )
        await bot.start()
        bots[shard] = bot
    return bots


async def stop_all(bots: dict[int, BotProcess]) -> None:
    for bot in bots.values():
        code = await bot.stop()
        assert code == 0, bot.output()
        assert not bot.errors(), bot.output()


async def test_two_processes_each_run_their_shard_and_answer_their_servers(
    sharded: tuple[DiscordStandIn, dict[int, str]], tmp_path: Path, migrated_postgres_url: str
) -> None:
    s, channel_of = sharded
    bots = await start_shards(s, tmp_path, migrated_postgres_url)
    try:
        shards = sorted(tuple(p["d"]["shard"]) for p in s.gateway.ops_received(IDENTIFY))
        assert shards == [(0, 2), (1, 2)]
        for shard, bot in bots.items():
            assert any(
                "Ready as" in line and f"in 1 server(s), shards {shard} of 2" in line
                for line in bot.lines
            ), bot.output()
        puts = [r for r in s.requests if r.method == "PUT" and r.path.endswith("/commands")]
        assert len(puts) == 1  # shard 0's process registers the commands, once
        alice = s.user("alice")
        for channel in [*channel_of.values(), "dm"]:
            answered = await alice.slash("scopa games", channel=channel)
            assert answered.message is not None and not answered.failed
        for shard in (0, 1):
            heard = [
                p["d"].get("guild_id")
                for p in s.gateway.shards[(shard, 2)].buffer
                if p["t"] == "INTERACTION_CREATE"
            ]
            guild = s.world.channel_named(channel_of[shard]).guild_id
            assert heard == ([str(guild), None] if shard == 0 else [str(guild)])
    finally:
        await stop_all(bots)
