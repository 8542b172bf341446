"""Several bot.py processes, each running a slice of the shards, on one PostgreSQL database.

Discord sends each process the events of its own servers only, and every DM interaction to
the process of shard 0 (the stand-in does as Discord: tests/standin/test_shards.py)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.standin import DiscordStandIn
from tests.standin.gateway import IDENTIFY
from tests.standin.models import walk_components
from tests.standin.permissions import ATTACH_FILES

from .helpers import (
    CALLBACK,
    START,
    BotProcess,
    next_turn,
    play_from,
    table_messages,
    thread_named,
    unanswered,
    world_of_two_shards,
)


@pytest.fixture
async def sharded() -> AsyncIterator[tuple[DiscordStandIn, dict[int, str]]]:
    """The stand-in with two servers in two shards; the name of each shard's server's
    channel (shard 0's, shard 1's)."""
    world, osteria_shard, bettola_shard = world_of_two_shards()
    async with DiscordStandIn(world) as server:
        yield server, {osteria_shard: "tavolo", bettola_shard: "banco"}
    server.check()
    assert not unanswered(server), "interactions left unanswered"


async def start_shards(
    standin: DiscordStandIn, tmp_path: Path, url: str, *, debug: int | None = None
) -> dict[int, BotProcess]:
    """bot.py twice on one database: shard 0 of 2, then shard 1 of 2 (the process of shard
    ``debug`` logging at DEBUG)."""
    bots = {}
    for shard in (0, 1):
        env = {
            "SCOPABOT_DATABASE_URL": url,
            "SCOPABOT_DISCORD_API_BASE": await standin.door(f"shard {shard}"),
        }
        if shard == debug:
            env["LOG_LEVEL"] = "DEBUG"
        bot = BotProcess(
            standin,
            tmp_path / f"shard{shard}.db",  # only its commands' hash: the games are in `url`
            env=env,
            args=["--shards", str(shard), "--shard-count", "2"],
        )
        await bot.start()
        bots[shard] = bot
    return bots


async def stop_all(bots: dict[int, BotProcess]) -> None:
    for shard, bot in bots.items():  # shown when the test fails
        print(f"---- bot.py of shard {shard}")
        print("\n".join(line for line in bot.lines if " DEBUG " not in line))
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


GAME_ID = re.compile(r"^sb\|g\|(\d+)\|(\d+)\|")


def versions_of(components: list[dict[str, Any]]) -> set[int]:
    """The game versions a message's buttons carry (each button names the version it shows)."""
    return {
        int(found[2])
        for c in walk_components(components)
        if c.get("type") == 2 and (found := GAME_ID.match(str(c.get("custom_id", ""))))
    }


