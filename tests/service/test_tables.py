"""Tables and seats: who may sit where, and every refusal as a typed error."""

from __future__ import annotations

import pytest

from scopabot.service import (
    ErrorCode,
    GameService,
    GuildSettings,
    Pace,
    PaceKind,
    Preset,
    SeatHolder,
    SeatView,
    ServiceError,
    TableCancelled,
    TableChanged,
    TableOpened,
    TableStarted,
    TableStatus,
    TimeoutRule,
)

from .helpers import Recorder


async def refused(code: ErrorCode, call: object) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        await call  # type: ignore[misc]
    assert caught.value.code is code, caught.value
    return caught.value


async def test_people_gather_pick_sides_and_the_host_starts(
    service: GameService, events: Recorder
) -> None:
    table = await service.tables.open(
        host=1, guild_id=5, channel_id=50, preset="scopone_scientifico", level="hard"
    )
    assert table.seats == {0: SeatHolder.human(1)} and table.status is TableStatus.OPEN
    assert table.sides == {0: (0, 2), 1: (1, 3)} and table.pace.kind is PaceKind.LIVE
    table = await service.tables.join(table.id, user=2, side=0)
    assert table.seats[2] == SeatHolder.human(2)
    await refused(ErrorCode.SIDE_FULL, service.tables.join(table.id, user=3, side=0))
    await refused(ErrorCode.BAD_SIDE, service.tables.join(table.id, user=3, side=2))
    await refused(ErrorCode.ALREADY_SEATED, service.tables.join(table.id, user=2))
    table = await service.tables.join(table.id, user=3, side=1)
    assert table.seats[1] == SeatHolder.human(3)
    await refused(ErrorCode.NOT_HOST, service.tables.add_computer(table.id, by=2))
    await refused(ErrorCode.SEATS_EMPTY, service.tables.start(table.id, by=1))
    await refused(ErrorCode.BAD_LEVEL, service.tables.add_computer(table.id, by=1, level="godlike"))
    table = await service.tables.add_computer(table.id, by=1)
    assert table.seats[3] == SeatHolder.computer("hard")  # the table's level
    await refused(ErrorCode.TABLE_FULL, service.tables.join(table.id, user=4))
    await refused(ErrorCode.TABLE_FULL, service.tables.add_computer(table.id, by=1))
    # The host swaps partners: seat 1 (user 3) and seat 2 (user 2).
    table = await service.tables.arrange(table.id, by=1, seats={1: 2, 2: 1})
    assert (table.seats[1], table.seats[2]) == (SeatHolder.human(2), SeatHolder.human(3))
    await refused(ErrorCode.NOT_HOST, service.tables.start(table.id, by=2))
    started = await service.tables.start(table.id, by=1, seed=4)
    assert isinstance(started, SeatView)
    assert started.table.status is TableStatus.PLAYING and started.table.game_id is not None
    assert len(started.view.hand) == 10  # the host's own hand
    await refused(ErrorCode.TABLE_NOT_OPEN, service.tables.join(table.id, user=9))
    await refused(ErrorCode.TABLE_NOT_OPEN, service.tables.leave(table.id, user=2))
    await refused(ErrorCode.TABLE_NOT_OPEN, service.tables.cancel(table.id, by=1))
    await service.settle()
    assert len(events.of(TableOpened)) == 1 and len(events.of(TableChanged)) == 4
    assert len(events.of(TableStarted)) == 1


async def test_leaving_cancelling_and_seats_freed(service: GameService, events: Recorder) -> None:
    table = await service.tables.open(host=1, players=3, computers=1)
    assert table.seats[1] == SeatHolder.computer("normal")
    await service.tables.join(table.id, user=2)
    await refused(ErrorCode.NOT_SEATED, service.tables.leave(table.id, user=7))
    await refused(ErrorCode.HOST_CANNOT_LEAVE, service.tables.leave(table.id, user=1))
    table = await service.tables.leave(table.id, user=2)
    assert 2 not in table.seats
    table = await service.tables.remove_seat_holder(table.id, by=1, seat=1)
    assert table.seats == {0: SeatHolder.human(1)}
    await refused(ErrorCode.NOT_HOST, service.tables.cancel(table.id, by=2))
    table = await service.tables.cancel(table.id, by=1)
    assert table.status is TableStatus.CANCELLED
    await refused(ErrorCode.UNKNOWN_TABLE, service.tables.join(999, user=2))
    await service.settle()
    assert [e.reason for e in events.of(TableCancelled)] == ["cancelled"]


