"""What the service keeps instead of reading it again: the mover's view in the move's outcome,
views made from the store's live copy (or, while a move is being written, from the game before
it), and the table of a match being played. Each must be what a fresh read would say."""

from __future__ import annotations

import asyncio
import random
import sys
from typing import Any

from scopabot.engine import Game
from scopabot.service import (
    FakeClock,
    GameService,
    InlineThinker,
    NoteKind,
    SeatView,
    TableInfo,
    TableNote,
)
from scopabot.service import live as live_module
from scopabot.service.core import table_info
from scopabot.service.live import LiveGames
from scopabot.store import MoveRecord, Store, StoredGame

from .helpers import play_once
from .test_turns import two_people


async def fresh_table(store: Store, table_id: int) -> TableInfo:
    return table_info(await store.tables.get(table_id))


async def fresh_service(store: Store, clock: FakeClock) -> GameService:
    """Another service on the same store: it knows nothing yet, so it reads everything."""
    return await GameService.start(store, clock=clock, thinker=InlineThinker(), computer_pause=0)


def games_held_by_the_store(store: Store) -> list[object]:
    """Every game (or stored game) reachable from the store and its parts, or kept in the
    store's modules: the service's live game is the one copy, so this must find none."""
    found: list[object] = []
    seen: set[int] = set()

    def walk(value: object, depth: int) -> None:
        if id(value) in seen or depth > 6:
            return
        seen.add(id(value))
        if isinstance(value, Game | StoredGame):
            found.append(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item, depth + 1)
        elif isinstance(value, list | tuple | set | frozenset):
            for item in value:
                walk(item, depth + 1)
        elif type(value).__module__.startswith("scopabot.store"):
            for item in getattr(value, "__dict__", {}).values():
                walk(item, depth + 1)

    walk(store, 0)
    for name, module in list(sys.modules.items()):
        if name.startswith("scopabot.store"):
            for item in vars(module).values():
                if not isinstance(item, type):
                    walk(item, 1)
    return found