async def test_a_dm_click_moves_a_table_the_other_process_shows_and_it_edits_it_once(
    sharded: tuple[DiscordStandIn, dict[int, str]], tmp_path: Path, migrated_postgres_url: str
) -> None:
    s, channel_of = sharded
    bots = await start_shards(s, tmp_path, migrated_postgres_url, debug=1)
    try:
        alice = s.user("alice")
        # The table is in the server of shard 1: its process opens, starts and shows it.
        created = await alice.slash("scopa new", channel=channel_of[1], computers=1)
        assert created.message is not None
        assert not (await alice.click(created.message, START)).failed
        thread = await s.wait_for(lambda: thread_named(s, "Scopa"), timeout=10)
        assert thread.guild_id == s.world.channel_named(channel_of[1]).guild_id
        turn = await next_turn(s, thread, [alice])
        assert turn is not None
        _, hand = turn
        [table] = await s.wait_for(lambda: table_messages(s, thread), timeout=10)
        shown_before = len(table.history)
        clicked_at = max(versions_of(hand.components))
        requests_before = len(s.requests)
        # alice's card, clicked in her DM: Discord sends it to shard 0's process, which
        # applies it (and the computer's reply) and answers by editing her hand. Shard 1's
        # process edits that same hand for her next turn, and its edit may reach Discord
        # first: here it does (the answer waits for it, within Discord's 3 s), and the hand
        # must still end live, at her turn, not at the answer's position a move behind.
        dm = s.world.dm_channel(alice.user)
        s.dispatcher.after(
            CALLBACK,
            lambda: any(
                r.via == "shard 1" and r.method == "PATCH" and f"/channels/{dm.id}/" in r.path
                for r in s.requests[requests_before:]
                if r.status == 200
            ),
            seconds=1.0,
            method="POST",
            via="shard 0",
        )
        await play_from(s, alice, hand)
        dm_clicks = {
            shard: [
                p
                for p in s.gateway.shards[(shard, 2)].buffer
                if p["t"] == "INTERACTION_CREATE" and "guild_id" not in p["d"]
            ]
            for shard in (0, 1)
        }
        assert dm_clicks[0] and not dm_clicks[1], "the DM click did not go to shard 0 only"
        # The table shows the game after the move, then after the computer's reply (or
        # both at once): edited by shard 1's process, told through the database.
        await s.wait_for(
            lambda: max(versions_of(table.components), default=0) >= clicked_at + 2, timeout=20
        )
        # And alice's hand, for her next turn, from the same process.
        turn = await next_turn(s, thread, [alice], timeout=20)
        assert turn is not None and max(versions_of(turn[1].components)) >= clicked_at + 2
        await s.wait_for(
            lambda: any("applied by another process, shown here" in x for x in bots[1].lines),
            timeout=10,
        )
        # The next click (shard 0 again) on the hand that shard 1's process sent plays on.
        _, hand = turn
        clicked_at = max(versions_of(hand.components))  # before the click: edits follow it
        await play_from(s, alice, hand)
        await s.wait_for(
            lambda: max(versions_of(table.components), default=0) >= clicked_at + 1, timeout=20
        )
        # Never left at a turn already played: the edits of alice's hand (the answers by
        # shard 0's process, the next turns by shard 1's) show later and later versions, but
        # for an answer Discord carried out after shard 1's newer edit (as made so above: it
        # was drawn before the computer's reply was stored), which is brought up at once.
        await settled(migrated_postgres_url)
        hand_shown = [max(v) for r in hand.history if (v := versions_of(r.components))]
        for i in range(1, len(hand_shown)):
            if hand_shown[i] < hand_shown[i - 1]:
                assert i + 1 < len(hand_shown), hand_shown
                assert hand_shown[i + 1] >= hand_shown[i - 1], hand_shown
    finally:
        await stop_all(bots)  # a stopping process sends what it still had to send
    # Exactly once: every request since the first click that was not the answer to a click
    # (those go through the interaction's own routes) came from shard 1's process, the
    # table's and the hands' edits among them; shard 0's process, which applied the moves,
    # sent none; and no version of the game was shown by two edits of the table message.
    since = [
        r
        for r in s.requests[requests_before:]
        if not r.path.startswith(("/interactions/", "/webhooks/"))
    ]
    assert any(str(thread.id) in r.path for r in since)
    assert {r.via for r in since} == {"shard 1"}, [(r.method, r.path, r.via) for r in since]
    answers = [r for r in s.requests[requests_before:] if r not in since]
    assert answers and {r.via for r in answers} == {"shard 0"}
    shown = [max(v) for r in table.history[shown_before:] if (v := versions_of(r.components))]
    assert shown and len(shown) == len(set(shown)) and shown == sorted(shown), shown
    assert [t.id for t in table_messages(s, thread)] == [table.id]  # edited, never posted again
    assert not any("applied by another process" in line for line in bots[0].lines)