async def test_options_come_from_the_host_then_the_server_then_the_rules(
    service: GameService,
) -> None:
    await service.settings.save(GuildSettings(7, "en", {"target": 21, "re_bello": True}))
    table = await service.tables.open(host=1, guild_id=7, options={"napola": True})
    assert (table.rules.target, table.rules.re_bello, table.rules.napola) == (21, True, True)
    table = await service.tables.open(host=1, guild_id=7, options={"deals": 3})
    assert (table.rules.deals, table.rules.target) == (3, None)
    await refused(ErrorCode.BAD_OPTION, service.tables.open(host=1, options={"target": 500}))
    await refused(ErrorCode.BAD_OPTION, service.tables.open(host=1, options={"colour": "red"}))
    await refused(ErrorCode.BAD_OPTION, service.tables.open(host=1, preset="poker"))
    await refused(ErrorCode.BAD_OPTION, service.tables.open(host=1, on_timeout="shrug"))
    await refused(
        ErrorCode.BAD_OPTION, service.tables.open(host=1, preset="scopone_classico", players=2)
    )
    with pytest.raises(ServiceError) as caught:
        Pace.live(10)
    assert caught.value.code is ErrorCode.BAD_PACE
    with pytest.raises(ServiceError):
        Pace.correspondence(hours=24 * 8)
    pace = Pace.correspondence(hours=24)
    assert pace.reminders == (6 * 3600, 3600)
    table = await service.tables.open(
        host=1, pace=pace, on_timeout=TimeoutRule.FORFEIT, preset=Preset.SCOPONE_CLASSICO
    )
    assert (table.pace, table.on_timeout) == (pace, TimeoutRule.FORFEIT)
    assert (await service.tables.get(table.id)).pace == pace


async def test_one_person_many_tables_and_a_channel_many_tables(service: GameService) -> None:
    ids = [
        (await service.tables.open(host=1, guild_id=g, channel_id=10, computers=1)).id
        for g in (1, 2, None)
    ]
    other = await service.tables.open(host=2, channel_id=10)
    await service.tables.join(other.id, user=1)
    assert [t.id for t in await service.tables.in_channel(10)] == [*ids, other.id]
    mine = await service.people.my_games(user=1)
    assert {g.table_id for g in mine} == {*ids, other.id}
    assert all(g.game_id is None and not g.waiting_for_you for g in mine)
    await service.tables.start(ids[0], by=1, seed=1)
    await service.settle()
    mine = await service.people.my_games(user=1)
    assert mine[0].table_id == ids[0] and mine[0].waiting_for_you
    assert mine[0].game_id is not None and mine[0].deadline is not None
    table = await service.tables.set_messages(ids[0], thread_id=77, message_id=78)
    assert (table.channel_id, table.thread_id, table.message_id) == (10, 77, 78)
    assert await service.tables.by_message(78) == table
    assert (await service.tables.of_game(mine[0].game_id)).thread_id == 77


async def test_a_rematch_is_one_atomic_step_and_a_second_click_gets_the_first(
    service: GameService, events: Recorder
) -> None:
    import asyncio

    table = await service.tables.open(
        host=1,
        guild_id=5,
        channel_id=50,
        preset="scopone_scientifico",
        level="hard",
        pace=Pace.live(90),
        on_timeout=TimeoutRule.FORFEIT,
    )
    await service.tables.join(table.id, user=2, side=1)
    await service.tables.add_computer(table.id, by=1, level="expert")
    await service.tables.add_computer(table.id, by=1)
    started = await service.tables.start(table.id, by=1, seed=4)
    game_id = started.game_id
    await refused(ErrorCode.GAME_STARTED, service.tables.open_rematch(game_id, by=2))
    await service.games.resign(game_id, user=2)
    await service.settle()
    old = await service.tables.get(table.id)
    await refused(ErrorCode.REMATCH_PLAYERS_ONLY, service.tables.open_rematch(game_id, by=9))
    first, second = await asyncio.gather(
        service.tables.open_rematch(game_id, by=2, channel_id=60),
        service.tables.open_rematch(game_id, by=1, channel_id=61),
    )
    assert [first.opened, second.opened].count(True) == 1
    assert first.table.id == second.table.id
    new = first.table if first.opened else second.table
    assert new.status is TableStatus.OPEN and new.is_full
    assert new.seats == old.seats and new.rules == old.rules
    assert (new.pace, new.on_timeout, new.level) == (old.pace, old.on_timeout, old.level)
    assert new.host == (2 if first.opened else 1)
    assert (await service.tables.rematch_of(game_id)) == new
    await service.settle()
    assert [e.table.id for e in events.of(TableOpened)].count(new.id) == 1


