"""Several computers at one table are each named by their seat, the same in the table's
text, its pictures and their alt text: "Tocca a Computer (normale)" did not say which."""

from __future__ import annotations

import re

from scopabot.render.i18n import Lang, tr
from tests.standin import DiscordStandIn

from .helpers import BotProcess, next_turn, play_from, table_messages, thread_named

COMPUTER = tr("computer", Lang.IT, level=tr("level.normal", Lang.IT))
UNMARKED = re.compile(re.escape(COMPUTER) + r"(?! #\d)")


async def test_two_computers_at_one_table_are_told_apart_everywhere(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice = s.user("alice")
    invitation = (await alice.slash("scopa new", players=3, computers=2)).message
    assert invitation is not None
    await alice.click(invitation, tr("btn.start", Lang.IT))
    thread = await s.wait_for(lambda: thread_named(s, "Scopa"), timeout=5)
    for _ in range(2):
        turn = await next_turn(s, thread, [alice])
        assert turn is not None
        await play_from(s, alice, turn[1])
    await next_turn(s, thread, [alice])
    table = table_messages(s, thread)[0]
    text = table.text()
    assert f"{COMPUTER} #2" in text and f"{COMPUTER} #3" in text, text
    assert not UNMARKED.search(text), text
    described = " ".join(str(a.get("description", "")) for a in table.attachments)
    assert f"{COMPUTER} #2" in described and f"{COMPUTER} #3" in described, described
    assert not UNMARKED.search(described), described
    hand = (await alice.slash("scopa hand", channel=thread)).message
    assert hand is not None and not UNMARKED.search(hand.text()), hand.text()