async def settled(url: str) -> None:
    """Wait until the database says every message of the games is shown and remembered (a
    process killed before would owe them: that is tests/bot/test_restart*.py's subject)."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        async with asyncio.timeout(30):
            while await conn.fetchval(
                "SELECT count(*) FROM games g WHERE g.status = 'playing' AND"
                " (g.table_shown IS NULL OR g.table_shown < g.version OR EXISTS"
                " (SELECT 1 FROM game_seats s WHERE s.game_id = g.id AND s.dm_nonce IS NOT NULL))"
            ):
                await asyncio.sleep(0.05)  # the bot's writes are in another process
    finally:
        await conn.close()


async def test_a_move_made_while_the_tables_process_is_down_is_shown_when_it_is_back(
    sharded: tuple[DiscordStandIn, dict[int, str]], tmp_path: Path, migrated_postgres_url: str
) -> None:
    s, channel_of = sharded
    bots = await start_shards(s, tmp_path, migrated_postgres_url)
    try:
        alice = s.user("alice")
        created = await alice.slash("scopa new", channel=channel_of[1], computers=1)
        assert created.message is not None
        assert not (await alice.click(created.message, START)).failed
        thread = await s.wait_for(lambda: thread_named(s, "Scopa"), timeout=10)
        turn = await next_turn(s, thread, [alice])
        assert turn is not None
        [table] = await s.wait_for(lambda: table_messages(s, thread), timeout=10)
        await settled(migrated_postgres_url)
        await bots[1].kill()  # the table's process is gone (a crash, a host's reboot)
        shown_before = len(table.history)
        _, hand = turn
        clicked_at = max(versions_of(hand.components))
        await play_from(s, alice, hand)  # shard 0's process takes the click and moves
        moved = max(versions_of(hand.components))
        assert moved > clicked_at and len(table.history) == shown_before  # nobody showed it
        requests_before = len(s.requests)
        await bots[1].start()  # back: the notices written meanwhile are its first work
        await s.wait_for(
            lambda: max(versions_of(table.components), default=0) >= clicked_at + 2, timeout=30
        )
        turn = await next_turn(s, thread, [alice], timeout=20)
        assert turn is not None and max(versions_of(turn[1].components)) >= clicked_at + 2
    finally:
        await stop_all(bots)
    since = [
        r
        for r in s.requests[requests_before:]
        if not r.path.startswith(("/interactions/", "/webhooks/"))
        and r.route != "/applications/{application_id}/commands"
    ]
    assert {r.via for r in since if str(thread.id) in r.path} == {"shard 1"}
    shown = [max(v) for r in table.history[shown_before:] if (v := versions_of(r.components))]
    assert shown and len(shown) == len(set(shown)), shown


async def test_a_slice_of_the_shards_on_a_sqlite_file_warns_that_it_is_for_one_machine(
    sharded: tuple[DiscordStandIn, dict[int, str]], tmp_path: Path
) -> None:
    s, _ = sharded
    bot = BotProcess(s, tmp_path / "bot.db", args=["--shards", "0", "--shard-count", "2"])
    await bot.start()
    try:
        assert any(
            "WARNING" in line and "shards 0 of 2 on a SQLite file" in line for line in bot.lines
        ), bot.output()
    finally:
        assert await bot.stop() == 0, bot.output()


async def test_a_round_reached_in_the_other_process_is_shown_by_its_servers_process(
    sharded: tuple[DiscordStandIn, dict[int, str]], tmp_path: Path, migrated_postgres_url: str
) -> None:
    """A tournament in shard 1's server (its Discord locale Italian, no language chosen):
    its first round ends by resignations in DMs, which Discord sends to shard 0's process,
    and that process opens and deals the next round. The round is told through the
    database to shard 1's process, which alone places its table in a thread, announces it,
    in the server's own language, and tells its players; shard 0's process sends nothing
    to the server. The channel refuses the bot files: the process that knows the channel
    sends the round's table and announcement without pictures (shard 0's, without the
    server in its cache, would have sent them, and been refused). Before, shard 0's
    process placed and announced it while shard 1's, told of the table's start, showed it
    too: one run in eight, Discord's Unknown Message and the table sent twice."""
    s, channel_of = sharded
    banco = s.world.channel_named(channel_of[1])
    bettola = s.world.guilds[banco.guild_id]
    dave = s.user("dave")
    s.world.add_member(bettola, dave.user)
    dave.user.dms_open = True  # hands by DM to all four
    s.world.set_overwrite(banco, s.world.bot, deny=ATTACH_FILES)  # its threads follow it
    bots = await start_shards(s, tmp_path, migrated_postgres_url)
    try:
        alice, bob, carol = (s.user(n) for n in ("alice", "bob", "carol"))
        made = (
            await alice.slash(
                "scopa tournament create", channel=banco, name="Coppa della Bettola", deals=1
            )
        ).message
        assert made is not None and "eliminazione diretta" in made.text(), made
        for person in (alice, bob, carol, dave):
            joined = (await person.slash("scopa tournament join", channel=banco)).message
            assert joined is not None and "si iscrive" in joined.text(), joined.text()
        started = await (await alice.slash("scopa tournament start", channel=banco)).finished(
            timeout=10
        )
        assert "è cominciato con 4 iscritti" in started.text(), started.text()
        await s.wait_for(lambda: posted(s, banco, "turno 1"), timeout=10)
        requests_before = len(s.requests)
        for person in (bob, carol, dave, alice):  # in their DMs: shard 0's process
            assert not (await person.slash("scopa resign", channel="dm")).failed
        [second] = await s.wait_for(lambda: posted(s, banco, "turno 2"), timeout=20)
        assert "Coppa della Bettola" in second.text(), second.text()
        assert not posted(s, banco, "round 2")
        final = await s.wait_for(lambda: round_two_table(s, banco, second), timeout=20)
        # The final's two players were told it by DM (the two who lost, nothing more).
        four = (alice, bob, carol, dave)
        await s.wait_for(lambda: sum(dm_said(s, p, "turno 2") for p in four) == 2, timeout=20)
        made = s.requests[requests_before:]
        told = [
            r
            for r in made
            if r.method == "POST"
            and "turno 2" in str(r.body)
            and r.path != f"/channels/{banco.id}/messages"
        ]
        assert [r.via for r in told] == ["shard 1", "shard 1"], told
        announced = [
            r
            for r in made
            if r.method == "POST"
            and r.path == f"/channels/{banco.id}/messages"
            and "turno 2" in str(r.body)
        ]
        assert [r.via for r in announced] == ["shard 1"], announced
        threads = [
            r for r in made if r.method == "POST" and r.path == f"/channels/{banco.id}/threads"
        ]
        assert [r.via for r in threads] == ["shard 1"], threads  # the final's, once
        [table] = table_messages(s, final)  # never sent twice
        for message in (second, table):
            assert not message.attachments, message
        to_the_server = [
            r
            for r in made
            if r.via == "shard 0" and in_guild(s, r.path, bettola.id) and r.method != "GET"
        ]
        assert not to_the_server, to_the_server
    finally:
        await stop_all(bots)


def round_two_table(s: DiscordStandIn, channel: Any, announcement: Any) -> Any | None:
    """The final's thread of ``channel`` once its table message is there (the thread the
    announcement links)."""
    for thread in s.world.channels.values():
        linked = thread.parent_id == channel.id and f"/{thread.id}/" in announcement.text()
        if linked and table_messages(s, thread):
            return thread
    return None


def dm_said(s: DiscordStandIn, person: Any, text: str) -> bool:
    return any(text in m.text() for m in s.dm_timeline(person.user))


def in_guild(s: DiscordStandIn, path: str, guild_id: int) -> bool:
    """Whether a request's path names a channel (or thread) of the server ``guild_id``."""
    found = re.match(r"/channels/(\d+)", path)
    channel = None if found is None else s.world.channels.get(int(found.group(1)))
    return channel is not None and channel.guild_id == guild_id


def posted(s: DiscordStandIn, channel: Any, text: str) -> list[Any]:
    return [m for m in s.world.channel_messages(channel.id) if text in m.text()]
