"""Presets, options and their validation; partners share everything."""

from __future__ import annotations

import pytest

from scopabot.engine import Preset, Rules, RulesError, RulesProblem, Tiebreak

from .helpers import position


@pytest.mark.parametrize("target", [1, 11, 16, 21, 31, 101])
def test_targets_from_one_to_a_hundred_and_one(target: int) -> None:
    assert Rules(target=target).target == target


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"target": 0}, "target must be 1..101"),
        ({"target": 102}, "target must be 1..101"),
        ({"deals": 0}, "number of deals"),
        ({"players": 5}, "2, 3 or 4 players"),
        ({"preset": "scopone_scientifico", "players": 2}, "4 players"),
        ({"preset": "briscola"}, "preset must be one of"),
        ({"tiebreak": "coin"}, "tiebreak must be one of"),
        ({"target": None}, "target score or a number of deals"),
    ],
)
def test_impossible_options_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        Rules(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "code", "option", "value"),
    [
        ({"target": 0}, RulesProblem.TARGET, "target", 0),
        ({"deals": 200}, RulesProblem.DEALS, "deals", 200),
        ({"players": 5}, RulesProblem.PLAYERS, "players", 5),
        ({"preset": "scopone_classico", "players": 3}, RulesProblem.PAIRS, "players", 3),
        ({"tiebreak": "coin"}, RulesProblem.BAD_CHOICE, "tiebreak", "coin"),
        ({"target": None}, RulesProblem.NO_END, "", None),
    ],
)
def test_a_refusal_names_its_rule_for_front_ends(
    kwargs: dict[str, object], code: RulesProblem, option: str, value: object
) -> None:
    with pytest.raises(RulesError) as info:
        Rules(**kwargs)  # type: ignore[arg-type]
    assert (info.value.code, info.value.option, info.value.value) == (code, option, value)
    with pytest.raises(RulesError) as unknown:
        Rules.from_dict({"jokers": True})
    assert (unknown.value.code, unknown.value.option) == (RulesProblem.UNKNOWN_OPTION, "jokers")


def test_options_round_trip_and_accept_plain_strings() -> None:
    rules = Rules(preset="scopone_classico", tiebreak="ko", deals=5, napola=True)  # type: ignore[arg-type]
    assert rules.preset is Preset.SCOPONE_CLASSICO and rules.tiebreak is Tiebreak.KO
    assert rules.target is None and rules.deals == 5
    assert Rules.from_dict(rules.to_dict()) == rules
    with pytest.raises(RulesError, match="unknown option"):
        Rules.from_dict({"preset": "scopa", "jokers": True})


def test_defaults_follow_the_rule_book() -> None:
    r = Rules()
    assert (r.preset, r.players, r.target, r.deals) == (Preset.SCOPA, 2, 11, None)
    assert not (r.asso_piglia_tutto or r.napola or r.re_bello)
    assert r.three_kings_redeal and r.tiebreak is Tiebreak.EXTRA_DEAL
    assert Rules(preset=Preset.SCOPONE_SCIENTIFICO).players == 4


def test_with_four_players_partners_sit_opposite_and_share_captures() -> None:
    rules = Rules(players=4)
    assert [rules.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert rules.seats_of(0) == (0, 2) and rules.sides == 2
    g = position(rules, hands=["10b 1c", "10c 1s", "5d 1b", "9d 2d"], felt="2s 3c 4b")
    g.play("10b")
    g.play("10c:10b")
    g.play("5d:2s+3c")
    assert sorted(str(c) for c in g.captured(0)) == ["2s", "3c", "5d"]
    assert sorted(str(c) for c in g.captured(1)) == ["10b", "10c"]
    assert g.view_for(2).captured_counts == (3, 2)


def test_three_players_each_score_alone() -> None:
    rules = Rules(players=3)
    assert rules.sides == 3 and [rules.side_of(s) for s in range(3)] == [0, 1, 2]
