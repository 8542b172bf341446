"""Shared helpers for the store tests: random play through the store, and a full check."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from scopabot.engine import Game, Preset, Rules
from scopabot.service.live import LiveGames
from scopabot.store import Actor, SeatHolder, Store, StoredGame

PRESETS = (
    Rules(preset=Preset.SCOPA),
    Rules(preset=Preset.SCOPA, players=3),
    Rules(preset=Preset.SCOPA, players=4, re_bello=True, napola=True),
    Rules(preset=Preset.SCOPONE_SCIENTIFICO),
    Rules(preset=Preset.SCOPONE_CLASSICO, asso_piglia_tutto=True),
)


async def replay(store: Store, game_id: int) -> StoredGame:
    """The game rebuilt from its stored record alone: the store reads the record, the engine
    plays every move of it again."""
    version, record = await store.games.record(game_id)
    return StoredGame(game_id, version, Game.replay(record))


def seats_for(rules: Rules, first_user: int = 100) -> list[SeatHolder]:
    """Humans in even seats, computers in odd ones."""
    return [
        SeatHolder.human(first_user + n) if n % 2 == 0 else SeatHolder.computer("easy")
        for n in range(rules.players)
    ]


async def play_random(
    store: Store, stored: StoredGame, rng: random.Random, moves: int | None = None
) -> StoredGame:
    """Play ``moves`` random legal moves (or to the end) through the store."""
    game, version = stored.game, stored.version
    played = 0
    while not game.is_over and (moves is None or played < moves):
        seat = game.turn
        holder_is_human = seat % 2 == 0
        actor = Actor.user(100 + seat) if holder_is_human else Actor.computer()
        applied = await LiveGames.of(store).apply_move(
            stored.id, version, rng.choice(game.legal_moves()), by=actor
        )
        game, version = applied.game, applied.version
        played += 1
    return StoredGame(stored.id, version, game)


async def new_game(store: Store, rules: Rules, seed: int, guild_id: int | None = 1) -> StoredGame:
    return await store.games.create(
        Game.new(rules, seed=seed), seats=seats_for(rules), guild_id=guild_id
    )


GAME_ROWS_SQL = (
    "SELECT g.id, g.version, g.move_count,"
    " (SELECT count(*) FROM moves m WHERE m.game_id = g.id) FROM games g"
)
ENDED_SQL = (
    "SELECT id FROM games WHERE status = 'abandoned' UNION"
    " SELECT game_id FROM match_results WHERE losing_side IS NOT NULL"
)


def game_rows(path: Path) -> dict[int, tuple[int, int, int]]:
    """Straight from the file: game id -> (version, move_count column, rows in moves)."""
    with sqlite3.connect(path) as db:
        rows = db.execute(GAME_ROWS_SQL).fetchall()
    return {r[0]: (r[1], r[2], r[3]) for r in rows}


async def stored_game_rows(store: Store) -> dict[int, tuple[int, int, int]]:
    """``game_rows`` of whichever database the store is on, read past the store's methods."""

    def read(conn: sqlite3.Connection) -> dict[int, tuple[int, int, int]]:
        return {r[0]: (r[1], r[2], r[3]) for r in conn.execute(GAME_ROWS_SQL)}

    return await store.database.read_once(read)


async def check_database(database: Path | str) -> dict[int, int]:
    """Every game loads from its snapshot, replays from its record to the same state, and
    its version, move count and move rows agree. Returns game id -> move count. ``database``
    is a SQLite file or a PostgreSQL URL."""
    counts: dict[int, int] = {}
    store = await Store.open(database)
    try:
        rows = await stored_game_rows(store)
        ended = set(
            await store.database.read_once(lambda conn: [r[0] for r in conn.execute(ENDED_SQL)])
        )
        for game_id, (version, move_count, move_rows) in rows.items():
            loaded = await store.games.load(game_id)
            replayed = await replay(store, game_id)
            assert loaded.game.to_snapshot() == replayed.game.to_snapshot(), game_id
            assert loaded.version == replayed.version == version
            assert loaded.game.move_count == move_count == move_rows, game_id
            # A resignation, forfeit or abandonment bumps the version without a move.
            assert version == move_count + 1 + int(game_id in ended), game_id
            counts[game_id] = move_count
    finally:
        await store.close()
    return counts
