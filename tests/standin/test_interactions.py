"""Slash commands, autocomplete, buttons, selects and modals through the stand-in."""

from __future__ import annotations

import discord
import pytest

from tests.standin import Callback, DiscordStandIn, StandInViolation
from tests.standin.sample_bot import HAND, SampleBot


async def test_sync_registers_the_commands(standin: DiscordStandIn, sample_bot: SampleBot) -> None:
    names = {c.name for c in standin.world.commands.values()}
    assert {"echo", "hand", "table", "feedback", "city"} <= names
    echo = next(c for c in standin.world.commands.values() if c.name == "echo")
    assert [o["name"] for o in echo.data["options"]] == ["text", "times"]


async def test_slash_command_with_options(standin: DiscordStandIn, sample_bot: SampleBot) -> None:
    result = await standin.user("alice").slash("echo", text="ciao ", times=3)
    assert result.response is Callback.CHANNEL_MESSAGE
    assert result.message is not None
    assert result.message.content == "ciao ciao ciao "
    assert result.message.interaction_metadata is not None
    seen_by_bob = standin.timeline("tavolo", as_user="bob")
    assert [m.content for m in seen_by_bob] == ["ciao ciao ciao "]


async def test_unknown_command_or_option_is_refused_like_the_client(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    alice = standin.user("alice")
    with pytest.raises(LookupError, match="not registered"):
        await alice.slash("nope")
    with pytest.raises(LookupError, match="no option 'colour'"):
        await alice.slash("echo", text="x", colour="red")
    with pytest.raises(ValueError, match="'text' is required"):
        await alice.slash("echo")


async def test_ephemeral_reply_is_seen_only_by_its_user(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    result = await standin.user("alice").slash("hand")
    assert result.message is not None and result.message.ephemeral
    assert [m.content for m in standin.timeline("tavolo", as_user="alice")] == [HAND]
    assert standin.timeline("tavolo", as_user="bob") == []


async def test_defer_then_follow_up_edits_the_thinking_message(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    result = await standin.user("alice").slash("slow", seconds=0.05)
    assert result.response is Callback.DEFERRED_CHANNEL_MESSAGE
    assert result.message is not None and result.message.loading
    reply = await result.finished()
    assert reply.content == "fatto"
    second = await result.followup(0)
    assert second.content == "e ancora"
    assert [m.content for m in standin.timeline("tavolo", as_user="bob")] == ["fatto", "e ancora"]


async def test_ephemeral_deferral_keeps_follow_ups_private(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    result = await standin.user("alice").slash("slow", seconds=0.01, ephemeral=True)
    await result.followup(0)
    assert all(m.ephemeral for m in result.messages)
    assert standin.timeline("tavolo", as_user="bob") == []
    assert [m.content for m in standin.timeline("tavolo", as_user="alice")] == ["fatto", "e ancora"]


async def test_autocomplete_returns_the_bots_choices(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    choices = await standin.user("carol").autocomplete("city", "name", "b")
    assert [c["name"] for c in choices] == ["Bari", "Bologna"]


async def test_more_than_25_choices_fails_the_test(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    with pytest.raises(StandInViolation, match=r"data\.choices: .*26"):
        await standin.user("carol").autocomplete("many", "pick", "")


async def test_button_click_updates_the_message(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    alice, bob = standin.user("alice"), standin.user("bob")
    table = (await alice.slash("table")).message
    assert table is not None
    clicked = await bob.click(table, "Gioca (0)")
    assert clicked.response is Callback.UPDATE_MESSAGE
    assert table.content == "giocate: 1"
    assert table.button("Gioca (1)")["custom_id"] == "sample:play:1"
    assert [r.content for r in table.history] == ["giocate: 0", "giocate: 1"]


async def test_components_keep_working_after_a_restart(standin: DiscordStandIn) -> None:
    alice = standin.user("alice")
    async with standin.connected(SampleBot()) as first:
        await first.tree.sync()
        result = await alice.slash("table")
        menu = await result.followup(0)
    table = result.message
    assert table is not None
    async with standin.connected(SampleBot()):
        await alice.click(table, "Gioca (0)")
        picked = await alice.select(menu, "sample:colour", ["spade"])
    assert table.content == "giocate: 1"
    assert picked.message is not None and picked.message.content == "hai scelto spade"


async def test_select_refuses_what_the_menu_does_not_offer(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    menu = await (await standin.user("alice").slash("table")).followup(0)
    with pytest.raises(ValueError, match="does not offer"):
        await standin.user("alice").select(menu, "Scegli un seme", ["cuori"])


async def test_user_select_sends_resolved_users(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    menu = (await standin.user("alice").slash("invite")).message
    assert menu is not None
    bob = standin.world.user_named("bob")
    picked = await standin.user("alice").select(menu, "Invita", [bob])
    assert picked.message is not None and picked.message.content == "invitato bob"


async def test_modal_round_trip(standin: DiscordStandIn, sample_bot: SampleBot) -> None:
    alice = standin.user("alice")
    opened = await alice.slash("feedback")
    assert opened.response is Callback.MODAL
    assert opened.modal is not None and opened.modal["title"] == "Com'è andata?"
    with pytest.raises(ValueError, match="'feedback:text' is required"):
        await alice.submit_modal(opened, {"feedback:stars": "5"})
    submitted = await alice.submit_modal(
        opened, {"feedback:text": "bellissimo", "feedback:stars": "5"}
    )
    assert submitted.message is not None
    assert submitted.message.content == "grazie: bellissimo (5★)"
    assert submitted.message.ephemeral


async def test_a_second_acknowledgement_gets_40060(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    async with standin.expect_violation(code=40060) as expected:
        result = await standin.user("alice").slash("double")
        error = await standin.wait_for(lambda: sample_bot.errors and sample_bot.errors[0])
    assert result.message is not None and result.message.content == "uno"
    assert error.code == 40060
    assert len(standin.timeline("tavolo", as_user="alice")) == 1
    [refused] = expected.caught
    assert refused.kind == "refused" and "answering /double by alice" in refused.request


@pytest.mark.standin(response_deadline=0.2)
async def test_a_late_first_response_fails_with_10062(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    async with standin.expect_violation(code=10062) as expected:
        result = await standin.user("alice").slash("late", seconds=0.3)
        error = await standin.wait_for(lambda: sample_bot.errors and sample_bot.errors[0])
    assert result.failed and result.message is None
    assert isinstance(error, discord.NotFound) and error.code == 10062
    # the user saw it fail at the deadline, then the bot's late answer was refused
    assert [v.kind for v in expected.caught] == ["failed", "refused"]
    assert 'alice saw "This interaction failed"' in str(expected.caught[0])


async def test_the_token_expires_after_15_minutes(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    result = await standin.user("alice").slash("gate")
    assert result.response is Callback.DEFERRED_CHANNEL_MESSAGE
    standin.world.clock.advance(15 * 60 + 1)
    async with standin.expect_violation(code=50027):
        sample_bot.release.set()
        error = await standin.wait_for(lambda: sample_bot.errors and sample_bot.errors[0])
    assert error.status == 401 and error.code == 50027
    assert result.message is not None and result.message.loading


async def test_callback_answers_with_response_as_discord_does(
    standin: DiscordStandIn, sample_bot: SampleBot
) -> None:
    await standin.user("alice").slash("echo", text="hi")
    record = next(r for r in standin.requests if r.route and r.route.endswith("/callback"))
    assert record.query == {"with_response": "1"}
    assert record.response["interaction"]["response_message_ephemeral"] is False
    assert record.response["resource"]["type"] == 4
    assert record.response["resource"]["message"]["content"] == "hi"
