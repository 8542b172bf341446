"""Turns: only the seat in turn, against the current version, legal moves only."""

from __future__ import annotations

import asyncio
import random

import pytest

from scopabot.service import (
    AudienceKind,
    CardPlayed,
    ChooseCapture,
    ErrorCode,
    Event,
    GameService,
    HandChanged,
    MatchOver,
    ServiceError,
    TableCancelled,
    TableStatus,
    TurnStarted,
)

from .helpers import Recorder, play_once
from .test_tables import refused


async def two_people(service: GameService, seed: int = 1, **options: object) -> int:
    table = await service.tables.open(host=1, options=options)
    await service.tables.join(table.id, user=2)
    return (await service.tables.start(table.id, by=1, seed=seed)).game_id


async def test_every_refusal_changes_nothing(service: GameService) -> None:
    game_id = await two_people(service)
    public = await service.games.public_view(game_id)
    turn_user = public.seats[public.turn].user_id
    other_user = 3 - (turn_user or 0)
    mine = await service.games.seat_view(game_id, user=turn_user or 0)
    theirs = await service.games.seat_view(game_id, user=other_user)
    card = str(next(iter(mine.choices)))
    await refused(ErrorCode.UNKNOWN_GAME, service.games.play(999, user=1, card=card))
    await refused(ErrorCode.NOT_SEATED, service.games.play(game_id, user=9, card=card))
    await refused(ErrorCode.NOT_SEATED, service.games.seat_view(game_id, user=9))
    await refused(
        ErrorCode.NOT_YOUR_TURN,
        service.games.play(game_id, user=other_user, card=str(theirs.hand[0])),
    )
    await refused(ErrorCode.NOT_A_CARD, service.games.play(game_id, user=turn_user or 0, card="7x"))
    await refused(
        ErrorCode.NOT_A_CARD, service.games.play(game_id, user=turn_user or 0, card="7d:")
    )
    not_mine = str(theirs.hand[0])
    error = await refused(
        ErrorCode.ILLEGAL_MOVE, service.games.play(game_id, user=turn_user or 0, card=not_mine)
    )
    assert error.params["reason"] == "not_in_hand"
    await refused(
        ErrorCode.ILLEGAL_MOVE,
        service.games.play(game_id, user=turn_user or 0, card=card, capture="1d+2d+3d"),
    )
    await refused(
        ErrorCode.STALE_VERSION,
        service.games.play(game_id, user=turn_user or 0, card=card, version=mine.version - 1),
    )
    assert (await service.games.public_view(game_id)).version == mine.version
    await play_once(service, game_id, turn_user or 0)
    # The same click again, naming the version it was made on, is stale.
    await refused(
        ErrorCode.STALE_VERSION,
        service.games.play(game_id, user=turn_user or 0, card=card, version=mine.version),
    )


async def test_a_card_with_several_captures_asks_which(service: GameService) -> None:
    rng = random.Random(3)
    for seed in range(60):
        game_id = await two_people(service, seed=seed)
        for _ in range(30):
            public = await service.games.public_view(game_id)
            if public.finished:
                break
            user = public.seats[public.turn].user_id or 0
            view = await service.games.seat_view(game_id, user=user)
            several = [c for c, moves in view.choices.items() if len(moves) > 1]
            if several:
                card = several[0]
                with pytest.raises(ChooseCapture) as caught:
                    await service.games.play(
                        game_id, user=user, card=str(card), version=view.version
                    )
                assert set(caught.value.choices) == set(view.choices[card])
                assert (await service.games.public_view(game_id)).version == view.version
                chosen = caught.value.choices[-1]
                capture = "+".join(str(c) for c in chosen.sorted_capture())
                outcome = await service.games.play(
                    game_id, user=user, card=str(card), capture=capture, version=view.version
                )
                played = next(e for e in outcome.events if isinstance(e, CardPlayed))
                assert played.play.move == chosen
                return
            await play_once(service, game_id, user, rng)
    raise AssertionError("no card with several captures in 60 games")


async def test_a_card_with_one_capture_plays_at_once_and_events_have_audiences(
    service: GameService, events: Recorder
) -> None:
    game_id = await two_people(service, seed=9)
    public = await service.games.public_view(game_id)
    user = public.seats[public.turn].user_id or 0
    view = await service.games.seat_view(game_id, user=user)
    card = next(c for c, m in view.choices.items() if len(m) == 1)
    outcome = await service.games.play(game_id, user=user, card=str(card))  # no version: current
    assert outcome.version == view.version + 1
    await service.settle()
    hands = [e for e in events.of(HandChanged, game_id) if e.version == outcome.version]
    assert [(e.audience.kind, e.audience.seat_number) for e in hands] == [
        (AudienceKind.SEAT, view.seat)
    ]
    for event in events.events:
        if not isinstance(event, HandChanged):
            assert event.audience.kind is AudienceKind.TABLE
            assert "hand" not in type(event).__dataclass_fields__
    turn = [e for e in events.of(TurnStarted, game_id) if e.version == outcome.version]
    assert turn[0].seat == 1 - view.seat and turn[0].deadline is not None


