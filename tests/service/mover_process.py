"""A bot process killed between a person's move and the claim of the computer turn after it:
``python -m tests.service.mover_process DATABASE GAME USER`` plays the person's first legal
move in ``GAME`` through its own game service, and SIGKILLs itself the moment the move is
written, where it would have set its computer seats to play
(tests/service/test_processes.py)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys

from scopabot.service import GameService
from scopabot.service.thinking import InlineThinker
from scopabot.store import Store


async def main(database: str, game_id: int, user: int) -> None:
    store = await Store.open(database)
    service = await GameService.start(store, thinker=InlineThinker(), computer_pause=0)

    def killed(game_id: int, *, fresh: bool = False) -> None:
        os.kill(os.getpid(), signal.SIGKILL)

    service.games.drive = killed  # type: ignore[method-assign]
    view = await service.games.seat_view(game_id, user=user)
    move = next(m for options in view.choices.values() for m in options)
    await service.games.play(game_id, user=user, card=move, version=view.version)
    print("not killed", flush=True)  # the computer's turn was not next: the test fails


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
