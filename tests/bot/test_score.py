"""/score from start to a winner, with an undo on the way."""

from __future__ import annotations

from tests.standin import DiscordStandIn

from .helpers import BotProcess


async def test_score_sheet_from_start_to_a_winner(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice = s.user("alice")
    sheet = (await alice.slash("score start", sides="Noi, Voi", target=11)).message
    assert sheet is not None and not sheet.ephemeral
    for label in ("Noi +3", "Voi +2", "Noi +3", "Noi +3", "Voi +1"):
        assert not (await alice.click(sheet, label)).failed
    assert "**Noi**: 9" in sheet.text() and "**Voi**: 3" in sheet.text()
    await alice.click(sheet, "Annulla l'ultimo")
    assert "**Voi**: 2" in sheet.text()
    await alice.click(sheet, "Noi +2")
    assert "Vince Noi" in sheet.text()
    assert not sheet.buttons()  # a finished sheet takes no more points
