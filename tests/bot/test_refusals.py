"""Closed DMs, stale and forged buttons, someone else's table: explained, nothing changes."""

from __future__ import annotations

import asyncio
import re

from tests.standin import Actor, DiscordStandIn, InteractionType, Message

from .helpers import (
    JOIN,
    MY_HAND,
    PLAY_ID,
    START,
    BotProcess,
    card_labels,
    hand_message,
    is_over,
    live_cards,
    next_turn,
    play_from,
    start_against_computer,
    table_messages,
    thread_named,
)

GAME_ID = re.compile(r"^sb\|g\|(\d+)\|(\d+)\|h\|$")


async def test_closed_dms_are_said_in_the_thread_and_my_hand_plays(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice, dave = s.user("alice"), s.user("dave")  # dave does not accept DMs
    invitation = (await alice.slash("scopa new", deals=1)).message
    assert invitation is not None
    await dave.click(invitation, JOIN)
    # Discord refuses his hand: at the start, then on his turns and when he asks for it
    # (he may have opened his DMs meanwhile), at most once a turn of the game.
    async with s.expect_violation("refused", code=50007) as refused:
        table, turns = await play_with_closed_dms(s, alice, dave, invitation)
    assert 1 <= len(refused.caught) <= 1 + turns
    assert (is_over(table) and "Vince" in table.text()) or "senza vincitori" in table.text()


async def play_with_closed_dms(
    s: DiscordStandIn, alice: Actor, dave: Actor, invitation: Message
) -> tuple[Message, int]:
    """The match, dave playing from the ephemeral hand of "My hand"; returns the table and
    how many turns were played."""
    await alice.click(invitation, START)
    thread = await s.wait_for(lambda: thread_named(s, "Scopa"), timeout=5)
    note = await s.wait_for(
        lambda: [m for m in s.world.channel_messages(thread.id) if "messaggi diretti" in m.content],
        timeout=5,
    )
    assert f"<@{dave.user.id}>" in note[0].content and "La mia mano" in note[0].content
    assert not s.dm_timeline(dave.user)
    table = table_messages(s, thread)[0]
    dave_turn = f"Tocca a <@{dave.user.id}>"
    turns = 0
    for _ in range(400):

        def ready() -> object:
            if is_over(table):
                return "over"
            hand = hand_message(s, alice)
            if hand is not None and live_cards(hand):
                return hand
            return "dave" if dave_turn in table.text() else None

        state = await s.wait_for(ready, timeout=10)
        if state == "over":
            break
        if state == "dave":
            hand = (await dave.click(table, MY_HAND)).message
            assert hand is not None and hand.ephemeral
            if live_cards(hand):
                await play_from(s, dave, hand)
                turns += 1
            else:  # the table still shows the turn just played: let the refresh land
                await asyncio.sleep(0.05)
        else:
            await play_from(s, alice, state)  # type: ignore[arg-type]
            turns += 1
    notes = [m for m in s.world.channel_messages(thread.id) if "messaggi diretti" in m.content]
    assert len(notes) == 1  # said once, not at every try
    return table, turns


async def test_stale_forged_and_foreign_clicks_change_nothing(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice, bob = s.user("alice"), s.user("bob")
    thread = await start_against_computer(s, alice)
    table = (await s.wait_for(lambda: table_messages(s, thread), timeout=5))[0]
    turn = await next_turn(s, thread, [alice])
    assert turn is not None
    old = (await alice.click(table, MY_HAND)).message  # an ephemeral hand, never edited
    assert old is not None and live_cards(old)
    await play_from(s, alice, turn[1])
    turn = await next_turn(s, thread, [alice])
    assert turn is not None
    version = PLAY_ID.match(str(live_cards(turn[1])[0]["custom_id"]))[2]  # type: ignore[index]
    await s.wait_for(lambda: f"|{version}|h|" in str(table.buttons()[0]["custom_id"]), timeout=3)
    revisions = len(table.history)
    before = card_labels(hand_message(s, alice))  # type: ignore[arg-type]

    stale = await alice.click(old, str(live_cards(old)[0]["custom_id"]))
    assert stale.message is not None and stale.message.ephemeral
    assert "momento precedente" in stale.message.text()

    foreign = await bob.click(table, MY_HAND)
    assert foreign.message is not None and foreign.message.ephemeral
    assert "Non sei seduto" in foreign.message.text()

    hand_id = next(b["custom_id"] for b in table.buttons() if GAME_ID.match(b["custom_id"]))
    game = GAME_ID.match(hand_id)[1]  # type: ignore[index]
    for forged in (f"sb|g|{game}|999|p|7d", "sb|g|999999|1|p|7d", "not-ours", "sb|g|1|1|z|"):
        interaction = s.interactions.start(
            InteractionType.MESSAGE_COMPONENT,
            bob.user,
            s.world.channels[table.channel_id],
            {"custom_id": forged, "component_type": 2},
            source=table,
        )
        await s.wait_for(lambda it=interaction: it.response is not None, timeout=3)
        assert interaction.original is not None and interaction.original.ephemeral
        assert "non vale più" in interaction.original.text()
    assert len(table.history) == revisions  # nothing changed on the table
    assert card_labels(hand_message(s, alice)) == before  # type: ignore[arg-type]
