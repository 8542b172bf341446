from __future__ import annotations

import pytest

from scopabot.engine import Game, Preset, Rules, RulesError
from scopabot.store import GuildSettings, NotFoundError, SeatHolder, Store, StoreError, TableStatus


async def test_guild_settings_round_trip(store: Store) -> None:
    assert await store.settings.guild(5) == GuildSettings(5)
    settings = GuildSettings(5, "en", {"preset": "scopone_scientifico", "target": 21}, 77)
    await store.settings.save_guild(settings)
    assert await store.settings.guild(5) == settings
    with pytest.raises(RulesError):
        await store.settings.save_guild(GuildSettings(5, "en", {"colour": "red"}))


async def test_a_server_language_never_chosen_stays_unset(store: Store) -> None:
    # Saving a game channel must not write a language the manager never chose.
    await store.settings.save_guild(GuildSettings(6, game_channel_id=9))
    assert (await store.settings.guild(6)).language is None
    assert (await store.settings.guild(7)).language is None


async def test_table_seats_and_status(store: Store) -> None:
    rules = Rules(preset=Preset.SCOPONE_CLASSICO)
    table = await store.tables.create(host_id=1, rules=rules, guild_id=5, channel_id=10)
    assert table.status is TableStatus.OPEN and table.rules == rules and table.seats == {}
    await store.tables.take_seat(table.id, 0, SeatHolder.human(1))
    table = await store.tables.take_seat(table.id, 1, SeatHolder.computer("hard"))
    assert table.seats == {0: SeatHolder.human(1), 1: SeatHolder.computer("hard")}
    with pytest.raises(StoreError, match="taken"):
        await store.tables.take_seat(table.id, 0, SeatHolder.human(2))
    with pytest.raises(StoreError, match="no seat"):
        await store.tables.take_seat(table.id, 4, SeatHolder.human(2))
    table = await store.tables.leave_seat(table.id, 1)
    assert set(table.seats) == {0}
    table = await store.tables.update(table.id, status=TableStatus.PLAYING, message_id=99)
    assert (table.status, table.message_id, table.channel_id) == (TableStatus.PLAYING, 99, 10)
    assert (await store.tables.by_message(99)) == table
    assert [x.id for x in await store.tables.in_guild(5)] == [table.id]
    assert [x.id for x in await store.tables.of_user(1)] == [table.id]
    table = await store.tables.update(table.id, status=TableStatus.FINISHED, message_id=None)
    assert table.message_id is None and await store.tables.in_guild(5) == []
    with pytest.raises(NotFoundError):
        await store.tables.get(12345)


async def test_score_keeper_with_undo(store: Store) -> None:
    sheet = await store.score_sheets.open(owner_id=3, sides=["noi", "voi"], target=11)
    await store.score_sheets.add_score(sheet.id, 0, 4, note="carte, denari, settebello, scopa")
    await store.score_sheets.add_score(sheet.id, 1, 2)
    sheet = await store.score_sheets.add_score(sheet.id, 0, 8, by_user=3)
    assert sheet.totals == (12, 2) and sheet.leader == 0
    undone = await store.score_sheets.undo_score(sheet.id)
    assert undone is not None and undone.points == 8 and undone.undone_at is not None
    sheet = await store.score_sheets.get(sheet.id)
    assert sheet.totals == (4, 2) and sheet.leader is None
    entries = await store.score_sheets.entries(sheet.id)
    assert [(e.seq, e.points, e.undone_at is None) for e in entries] == [
        (1, 4, True),
        (2, 2, True),
        (3, 8, False),
    ]
    await store.score_sheets.undo_score(sheet.id)
    await store.score_sheets.undo_score(sheet.id)
    assert await store.score_sheets.undo_score(sheet.id) is None
    sheet = await store.score_sheets.add_score(sheet.id, 1, 1)
    assert sheet.totals == (0, 1)
    with pytest.raises(ValueError, match="no side"):
        await store.score_sheets.add_score(sheet.id, 2, 1)
    closed = await store.score_sheets.close(sheet.id)
    assert closed.closed
    with pytest.raises(StoreError, match="closed"):
        await store.score_sheets.add_score(sheet.id, 0, 1)


async def test_a_rematch_that_cannot_be_filled_leaves_no_table(store: Store) -> None:
    rules = Rules()
    old = await store.tables.create(host_id=1, rules=rules)
    await store.tables.take_seat(old.id, 0, SeatHolder.human(1))
    await store.tables.take_seat(old.id, 1, SeatHolder.human(2))
    started = await store.tables.start(old.id, Game.new(rules, seed=1))
    with pytest.raises(StoreError):
        await store.tables.open_rematch(
            started.id,
            host_id=1,
            rules=rules,
            seats={0: SeatHolder.human(1), 5: SeatHolder.human(2)},
        )
    assert await store.tables.rematch_of(started.id) is None
    assert [t.id for t in await store.tables.in_guild(None)] == [old.id]
    table, opened = await store.tables.open_rematch(
        started.id, host_id=2, rules=rules, seats={0: SeatHolder.human(1), 1: SeatHolder.human(2)}
    )
    assert opened and table.seats == {0: SeatHolder.human(1), 1: SeatHolder.human(2)}
    again, opened = await store.tables.open_rematch(started.id, host_id=1, rules=rules, seats={})
    assert not opened and again.id == table.id
