"""Every level decides from the view alone: reshuffling what the seat cannot see (same seed)
never changes its choice."""

from __future__ import annotations

import random

import pytest

from scopabot.ai import Level, make_player
from scopabot.engine import Preset, Rules

from .helpers import hidden_of, midgame, reshuffled, same_public

CASES = [
    (Rules(preset=Preset.SCOPONE_SCIENTIFICO), 9),
    (Rules(preset=Preset.SCOPONE_SCIENTIFICO), 26),
    (Rules(), 5),
    (Rules(), 14),
    (Rules(players=3), 7),
    (Rules(preset=Preset.SCOPONE_CLASSICO, asso_piglia_tutto=True), 10),
]


@pytest.mark.parametrize("level", list(Level))
@pytest.mark.parametrize(("rules", "plays"), CASES)
def test_choice_ignores_hidden_cards(level: Level, rules: Rules, plays: int) -> None:
    game = midgame(rules, seed=21 + plays, plays=plays)
    seat = game.turn
    rng = random.Random(plays)
    others = [reshuffled(game, seat, rng) for _ in range(3)]
    assert any(hidden_of(o, seat) != hidden_of(game, seat) for o in others)
    # Budgets by iterations only (a generous time budget), as the arena runs them.
    choices = set()
    for g in [game, *others]:
        view = g.view_for(seat)
        assert same_public(view, game.view_for(seat))
        player = make_player(level, seed=5, iterations=12, time_budget=60.0)
        choices.add(player.choose(view))
    assert len(choices) == 1
