from __future__ import annotations

import pytest

from scopabot.ai import Level
from scopabot.engine import Preset, Rules
from scopabot.service.arena import PlayerSpec, run_arena


def test_player_spec_round_trip() -> None:
    spec = PlayerSpec.parse("hard:iterations=80,time=0.3")
    assert spec == PlayerSpec(Level.HARD, 80, 0.3)
    assert PlayerSpec.parse(str(spec)) == spec
    assert str(PlayerSpec.parse("normal")) == "normal"
    with pytest.raises(ValueError):
        PlayerSpec.parse("hard:depth=3")
    with pytest.raises(ValueError):
        PlayerSpec.parse("genius")


@pytest.mark.parametrize(
    "rules", [Rules(preset=Preset.SCOPONE_SCIENTIFICO), Rules(), Rules(players=3)]
)
def test_every_deal_is_played_both_ways(rules: Rules) -> None:
    a, b = PlayerSpec.parse("greedy"), PlayerSpec.parse("random")
    report = run_arena(rules, a, b, deals=6, first_seed=10)
    assert len(report.results) == 12
    assert sorted({r.seed for r in report.results}) == list(range(10, 16))
    for seed in range(10, 16):
        pair = [r for r in report.results if r.seed == seed]
        assert sorted(r.swapped for r in pair) == [False, True]
        if rules.sides == 2:
            # Same cards, seats swapped: A holds the dealer's side exactly once.
            assert sorted(r.a_dealer_side for r in pair) == [False, True]
    t = report.overall
    assert t.won + t.lost + t.tied == t.deals == 12
    assert report.split(True).deals + report.split(False).deals == 12
    text = report.text()
    for words in ("won", "95% interval", "dealer's side", "matches to 11", "median"):
        assert words in text


def test_same_level_mirror_is_even() -> None:
    """A level against itself on swapped seats: every pair of games cancels exactly."""
    spec = PlayerSpec.parse("greedy")
    report = run_arena(Rules(preset=Preset.SCOPONE_SCIENTIFICO), spec, spec, deals=5)
    assert report.overall.mean_diff == pytest.approx(0.0)
    assert report.overall.won == report.overall.lost


def test_two_jobs_give_the_same_results() -> None:
    a, b = PlayerSpec.parse("normal"), PlayerSpec.parse("greedy")
    one = run_arena(Rules(), a, b, deals=4)
    two = run_arena(Rules(), a, b, deals=4, jobs=2)
    assert [r.diff for r in one.results] == [r.diff for r in two.results]