async def test_a_hundred_clicks_at_once_make_one_move(service: GameService) -> None:
    game_id = await two_people(service, seed=5)
    public = await service.games.public_view(game_id)
    user = public.seats[public.turn].user_id or 0
    view = await service.games.seat_view(game_id, user=user)
    moves = [m for options in view.choices.values() for m in options]

    async def click(n: int) -> str:
        move = moves[n % len(moves)]
        capture = "+".join(str(c) for c in move.sorted_capture()) or None
        try:
            await service.games.play(
                game_id, user=user, card=str(move.card), capture=capture, version=view.version
            )
        except ServiceError as exc:
            return exc.code.value
        return "played"

    results = await asyncio.gather(*(click(n) for n in range(100)))
    assert results.count("played") == 1
    assert set(results) == {"played", "stale_version"}
    after = await service.games.public_view(game_id)
    assert after.version == view.version + 1 and len(after.plays) == 1


async def test_resign_loses_and_abandon_calls_off(service: GameService, events: Recorder) -> None:
    game_id = await two_people(service, seed=2)
    await refused(ErrorCode.NOT_HOST, service.games.abandon(game_id, by=2))
    table = await service.games.abandon(game_id, by=1)
    assert table.status is TableStatus.CANCELLED
    await refused(ErrorCode.GAME_OVER, service.games.play(game_id, user=1, card="7d"))
    game_id = await two_people(service, seed=2)
    public = await service.games.public_view(game_id)
    await play_once(service, game_id, public.seats[public.turn].user_id or 0)
    await refused(ErrorCode.GAME_STARTED, service.games.abandon(game_id, by=1))
    outcome = await service.games.resign(game_id, user=2)
    over = outcome.events[0]
    assert isinstance(over, MatchOver)
    assert (over.winner_side, over.losing_side, over.reason) == (0, 1, "resign")
    assert 2 in over.rating_changes and 1 in over.rating_changes  # rated at once
    public = await service.games.public_view(game_id)
    assert public.finished and public.result_reason == "resign" and public.winner_side == 0
    assert (await service.tables.get(public.table.id)).status is TableStatus.FINISHED
    await refused(ErrorCode.GAME_OVER, service.games.resign(game_id, user=1))
    view = await service.games.seat_view(game_id, user=1)
    assert view.choices == {} and not view.your_turn
    await refused(ErrorCode.GAME_OVER, service.games.play(game_id, user=1, card=str(view.hand[0])))
    await service.settle()
    assert [e.reason for e in events.of(TableCancelled)] == ["abandoned"]


async def test_a_slow_or_failing_subscriber_never_blocks_or_loses_a_move(
    service: GameService,
) -> None:
    release = asyncio.Event()
    slow: list[Event] = []
    quick: list[Event] = []

    async def stuck(event: Event) -> None:
        await release.wait()
        slow.append(event)

    async def failing(event: Event) -> None:
        raise RuntimeError("a front end bug")

    async def fine(event: Event) -> None:
        quick.append(event)

    service.subscribe(stuck)
    service.subscribe(failing)
    unsubscribe = service.subscribe(fine)
    game_id = await two_people(service, seed=4)
    for _ in range(6):
        public = await service.games.public_view(game_id)
        await play_once(service, game_id, public.seats[public.turn].user_id or 0)
    assert len(await service.store.games.moves(game_id)) == 6
    assert slow == [] and len([e for e in quick if isinstance(e, CardPlayed)]) == 6
    release.set()
    await service.settle()
    assert slow == quick
    unsubscribe()
    await play_once(
        service,
        game_id,
        (await service.games.public_view(game_id))
        .seats[(await service.games.public_view(game_id)).turn]
        .user_id
        or 0,
    )
    await service.settle()
    assert len(slow) > len(quick)


async def test_the_side_that_resigned_is_read_back_with_the_result(service: GameService) -> None:
    game_id = await two_people(service, seed=4)
    await service.games.resign(game_id, user=2)
    result = await service.store.boards.match_result(game_id=game_id)
    assert result is not None and (result.reason, result.losing_side) == ("resign", 1)
    [mine] = await service.store.boards.player_matches(1)
    assert (mine.game_id, mine.losing_side, mine.winner_side) == (game_id, 1, 0)


async def test_a_move_is_given_as_the_person_gave_it_and_comes_back_resolved(
    service: GameService,
) -> None:
    """A card's Italian name, a whole move, a capture picked whole from a list, or a Move:
    the engine reads it once, and the outcome says which move was played."""
    from scopabot.engine import Card, Move
    from scopabot.render.cards import card_name

    game_id = await two_people(service, seed=9)
    givens = [
        lambda m: {"card": card_name(m.card, "it")} if not m.capture else None,
        lambda m: {"card": str(m)},
        lambda m: {"card": str(m.card), "capture": str(m)} if m.capture else None,
        lambda m: {"card": m},
    ]
    played = 0
    for _ in range(40):
        public = await service.games.public_view(game_id)
        if public.finished or played >= 8:
            break
        user = public.seats[public.turn].user_id or 0
        view = await service.games.seat_view(game_id, user=user)
        move = next(m for options in view.choices.values() for m in options)
        if len(view.choices[move.card]) > 1 and not move.capture:
            move = view.choices[move.card][0]
        kwargs = givens[played % len(givens)](move) or {"card": str(move)}
        outcome = await service.games.play(game_id, user=user, version=view.version, **kwargs)
        assert outcome.move == move and isinstance(outcome.move, Move)
        assert isinstance(outcome.move.card, Card)
        played += 1
    assert played == 8
