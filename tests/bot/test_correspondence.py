"""A correspondence table: the deadline passes, a computer plays the turn, a reminder first.

bot.py runs with ``SCOPABOT_CLOCK_SPEED=3600`` (tests only): an hour passes in a second.
"""

from __future__ import annotations

from pathlib import Path

from tests.standin import DiscordStandIn
from tests.standin.messages import Message

from .helpers import (
    JOIN,
    START,
    TAKE_BACK,
    BotProcess,
    fresh_turn,
    hand_message,
    live_cards,
    play_from,
    start_against_computer,
    table_messages,
    thread_named,
)


async def test_a_correspondence_deadline_passes_and_the_computer_plays(
    threaded: DiscordStandIn, tmp_path: Path
) -> None:
    s = threaded
    bot = BotProcess(s, tmp_path / "bot.db", env={"SCOPABOT_CLOCK_SPEED": "3600"})
    await bot.start()
    try:
        alice, bob = s.user("alice"), s.user("bob")
        await alice.slash("scopa notify", on=True)
        invitation = (await alice.slash("scopa new", pace="correspondence", hours=2)).message
        assert invitation is not None and "corrispondenza" in invitation.text()
        await bob.click(invitation, JOIN)
        await alice.click(invitation, START)
        thread = await s.wait_for(lambda: thread_named(s, "Scopa"), timeout=5)
        await s.wait_for(lambda: hand_message(s, alice) and hand_message(s, bob), timeout=5)
        # Nobody plays: within a few (fast) hours the reminder comes and a computer plays.
        reminded = await s.wait_for(
            lambda: [
                m for u in (alice, bob) for m in s.dm_timeline(u.user) if "Promemoria" in m.content
            ],
            timeout=10,
        )
        assert "<t:" in reminded[0].content
        table = await s.wait_for(
            lambda: [t for t in table_messages(s, thread) if "finito il tempo" in t.text()],
            timeout=10,
        )
        assert table
    finally:
        assert await bot.stop() == 0, bot.output()


async def test_a_seat_handed_to_the_computer_is_taken_back_from_the_hand(
    threaded: DiscordStandIn, tmp_path: Path
) -> None:
    s = threaded
    bot = BotProcess(s, tmp_path / "bot.db", env={"SCOPABOT_CLOCK_SPEED": "3600"})
    await bot.start()
    try:
        alice = s.user("alice")
        await start_against_computer(s, alice, pace="correspondence", hours=1)
        # Alice misses three turns (an hour each, a second here): the computer gets her seat,
        # and her hand message offers it back while the computer plays for her.

        def offered() -> Message | None:
            hand = hand_message(s, alice)
            labels = [] if hand is None else [b.get("label") for b in hand.buttons()]
            return hand if hand is not None and "Riprendi il posto" in labels else None

        hand = await s.wait_for(offered, timeout=20)
        assert "Gioca il computer per te" in hand.text()
        result = await alice.click(hand, TAKE_BACK)
        assert not result.failed and result.message is not None
        assert "Il posto è di nuovo tuo" in result.message.text()
        assert "Riprendi il posto" not in [b.get("label") for b in result.message.buttons()]
        # Her seat is hers: her turn comes back with live cards, no computer plays it.
        await s.wait_for(lambda: (h := hand_message(s, alice)) and live_cards(h), timeout=10)
        answer = (await alice.slash("scopa back")).message
        assert answer is not None and "nessun computer gioca per te" in answer.text()
    finally:
        assert await bot.stop() == 0, bot.output()


async def test_a_timeouts_note_stays_on_the_table_after_a_restart(
    threaded: DiscordStandIn, tmp_path: Path
) -> None:
    """The table's note of the last timeout is kept with the game: after a restart the table,
    redrawn for the next move, still says whose time ran out."""
    s = threaded
    bot = BotProcess(s, tmp_path / "bot.db", env={"SCOPABOT_CLOCK_SPEED": "3600"})
    await bot.start()
    try:
        alice, bob = s.user("alice"), s.user("bob")
        invitation = (await alice.slash("scopa new", pace="correspondence", hours=2)).message
        assert invitation is not None
        await bob.click(invitation, JOIN)
        await alice.click(invitation, START)
        thread = await s.wait_for(lambda: thread_named(s, "Scopa"), timeout=5)
        [table] = await s.wait_for(
            lambda: [t for t in table_messages(s, thread) if "finito il tempo" in t.text()],
            timeout=10,
        )
        note = next(line for line in table.text().splitlines() if "finito il tempo" in line)
        await bot.kill()
        bot.env = {}  # the clock at its pace: no deadline passes any more
        await bot.start()
        # The turn as the restarted bot shows it: a hand DM the killed bot drew a move
        # earlier (a timeout played for its owner just before the kill) may look live still.
        turn = await fresh_turn(s, thread, [alice, bob])
        assert turn is not None
        revisions = len(table.history)
        await play_from(s, turn[0], turn[1])
        await s.wait_for(lambda: len(table.history) > revisions, timeout=10)
        assert note in table.text().splitlines(), table.text()
    finally:
        assert await bot.stop() == 0, bot.output()
