"""A writer to be killed: applies random moves to many games until SIGKILL stops it.

Run as ``python -m tests.store.crash_writer DB SEED``; prints ``ready`` once a move is stored.
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

from scopabot.engine import Game
from scopabot.service.live import LiveGames
from scopabot.store import Actor, Store

from .helpers import PRESETS, seats_for

GAMES = 12


async def main(path: Path, seed: int) -> None:
    rng = random.Random(seed)
    store = await Store.open(path)
    playing = [info.id for info in await store.games.playing()]
    announced = False

    async def one_game(game_id: int) -> None:
        nonlocal announced
        while True:
            stored = await store.games.load(game_id)
            if stored.game.is_over:
                return
            move = rng.choice(stored.game.legal_moves())
            await LiveGames.of(store).apply_move(game_id, stored.version, move, by=Actor.computer())
            if not announced:
                announced = True
                print("ready", flush=True)

    while True:
        while len(playing) < GAMES:
            rules = PRESETS[rng.randrange(len(PRESETS))]
            created = await store.games.create(
                Game.new(rules, seed=rng.randrange(1 << 30)), seats=seats_for(rules), guild_id=1
            )
            playing.append(created.id)
        # Several coroutines write at once, as the bot's games would.
        batch = rng.sample(playing, 4)
        await asyncio.gather(*(one_game(g) for g in batch))
        playing = [g for g in playing if g not in batch]


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2])))
