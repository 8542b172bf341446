"""A search may count its time in CPU seconds, for measuring strength on a shared machine."""

from __future__ import annotations

import pytest

from scopabot.ai import PlayerSpec, make_player
from scopabot.ai.search import SearchPlayer
from scopabot.engine import Game, Preset, Rules


def test_the_clock_is_a_player_option() -> None:
    spec = PlayerSpec.parse("expert:time=0.5,clock=cpu")
    assert spec.cpu_clock and spec.time_budget == 0.5
    assert PlayerSpec.parse(str(spec)) == spec
    assert not PlayerSpec.parse("expert:clock=wall").cpu_clock
    with pytest.raises(ValueError, match="wall or cpu"):
        PlayerSpec.parse("expert:clock=sundial")
    player = spec.make(seed=1)
    assert isinstance(player, SearchPlayer) and player.budget.cpu_clock


def test_a_search_on_the_cpu_clock_stops_on_its_budget() -> None:
    game = Game.new(Rules(preset=Preset.SCOPONE_SCIENTIFICO), seed=2)
    player = make_player("expert", seed=1, iterations=10**6, time_budget=0.05, cpu_clock=True)
    assert isinstance(player, SearchPlayer)
    player.choose(game.view_for(game.turn))
    assert 0 < player.last_iterations < 10**6
