"""Hidden information, records, snapshots and determinism."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from scopabot.engine import Game, GameRecord, Preset, RecordError, Rules

from .helpers import position


def test_a_view_shows_the_own_hand_and_public_facts_only() -> None:
    g = Game.new(Rules(preset=Preset.SCOPONE_CLASSICO), seed=4)
    v = g.view_for(2)
    assert v.hand == g.hand(2) and v.felt == g.felt
    assert v.hand_sizes == (9, 9, 9, 9) and v.deck_size == 0
    fields = {f.name for f in dataclasses.fields(v)}
    assert not fields & {"hands", "deck", "seed", "shuffles"}
    for seat in (0, 1, 3):
        assert not set(g.hand(seat)) & set(v.hand)
    assert v.side == 0 and (v.legal_moves() == ()) == (g.turn != 2)


def test_a_view_does_not_depend_on_what_the_seat_cannot_see() -> None:
    # Same own hand, table and history; other hands and the deck differ.
    a = position(hands=["7d 1c 2c", "5s 6s 7s"], felt="3b 4b", deck="8d 9d 10d 8c 9c 10c")
    b = position(hands=["7d 1c 2c", "8d 9d 10d"], felt="3b 4b", deck="5s 6s 7s 8c 9c 10c")
    for game in (a, b):
        game.play("7d:3b+4b")
    assert a.view_for(0) == b.view_for(0)
    assert a.view_for(1) != b.view_for(1)


def test_the_view_lists_every_play_and_the_unseen_cards() -> None:
    g = position(hands=["7d 1c", "5s 2s"], felt="3b 4b 10d")
    g.play("7d:3b+4b")
    g.play("5s")
    v = g.view_for(0)
    assert [str(p.move) for p in v.plays] == ["7d:3b+4b", "5s"]
    assert [str(c) for c in v.captured_cards(0)] == ["7d", "3b", "4b"]
    assert v.captured_counts == (3, 0)
    # The position left every other card out of the deal: only seat 1's 2s is unseen.
    assert [str(c) for c in v.unseen_cards()] == ["2s"]
    assert len(v.out_of_play) == 40 - 7


def test_next_hand_size_counts_the_refill() -> None:
    g = Game.new(Rules(), seed=8)  # scopa, 2 players: 3 cards each, 30 in the deck
    first = g.turn
    for _ in range(5):
        g.play(g.legal_moves()[0])
    v = g.view_for(g.turn)
    # The last card of the round: the other seat's hand is empty and will be dealt 3.
    assert v.hand_sizes[1 - g.turn] == 0 and v.next_hand_size(1 - g.turn) == 3
    assert v.next_hand_size(g.turn) == 1
    while g.view_for(g.turn).deck_size:
        g.play(g.legal_moves()[0])
    v = g.view_for(g.turn)
    assert v.next_hand_size(first) == v.hand_sizes[first]  # no refill left
    three = position(hands=["1d", "", ""], felt="10b", deck="2d 3d 4d 5d 6d 7d 8d 9d 10d")
    assert [three.view_for(0).next_hand_size(s) for s in (0, 1, 2)] == [1, 3, 3]


def test_a_view_for_a_seat_that_does_not_exist_is_refused() -> None:
    with pytest.raises(ValueError):
        Game.new(Rules(), seed=1).view_for(2)


def _random_match(rules: Rules, seed: int) -> Game:
    g = Game.new(rules, seed=seed)
    rng = random.Random(seed)
    while not g.is_over:
        g.play(rng.choice(g.legal_moves()))
    return g


def test_same_seed_same_game() -> None:
    rules = Rules(players=3)
    assert _random_match(rules, 8).to_snapshot() == _random_match(rules, 8).to_snapshot()
    assert Game.new(rules, seed=8).to_snapshot() != Game.new(rules, seed=9).to_snapshot()


def test_record_replays_and_survives_json() -> None:
    g = _random_match(Rules(preset=Preset.SCOPONE_CLASSICO, napola=True), 21)
    data = json.loads(json.dumps(g.record().to_dict()))
    record = GameRecord.from_dict(data)
    assert record == g.record()
    assert Game.replay(record).to_snapshot() == g.to_snapshot()


def test_snapshot_round_trips_in_the_middle_of_a_deal() -> None:
    g = Game.new(Rules(players=4), seed=2)
    rng = random.Random(2)
    for _ in range(17):
        g.play(rng.choice(g.legal_moves()))
    data = json.loads(json.dumps(g.to_snapshot()))
    loaded = Game.from_snapshot(data)
    assert loaded.to_snapshot() == g.to_snapshot()
    # ... and both go on identically.
    move = rng.choice(g.legal_moves())
    g.play(move)
    loaded.play(move)
    assert loaded.to_snapshot() == g.to_snapshot()


def test_a_position_game_replays_from_its_start() -> None:
    deck = "1c 2c 3c 5c 6c 7s"
    g = position(Rules(deals=1), hands=["4b 7c", "9c 2d"], felt="4d 6s", deck=deck)
    for move in ("4b:4d", "9c", "7c", "2d"):
        g.play(move)
    assert Game.replay(g.record()).to_snapshot() == g.to_snapshot()


def test_damaged_records_are_refused_clearly() -> None:
    with pytest.raises(RecordError):
        Game.from_snapshot({"format": 99})
    good = Game.new(Rules(), seed=1).to_snapshot()
    with pytest.raises(RecordError):
        Game.from_snapshot({**good, "hands": ["zz"]})
    with pytest.raises(RecordError):
        GameRecord.from_dict({"format": 1, "rules": {}})


def test_a_kept_view_never_shows_what_came_after_nor_reaches_the_game() -> None:
    g = position(hands=["9c 2b", "10s 6s"], felt="1d 3s 4b 5c")
    kept = g.view_for(0)
    moves = kept.legal_moves()
    g.play("2b")
    assert kept.legal_moves() == moves  # still seat 0's own moves, not seat 1's
    for f in dataclasses.fields(kept):
        value = getattr(kept, f.name)
        assert not isinstance(value, Game) and not hasattr(value, "__self__"), f.name


def test_impossible_positions_are_refused() -> None:
    with pytest.raises(ValueError, match="holds no card"):
        position(hands=["", "6d 7s"], felt="1b")
    with pytest.raises(ValueError, match="cannot occur"):
        position(hands=["5c", "6d 7s"], felt="1b")
    with pytest.raises(ValueError, match="whole re-deals"):
        position(hands=["5c", "6d"], felt="1b", deck="1c 2c 3c 4c")
    with pytest.raises(ValueError, match="named twice"):
        position(hands=["5c", "5c"])
    position(hands=["5c", "6d 1d"], turn=1)  # seat 0 led this round, seat 1 answers: fine


def test_seeds_are_whole_numbers_from_zero() -> None:
    with pytest.raises(ValueError, match="from 0 up"):
        Game.new(Rules(), seed=-1)


def test_unseen_cards_are_exactly_the_other_hands_and_the_deck() -> None:
    g = position(
        hands=["7d 1c", "5s 2s"], felt="3b", deck="8d 9d 10d 8c 9c 10c", captured=["4b 4c", "6s"]
    )
    rng = random.Random(1)
    for _ in range(6):
        v = g.view_for(0)
        hidden = {str(c) for c in g.hand(1)} | {str(c) for c in g.deck()}
        assert {str(c) for c in v.unseen_cards()} == hidden
        g.play(rng.choice(g.legal_moves()))
    assert [
        str(c)
        for c in position(hands=["1c", "2c"], captured=["4b 4c", ""]).view_for(0).captured_cards(0)
    ] == ["4b", "4c"]
