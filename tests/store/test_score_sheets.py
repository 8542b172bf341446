"""Score sheets with the people of each side, and an undo that names the entry it takes back."""

from __future__ import annotations

import json

import pytest

from scopabot.store import Store


async def test_sides_keep_their_people(store: Store) -> None:
    sheet = await store.score_sheets.open(
        owner_id=1, sides=["Noi", "Voi"], members=[[1, 2], [3, 4]], channel_id=9
    )
    assert sheet.sides == ("Noi", "Voi") and sheet.members == ((1, 2), (3, 4))
    again = await store.score_sheets.get(sheet.id)
    assert again.members == ((1, 2), (3, 4)) and again.totals == (0, 0)
    assert [s.members for s in await store.score_sheets.in_channel(9)] == [((1, 2), (3, 4))]
    named = await store.score_sheets.open(owner_id=1, sides=["a", "b"])
    assert named.members == () and named.sides == ("a", "b")
    with pytest.raises(ValueError, match="every side"):
        await store.score_sheets.open(owner_id=1, sides=["a", "b"], members=[[1]])


async def test_a_sheet_written_with_plain_names_still_reads(store: Store) -> None:
    sheet = await store.score_sheets.open(owner_id=1, sides=["x", "y"], members=[[5], []])
    async with store.database.read() as conn:
        rows = await conn.execute_fetchall(
            "SELECT sides FROM score_sheets WHERE id = ?", (sheet.id,)
        )
    stored = json.loads(next(iter(rows))[0])
    assert stored == [{"name": "x", "members": [5]}, {"name": "y", "members": []}]
    assert (await store.score_sheets.get(sheet.id)).members == ((5,), ())


async def test_undo_names_the_entry_it_takes_back(store: Store) -> None:
    sheet = await store.score_sheets.open(owner_id=1, sides=["a", "b"])
    await store.score_sheets.add_score(sheet.id, 0, 2, by_user=1)
    await store.score_sheets.add_score(sheet.id, 1, 3, by_user=2)
    # Someone checked entry 1 but entry 2 is now the latest: nothing is undone.
    assert await store.score_sheets.undo_score(sheet.id, seq=1) is None
    assert (await store.score_sheets.get(sheet.id)).totals == (2, 3)
    undone = await store.score_sheets.undo_score(sheet.id, seq=2)
    assert undone is not None and undone.seq == 2 and undone.by_user == 2
    assert (await store.score_sheets.get(sheet.id)).totals == (2, 0)
