"""Whole matches through the service: computers alone, people with computers, many at once."""

from __future__ import annotations

import asyncio
import random

import pytest

from scopabot.service import (
    CardPlayed,
    DealScored,
    GameService,
    HandChanged,
    MatchOver,
    TableStatus,
    TurnStarted,
)

from .helpers import Recorder, play_out

PRESETS = [
    ("scopa", 2, {}),
    ("scopa", 3, {"asso_piglia_tutto": True}),
    ("scopa", 4, {"napola": True, "re_bello": True}),
    ("scopone_scientifico", 4, {"primiera": "sevens"}),
    ("scopone_classico", 4, {"tiebreak": "ko"}),
]


@pytest.mark.parametrize(("preset", "players", "options"), PRESETS)
async def test_computers_in_every_seat_play_a_match_to_its_end(
    service: GameService,
    events: Recorder,
    preset: str,
    players: int,
    options: dict[str, object],
) -> None:
    levels = ["random", "greedy", "normal", "greedy"]
    table = await service.tables.open(
        host=1, preset=preset, players=players, options=options, seat_host=False
    )
    for seat in range(players):
        table = await service.tables.add_computer(table.id, by=1, level=levels[seat])
    started = await service.tables.start(table.id, by=1, seed=11)
    await service.settle()
    public = await service.games.public_view(started.game_id)
    assert public.finished and public.outcome is not None
    assert (await service.tables.get(table.id)).status is TableStatus.FINISHED
    plays = events.of(CardPlayed, started.game_id)
    assert len(plays) == len(await service.store.games.moves(started.game_id))
    assert [e.version for e in plays] == list(range(2, len(plays) + 2))
    assert len(events.of(DealScored, started.game_id)) == public.outcome.deals
    assert len(events.of(MatchOver, started.game_id)) == 1


@pytest.mark.parametrize(("preset", "players", "options"), PRESETS)
async def test_people_and_computers_mixed(
    service: GameService,
    events: Recorder,
    preset: str,
    players: int,
    options: dict[str, object],
) -> None:
    table = await service.tables.open(
        host=1, preset=preset, players=players, options={**options, "deals": 1}, computers=0
    )
    people = [1]
    for seat in range(1, players):
        if seat % 2:
            table = await service.tables.add_computer(table.id, by=1, level="greedy")
        else:
            people.append(10 + seat)
            table = await service.tables.join(table.id, user=10 + seat)
    started = await service.tables.start(table.id, by=1, seed=players)
    await play_out(service, started.game_id, people, random.Random(1))
    await service.settle()
    over = events.of(MatchOver, started.game_id)
    assert len(over) == 1
    # Each person only ever received their own hand.
    for event in events.of(HandChanged, started.game_id):
        assert event.audience.seat_number == event.seat
    turns = events.of(TurnStarted, started.game_id)
    for turn in turns:
        person = turn.user_id is not None
        assert (turn.deadline is not None) == person
    mine = await service.people.my_games(user=1)
    assert all(g.table_id != table.id for g in mine)  # finished tables leave "my games"


async def test_two_hundred_games_at_once(service: GameService) -> None:
    games = []
    for n in range(200):
        table = await service.tables.open(
            host=1000 + n, computers=1, level="random", options={"deals": 1}
        )
        games.append((await service.tables.start(table.id, by=1000 + n, seed=n)).game_id)

    async def person(n: int) -> None:
        await play_out(service, games[n], [1000 + n], random.Random(n))

    await asyncio.gather(*(person(n) for n in range(200)))
    await service.settle()
    for game_id in games:
        assert (await service.games.public_view(game_id)).finished
    assert await service.store.games.playing() == []
