"""Odd input gets a clear sentence in the person's language, and nothing changes."""

from __future__ import annotations

import re

from tests.standin import Actor, DiscordStandIn

from .helpers import (
    OTHER_POINTS,
    PLAY_ID,
    BotProcess,
    hand_message,
    play_buttons,
    start_against_computer,
    table_messages,
)

ENGLISH = re.compile(r"\b(the|is|not|side|sides|name|names|each|needs|number|game)\b", re.I)
ITALIAN = re.compile(r"\b(il|non|è|squadra|squadre|nome|nomi|partita|numero|niente)\b", re.I)


async def test_odd_game_numbers_are_refused_with_a_reason(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice = s.user("alice")
    thread = await start_against_computer(s, alice, deals=1)
    hand = await s.wait_for(lambda: hand_message(s, alice), timeout=10)
    match = PLAY_ID.match(str(play_buttons(hand)[0]["custom_id"]))
    assert match is not None
    game, card = match[1], match[3]
    table = table_messages(s, thread)[0]
    revisions = len(table.history)
    for typed in ("²", "12345678901234567890123", "-1", "1e3", "1.0", "٣"):
        for command, options in (
            ("scopa table", {}),
            ("scopa rules", {}),
            ("scopa resign", {}),
            ("scopa play", {"card": card}),
        ):
            result = await alice.slash(command, channel="chiacchiere", game=typed, **options)
            reply = result.message
            assert not result.failed and reply is not None, (command, typed)
            assert "non è un numero di partita" in reply.text(), (command, typed, reply.text())
            assert "storto" not in reply.text()  # not the apology of an unexpected error
    assert len(table.history) == revisions and table_messages(s, thread)[0] is table
    assert "Vince" not in table.text()  # not resigned
    # Spaces around the number are forgiven: it is game `game`, not a guess.
    shown = (await alice.slash("scopa rules", channel="chiacchiere", game=f" {game} ")).message
    assert shown is not None and "non è un numero" not in shown.text()
    assert not [line for line in bot_py.lines if "Traceback" in line], bot_py.output()


async def test_odd_points_and_unknown_forms_change_nothing(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice = s.user("alice")
    sheet = (await alice.slash("score start", sides="Noi, Voi", target=21)).message
    assert sheet is not None
    revisions = len(sheet.history)
    for typed, said in (("²", "non è un numero"), ("1e3", "non è un numero"), ("-1", "da 1 a 101")):
        opened = await alice.click(sheet, OTHER_POINTS)
        sent = await alice.submit_modal(opened, {"side": "1", "points": typed})
        assert not sent.failed and sent.message is not None, typed
        assert said in sent.message.text(), (typed, sent.message.text())
    for forged in ("sb|k|99999999999999999999|0|k|", "something else", "sb|g|1|0|p|7d"):
        opened = await alice.click(sheet, OTHER_POINTS)
        assert opened.modal is not None
        opened.modal["custom_id"] = forged
        sent = await alice.submit_modal(opened, {"side": "1", "points": "3"})
        assert not sent.failed and sent.message is not None, forged
        assert "Quel modulo non è mio" in sent.message.text(), sent.message.text()
    assert len(sheet.history) == revisions
    assert "**Noi**: 0" in sheet.text() and "**Voi**: 0" in sheet.text()
    assert not [line for line in bot_py.lines if "Traceback" in line], bot_py.output()


async def test_a_refused_sheet_speaks_one_language(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    italian = s.user("alice")
    english = Actor(s, s.world.user_named("bob"), locale="en-US")
    for sides in ("Noi", "Noi, noi", "Noi, , Voi, A, B, C", "Noi, " + "x" * 60):
        said = (await italian.slash("score start", sides=sides)).message
        assert said is not None and said.text().startswith("Foglio non possibile: "), sides
        assert not ENGLISH.search(said.text()), said.text()
        said = (await english.slash("score start", sides=sides)).message
        assert said is not None
        assert said.text().startswith("That score sheet is not possible: "), said.text()
        assert not ITALIAN.search(said.text()), said.text()
