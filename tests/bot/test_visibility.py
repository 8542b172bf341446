"""A table is seen where it is played and by its players, not by anyone who knows its id."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.standin import DiscordStandIn, World

from .helpers import (
    PLAY_ID,
    BotProcess,
    hand_message,
    play_buttons,
    start_against_computer,
    unanswered,
    world_with_threads,
)

VIEW_CHANNEL = 1 << 10
REFUSED = "Quel tavolo non puoi guardarlo da qui"


def two_servers() -> World:
    """Osteria (the table's server; carol may not see #tavolo) and Altrove, where eve is."""
    world = world_with_threads()
    eve = world.add_user("eve")
    elsewhere = world.add_guild("Altrove", owner=eve)
    world.add_member(elsewhere, world.bot)
    world.add_text_channel(elsewhere, "piazza")
    world.set_overwrite(world.channel_named("tavolo"), world.user_named("carol"), deny=VIEW_CHANNEL)
    return world


@pytest.fixture
async def standin() -> AsyncIterator[DiscordStandIn]:
    async with DiscordStandIn(two_servers()) as server:
        yield server
    server.check()
    assert not unanswered(server), "interactions left unanswered"


async def test_a_table_is_refused_to_strangers_and_shown_to_those_who_see_it(
    standin: DiscordStandIn, tmp_path: Path
) -> None:
    s = standin
    bot = BotProcess(s, tmp_path / "bot.db")
    await bot.start()
    try:
        alice = s.user("alice")
        await start_against_computer(s, alice, deals=1)
        hand = await s.wait_for(lambda: hand_message(s, alice), timeout=10)
        match = PLAY_ID.match(str(play_buttons(hand)[0]["custom_id"]))
        assert match is not None
        game = match[1]
        alice_name = f"<@{alice.user.id}>"

        eve, carol, bob = s.user("eve"), s.user("carol"), s.user("bob")
        for who, where in ((eve, "piazza"), (carol, "chiacchiere")):
            for command in ("scopa table", "scopa rules"):
                reply = (await who.slash(command, channel=where, game=game)).message
                assert reply is not None
                text = reply.text()
                assert text.startswith(REFUSED), (who.user.username, command, text)
                assert alice_name not in text and "Scopa" not in text
                assert not reply.attachments

        # Bob is not playing but can see #tavolo, where the table is: he may look from
        # another channel of the server; alice, a player, from anywhere.
        for who, where in ((bob, "chiacchiere"), (alice, "chiacchiere")):
            reply = (await who.slash("scopa table", channel=where, game=game)).message
            assert reply is not None and alice_name in reply.text(), reply.text()
            rules = (await who.slash("scopa rules", channel=where, game=game)).message
            assert rules is not None and not rules.text().startswith(REFUSED)
    finally:
        assert await bot.stop() == 0, bot.output()
    assert not bot.errors(), bot.output()
