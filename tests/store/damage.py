"""Databases full of played games, then damaged the ways files are damaged in the wild."""

from __future__ import annotations

import random
import sqlite3
from contextlib import closing
from pathlib import Path

from scopabot.store import Store

from .helpers import PRESETS, new_game, play_random


async def played_database(path: Path, *, games: int = 30) -> None:
    """A database of ``games`` games, some finished, some halfway, closed cleanly."""
    store = await Store.open(path)
    rng = random.Random(17)
    try:
        for n in range(games):
            stored = await new_game(store, PRESETS[n % len(PRESETS)], seed=n)
            await play_random(store, stored, rng, moves=None if n % 2 else 12)
    finally:
        await store.close()


def garbage_in_the_middle(path: Path) -> None:
    """4 KiB of random bytes over the page in the middle of the file (as a bad disk sector
    or a stray write would leave it)."""
    data = bytearray(path.read_bytes())
    middle = len(data) // 2 // 4096 * 4096
    data[middle : middle + 4096] = random.Random(4).randbytes(4096)
    path.write_bytes(bytes(data))
    with closing(sqlite3.connect(path)) as db:  # SQLite itself calls it damaged
        try:
            verdict = db.execute("PRAGMA quick_check").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            verdict = str(exc)
    assert verdict != "ok"


def index_out_of_step(path: Path) -> None:
    """An index that no longer matches its table, every page still well formed: the damage
    only the full integrity check sees (the quick check reads pages, not indexes)."""
    with closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA writable_schema = ON")
        db.execute(
            "UPDATE sqlite_schema SET sql = 'CREATE INDEX game_seats_by_user ON game_seats"
            " (game_id, user_id) WHERE user_id IS NOT NULL' WHERE name = 'game_seats_by_user'"
        )
        db.commit()
        db.execute("PRAGMA writable_schema = OFF")
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        assert db.execute("PRAGMA integrity_check").fetchone()[0] != "ok"
