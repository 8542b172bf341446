"""/scopa new: every option of the rules, and conflicting ones refused in words."""

from __future__ import annotations

from tests.standin import DiscordStandIn

from .helpers import CANCEL, BotProcess


async def test_primiera_and_tiebreak_are_offered_and_conflicts_are_refused(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice = s.user("alice")
    both = (await alice.slash("scopa new", target=11, deals=3)).message
    assert both is not None and both.ephemeral and "non entrambi" in both.text()
    hours = (await alice.slash("scopa new", pace="live", hours=48)).message
    assert hours is not None and hours.ephemeral and "minuti con dal vivo" in hours.text()
    games = (await alice.slash("scopa games")).message
    assert games is not None and "Non sei seduto a nessun tavolo" in games.text()

    table = (await alice.slash("scopa new", primiera="sevens", tiebreak="ko")).message
    assert table is not None and not table.ephemeral
    assert "Primiera contando i sette" in table.text()
    assert "tavolo 1" in table.text()  # the refused ones opened nothing
    await alice.click(table, CANCEL)
