"""A whole match through Discord: the real bot.py, the real discord.py, the stand-in."""

from __future__ import annotations

import re
from pathlib import Path

from tests.standin import DiscordStandIn

from .helpers import (
    REMATCH,
    START,
    BotProcess,
    counted_requests,
    hand_message,
    is_over,
    next_turn,
    play_from,
    table_caught_up,
    table_messages,
    thread_named,
)

DEAL = re.compile(r"smazzata (\d+)")


async def test_two_players_against_a_computer_from_new_to_the_final_standings(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice = s.user("alice")
    created = await alice.slash("scopa new", computers=1, target=5)
    invitation = created.message
    assert invitation is not None and invitation.is_v2
    assert "Computer" in invitation.text() and "<@" in invitation.text()
    started = await alice.click(invitation, START)
    assert not started.failed
    thread = await s.wait_for(lambda: thread_named(s, "Scopa"), timeout=5)
    await s.wait_for(lambda: table_messages(s, thread), timeout=5)
    first_hand = await s.wait_for(lambda: hand_message(s, alice), timeout=5)
    assert "Vai al tavolo" in first_hand.text() and f"/{thread.id}/" in first_hand.text()
    before = len(s.requests)
    moves = asked = 0
    while (turn := await next_turn(s, thread, [alice])) is not None:
        _, hand = turn
        # Her hand goes live as soon as it is her turn; the table's edit for the plays before
        # may still be on its way (and, coalesced with her next play's, never show them): she
        # plays once the table shows the game as her hand does, so every play reaches it.
        await table_caught_up(s, thread, hand)
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
    # Every play of alice's was on the table at some point (the last plays of each revision,
    # by deal: a card is played once a deal), a chosen capture included; all but perhaps
    # the match's last, which the final standings may replace at once.
    shown = {
        (deal[1], line)
        for revision in final.history
        if (deal := DEAL.search(text := revision.text())) is not None
        for line in text.splitlines()
        if line.startswith(f"- <@{alice.user.id}> ")
    }
    assert len(shown) >= moves - 1, (moves, sorted(shown))
    # The budget: counted REST calls per move (alice's and the computer's) stay small, the
    # moves where alice chose among captures (one more click each) included.
    calls = counted_requests(s, before)
    assert moves >= 10
    assert len(calls) <= 3 * 2 * moves, (asked, [r.path for r in calls])

    # After the match: the leaderboard and stats know alice, and Rematch opens a new table.
    board = (await alice.slash("scopa leaderboard")).message
    assert board is not None and f"<@{alice.user.id}>" in board.text()
    stats = (await alice.slash("scopa stats")).message
    assert stats is not None and stats.ephemeral and "1 partita" in stats.text()
    rematch = await alice.click(final, REMATCH)
    assert rematch.message is not None and "Inizia" in [
        b.get("label") for b in rematch.message.buttons()
    ]
    assert "tavolo 2" in rematch.message.text()
    helped = (await alice.slash("scopa help")).message
    # An Italian client shows /scopa nuova, so the Italian help names it so (issue #20).
    assert helped is not None and "/scopa nuova" in helped.text()


async def test_without_thread_permission_the_table_stays_in_the_channel_and_the_host_is_told(
    standin: DiscordStandIn, tmp_path: Path
) -> None:
    bot = BotProcess(standin, tmp_path / "bot.db")
    await bot.start()
    try:
        alice = standin.user("alice")
        invitation = (await alice.slash("scopa new", computers=1, deals=1)).message
        assert invitation is not None
        started = await alice.click(invitation, START)
        told = await started.followup(0)
        assert told.ephemeral and "Crea thread pubblici" in told.text()
        assert not [c for c in standin.world.channels.values() if c.is_thread]
        # The invitation became the table message, edited through the click.
        assert "La mia mano" in [b.get("label") for b in invitation.buttons()]
        turn = await next_turn(standin, standin.channel("tavolo"), [alice])
        assert turn is not None
        await play_from(standin, alice, turn[1])
    finally:
        assert await bot.stop() == 0
