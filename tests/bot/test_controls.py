"""Each kind of control is its own class, and a custom_id finds the one it was made by.

The ids below are laid out as every earlier version of the bot sent them: messages already
in channels keep working after an upgrade, each click reaching the same work as before.
"""

from __future__ import annotations

import discord
import pytest
from discord import ui

from scopabot.bot import ids
from scopabot.bot.actions import (
    GAME_CONTROLS,
    CaptureChoice,
    PickCapture,
    PlayCard,
    Rematch,
    ShowHand,
    TakeSeatBack,
)
from scopabot.bot.boards import BoardPage
from scopabot.bot.score import SHEET_CONTROLS, CloseSheet, OtherPoints, SheetPoints, UndoEntry
from scopabot.bot.tables import (
    TABLE_CONTROLS,
    AddComputer,
    CancelTable,
    JoinTable,
    LeaveTable,
    StartTable,
)

CONTROLS = (*GAME_CONTROLS, *TABLE_CONTROLS, BoardPage, *SHEET_CONTROLS)

SENT = {  # a custom_id as sent before (and now) -> the class that answers it, its fields
    "sb|g|4|17|p|7d": (PlayCard, {"game_id": 4, "version": 17, "card": "7d"}),
    "sb|g|4|17|c|7d:3c+4s": (PickCapture, {"game_id": 4, "version": 17, "move": "7d:3c+4s"}),
    "sbs|g|4|17|c|": (CaptureChoice, {"game_id": 4, "version": 17}),
    "sb|g|4|17|h|": (ShowHand, {"game_id": 4, "version": 17}),
    "sb|g|4|17|b|": (TakeSeatBack, {"game_id": 4, "version": 17}),
    "sb|g|4|17|r|": (Rematch, {"game_id": 4, "version": 17}),
    "sb|t|9|0|j|": (JoinTable, {"table_id": 9, "side": None}),
    "sb|t|9|0|j|1": (JoinTable, {"table_id": 9, "side": 1}),
    "sb|t|9|0|l|": (LeaveTable, {"table_id": 9}),
    "sb|t|9|0|a|": (AddComputer, {"table_id": 9}),
    "sb|t|9|0|s|": (StartTable, {"table_id": 9}),
    "sb|t|9|0|x|": (CancelTable, {"table_id": 9}),
    "sb|b|-1|2|n|": (BoardPage, {"board": -1, "category": 2, "cursor": ""}),
    "sb|b|812|0|n|1503.25,77": (BoardPage, {"board": 812, "category": 0, "cursor": "1503.25,77"}),
    "sb|k|5|3|k|1.2": (SheetPoints, {"sheet_id": 5, "entries": 3, "side": 1, "points": 2}),
    "sb|k|5|3|k|": (OtherPoints, {"sheet_id": 5, "entries": 3}),
    "sb|k|5|3|u|": (UndoEntry, {"sheet_id": 5, "entries": 3}),
    "sb|k|5|3|e|": (CloseSheet, {"sheet_id": 5, "entries": 3}),
}


@pytest.mark.parametrize("custom_id", sorted(SENT))
async def test_a_sent_custom_id_reaches_its_own_control_and_is_made_again_the_same(
    custom_id: str,
) -> None:
    kind, fields = SENT[custom_id]
    matching = [c for c in CONTROLS if c.pattern.fullmatch(custom_id)]
    assert matching == [kind]
    assert ids.is_ours(custom_id)
    found = kind.pattern.fullmatch(custom_id)
    assert found is not None
    if custom_id.startswith("sbs|"):
        item: ui.Item[ui.View] = ui.Select(custom_id=custom_id, options=[])
    else:
        item = ui.Button(label="7 di denari", custom_id=custom_id)
    control = await kind.from_custom_id(None, item, found)  # type: ignore[arg-type]
    assert control.custom_id == custom_id
    for name, value in fields.items():
        assert getattr(control, name) == value, name
    if isinstance(control.item, ui.Button):
        assert control.item.label == "7 di denari"  # the clicked button's look is kept


@pytest.mark.parametrize(
    "custom_id",
    [
        "sb|g|4|17|z|",  # no such action
        "sb|g|4|17|j|",  # a table's action on a game
        "sb|t|9|0|p|7d",  # a game's on a table
        "sb|k|5|3|k|x.y",  # points that are not numbers
        "sb|g|4|17|p|",  # a card left out
        "sb|g|99999999999999999999|1|p|7d",  # beyond the database's integers (checked apart)
        "sbx|g|4|17|p|7d",
        "not ours",
    ],
)
def test_a_forged_custom_id_reaches_no_control(custom_id: str) -> None:
    matching = [c for c in CONTROLS if c.pattern.fullmatch(custom_id)]
    if "9999999999" in custom_id:
        assert not ids.is_ours(custom_id)  # the control refuses it in its interaction check
    else:
        assert matching == []


def test_the_longest_ids_fit_in_discord_s_100_characters() -> None:
    big = ids.MAX_ID
    made = [
        PlayCard(big, 2**31, "x" * ids.MAX_ARG),
        PickCapture(big, 2**31, "7d:" + "+".join(["3c"] * 19)),
        CaptureChoice(big, 2**31, [discord.SelectOption(label="a")]),
        JoinTable(-big, side=1),
        BoardPage(-big, 99, "-1.2345678901234567e-05," + "9" * 19),
        SheetPoints(big, 2**31, side=9, points=999999),
    ]
    for control in made:
        assert len(control.custom_id) <= 100, control.custom_id
        assert ids.is_ours(control.custom_id)
