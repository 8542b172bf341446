"""What a person typed or clicked becomes the one legal move, or says exactly why not."""

from __future__ import annotations

import random

import pytest

from scopabot.engine import (
    AmbiguousMoveError,
    Card,
    Game,
    IllegalMoveError,
    IllegalReason,
    InvalidMoveError,
    Move,
    Preset,
    Rules,
)

from .helpers import position


def test_any_notation_of_a_card_or_a_move_resolves_to_the_same_move() -> None:
    g = position(hands=["9b 2c", "1c 2d"], felt="1d 3s 4c 5d")
    expected = Move.parse("9b:4c+5d")
    given = [
        ("9b:4c+5d", None),
        ("9b:5d+4c", None),
        (" 9B ", "4c+5d"),
        ("cavallo di bastoni", "5d, 4c"),
        ("9b", "4c 5d"),
        ("9b", "9b:4c+5d"),  # the capture picked whole from a list
        (expected, None),
        (Card.parse("9b"), "4c+5d"),
    ]
    for played, capture in given:
        assert g.resolve_move(played, capture) == expected, (played, capture)
    assert g.resolve_move("2 di coppe") == Move.parse("2c")  # one legal move: no question


def test_a_card_that_can_take_different_cards_asks_which() -> None:
    g = position(hands=["9b 2c", "1c 2d"], felt="1d 3s 4c 5d")
    with pytest.raises(AmbiguousMoveError) as info:
        g.resolve_move("9b")
    assert info.value.card == Card.parse("9b")
    assert {str(m) for m in info.value.choices} == {"9b:1d+3s+5d", "9b:4c+5d"}
    assert set(info.value.choices) == set(g.resolve_move_choices("9b"))


def test_what_is_not_a_card_or_a_move_is_a_parse_error() -> None:
    g = position(hands=["9b 2c", "1c 2d"], felt="1d 3s 4c 5d")
    for played, capture in [
        ("7x", None),
        ("", None),
        ("9b:", None),
        (":4c", None),
        ("9b:4c+5d", "4c+5d"),  # the capture named twice
        ("9b", "2c:1d"),  # a move of another card
        ("9b", "banana"),
    ]:
        with pytest.raises(InvalidMoveError):
            g.resolve_move(played, capture)
    assert issubclass(InvalidMoveError, ValueError) and issubclass(AmbiguousMoveError, ValueError)


def test_a_refusal_says_which_rule_and_changes_nothing() -> None:
    g = position(hands=["9b 2c", "1c 2d"], felt="1d 3s 4c 5d")
    before = g.to_snapshot()
    cases = [
        (("1c", None, None), IllegalReason.NOT_IN_HAND),
        (("9b", None, 1), IllegalReason.NOT_YOUR_TURN),
        (("9b", "1d+4c", None), IllegalReason.WRONG_SUM),
        (("9b", "10s", None), IllegalReason.NOT_ON_FELT),
    ]
    for (played, capture, seat), reason in cases:
        with pytest.raises(IllegalMoveError) as info:
            g.resolve_move(played, capture, seat=seat)
        assert info.value.reason is reason, (played, capture, seat)
    assert g.to_snapshot() == before


def test_a_finished_match_refuses_every_move() -> None:
    game = Game.new(Rules(preset=Preset.SCOPA), seed=3)
    rng = random.Random(3)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    with pytest.raises(IllegalMoveError) as info:
        game.resolve_move("7d")
    assert info.value.reason is IllegalReason.GAME_OVER


def test_every_legal_move_resolves_from_its_text_in_random_games() -> None:
    rng = random.Random(11)
    for seed in range(5):
        game = Game.new(Rules(), seed=seed)
        while not game.is_over:
            moves = game.legal_moves()
            for move in moves:
                assert game.resolve_move(str(move)) == move
                capture = "+".join(str(c) for c in move.sorted_capture()) or None
                assert game.resolve_move(str(move.card), capture, seat=game.turn) in moves
            game.play(rng.choice(moves))
