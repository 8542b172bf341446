"""Restoring a game from the parts a store keeps apart, through the engine's public API only."""

from __future__ import annotations

import json
import random

import pytest

from scopabot.engine import Game, GameRecord, Preset, RecordError, Rules

from .helpers import position


def _kept(game: Game) -> tuple[GameRecord, dict[str, object]]:
    """What a database keeps, as JSON text and bytes, read back the way a store reads it."""
    header = json.loads(json.dumps(game.record().to_dict()))
    record = GameRecord.from_parts(
        rules=header["rules"],
        seed=header["seed"],
        first_dealer=header["first_dealer"],
        dealer_draw=header["dealer_draw"],
        start=header["start"],
        shuffles=[bytes(c.index for c in order) for order in game.shuffles_since(0)],
        moves=[str(m) for m in game.record().moves],
    )
    snapshot = json.loads(json.dumps(game.to_snapshot(include_record=False)))
    return record, snapshot


@pytest.mark.parametrize(
    "rules",
    [
        Rules(players=3, first_dealer="draw"),
        Rules(preset=Preset.SCOPONE_SCIENTIFICO, tiebreak="ko"),
        Rules(asso_piglia_tutto=True, napola=True, re_bello=True),
    ],
)
def test_restore_gives_back_the_game_at_every_move(rules: Rules) -> None:
    g = Game.new(rules, seed=13)
    rng = random.Random(13)
    plies = 0
    while not g.is_over and plies < 60:
        record, snapshot = _kept(g)
        assert record == g.record()
        assert Game.restore(record, snapshot=snapshot).to_snapshot() == g.to_snapshot()
        g.play(rng.choice(g.legal_moves()))
        plies += 1
    record, snapshot = _kept(g)
    assert Game.restore(record).to_snapshot() == g.to_snapshot()


def test_a_restored_game_goes_on_like_the_original() -> None:
    g = position(Rules(deals=2), hands=["4b 7c", "9c 2d"], felt="4d 6s", deck="1c 2c 3c 5c 6c 7s")
    g.play("4b:4d")
    record, snapshot = _kept(g)
    loaded = Game.restore(record, snapshot=snapshot)
    replayed = Game.restore(record)
    rng = random.Random(1)
    while not g.is_over:
        move = rng.choice(g.legal_moves())
        for game in (g, loaded, replayed):
            game.play(move)
    assert loaded.to_snapshot() == replayed.to_snapshot() == g.to_snapshot()


def test_parts_that_do_not_belong_together_are_refused() -> None:
    record, _ = _kept(Game.new(Rules(), seed=1))
    _, other = _kept(Game.new(Rules(), seed=2))
    with pytest.raises(RecordError, match="not of the same game"):
        Game.restore(record, snapshot=other)
    with pytest.raises(RecordError):
        Game.restore(record, snapshot={**other, "format": 99})


def test_damaged_parts_are_refused_clearly() -> None:
    g = Game.new(Rules(), seed=1)
    header = g.record().to_dict()
    good = {
        "rules": header["rules"],
        "seed": 1,
        "first_dealer": header["first_dealer"],
        "dealer_draw": [],
        "start": None,
        "shuffles": [bytes(c.index for c in g.shuffles_since(0)[0])],
        "moves": [],
    }
    assert GameRecord.from_parts(**good) == g.record()
    for damage in (
        {"shuffles": [bytes([40])]},
        {"moves": ["zz"]},
        {"rules": {"colour": "red"}},
        {"dealer_draw": [[[0, "11d"]]]},
    ):
        with pytest.raises(RecordError):
            GameRecord.from_parts(**{**good, **damage})
