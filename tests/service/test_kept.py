"""What the service keeps instead of reading it again: the mover's view in the move's outcome,
and the table of a match being played. Each must be what a fresh read would say."""

from __future__ import annotations

import random
from typing import Any

from scopabot.service import GameService, SeatView, TableInfo
from scopabot.service.core import table_info
from scopabot.store import Store

from .helpers import play_once
from .test_turns import two_people


async def fresh_table(store: Store, table_id: int) -> TableInfo:
    return table_info(await store.table(table_id))


async def test_a_moves_outcome_carries_the_view_a_fresh_read_gives(
    service: GameService, store: Store
) -> None:
    game_id = await two_people(service, seed=5, deals=1)
    rng = random.Random(5)
    moves = 0
    while not (await service.public_view(game_id)).finished:
        public = await service.public_view(game_id)
        user = public.seats[public.turn].user_id
        assert user is not None
        outcome = await play_once(service, game_id, user, rng)
        moves += 1
        assert isinstance(outcome.view, SeatView)
        assert outcome.view.version == outcome.version
        # What the bot used to read back after the move, field by field.
        assert outcome.view == await service.seat_view(game_id, user=user)
        assert outcome.view.table == await fresh_table(store, outcome.view.table.id)
    assert moves > 30
    assert outcome.view.public.finished and not outcome.view.choices


async def test_a_playing_tables_reads_are_kept_and_match_the_store(
    service: GameService, store: Store
) -> None:
    game_id = await two_people(service, seed=2, deals=1)
    table_id = (await service.table_of_game(game_id)).id
    for _ in range(3):
        public = await service.public_view(game_id)
        await play_once(service, game_id, public.seats[public.turn].user_id or 0)
        assert await service.table(table_id) == await fresh_table(store, table_id)
    moved = await service.set_table_messages(table_id, channel_id=7, message_id=70)
    assert moved == await fresh_table(store, table_id)
    reads = 0
    real = store.table

    async def counted(table: int) -> Any:
        nonlocal reads
        reads += 1
        return await real(table)

    store.table = counted  # type: ignore[method-assign,assignment]
    kept = await service.table(table_id)
    assert (await service.table_of_game(game_id)) == kept
    assert reads == 0, "a playing table was read from the store again"
    assert kept.message_id == 70 and kept.channel_id == 7
    store.table = real  # type: ignore[method-assign]
    assert kept == await fresh_table(store, table_id)


async def test_a_finished_or_unknown_tables_read_goes_to_the_store(
    service: GameService, store: Store
) -> None:
    game_id = await two_people(service, seed=3, deals=1)
    table_id = (await service.table_of_game(game_id)).id
    await service.resign(game_id, user=1)
    after = await service.table(table_id)
    assert after == await fresh_table(store, table_id)
    assert after.status.value == "finished"
    opened = await service.open_table(host=9)
    assert await service.table(opened.id) == await fresh_table(store, opened.id)
