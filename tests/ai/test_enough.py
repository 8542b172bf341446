"""A search stops before its budget once the leading move is plainly good enough, and gives
the deals it has left to the moves still in doubt."""

from __future__ import annotations

import random

import pytest

from scopabot.ai import PlayerSpec, make_player
from scopabot.ai.base import Level
from scopabot.ai.search import BUDGETS, SURE_AFTER, SearchPlayer, halved, settled
from scopabot.engine import Move, Preset, Rules

from .helpers import midgame

SCOPONE = Rules(preset=Preset.SCOPONE_SCIENTIFICO)


def test_enough_is_a_player_option() -> None:
    spec = PlayerSpec.parse("expert:time=0.5,enough=0.02")
    assert spec.enough == 0.02
    assert PlayerSpec.parse(str(spec)) == spec
    player = spec.make(seed=1)
    assert isinstance(player, SearchPlayer) and player.budget.enough == 0.02
    off = PlayerSpec.parse("expert:enough=0").make(seed=1)
    assert isinstance(off, SearchPlayer) and off.budget.enough == 0.0
    with pytest.raises(ValueError, match="enough"):
        PlayerSpec.parse("expert:enough=-1")
    # The level's own: expert stops early, hard searches its whole budget as before.
    assert BUDGETS[Level.EXPERT].enough > 0
    assert BUDGETS[Level.HARD].enough == 0


def _paired(
    rng: random.Random, n: int, means: list[float], spread: float
) -> tuple[list[float], list[list[float]]]:
    """Totals and pair squares as the search keeps them, for moves whose deal-by-deal
    values are ``means`` plus one shared luck and each its own noise of ``spread``."""
    totals = [0.0] * len(means)
    squares = [[0.0] * len(means) for _ in means]
    for _ in range(n):
        luck = rng.gauss(0, 3)
        values = [m + luck + rng.gauss(0, spread) for m in means]
        for k, v in enumerate(values):
            totals[k] += v
            for j in range(k + 1, len(values)):
                squares[k][j] += (v - values[j]) ** 2
    return totals, squares


def test_a_clear_lead_stops_and_a_close_race_does_not() -> None:
    rng = random.Random(5)
    # One move a point better than the others: the search may stop.
    totals, squares = _paired(rng, 200, [1.0, 0.0, 0.0], 0.5)
    assert settled([0, 1, 2], totals, squares, 200, 0.02)
    # Two moves a hundredth apart, noisy: the search goes on, whichever leads.
    totals, squares = _paired(rng, 200, [0.01, 0.0, -2.0], 1.0)
    assert not settled([0, 1, 2], totals, squares, 200, 0.02)
    # The rival that is close is the one looked at: without it, the lead is plain.
    assert settled([0, 2], totals, squares, 200, 0.02)
    # Asked only for half a point, the close race is settled: neither can be that much better.
    assert settled([0, 1, 2], totals, squares, 200, 0.5)
    # Moves that always score alike (two equal cards) are as good as each other: stop.
    totals, squares = _paired(rng, 200, [0.5, 0.5], 0.0)
    assert settled([0, 1], totals, squares, 200, 0.02)
    # A lead of a twentieth is not sure after 128 deals, and is after 3,000.
    totals, squares = _paired(rng, 128, [0.05, 0.0], 0.5)
    assert not settled([0, 1], totals, squares, 128, 0.02)
    totals, squares = _paired(rng, 3000, [0.05, 0.0], 0.5)
    assert settled([0, 1], totals, squares, 3000, 0.02)


def test_the_shared_luck_of_a_deal_does_not_hide_a_lead() -> None:
    """The luck a deal gives every move (common random numbers) cancels in the paired
    difference: a small lead is seen through a large luck, as it would not be by each
    move's own spread."""
    totals, squares = _paired(random.Random(2), 400, [0.3, 0.0], 0.2)
    assert settled([0, 1], totals, squares, 400, 0.02)


def _searched(seed: int, plays: int, *, iterations: int, enough: float) -> tuple[Move, int]:
    """The move ``expert`` chooses in a scopone position (with no time limit, so that only
    the sampled deals stop it), and how many deals it searched."""
    game = midgame(SCOPONE, seed=seed, plays=plays)
    player = make_player("expert", seed=1, iterations=iterations, time_budget=1e6, enough=enough)
    assert isinstance(player, SearchPlayer)
    return player.choose(game.view_for(game.turn)), player.last_iterations


def test_a_plain_decision_stops_early_on_the_move_the_whole_budget_chooses() -> None:
    early, searched = _searched(4, 5, iterations=1000, enough=0.1)
    whole, all_of_them = _searched(4, 5, iterations=1000, enough=0.0)
    assert early == whole
    assert SURE_AFTER <= searched < 1000
    assert all_of_them == 1000


def test_a_close_decision_is_searched_to_its_budget() -> None:
    _, searched = _searched(1, 2, iterations=600, enough=0.02)
    assert searched == 600


def test_stopping_early_keeps_the_same_seed_same_move() -> None:
    game = midgame(SCOPONE, seed=2, plays=5)
    view = game.view_for(game.turn)
    a = make_player("expert", seed=3, iterations=1000, time_budget=1e6, enough=0.05)
    b = make_player("expert", seed=3, iterations=1000, time_budget=1e6, enough=0.05)
    assert isinstance(a, SearchPlayer) and isinstance(b, SearchPlayer)
    assert a.evaluate(view) == b.evaluate(view)
    assert a.last_iterations == b.last_iterations < 1000


def test_a_cut_keeps_the_moves_the_leader_is_not_sure_to_beat() -> None:
    """The halving drops the worse half by rank; a move that ranks low only by chance, a
    hair behind the leader in a noisy race, stays searched. A move plainly worse goes."""
    rng = random.Random(7)
    # Eight moves: the four best are a hundredth apart and noisy, the four worst a point down.
    means = [0.0, 0.01, 0.02, 0.03, 0.04, -1.0, -1.0, -1.0]
    totals, squares = _paired(rng, 100, means, 1.0)
    kept = halved(list(range(8)), totals, squares, 100)
    assert set(kept) >= {0, 1, 2, 3, 4}, "a close rival was dropped for its rank"
    assert not set(kept) & {5, 6, 7}, "a plainly worse move was kept"
    assert kept == sorted(kept)
    # Eight moves all a point apart: the cut is the plain halving, the better half.
    totals, squares = _paired(rng, 100, [float(-k) for k in range(8)], 0.3)
    assert halved(list(range(8)), totals, squares, 100) == [0, 1, 2, 3]
    # Without the pair squares (a search to the budget, as hard's), the plain halving.
    assert halved(list(range(8)), totals, [], 100) == [0, 1, 2, 3]
    # Two moves left stay two.
    assert halved([2, 5], totals, squares, 100) == [2, 5]