async def test_paces_ends_and_server_options_are_decided_here_for_every_front_end(
    service: GameService,
) -> None:
    from scopabot.service import pace_of

    assert pace_of("live") == Pace.live(120)
    assert pace_of("live", minutes=5) == Pace.live(300)
    assert pace_of("correspondence") == Pace.correspondence(24)
    assert pace_of("correspondence", hours=3) == Pace.correspondence(3)
    for kind, units in [("live", {"hours": 2}), ("correspondence", {"minutes": 5})]:
        with pytest.raises(ServiceError) as caught:
            pace_of(kind, **units)
        assert caught.value.code is ErrorCode.PACE_UNIT
    with pytest.raises(ServiceError) as caught:
        pace_of("blitz")
    assert caught.value.code is ErrorCode.BAD_PACE
    await refused(
        ErrorCode.TARGET_OR_DEALS, service.tables.open(host=1, options={"target": 21, "deals": 3})
    )
    table = await service.tables.open(host=1, options={"target": None, "deals": 3})
    assert (table.rules.deals, table.rules.target) == (3, None)
    settings = await service.settings.change(8, options={"deals": 4, "napola": True})
    assert settings.default_rules == {"deals": 4, "napola": True}
    settings = await service.settings.change(8, options={"target": 16, "deals": None})
    assert settings.default_rules == {"target": 16, "napola": True}  # a target replaces deals
    assert await service.settings.get(8) == settings
    await refused(ErrorCode.BAD_OPTION, service.settings.change(8, options={"target": 500}))
    await refused(
        ErrorCode.TARGET_OR_DEALS,
        service.settings.change(8, options={"target": 11, "deals": 2}),
    )
    assert await service.settings.get(8) == settings  # a refusal changes nothing
    reset = await service.settings.change(8, reset=True)
    assert reset.default_rules == {}


async def test_a_commands_choices_reach_the_service_as_given(service: GameService) -> None:
    """What a person chose in a command (``None``: not chosen) and the pace as named: the
    service makes the options and the pace, with the same refusals whatever front end asks."""
    from scopabot.service import RuleChoices

    none = RuleChoices()
    assert not none.any_made and none.as_options() == {}
    table = await service.tables.open(host=1, options=none)
    assert (table.rules.target, table.pace) == (11, Pace.live(120))
    chosen = RuleChoices(deals=2, napola=True, tiebreak=None)
    assert chosen.any_made and chosen.as_options() == {"deals": 2, "napola": True}
    table = await service.tables.open(
        host=2, options=chosen, pace="correspondence", hours=3, computers=1
    )
    assert (table.rules.deals, table.rules.target, table.rules.napola) == (2, None, True)
    assert table.pace == Pace.correspondence(3)
    table = await service.tables.open(host=3, pace=PaceKind.LIVE, minutes=5)
    assert table.pace == Pace.live(300)
    before = await service.tables.in_channel(0)
    await refused(
        ErrorCode.TARGET_OR_DEALS,
        service.tables.open(host=4, options=RuleChoices(target=21, deals=3), channel_id=0),
    )
    await refused(
        ErrorCode.PACE_UNIT, service.tables.open(host=4, pace="live", hours=2, channel_id=0)
    )
    await refused(ErrorCode.BAD_PACE, service.tables.open(host=4, pace="blitz", channel_id=0))
    await refused(
        ErrorCode.BAD_PACE, service.tables.open(host=4, pace="live", minutes=20, channel_id=0)
    )
    assert await service.tables.in_channel(0) == before  # a refusal opens nothing
    settings = await service.settings.change(8, options=RuleChoices(target=16, re_bello=True))
    assert settings.default_rules == {"target": 16, "re_bello": True}
    await refused(
        ErrorCode.TARGET_OR_DEALS,
        service.settings.change(8, options=RuleChoices(target=11, deals=2)),
    )
    assert await service.settings.get(8) == settings
