"""The sketches pictures are drawn from: exactly what a picture shows, so that equal sketches
are equal pictures (the bot keeps pictures by sketch) and a sketch sent to a drawing process
carries no hand and no more of the deal than the last play."""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

from scopabot.engine import Game, GameView, Rules
from scopabot.render.hand import hand_picture, hand_sketch, sketched_hand
from scopabot.render.i18n import Lang
from scopabot.render.table import sketched_table, table_files, table_pictures, table_sketch


class _Public:
    """A position's public fields, as the service's public view gives them."""

    def __init__(self, view: GameView) -> None:
        self._view = view

    def __getattr__(self, name: str) -> Any:
        return getattr(self._view, name)

    felt = property(lambda self: self._view.felt)
    deadline: datetime | None = None
    finished = property(lambda self: self._view.outcome is not None)
    winner_side = property(lambda self: None)
    result_reason = property(lambda self: None)


NAMES = ["Marco", "Giulia"]


def _played(moves: int, rules: Rules | None = None) -> Game:
    game = Game.new(rules or Rules(), seed=8)
    rng = random.Random(8)
    for _ in range(moves):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_moves()))
    return game


def test_a_table_sketch_holds_the_last_play_and_no_hand() -> None:
    game = _played(7)
    view = game.view_for(0)
    sketch = table_sketch(_Public(view), NAMES, Lang.IT)
    assert sketch.last_play == view.plays[-1]
    assert not any(isinstance(v, tuple) and v == view.hand for v in sketch)
    assert sketch.breakdown is None and sketch.deal_scores == ()  # no deal counted yet
    # Any seat's view makes the same sketch: it is public.
    assert table_sketch(_Public(game.view_for(1)), NAMES, Lang.IT) == sketch


def test_the_pictures_drawn_from_a_sketch_are_the_table_messages() -> None:
    for moves in (0, 7, 37, 40, 400):
        game = _played(moves, Rules(deals=2))
        public = _Public(game.view_for(0))
        sketch = table_sketch(public, NAMES, Lang.IT)
        drawn = table_files(sketched_table(sketch), game_id=4, version=moves)
        assert drawn == table_pictures(public, NAMES, Lang.IT, game_id=4, version=moves)
        for p in drawn:
            assert p.filename.split("-")[0] in ("table", "deal", "standings")
            assert p.filename.startswith(("table-4-", "deal-4-", "standings-4."))
        if moves == 37:  # the next deal's first round: the last deal's breakdown beside
            assert sketch.breakdown is not None and len(drawn) == 2
        if game.is_over:
            assert sketch.deal_scores == game.view_for(0).deal_scores
            assert sketch.breakdown == sketch.deal_scores[-1]


def test_a_hand_sketch_is_its_cards_in_button_order_and_the_turn() -> None:
    game = _played(3)
    view = game.view_for(game.turn)
    sketch = hand_sketch(view, Lang.IT)
    assert sketch.hand == tuple(sorted(view.hand, key=lambda c: c.sort_key()))
    assert sketch.my_turn
    assert sketched_hand(sketch) == hand_picture(view, Lang.IT)
    other = hand_sketch(game.view_for(1 - game.turn), Lang.IT)
    assert not other.my_turn
