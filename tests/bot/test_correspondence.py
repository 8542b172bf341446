"""A correspondence table: the deadline passes, a computer plays the turn, a reminder first.

bot.py runs with ``SCOPABOT_CLOCK_SPEED=3600`` (tests only): an hour passes in a second.
"""

from __future__ import annotations

from pathlib import Path

from tests.standin import DiscordStandIn

from .helpers import BotProcess, hand_message, table_messages, thread_named


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
        await bob.click(invitation, "Siediti")
        await alice.click(invitation, "Inizia")
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
