from __future__ import annotations

from scopabot.service import GameService, MatchOver

from .helpers import Recorder, play_out


async def test_a_person_against_a_computer_plays_to_the_end(
    service: GameService, events: Recorder
) -> None:
    table = await service.tables.open(host=1, computers=1, level="greedy")
    started = await service.tables.start(table.id, by=1, seed=3)
    await play_out(service, started.game_id, [1])
    await service.settle()
    over = events.of(MatchOver)
    assert len(over) == 1
