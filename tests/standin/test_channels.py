"""Threads archived, opened again and deleted; permissions per channel, as Discord does them."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from tests.standin import DiscordStandIn
from tests.standin.permissions import (
    CREATE_PUBLIC_THREADS,
    MANAGE_THREADS,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
)
from tests.standin.sample_bot import SampleBot


def grant(standin: DiscordStandIn, permissions: int) -> None:
    world = standin.world
    guild = next(iter(world.guilds.values()))
    role = world.add_role(guild, "bot role", permissions=permissions)
    guild.members[world.bot.id].roles.append(role.id)


async def bot_thread(standin: DiscordStandIn, bot: SampleBot) -> Any:
    parent = standin.channel("tavolo")
    data = await bot.http.start_thread_without_message(
        parent.id, name="partita", auto_archive_duration=1440, type=11
    )
    return standin.world.channels[int(data["id"])]


async def test_an_archived_thread_refuses_edits_and_opens_again_on_a_message(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    grant(standin, CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS)
    thread = await bot_thread(standin, sample_bot)
    sent = await sample_bot.get_partial_messageable(thread.id).send("tavolo")
    standin.world.archive_thread(thread)  # a moderator, or Discord's inactivity timer
    # THREAD_UPDATE reached the bot: discord.py keeps only active threads
    await standin.wait_for(lambda: sample_bot.get_channel(thread.id) is None)
    async with standin.expect_violation("refused", code=50083):
        with pytest.raises(discord.HTTPException) as refused:
            await sent.edit(content="modificato")
    assert refused.value.status == 400 and refused.value.text == "Thread is archived"
    await sample_bot.get_partial_messageable(thread.id).send("di nuovo")  # opens it again
    assert not thread.archived
    await sent.edit(content="modificato")
    standin.world.archive_thread(thread)
    await sample_bot.http.edit_channel(thread.id, archived=False)  # the bot is a member
    assert not thread.archived


async def test_a_locked_thread_opens_again_only_for_moderators(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    grant(standin, CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS)
    thread = await bot_thread(standin, sample_bot)
    standin.world.archive_thread(thread, locked=True)
    async with standin.expect_violation("refused", code=50083):
        with pytest.raises(discord.HTTPException):
            await sample_bot.get_partial_messageable(thread.id).send("aperto?")
    async with standin.expect_violation("refused", code=50013):
        with pytest.raises(discord.Forbidden):
            await sample_bot.http.edit_channel(thread.id, archived=False)
    assert thread.archived and thread.locked


async def test_a_deleted_thread_is_an_unknown_channel(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    grant(standin, CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS)
    thread = await bot_thread(standin, sample_bot)
    sent = await sample_bot.get_partial_messageable(thread.id).send("tavolo")
    async with standin.expect_violation("refused", code=50013):
        with pytest.raises(discord.Forbidden):  # deleting a thread needs Manage Threads
            await sample_bot.http.delete_channel(thread.id)
    standin.world.delete_channel(thread)  # a moderator deletes it
    await standin.wait_for(lambda: sample_bot.get_channel(thread.id) is None)  # THREAD_DELETE
    assert not standin.timeline(thread, as_user="alice")
    async with standin.expect_violation("refused", code=10003):
        with pytest.raises(discord.NotFound):
            await sent.edit(content="modificato")
    grant(standin, MANAGE_THREADS)
    other = await bot_thread(standin, sample_bot)
    await sample_bot.http.delete_channel(other.id)
    assert other.deleted


async def test_a_channel_overwrite_denies_the_bot_and_interactions_say_so(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    tavolo = standin.channel("tavolo")
    standin.world.set_overwrite(tavolo, standin.world.bot, deny=SEND_MESSAGES)
    async with standin.expect_violation("refused", code=50013):
        with pytest.raises(discord.Forbidden):
            await sample_bot.get_partial_messageable(tavolo.id).send("ciao")
    await sample_bot.get_partial_messageable(standin.channel("chiacchiere").id).send("ciao")
    seen: list[discord.Permissions] = []

    async def on_interaction(interaction: discord.Interaction[Any]) -> None:
        seen.append(interaction.app_permissions)

    sample_bot.add_listener(on_interaction)
    await standin.user("alice").slash("echo", text="x")
    assert seen and not seen[0].send_messages and seen[0].view_channel
