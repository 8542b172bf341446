"""Permissions the bot lacks are explained to the host in words, and nothing is lost."""

from __future__ import annotations

from tests.standin import Actor, DiscordStandIn
from tests.standin.permissions import SEND_MESSAGES

from .helpers import START, BotProcess, next_turn, table_messages, thread_named


async def listed_with_link(standin: DiscordStandIn, actor: Actor, link: str) -> None:
    """The host finds the new table in /scopa games, with a link to its message (the bot
    has recorded where the invitation is)."""
    for _ in range(20):
        games = (await actor.slash("scopa games")).message
        if games is not None and link in games.text():
            return
    raise AssertionError(f"/scopa games never listed {link}")


async def test_without_send_messages_here_the_host_is_told_and_no_table_opens(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice = s.user("alice")
    tavolo = s.channel("tavolo")
    s.world.set_overwrite(tavolo, s.world.bot, deny=SEND_MESSAGES)  # a moderator's overwrite
    told = (await alice.slash("scopa new", computers=1)).message
    assert told is not None and told.ephemeral
    assert f"<#{tavolo.id}>" in told.text() and "“Invia messaggi”" in told.text()
    assert "Nessun tavolo è stato aperto" in told.text()
    games = (await alice.slash("scopa games")).message
    assert games is not None and "Non sei seduto a nessun tavolo" in games.text()

    s.world.set_overwrite(tavolo, s.world.bot)  # the permission given back
    invitation = (await alice.slash("scopa new", computers=1)).message
    assert invitation is not None and not invitation.ephemeral
    assert "tavolo 1" in invitation.text()  # the first table: the refused one never existed
    await listed_with_link(s, alice, f"/{tavolo.id}/{invitation.id})")


async def test_a_game_channel_the_bot_cannot_post_in_keeps_the_table_here_and_says_why(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice = s.user("alice")
    game_channel = s.channel("chiacchiere")
    await alice.slash("scopa settings", game_channel=game_channel)
    s.world.set_overwrite(game_channel, s.world.bot, deny=SEND_MESSAGES)
    created = await alice.slash("scopa new", computers=1)
    invitation = created.message
    assert invitation is not None and not invitation.ephemeral
    assert invitation.channel_id == s.channel("tavolo").id
    note = await created.followup(0)
    assert note.ephemeral and f"<#{game_channel.id}>" in note.text()
    assert "“Invia messaggi”" in note.text()
    assert not s.world.channel_messages(game_channel.id)
    assert not (await alice.click(invitation, START)).failed  # and the table plays here
    thread = await s.wait_for(lambda: thread_named(s, "Scopa"), timeout=5)
    assert thread.parent_id == s.channel("tavolo").id
    await s.wait_for(lambda: table_messages(s, thread), timeout=5)
    assert await next_turn(s, thread, [alice]) is not None
