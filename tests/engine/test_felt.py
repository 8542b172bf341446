"""One word per idea in the engine: the cards face up in the middle are the felt.

The saved format keeps its key (``"table"``), so every game saved before the rename loads
unchanged; the engine's names say which class to use and name one idea each.
"""

from __future__ import annotations

import dataclasses

import scopabot.engine as engine
from scopabot.engine import Game, GameView, Rules


def test_the_felt_is_saved_under_the_key_old_saves_have() -> None:
    game = Game.from_position(Rules(), hands=[["9c", "2b"], ["10s"]], felt=["4b", "5c"], turn=0)
    snapshot = game.to_snapshot()
    assert snapshot["table"] == "4b 5c"
    assert "felt" not in snapshot  # the format is unchanged: a save from before loads
    loaded = Game.from_snapshot(snapshot)
    assert [str(c) for c in loaded.felt] == ["4b", "5c"]
    assert loaded.to_snapshot() == snapshot


def test_the_engine_names_one_idea_each() -> None:
    fields = {f.name for f in dataclasses.fields(GameView)}
    assert "felt" in fields and "table" not in fields
    for old in ("Action", "Match", "SavableMatch", "action_of", "table_key", "TABLE_ORDER"):
        assert not hasattr(engine, old), old
    assert engine.IndexMove == tuple[int, tuple[int, ...]]
    assert [c.__name__ for c in Game.__mro__[:3]] == ["Game", "SavableIndexMatch", "IndexMatch"]
