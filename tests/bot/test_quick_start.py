"""Start clicked before the bot has learnt its invitation's message id still opens a thread."""

from __future__ import annotations

from tests.standin import DiscordStandIn

from .helpers import (
    START,
    BotProcess,
    hand_message,
    next_turn,
    play_from,
    table_messages,
    thread_named,
)

CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"


async def test_a_quick_start_opens_the_table_in_its_thread(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice = s.user("alice")
    # Discord shows the invitation at once but answers the bot's reply a second later (as
    # under load): alice clicks Start while the bot still waits for the invitation's id.
    s.dispatcher.answer_slowly(CALLBACK, 1.5)
    invitation = (await alice.slash("scopa new", computers=1, deals=1)).message
    assert invitation is not None
    started = await alice.click(invitation, START)
    assert not started.failed
    thread = await s.wait_for(lambda: thread_named(s, "Scopa"), timeout=10)
    assert thread.parent_id == s.world.channel_named("tavolo").id
    tables = await s.wait_for(lambda: table_messages(s, thread), timeout=10)
    assert len(tables) == 1
    # The reply's late answer does not take the table back to the invitation: moves are
    # shown on the table in the thread, and the invitation stays an invitation.
    turn = await next_turn(s, thread, [alice])
    assert turn is not None and hand_message(s, alice) is not None
    await play_from(s, alice, turn[1])
    await s.wait_for(lambda: len(table_messages(s, thread)[0].history) > 2, timeout=10)
    assert not table_messages(s, s.world.channel_named("tavolo"))
