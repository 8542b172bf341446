"""A message kept up to date by its slot while its owner's clicks edit it too."""

from __future__ import annotations

import asyncio

from scopabot.bot.slots import Slot


class Message:
    """A message whose edits land in the order they reach it, each showing a version."""

    def __init__(self) -> None:
        self.shows = 0


async def test_a_refresh_overtaken_by_a_click_does_not_leave_the_hand_a_move_behind() -> None:
    game = {"version": 1}
    message = Message()
    held_back = asyncio.Event()  # a rate limit holding the slot's edit
    refreshes = []

    async def refresh() -> int:
        version = game["version"]  # the hand read as it is now
        refreshes.append(version)
        if len(refreshes) == 1:
            await held_back.wait()
        message.shows = version  # the edit lands
        return version

    slot = Slot("hand", refresh)
    slot.request(1)
    await asyncio.sleep(0)
    assert refreshes == [1]  # on its way, held back
    # The person clicks the hand she sees (version 1): the click's answer edits the message.
    slot.pause()
    game["version"] = 2
    message.shows = 2
    slot.resume(shown=2)
    # Then the held-back edit lands, showing the hand before her move.
    held_back.set()
    await asyncio.wait_for(slot.wait_idle(), 5)
    await asyncio.sleep(0)
    await asyncio.wait_for(slot.wait_idle(), 5)
    assert message.shows == 2, refreshes
    assert refreshes == [1, 2]


async def test_a_click_with_no_refresh_on_its_way_costs_no_edit() -> None:
    game = {"version": 1}
    edits = []

    async def refresh() -> int:
        edits.append(game["version"])
        return game["version"]

    slot = Slot("hand", refresh)
    slot.request(1)
    await asyncio.wait_for(slot.wait_idle(), 5)
    slot.pause()
    game["version"] = 2
    slot.resume(shown=2)
    await asyncio.sleep(0)
    await asyncio.wait_for(slot.wait_idle(), 5)
    assert edits == [1]
