"""A table that lives in its channel (the bot may not open threads) keeps every finished
deal's count where people can read it back: its own message, as in a thread, and the last
one in ``/scopa table``. Shown on the table message only, it was gone a play later."""

from __future__ import annotations

from pathlib import Path

from scopabot.render.i18n import Lang, tr
from tests.standin import DiscordStandIn

from .helpers import START, BotProcess, is_over, next_turn, play_from, table_messages
from .test_delivery import deal_counts


async def test_a_channel_table_keeps_each_deals_count_and_shows_the_last_on_asking(
    standin: DiscordStandIn, tmp_path: Path
) -> None:
    s = standin
    bot = BotProcess(s, tmp_path / "bot.db")
    await bot.start()
    try:
        alice = s.user("alice")
        tavolo = s.channel("tavolo")
        invitation = (await alice.slash("scopa new", computers=1, deals=2)).message
        assert invitation is not None
        await alice.click(invitation, START)
        played_in_2 = 0
        # Into deal 2, past its first round (where the table message shows deal 1's count).
        while played_in_2 < 3 and (turn := await next_turn(s, tavolo, [alice])) is not None:
            in_2 = "smazzata 2" in table_messages(s, tavolo)[0].text()
            await play_from(s, alice, turn[1])
            played_in_2 += in_2
        assert played_in_2 == 3, "the match ended before deal 2's third play"
        counts = await s.wait_for(lambda: deal_counts(s, tavolo), timeout=5)
        assert len(counts) == 1, [m.text() for m in counts]
        first = tr("bd.title", Lang.IT, deal=1)
        assert tr("deal.end", Lang.IT, deal=1) in counts[0].text()
        assert first in counts[0].text() and "```" in counts[0].text()
        table = table_messages(s, tavolo)[0]
        assert not is_over(table) and first not in table.text()  # past the first round
        shown = (await alice.slash("scopa table", channel=tavolo)).message
        assert shown is not None and shown.ephemeral
        assert first in shown.text() and "```" in shown.text(), shown.text()
    finally:
        assert await bot.stop() == 0, bot.output()
    assert not bot.errors(), bot.output()