class Reads:
    """Counts the store's reads of games and tables."""

    def __init__(self, store: Store) -> None:
        self.count = 0
        for part, name in ((store.games, "load"), (store.tables, "get"), (store.games, "info")):
            real = getattr(part, name)
            setattr(part, name, self.counted(real))

    def counted(self, real: Any) -> Any:
        async def read(*args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return await real(*args, **kwargs)

        return read


async def test_views_and_outcomes_match_a_fresh_read_without_reading_again(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    game_id = await two_people(service, seed=5, deals=1)
    await service.games.public_view(game_id)  # the first view reads the game once
    rng = random.Random(5)
    reads = Reads(store)
    moves = 0
    outcome = None
    while not (public := await service.games.public_view(game_id)).finished:
        user = public.seats[public.turn].user_id
        assert user is not None
        outcome = await play_once(service, game_id, user, rng)
        moves += 1
        assert isinstance(outcome.view, SeatView)
        assert outcome.view.version == outcome.version
        kept = (outcome.view, await service.games.seat_view(game_id, user=user))
        public = await service.games.public_view(game_id)
        reads_so_far = reads.count
        fresh = await fresh_service(store, clock)
        try:
            assert kept[0] == kept[1] == await fresh.games.seat_view(game_id, user=user)
            assert public == await fresh.games.public_view(game_id)
            assert public.table == await fresh_table(store, public.table.id)
        finally:
            await fresh.close()
        reads.count = reads_so_far
        if not public.finished:
            assert reads.count == 0, "a view of a game in play read the store again"
    assert moves > 30
    assert outcome is not None and outcome.view is not None
    assert outcome.view.public.finished and not outcome.view.choices


async def test_a_playing_tables_reads_are_kept_and_match_the_store(
    service: GameService, store: Store
) -> None:
    game_id = await two_people(service, seed=2, deals=1)
    table_id = (await service.tables.of_game(game_id)).id
    for _ in range(3):
        public = await service.games.public_view(game_id)
        await play_once(service, game_id, public.seats[public.turn].user_id or 0)
        assert await service.tables.get(table_id) == await fresh_table(store, table_id)
    moved = await service.tables.set_messages(table_id, channel_id=7, message_id=70)
    assert moved == await fresh_table(store, table_id)
    reads = Reads(store)
    kept = await service.tables.get(table_id)
    assert (await service.tables.of_game(game_id)) == kept
    assert reads.count == 0, "a playing table was read from the store again"
    assert kept.message_id == 70 and kept.channel_id == 7
    assert kept == await fresh_table(store, table_id)


async def test_a_finished_or_unknown_tables_read_goes_to_the_store(
    service: GameService, store: Store
) -> None:
    game_id = await two_people(service, seed=3, deals=1)
    table_id = (await service.tables.of_game(game_id)).id
    await service.games.resign(game_id, user=1)
    after = await service.tables.get(table_id)
    assert after == await fresh_table(store, table_id)
    assert after.status.value == "finished"
    opened = await service.tables.open(host=9)
    assert await service.tables.get(opened.id) == await fresh_table(store, opened.id)


async def test_a_view_while_a_move_is_written_shows_the_game_before_it(
    service: GameService, store: Store
) -> None:
    game_id = await two_people(service, seed=4, deals=1)
    before = await service.games.public_view(game_id)
    user = before.seats[before.turn].user_id or 0
    gate, writing = asyncio.Event(), asyncio.Event()
    # The move's hand-off to the store (one hop on SQLite's thread, one statement on
    # PostgreSQL): its live copy is out.
    real = store.games.write_move

    written: list[Any] = []

    async def held(record: MoveRecord) -> Any:
        written.append(record)
        writing.set()
        await gate.wait()
        return await real(record)

    store.games.write_move = held  # type: ignore[method-assign]
    move = asyncio.create_task(play_once(service, game_id, user))
    await writing.wait()
    reads = Reads(store)
    # The move is out being written, prepared from the one live copy; the store holds no
    # game, and the live game stays the game before the move until the write is done.
    [record] = written
    assert isinstance(record, MoveRecord) and record.game_id == game_id
    assert (record.expected_version, record.version) == (before.version, before.version + 1)
    live = LiveGames.of(store).kept(game_id)
    assert live is not None and live.version == before.version
    assert live.game.move_count == record.move_count - 1
    assert games_held_by_the_store(store) == [], "the store keeps a copy of a game"
    during = await service.games.public_view(game_id)
    assert reads.count == 0, "a view during a write read the store"
    assert during == before
    gate.set()
    outcome = await move
    after = await service.games.public_view(game_id)
    assert after.version == outcome.version == before.version + 1
    assert reads.count == 0


async def test_what_a_restart_owes_is_kept_through_the_service(
    store: Store, clock: FakeClock
) -> None:
    """A move owes its table an edit until the front end says it is shown; a hand DM's
    nonce is the same until its message is remembered; the table's note is kept. Another
    service on the same store (a restart) finds each as it was left."""
    service = await fresh_service(store, clock)
    try:
        game_id = await two_people(service)
        table_id = (await service.tables.of_game(game_id)).id
        assert await service.games.owed_tables() == [(table_id, game_id)]
        version = (await service.games.public_view(game_id)).version
        await service.games.table_shown(game_id, version)
        assert await service.games.owed_tables() == []
        turn = (await service.games.public_view(game_id)).turn
        await play_once(service, game_id, user=1 if turn == 0 else 2)
        assert await service.games.owed_tables() == [(table_id, game_id)]
        nonce = await service.games.hand_nonce(game_id, 1)
        assert await service.games.hand_nonce(game_id, 1) == nonce
        await service.games.set_note(game_id, TableNote(NoteKind.HANDED, 7))
    finally:
        await service.close()
    again = await fresh_service(store, clock)
    try:
        assert await again.games.owed_tables() == [(table_id, game_id)]
        assert await again.games.hands_being_sent() == [(table_id, game_id, 1)]
        assert await again.games.hand_nonce(game_id, 1) == nonce  # the send tried again
        await again.games.set_seat_message(game_id, 1, channel_id=5, message_id=6)
        assert await again.games.hands_being_sent() == []
        assert await again.games.hand_nonce(game_id, 1) != nonce  # a new send, a new nonce
        assert await again.games.note(game_id) == TableNote(NoteKind.HANDED, 7)
        version = (await again.games.public_view(game_id)).version
        await again.games.table_shown(game_id, version)
        assert await again.games.owed_tables() == []
        await again.games.owe_table(game_id)  # a seat taken back out of turn
        assert await again.games.owed_tables() == [(table_id, game_id)]
    finally:
        await again.close()


async def test_finished_games_are_kept_only_among_the_last_few(
    service: GameService, store: Store, monkeypatch: Any
) -> None:
    """A finished game asked about again (its last messages, a stale button) is read back
    and kept among the last few only: kept with the games in play, every game a process
    ever ended stayed in its memory, walked by each of Python's full collections."""
    monkeypatch.setattr(live_module, "KEEP_ENDED", 2)
    live = LiveGames.of(store)
    ended = []
    for k in range(1, 5):
        table = await service.tables.open(host=10 * k + 1, options={"deals": 1})
        await service.tables.join(table.id, user=10 * k + 2)
        game_id = (await service.tables.start(table.id, by=10 * k + 1, seed=k)).game_id
        await service.games.resign(game_id, user=10 * k + 1)
        assert (await service.games.public_view(game_id)).finished
        assert live.kept(game_id) is None, "a finished game was kept with the games in play"
        ended.append(game_id)
    reads = Reads(store)
    last = await service.games.public_view(ended[-1])  # kept: only the view's own reads
    kept_reads, reads.count = reads.count, 0
    first = await service.games.public_view(ended[0])  # let go: the game is read again too
    assert reads.count > kept_reads
    for game_id, public in ((ended[-1], last), (ended[0], first)):
        fresh = await fresh_service(store, FakeClock())
        try:
            assert public == await fresh.games.public_view(game_id)
        finally:
            await fresh.close()
    assert all(live.kept(game_id) is None for game_id in ended)
