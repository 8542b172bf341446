"""Deadlines, reminders and timeouts with a fake clock: a day of turns in milliseconds."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from datetime import timedelta

import pytest

from scopabot.service import (
    ActorKind,
    CardPlayed,
    ErrorCode,
    FakeClock,
    GameService,
    InlineThinker,
    MatchOver,
    Pace,
    ReminderDue,
    SeatTakenBack,
    ServiceError,
    TimeoutAction,
    TimeoutApplied,
    TimeoutRule,
)
from scopabot.store import Store, StoredGame

from .helpers import Recorder, play_once


async def person_vs_computer(
    service: GameService, *, pace: Pace, rule: TimeoutRule = TimeoutRule.COMPUTER, seed: int = 1
) -> int:
    table = await service.tables.open(
        host=1, computers=1, level="greedy", pace=pace, on_timeout=rule
    )
    game_id = (await service.tables.start(table.id, by=1, seed=seed)).game_id
    await service.settle()  # the computer plays first if it leads
    return game_id


async def test_a_reminder_then_a_computer_plays_the_absent_turn(
    service: GameService, clock: FakeClock, events: Recorder
) -> None:
    game_id = await person_vs_computer(service, pace=Pace.live(60))
    start = clock.now()
    view = await service.games.seat_view(game_id, user=1)
    assert view.your_turn and view.deadline == start + timedelta(seconds=60)
    await clock.advance(29)
    assert events.of(ReminderDue) == []
    await clock.advance(1)
    await service.settle()
    [reminder] = events.of(ReminderDue)
    assert (reminder.seat, reminder.user_id, reminder.deadline) == (0, 1, view.deadline)
    await clock.advance(29)
    assert events.of(TimeoutApplied) == []
    await clock.advance(1)
    await service.settle()
    [timeout] = events.of(TimeoutApplied)
    assert timeout.what is TimeoutAction.COMPUTER_PLAYED and not timeout.handed_to_computer
    actors = [e.actor for e in events.of(CardPlayed) if e.version > view.version]
    assert actors[:2] == [ActorKind.TIMEOUT, ActorKind.COMPUTER]
    after = await service.games.seat_view(game_id, user=1)
    assert after.your_turn and after.deadline == clock.now() + timedelta(seconds=60)
    history = await service.store.games.moves(game_id)
    assert history[-2].actor.kind is ActorKind.TIMEOUT


async def test_three_timeouts_hand_the_seat_over_and_playing_takes_it_back(
    store: Store, clock: FakeClock
) -> None:
    # A small pause lets the person play before the computer that holds their seat does.
    service = await GameService.start(
        store, clock=clock, thinker=InlineThinker(), computer_pause=0.05
    )
    events = Recorder()
    service.subscribe(events)
    table = await service.tables.open(host=1, pace=Pace.live(30, reminder=False))
    await service.tables.join(table.id, user=2)
    game_id = (await service.tables.start(table.id, by=1, seed=3)).game_id
    for _ in range(12):
        public = await service.games.public_view(game_id)
        user = public.seats[public.turn].user_id
        if user == 1 and public.turn not in public.away:
            await clock.advance(30)  # user 1 never plays
        elif user == 2:
            await play_once(service, game_id, 2)
        await service.settle()
    timeouts = events.of(TimeoutApplied)
    assert len(timeouts) == 3
    assert [t.handed_to_computer for t in timeouts] == [False, False, True]
    public = await service.games.public_view(game_id)
    assert public.away == {0}
    # While the seat is handed over, a computer plays it without waiting for a deadline.
    computer_plays = [e for e in events.of(CardPlayed) if e.seat == 0]
    assert computer_plays[-1].actor is ActorKind.COMPUTER
    # Person 2 plays; person 1 answers at once, before the computer, and has the seat back.
    while (await service.games.public_view(game_id)).turn != 1:
        await service.settle()
    await play_once(service, game_id, 2)
    await play_once(service, game_id, 1)
    await service.settle()
    [back] = events.of(SeatTakenBack)
    assert back.seat == 0 and back.user_id == 1
    public = await service.games.public_view(game_id)
    assert public.away == frozenset()
    info = await store.games.info(game_id)
    assert info.timeouts == (0, 0)
    await service.close()


async def test_forfeit_ends_the_match_against_the_absent_side(
    service: GameService, clock: FakeClock, events: Recorder
) -> None:
    game_id = await person_vs_computer(
        service, pace=Pace.correspondence(hours=24), rule=TimeoutRule.FORFEIT
    )
    await clock.advance(timedelta(hours=18))
    await clock.advance(timedelta(hours=5))
    await service.settle()
    assert len(events.of(ReminderDue)) == 2  # 6 hours and 1 hour before
    await clock.advance(timedelta(hours=1))
    await service.settle()
    [timeout] = events.of(TimeoutApplied)
    assert timeout.what is TimeoutAction.FORFEIT
    [over] = events.of(MatchOver)
    assert (over.reason, over.losing_side, over.winner_side) == ("forfeit", 0, 1)
    public = await service.games.public_view(game_id)
    assert public.finished and public.result_reason == "forfeit"


async def test_deadlines_missed_while_down_are_handled_at_once_in_order(
    store: Store, clock: FakeClock
) -> None:
    first = await GameService.start(store, clock=clock, thinker=InlineThinker(), computer_pause=0)
    games = []
    for hours in (5, 2, 9):
        games.append(await person_vs_computer(first, pace=Pace.correspondence(hours=hours)))
    before = {g: (await first.games.public_view(g)).version for g in games}
    await first.close()
    clock._now += timedelta(days=1)  # time passes while the process is down
    events = Recorder()
    second = await GameService.start(store, clock=clock, thinker=InlineThinker(), computer_pause=0)
    second.subscribe(events)
    await clock.advance(0)
    await second.settle()
    handled = [e.game_id for e in events.of(TimeoutApplied)]
    assert handled == [games[1], games[0], games[2]]  # by deadline: 2 h, 5 h, 9 h
    for game_id in games:
        view = await second.games.seat_view(game_id, user=1)
        assert view.version == before[game_id] + 2  # the timeout's card and the reply
        assert view.your_turn and view.deadline is not None and view.deadline > clock.now()
    # The reminders missed meanwhile were not sent a day late, nor twice.
    assert len(events.of(ReminderDue)) <= len(games)
    await second.close()


async def test_a_new_service_resumes_every_game_where_it_was(
    store: Store, clock: FakeClock
) -> None:
    slow = await GameService.start(store, clock=clock, thinker=InlineThinker(), computer_pause=60)
    games = []
    for seed in range(4):
        table = await slow.tables.open(host=1, seat_host=False, computers=2, level="random")
        games.append((await slow.tables.start(table.id, by=1, seed=seed)).game_id)
    table = await slow.tables.open(host=1, pace=Pace.live(60))
    await slow.tables.join(table.id, user=2)
    waiting = (await slow.tables.start(table.id, by=1, seed=1)).game_id
    if (await slow.games.public_view(waiting)).turn == 0:
        await play_once(slow, waiting, 1)  # one card played; now user 2 is in turn
    before = await slow.games.public_view(waiting)
    await asyncio.sleep(0.01)  # every computer is pausing before its first card
    await slow.close()
    for game_id in games:
        assert (await store.games.info(game_id)).move_count == 0
    fresh = await GameService.start(store, clock=clock, thinker=InlineThinker(), computer_pause=0)
    await fresh.settle()
    for game_id in games:
        assert (await fresh.games.public_view(game_id)).finished
    after = await fresh.games.public_view(waiting)
    assert (after.version, after.turn, after.deadline) == (
        before.version,
        before.turn,
        before.deadline,
    )
    await fresh.close()


async def hand_seat_over(service: GameService, clock: FakeClock, seed: int = 3) -> int:
    """A two-person table where person 1 misses three turns and a computer gets the seat."""
    table = await service.tables.open(host=1, pace=Pace.live(30, reminder=False))
    await service.tables.join(table.id, user=2)
    game_id = (await service.tables.start(table.id, by=1, seed=seed)).game_id
    while 0 not in (await service.games.public_view(game_id)).away:
        public = await service.games.public_view(game_id)
        if public.seats[public.turn].user_id == 1:
            await clock.advance(30)  # user 1 never plays
        else:
            await play_once(service, game_id, 2)
        await service.settle()
    return game_id


async def test_a_seat_handed_over_is_taken_back_at_any_time(store: Store, clock: FakeClock) -> None:
    # The computer that holds the seat pauses long: taking the seat back must not race it.
    service = await GameService.start(store, clock=clock, thinker=InlineThinker(), computer_pause=1)
    events = Recorder()
    service.subscribe(events)
    try:
        game_id = await hand_seat_over(service, clock)
        await service.settle()
        assert (await service.games.public_view(game_id)).turn == 1  # the computer played seat 0
        moved = await play_once(service, game_id, 2)  # the computer now thinks for seat 0
        outcome = await service.games.take_seat_back(game_id, user=1)
        await service.settle()
        # The computer did not play the turn: it is the person's, with a deadline again.
        assert [e for e in events.of(CardPlayed) if e.version > moved.version] == []
        view = await service.games.seat_view(game_id, user=1)
        assert view.your_turn and view.deadline == clock.now() + timedelta(seconds=30)
        assert view.version == outcome.version
        assert (await service.games.public_view(game_id)).away == frozenset()
        [back] = events.of(SeatTakenBack)
        assert (back.seat, back.user_id) == (0, 1)
        assert (await store.games.info(game_id)).timeouts == (0, 0)
        # Only a person whose seat is held by a computer can take it back.
        error = await refused_code(service.games.take_seat_back(game_id, user=1))
        assert error is ErrorCode.NOT_AWAY
        assert (
            await refused_code(service.games.take_seat_back(game_id, user=9))
            is ErrorCode.NOT_SEATED
        )
        await play_once(service, game_id, 1)
    finally:
        await service.close()


async def test_a_seat_is_taken_back_when_it_is_not_its_turn(store: Store, clock: FakeClock) -> None:
    service = await GameService.start(store, clock=clock, thinker=InlineThinker(), computer_pause=0)
    try:
        game_id = await hand_seat_over(service, clock, seed=5)
        await service.settle()
        assert (await service.games.public_view(game_id)).turn == 1  # the computer answered at once
        await service.games.take_seat_back(game_id, user=1)
        await play_once(service, game_id, 2)
        await service.settle()
        view = await service.games.seat_view(game_id, user=1)
        assert view.your_turn  # no computer played it
    finally:
        await service.close()


async def refused_code(call: Awaitable[object]) -> ErrorCode:
    try:
        await call
    except ServiceError as exc:
        return exc.code
    raise AssertionError("not refused")


class RacingClock(FakeClock):
    """Two schedulers (two processes sharing a database) looking at the same moment."""

    async def _run_all(self) -> None:
        await asyncio.gather(*(s.run_due() for s in list(self._sources)))


async def test_two_schedulers_send_a_reminder_once_and_act_on_a_deadline_once(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    clock = RacingClock()
    services = [
        await GameService.start(store, clock=clock, thinker=InlineThinker(), computer_pause=0)
        for _ in range(2)
    ]
    events = Recorder()
    for service in services:
        service.subscribe(events)
    try:
        game_id = await person_vs_computer(
            services[0], pace=Pace.correspondence(hours=24), rule=TimeoutRule.FORFEIT
        )
        await clock.advance(timedelta(hours=18))
        for service in services:
            await service.settle()
        assert len(events.of(ReminderDue)) == 1
        with caplog.at_level(logging.WARNING):
            await clock.advance(timedelta(hours=6))
            for service in services:
                await service.settle()
        assert len(events.of(ReminderDue)) == 2
        assert [t.what for t in events.of(TimeoutApplied)] == [TimeoutAction.FORFEIT]
        assert len(events.of(MatchOver, game_id)) == 1
        assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
    finally:
        for service in services:
            await service.close()


async def test_a_move_that_beats_a_forfeit_by_a_hair_is_quiet(
    service: GameService, clock: FakeClock, events: Recorder, caplog: pytest.LogCaptureFixture
) -> None:
    game_id = await person_vs_computer(
        service, pace=Pace.live(60, reminder=False), rule=TimeoutRule.FORFEIT
    )
    view = await service.games.seat_view(game_id, user=1)
    card = next(iter(view.choices))
    store, raced = service.store, []
    load_game = store.games.load

    async def person_plays_meanwhile(gid: int) -> StoredGame:
        stored = await load_game(gid)
        if not raced and gid == game_id:
            raced.append(True)  # the person's card lands just after the deadline was read
            await service.games.play(game_id, user=1, card=str(card), version=view.version)
        return stored

    store.games.load = person_plays_meanwhile  # type: ignore[method-assign]
    with caplog.at_level(logging.WARNING):
        await clock.advance(60)
        await service.settle()
    store.games.load = load_game  # type: ignore[method-assign]
    assert raced
    assert events.of(TimeoutApplied) == [] and events.of(MatchOver) == []
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
    public = await service.games.public_view(game_id)
    assert not public.finished and public.version > view.version
