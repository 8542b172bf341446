"""Search levels think in worker processes: the event loop stays free for every other game."""

from __future__ import annotations

import asyncio
import random

import pytest

from scopabot.ai import Level
from scopabot.ai.search import BUDGETS
from scopabot.engine import Game, Preset, Rules
from scopabot.service import FakeClock, GameService, GameView, Move, PoolThinker
from scopabot.service.thinking import WAIT_TARGET, search_in_time
from scopabot.store import Store

from .helpers import play_once


class WatchedPool(PoolThinker):
    """The real process pool, noting when an ``expert`` is thinking."""

    def __init__(self) -> None:
        super().__init__(workers=2)
        self.thinking = asyncio.Event()
        self.done = asyncio.Event()

    async def choose(self, level: str, view: GameView, *, seed: int) -> Move:
        if level != "expert":
            return await super().choose(level, view, seed=seed)
        self.thinking.set()
        try:
            return await super().choose(level, view, seed=seed)
        finally:
            self.done.set()


async def test_an_expert_thinks_in_a_worker_while_other_games_move(
    store: Store, clock: FakeClock
) -> None:
    pool = WatchedPool()
    service = await GameService.start(store, clock=clock, thinker=pool, computer_pause=0)
    table = await service.tables.open(host=1, seat_host=False, computers=0, options={"deals": 1})
    await service.tables.add_computer(table.id, by=1, level="expert")
    await service.tables.add_computer(table.id, by=1, level="random")
    expert_game = (await service.tables.start(table.id, by=1, seed=7)).game_id
    others = []
    for n in range(3):
        other = await service.tables.open(host=10 + n, computers=1, level="normal")
        others.append((await service.tables.start(other.id, by=10 + n, seed=n)).game_id)
    await asyncio.wait_for(pool.thinking.wait(), 60)
    moved_while_thinking = 0
    rng = random.Random(1)
    while not pool.done.is_set() and moved_while_thinking < 30:
        played = False
        for n, game_id in enumerate(others):
            public = await service.games.public_view(game_id)
            if not public.finished and public.seats[public.turn].user_id == 10 + n:
                await play_once(service, game_id, 10 + n, rng)
                played = True
                if not pool.done.is_set():
                    moved_while_thinking += 1
        if not played:  # every computer in turn: let them answer (a view never waits)
            await asyncio.sleep(0.001)
    # Moves of other games were accepted, and their computers answered, mid-thought.
    assert moved_while_thinking >= 3
    assert pool._pool is not None  # the search went to the worker processes
    await asyncio.wait_for(pool.done.wait(), 60)
    assert len(await store.games.moves(expert_game)) >= 1  # the expert's card was stored
    await service.close()  # mid-match: the next start would resume it
    assert pool._pool is None  # close() shut the workers down


def test_searches_share_the_time_when_more_wait_than_there_are_workers() -> None:
    pool = PoolThinker(workers=2)
    assert pool.share("expert") == BUDGETS[Level.EXPERT].time_budget
    assert pool.share("hard") == BUDGETS[Level.HARD].time_budget
    pool.waiting = 6  # three rounds of two workers: each gets a third of the wait
    assert pool.share("expert") == pytest.approx(
        min(BUDGETS[Level.EXPERT].time_budget, WAIT_TARGET / 3)
    )
    pool.waiting = 30
    assert pool.share("expert") == pytest.approx(WAIT_TARGET / 15)
    assert pool.share("hard") <= BUDGETS[Level.HARD].time_budget


def test_a_search_that_queued_past_its_deadline_still_answers_legally() -> None:
    game = Game.new(Rules(preset=Preset.SCOPONE_SCIENTIFICO), seed=5)
    view = game.view_for(game.turn)
    move = search_in_time("expert", view, 1, share=0.5, deadline=0.0)
    assert move in view.legal_moves()


async def test_six_searches_asked_at_once_all_answer_and_are_counted_out() -> None:
    pool = PoolThinker(workers=2)
    views = []
    for seed in range(6):
        game = Game.new(Rules(preset=Preset.SCOPONE_SCIENTIFICO), seed=seed)
        views.append(game.view_for(game.turn))
    try:
        moves = await asyncio.gather(
            *(pool.choose("expert", v, seed=n) for n, v in enumerate(views))
        )
        assert all(m in v.legal_moves() for m, v in zip(moves, views, strict=True))
        assert pool.waiting == 0
    finally:
        await pool.close()
