"""Callers that give up half-way (a cancelled task, a timeout) leave the store usable."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from scopabot.engine import Rules
from scopabot.service.live import LiveGames
from scopabot.store import Actor, GameClosedError, Store, StoreError

from .helpers import new_game


async def test_a_cancelled_write_leaves_no_open_transaction(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "c.db")
    try:
        stored = await new_game(store, Rules(), 1)
        for _ in range(3):
            task = asyncio.ensure_future(store.deadlines.set(stored.id, stored.version, None))
            await asyncio.sleep(0)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            # The next callers are not refused with "transaction within a transaction".
            loaded = await store.games.load(stored.id)
            assert loaded.version == stored.version
        move = loaded.game.legal_moves()[0]
        applied = await LiveGames.of(store).apply_move(
            stored.id, loaded.version, move, by=Actor.user(100)
        )
        assert applied.version == loaded.version + 1
        info = await store.games.info(stored.id)
        assert info.move_count == 1
    finally:
        await store.close()


async def test_a_load_racing_a_failed_move_shows_the_stored_game(tmp_path: Path) -> None:
    path = tmp_path / "r.db"
    store = await Store.open(path)
    try:
        stored = await new_game(store, Rules(), 1)
        await store.games.load(stored.id)  # now cached
        # Make the move's write fail, as a full disk would.
        with sqlite3.connect(path) as other:
            other.execute(
                "CREATE TRIGGER boom BEFORE INSERT ON moves BEGIN SELECT RAISE(ABORT, 'boom'); END"
            )
        move = stored.game.legal_moves()[0]
        loaded, applied = await asyncio.gather(
            store.games.load(stored.id),
            LiveGames.of(store).apply_move(stored.id, stored.version, move, by=Actor.user(1)),
            return_exceptions=True,
        )
        assert isinstance(applied, StoreError)
        assert not isinstance(loaded, BaseException)
        assert loaded.game.move_count == 0 and loaded.version == stored.version
    finally:
        await store.close()


async def test_an_abandoned_game_takes_no_more_moves(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "a.db")
    try:
        stored = await new_game(store, Rules(), 1)
        version = await store.games.abandon(stored.id, stored.version)
        move = stored.game.legal_moves()[0]
        with pytest.raises(GameClosedError, match="abandoned"):
            await LiveGames.of(store).apply_move(stored.id, version, move, by=Actor.user(100))
        info = await store.games.info(stored.id)
        assert info.status == "abandoned" and info.move_count == 0
    finally:
        await store.close()
