from __future__ import annotations

import random

import pytest

from scopabot.ai import Level, Player, make_player
from scopabot.ai.base import NotYourTurnError
from scopabot.engine import Game, Move, Preset, Rules

from .helpers import ALL_RULES


@pytest.mark.parametrize("level", [Level.RANDOM, Level.GREEDY])
@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: f"{r.preset}-{r.players}")
def test_plays_whole_matches_legally(level: Level, rules: Rules) -> None:
    game = Game.new(rules.replace(deals=2), seed=11)
    players = [make_player(level, seed=s) for s in range(rules.players)]
    assert all(isinstance(p, Player) for p in players)
    while not game.is_over:
        seat = game.turn
        move = players[seat].choose(game.view_for(seat))
        assert move in game.legal_moves()
        game.play(move, seat=seat)


def test_not_your_turn() -> None:
    game = Game.new(Rules(), seed=1)
    with pytest.raises(NotYourTurnError):
        make_player("greedy", seed=0).choose(game.view_for((game.turn + 1) % 2))


def test_same_seed_same_move() -> None:
    game = Game.new(Rules(preset=Preset.SCOPONE_SCIENTIFICO), seed=5)
    view = game.view_for(game.turn)
    a = [make_player("random", seed=9).choose(view) for _ in range(3)]
    assert len(set(a)) == 1


def test_greedy_takes_the_settebello() -> None:
    game = Game.from_position(
        Rules(),
        hands=[["7c", "3s", "9b"], ["1b", "2b", "4c"]],
        felt=["7d", "3b", "6c", "9d"],
        deck=["10b", "10c", "10s", "8b", "8c", "8s"],
    )
    move = make_player("greedy", seed=0).choose(game.view_for(0))
    assert move == Move.parse("7c:7d")


def test_greedy_prefers_a_scopa() -> None:
    game = Game.from_position(
        Rules(),
        hands=[["5c", "4s"], ["1b", "2b"]],
        felt=["2d", "3b"],
        deck=["10b", "10c", "10s", "8b", "8c", "8s"],
    )
    assert make_player("greedy", seed=0).choose(game.view_for(0)) == Move.parse("5c:2d+3b")


def test_greedy_avoids_leaving_an_easy_scopa() -> None:
    # Laying the 2 leaves 4 + 2 = 6 on the felt; laying the re leaves 14, out of reach.
    game = Game.from_position(
        Rules(),
        hands=[["2c", "10s"], ["1b", "8b"]],
        felt=["4d"],
        deck=["9b", "9c", "9s", "5b", "5s", "6s"],
    )
    assert make_player("greedy", seed=0).choose(game.view_for(0)) == Move.parse("10s")


def test_greedy_keeps_the_settebello_off_the_table() -> None:
    # Laying the asso leaves 9 + 1 = 10, a scopa for a re; laying the settebello leaves 16,
    # out of reach of a sweep, but gives the settebello to any 7.
    game = Game.from_position(
        Rules(),
        hands=[["7d", "1s"], ["2b", "8b"]],
        felt=["9b"],
        deck=["9c", "9s", "5b", "5s", "6s", "6b"],
    )
    assert make_player("greedy", seed=0).choose(game.view_for(0)) == Move.parse("1s")


def test_random_covers_the_moves() -> None:
    seen = set()
    for seed in range(40):
        game = Game.new(Rules(), seed=3)
        seen.add(make_player("random", seed=seed).choose(game.view_for(game.turn)))
    assert len(seen) > 1
    random.Random(0)
