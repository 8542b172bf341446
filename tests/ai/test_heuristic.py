"""The ``normal`` level's traditional play, each habit on a fixed position."""

from __future__ import annotations

import pytest

from scopabot.ai import make_player
from scopabot.ai.heuristic import NormalPlayer
from scopabot.engine import CARDS, Card, Game, GameView, Move, Preset, Rules

SCOPONE = Rules(preset=Preset.SCOPONE_SCIENTIFICO)


def normal_move(view: GameView) -> Move:
    return make_player("normal", seed=0).choose(view)


def test_signal_lays_a_card_it_holds_the_twin_of() -> None:
    # No capture is possible; the 8s are laid because seat 0 holds the other one too.
    game = Game.from_position(
        SCOPONE,
        hands=[["8c", "8s", "4b"], ["1d", "2d"], ["1c", "2c"], ["1s", "2s"]],
        felt=["10c"],
        turn=0,
    )
    move = normal_move(game.view_for(0))
    assert move.card.value == 8 and not move.capture
    # Without the convention the same position lays the 4.
    plain = NormalPlayer(seed=0, signal_bonus=0.0).choose(game.view_for(0))
    assert plain == Move.parse("4b")


def test_signal_shows_over_whole_deals() -> None:
    """Whenever normal lays a card while it could lay a twin, it mostly lays a twin."""
    laid_twin = could = 0
    player = make_player("normal", seed=1)
    for seed in range(30):
        game = Game.new(SCOPONE.replace(deals=1), seed=seed)
        while not game.deal_scores:
            view = game.view_for(game.turn)
            move = player.choose(view)
            values = [c.value for c in view.hand]
            if not move.capture and any(values.count(v) > 1 for v in values):
                could += 1
                laid_twin += values.count(move.card.value) > 1
            game.play(move)
    assert could > 50
    assert laid_twin / could > 0.7


def test_takes_the_settebello_and_the_sevens() -> None:
    game = Game.from_position(
        Rules(), hands=[["7c", "3s"], ["1b", "2b"]], felt=["7s", "3d"], turn=0
    )
    assert normal_move(game.view_for(0)) == Move.parse("7c:7s")
    game = Game.from_position(
        Rules(), hands=[["7c", "3s"], ["1b", "2b"]], felt=["7d", "3d", "7s"], turn=0
    )
    assert normal_move(game.view_for(0)) == Move.parse("7c:7d")


def test_guards_the_settebello() -> None:
    # Laying the settebello would let any unseen 7 take it; the cavallo goes instead.
    game = Game.from_position(
        Rules(), hands=[["7d", "9b"], ["1b", "2b"]], felt=["4c"], deck=["10b"] * 0, turn=0
    )
    assert normal_move(game.view_for(0)) == Move.parse("9b")


def rest_of_deck(*named: str) -> list[str]:
    """Every card not named, as the undealt deck: unseen by the seat, as in a real deal."""
    taken = {Card.parse(c) for c in named}
    return [str(c) for c in CARDS if c not in taken]


def test_avoids_leaving_a_table_an_unseen_card_sweeps() -> None:
    # 2 + 5 = 7 could be swept by a 7; 2 + 10 cannot be swept. Seat 1 has already played
    # this round (its third card), so 36 cards remain undealt.
    named = ("5c", "10b", "1b", "2d")
    game = Game.from_position(
        Rules(), hands=[["5c", "10b"], ["1b"]], felt=["2d"], deck=rest_of_deck(*named), turn=0
    )
    assert normal_move(game.view_for(0)) == Move.parse("10b")


def test_counts_the_cards_already_played() -> None:
    # Both positions end with seat 0 to play 6c or 10b on a lone 2d. In the second, every
    # fante has been played before, so 2 + 6 = 8 cannot be swept any more.
    fresh = Game.from_position(
        Rules(),
        hands=[["6c", "10b"], ["1b"]],
        felt=["2d"],
        deck=rest_of_deck("6c", "10b", "1b", "2d"),
        turn=0,
    )
    named = ("4s", "6c", "10b", "8c", "8s", "1b", "2d", "8d", "8b", "4c")
    counted = Game.from_position(
        Rules(),
        hands=[["4s", "6c", "10b"], ["8c", "8s", "1b"]],
        felt=["2d", "8d", "8b", "4c"],
        deck=rest_of_deck(*named),
        turn=1,
    )
    for move in ("8c:8d", "4s:4c", "8s:8b"):
        counted.play(move)
    assert [str(c) for c in counted.felt] == ["2d"]
    player = NormalPlayer(seed=0)
    six = Move.parse("6c")
    risky = player.scores(fresh.view_for(0))[six]
    safe = player.scores(counted.view_for(0))[six]
    assert safe - risky > 0.1


def test_does_not_take_its_partners_double() -> None:
    # Seat 2 (seat 0's partner) laid the 5c without capturing: its signal. Seat 0 could take
    # it with its own 5, but leaves it to the partner.
    game = Game.from_position(
        SCOPONE,
        hands=[["5s", "10b"], ["1d", "9d"], ["5c", "3c"], ["9s", "2s"]],
        felt=["6b"],
        turn=2,
    )
    game.play("5c")
    game.play("9s")
    view = game.view_for(0)
    take = Move.parse("5s:5c")
    assert take in view.legal_moves()
    with_rule = NormalPlayer(seed=0).scores(view)[take]
    without = NormalPlayer(seed=0, partner_double_penalty=0.0).scores(view)[take]
    assert without - with_rule == pytest.approx(0.25)
    # The same card laid by an opponent is taken without a second thought.
    other = Game.from_position(
        SCOPONE,
        hands=[["5s", "10b"], ["5c", "9d"], ["1d", "3c"], ["9s", "2s"]],
        felt=["6b"],
        turn=1,
    )
    other.play("5c")
    other.play("1d")
    other.play("9s")
    view = other.view_for(0)
    assert (
        NormalPlayer(seed=0).scores(view)[take]
        == NormalPlayer(seed=0, partner_double_penalty=0.0).scores(view)[take]
    )


def test_takes_the_opponents_card_and_leaves_the_partners() -> None:
    # From a real deal: seat 1 laid the 3c, seat 2 (the partner) the 8c, seat 3 the 10s.
    # Seat 0 could take the 8c with its 8d, a denaro; it takes the opponent's 3c instead and
    # leaves its partner the 8c to take back.
    mine = ["4s", "1b", "2s", "1c", "8d", "3b", "6c", "9d", "2c", "9s"]
    laid = ["3c", "8c", "10s"]
    rest = [str(c) for c in CARDS if str(c) not in mine + laid]
    game = Game.from_position(
        SCOPONE,
        hands=[mine, ["3c", *rest[0:9]], ["8c", *rest[9:18]], ["10s", *rest[18:27]]],
        turn=1,
    )
    for card in laid:
        game.play(card)
    view = game.view_for(0)
    assert normal_move(view) == Move.parse("3b:3c")
    assert NormalPlayer(seed=0, partner_double_penalty=0.0).choose(view) == Move.parse("8d:8c")


def test_keeps_its_highest_card_for_the_last_capture() -> None:
    game = Game.from_position(
        SCOPONE,
        hands=[["2c", "10b"], ["1d", "3d"], ["1c", "3c"], ["1s", "3s"]],
        felt=["9d"],
        turn=0,
    )
    assert normal_move(game.view_for(0)) == Move.parse("2c")
