"""/score from start to a winner, with an undo on the way."""

from __future__ import annotations

from scopabot.render.i18n import Lang, tr
from tests.standin import DiscordStandIn, Message

from .helpers import END, OTHER_POINTS, UNDO, BotProcess


def labels(sheet: Message) -> list[str]:
    return [str(b.get("label")) for b in sheet.buttons()]


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
    await alice.click(sheet, UNDO)
    assert "**Voi**: 2" in sheet.text()
    await alice.click(sheet, "Noi +2")
    assert "Vince Noi" in sheet.text()
    # A sheet with a winner takes no more points; its last entry may still be taken back.
    assert labels(sheet) == [UNDO, END]


async def test_a_wrong_winning_entry_is_undone_and_the_sheet_closed_after(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice = s.user("alice")
    sheet = (await alice.slash("score start", sides="Noi, Voi", target=3)).message
    assert sheet is not None
    await alice.click(sheet, "Noi +3")  # meant for Voi
    assert tr("sheet.winner", Lang.IT, name="Noi") in sheet.text()
    assert labels(sheet) == [UNDO, END]
    assert not (await alice.click(sheet, UNDO)).failed
    assert "**Noi**: 0" in sheet.text()
    assert tr("sheet.winner", Lang.IT, name="Noi") not in sheet.text()
    assert "Voi +3" in labels(sheet)  # points may be written again
    await alice.click(sheet, "Voi +3")
    assert tr("sheet.winner", Lang.IT, name="Voi") in sheet.text()
    assert not (await alice.click(sheet, END)).failed
    assert tr("sheet.winner", Lang.IT, name="Voi") in sheet.text()
    assert not sheet.buttons()  # closed: nothing more to do on it


async def test_other_points_are_asked_in_a_form_checked_and_written_with_a_note(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice = s.user("alice")
    sheet = (await alice.slash("score start", sides="Noi, Voi", target=21)).message
    assert sheet is not None
    await alice.click(sheet, "Noi +2")
    revisions = len(sheet.history)

    for typed, said in (("tre", "non è un numero"), ("150", "da 1 a 101"), ("0", "da 1 a 101")):
        opened = await alice.click(sheet, OTHER_POINTS)
        assert opened.modal is not None and opened.modal["title"] == "Punti a una squadra"
        sent = await alice.submit_modal(opened, {"side": "1", "points": typed})
        assert sent.message is not None and sent.message.ephemeral, typed
        assert said in sent.message.text() and "Non ho aggiunto niente" in sent.message.text()
    assert len(sheet.history) == revisions  # nothing was written

    opened = await alice.click(sheet, OTHER_POINTS)
    assert opened.modal is not None
    sent = await alice.submit_modal(opened, {"side": "1", "points": " 7 ", "note": "napola"})
    assert not sent.failed
    assert "**Voi**: 7" in sheet.text() and "**Noi**: 2" in sheet.text()
    assert "Ultimo: +7 a Voi (napola)" in sheet.text()
    await alice.click(sheet, UNDO)
    assert "**Voi**: 0" in sheet.text()
    bob = s.user("bob")  # not on the sheet: refused, in words
    opened = await bob.click(sheet, OTHER_POINTS)
    sent = await bob.submit_modal(opened, {"side": "0", "points": "5"})
    assert sent.message is not None and "Non sei in questo foglio" in sent.message.text()
    assert "**Noi**: 2" in sheet.text()
