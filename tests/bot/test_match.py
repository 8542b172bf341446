"""A whole match through Discord: the real bot.py, the real discord.py, the stand-in."""

from __future__ import annotations

from tests.standin import DiscordStandIn

from .helpers import (
    BotProcess,
    counted_requests,
    hand_message,
    is_over,
    next_turn,
    play_from,
    table_messages,
    thread_named,
)


async def test_two_players_against_a_computer_from_new_to_the_final_standings(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice = s.user("alice")
    created = await alice.slash("scopa new", computers=1, target=5)
    invitation = created.message
    assert invitation is not None and invitation.is_v2
    assert "Computer" in invitation.text() and "<@" in invitation.text()
    started = await alice.click(invitation, "Inizia")
    assert not started.failed
    thread = await s.wait_for(lambda: thread_named(s, "Scopa"), timeout=5)
    await s.wait_for(lambda: table_messages(s, thread), timeout=5)
    first_hand = await s.wait_for(lambda: hand_message(s, alice), timeout=5)
    assert "Vai al tavolo" in first_hand.text() and f"/{thread.id}/" in first_hand.text()
    before = len(s.requests)
    moves = asked = 0
    while (turn := await next_turn(s, thread, [alice])) is not None:
        _, hand = turn
        _, choice = await play_from(s, alice, hand)
        moves += 1
        asked += choice
    tables = table_messages(s, thread)
    assert len(tables) == 1, "the table message is edited in place, never posted again"
    final = tables[0]
    assert is_over(final)
    assert "Vince" in final.text()
    assert "Smazzata" in final.text()  # the last deal's breakdown
    assert len(final.history) > moves  # edited at least once per move of alice
    # The budget: counted REST calls per move (alice's and the computer's) stay small.
    plays = final.text().count("gioca")
    calls = counted_requests(s, before)
    assert moves >= 10
    assert len(calls) <= 3 * 2 * moves, [r.path for r in calls]
    assert plays >= 0 and asked >= 0
