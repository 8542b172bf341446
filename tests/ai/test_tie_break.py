"""Among moves the search finds equally good, the one that leaves no easy scopa is played."""

from __future__ import annotations

import pytest

from scopabot.ai.base import Level
from scopabot.ai.search import BUDGETS, TIE, SearchPlayer, scopa_risk, tie_broken
from scopabot.engine import Game, GameView, Move, Rules


def two_lays() -> GameView:
    """Seat 0 holds 4c and 9s, the table a lone 2b, the deck still full: either card is
    laid. The 4c leaves 2+4 = 6, swept by any of the four sixes; the 9s leaves 11, which
    no card sweeps."""
    game = Game.from_position(
        Rules(),
        hands=[["4c", "9s"], ["5d", "8c"]],
        felt=["2b"],
        deck=["6c", "6s", "6b", "6d", "1b", "3c", "7s", "10d", "10b", "3d", "5s", "7c"],
        turn=0,
        dealer=1,
    )
    return game.view_for(0)


class Stubbed(SearchPlayer):
    """A search whose values are given: the tie-break alone decides."""

    def __init__(self, values: dict[str, float]) -> None:
        super().__init__(Level.EXPERT, seed=0, budget=BUDGETS[Level.EXPERT])
        self.values = {Move.parse(k): v for k, v in values.items()}

    def evaluate(self, view: GameView) -> dict[Move, float]:
        return dict(self.values)


def test_the_risk_of_leaving_a_sweep_for_one_card() -> None:
    view = two_lays()
    unseen = len(view.unseen_cards())
    # The next hand's two cards are drawn from the unseen ones, four of them sixes.
    expected = 1 - (unseen - 4) * (unseen - 5) / (unseen * (unseen - 1))
    assert scopa_risk(view, Move.parse("4c")) == pytest.approx(expected)
    assert scopa_risk(view, Move.parse("9s")) == 0.0


def test_equal_values_go_to_the_play_that_leaves_no_scopa() -> None:
    view = two_lays()
    assert Stubbed({"4c": 0.0, "9s": 0.0}).choose(view) == Move.parse("9s")
    # Near-equal is equal: the safer play, although the search put it a little lower.
    assert Stubbed({"4c": 0.0, "9s": -TIE / 2}).choose(view) == Move.parse("9s")
    # A clearly better play is played, whatever it leaves.
    assert Stubbed({"4c": 0.0, "9s": -3 * TIE}).choose(view) == Move.parse("4c")


def test_a_sweep_on_the_last_card_is_no_risk() -> None:
    # Seat 0 plays the deal's second-to-last card: the last, whatever it takes, is no scopa.
    game = Game.from_position(Rules(), hands=[["4c"], ["6s"]], felt=["2b"], turn=0, dealer=1)
    view = game.view_for(0)
    assert scopa_risk(view, Move.parse("4c")) == 0.0


def test_an_asso_taking_all_is_no_scopa_to_fear() -> None:
    # Under asso piglia tutto an asso takes a table with no asso, but that is no scopa: with
    # 3c and 9s left (12) no card sweeps, though the next hand holds two assi. With 3c and
    # 5d left, a fante sweeps the 8.
    rules = Rules(asso_piglia_tutto=True)
    game = Game.from_position(
        rules,
        hands=[["9s", "5d"], ["1c", "1b"]],
        felt=["3c"],
        deck=["1d", "1s", "2c", "2s", "8c", "8b"],
        turn=0,
        dealer=1,
    )
    view = game.view_for(0)
    assert scopa_risk(view, Move.parse("9s")) == 0.0
    assert scopa_risk(view, Move.parse("5d")) > 0.0
    assert tie_broken(view, {Move.parse("5d"): 0.0, Move.parse("9s"): 0.0}) == Move.parse("9s")
