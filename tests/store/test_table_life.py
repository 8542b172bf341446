"""What the store keeps for the game service: table life, seat rules, timing, results."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from scopabot.engine import Game, Preset, Rules
from scopabot.service.live import LiveGames
from scopabot.store import (
    GLOBAL,
    Actor,
    AlarmKind,
    AlreadySeatedError,
    GameStatus,
    MatchResult,
    NoSuchSeatError,
    Rating,
    RatingValue,
    SeatHolder,
    SeatsEmptyError,
    SeatTakenError,
    Store,
    TableNotOpenError,
    TableStatus,
)

from .helpers import check_database

T0 = datetime(2025, 3, 1, 12, tzinfo=UTC)


async def _full_table(store: Store, rules: Rules, holders: list[SeatHolder]) -> int:
    table = await store.tables.create(
        host_id=1, rules=rules, guild_id=9, pace={"kind": "live"}, level="hard"
    )
    for seat, holder in enumerate(holders):
        await store.tables.take_seat(table.id, seat, holder)
    return table.id


async def test_a_table_starts_closes_and_keeps_its_seat_rules(store: Store) -> None:
    table = await store.tables.create(host_id=1, rules=Rules(), guild_id=9, on_timeout="forfeit")
    assert (table.on_timeout, table.level, table.game_id) == ("forfeit", "normal", None)
    await store.tables.take_seat(table.id, 0, SeatHolder.human(1))
    with pytest.raises(SeatTakenError):
        await store.tables.take_seat(table.id, 0, SeatHolder.human(2))
    with pytest.raises(AlreadySeatedError):
        await store.tables.take_seat(table.id, 1, SeatHolder.human(1))
    with pytest.raises(NoSuchSeatError):
        await store.tables.take_seat(table.id, 2, SeatHolder.human(2))
    with pytest.raises(SeatsEmptyError):
        await store.tables.start(table.id, Game.new(Rules(), seed=1))
    assert (await store.tables.get(table.id)).status is TableStatus.OPEN
    moved = await store.tables.move_seats(table.id, {0: 1})
    assert moved.seats == {1: SeatHolder.human(1)}
    await store.tables.take_seat(table.id, 0, SeatHolder.computer("normal"))
    stored = await store.tables.start(table.id, Game.new(Rules(), seed=1), deadline=T0)
    started = await store.tables.get(table.id)
    assert started.status is TableStatus.PLAYING
    assert (started.game_id, started.game_version) == (stored.id, 1)
    info = await store.games.info(stored.id)
    assert info.seats == (SeatHolder.computer("normal"), SeatHolder.human(1))
    assert info.table_id == table.id and info.guild_id == 9 and info.deadline_at == T0
    for refused in (
        store.tables.take_seat(table.id, 0, SeatHolder.human(3)),
        store.tables.leave_seat(table.id, 1),
        store.tables.cancel(table.id),
        store.tables.start(table.id, Game.new(Rules(), seed=2)),
    ):
        with pytest.raises(TableNotOpenError):
            await refused
    # Abandoning the game cancels its table.
    await store.games.abandon(stored.id, stored.version)
    assert (await store.tables.get(table.id)).status is TableStatus.CANCELLED


async def test_the_last_move_finishes_the_table(store: Store) -> None:
    rules = Rules(deals=1)
    table_id = await _full_table(store, rules, [SeatHolder.human(1), SeatHolder.human(2)])
    stored = await store.tables.start(table_id, Game.new(rules, seed=3))
    game, version = stored.game, stored.version
    while not game.is_over:
        applied = await LiveGames.of(store).apply_move(
            stored.id, version, game.legal_moves()[0], by=Actor.user(1 + game.turn)
        )
        game, version = applied.game, applied.version
    assert applied.match is not None and applied.match.game_id == stored.id
    assert (await store.tables.get(table_id)).status is TableStatus.FINISHED
    assert await store.games.of_user(1) == []


async def test_deadlines_timeouts_and_hand_over_in_the_moves_transaction(store: Store) -> None:
    rules = Rules(preset=Preset.SCOPA, players=3)
    holders = [SeatHolder.human(1), SeatHolder.human(2), SeatHolder.computer("greedy")]
    table_id = await _full_table(store, rules, holders)
    stored = await store.tables.start(table_id, Game.new(rules, seed=5))
    game, version = stored.game, stored.version
    mine = {g.game_id: g.seat for g in await store.games.of_user(2)}
    assert mine == {stored.id: 1}
    counts: dict[int, int] = {}
    handed: set[int] = set()
    for _ in range(12):
        seat = game.turn
        by = Actor.computer() if seat == 2 else Actor.timeout()
        due = T0 + timedelta(minutes=5)
        applied = await LiveGames.of(store).apply_move(
            stored.id, version, game.legal_moves()[0], by=by, deadline=due, remind_at=T0
        )
        game, version = applied.game, applied.version
        info = await store.games.info(stored.id)
        if seat != 2:
            counts[seat] = counts.get(seat, 0) + 1
            assert applied.seat_timeouts == counts[seat] == info.timeouts[seat]
            if counts[seat] >= 3:
                handed.add(seat)
        assert applied.away == info.away == handed
        # A turn of the computer seat, or of a seat handed to a computer, has no deadline.
        timed = game.turn != 2 and game.turn not in handed
        assert info.deadline_at == applied.deadline == (due if timed else None)
        assert info.remind_at == (T0 if timed else None)
    assert handed == {0, 1}
    while game.turn != 0:
        applied = await LiveGames.of(store).apply_move(
            stored.id, version, game.legal_moves()[0], by=Actor.computer()
        )
        game, version = applied.game, applied.version
    # The person takes the seat back by playing.
    applied = await LiveGames.of(store).apply_move(
        stored.id, version, game.legal_moves()[0], by=Actor.user(1)
    )
    assert applied.took_back and applied.away == {1} and applied.seat_timeouts == 0
    assert (await store.games.info(stored.id)).timeouts[0] == 0


class _Policy:
    def __init__(self) -> None:
        self.seen: list[dict[int, Rating | None]] = []

    def __call__(
        self, result: MatchResult, current: dict[int, Rating | None]
    ) -> dict[int, RatingValue]:
        self.seen.append(dict(current))
        return {
            rid: RatingValue(
                30.0 if any(p.won for p in result.players if p.seat == n) else 20.0, 5.0, float(n)
            )
            for n, rid in enumerate(current)
        }


async def test_a_resignation_loses_the_match_and_moves_ratings_at_once(db_path: Path) -> None:
    policy = _Policy()
    store = await Store.open(db_path)
    LiveGames.of(store).rating_policy = policy
    holders = [SeatHolder.human(7), SeatHolder.computer("expert")]
    table_id = await _full_table(store, Rules(), holders)
    stored = await store.tables.start(table_id, Game.new(Rules(), seed=8))
    applied = await LiveGames.of(store).apply_move(
        stored.id, stored.version, stored.game.legal_moves()[0], by=Actor.user(7)
    )
    ended = await LiveGames.of(store).end_match(
        stored.id, applied.version, losing_side=0, reason="resign"
    )
    assert ended.version == applied.version + 1
    assert ended.match is not None
    assert (ended.match.winner_side, ended.match.losing_side, ended.match.reason) == (
        1,
        0,
        "resign",
    )
    # The computer level is rated under its pseudo id, beside the person, on both boards.
    assert set(policy.seen[0]) == {7, -5}
    assert {(c.board, c.rating_id) for c in ended.rating_changes} == {
        (9, 7),
        (9, -5),
        (GLOBAL, 7),
        (GLOBAL, -5),
    }
    assert all(c.before is None for c in ended.rating_changes)
    assert (await store.boards.rating(-5, "scopa", guild_id=9)) is not None
    stats = await store.boards.player_stats(7, "scopa", guild_id=9)
    assert stats is not None and (stats.games, stats.wins) == (1, 0)
    assert (await store.games.info(stored.id)).status is GameStatus.FINISHED
    assert (await store.tables.get(table_id)).status is TableStatus.FINISHED
    await store.close()
    await check_database(db_path)


async def test_alarms_come_in_order_reminders_first(store: Store) -> None:
    ids = []
    for n in range(3):
        table_id = await _full_table(store, Rules(), [SeatHolder.human(1), SeatHolder.human(2)])
        deadline = T0 + timedelta(minutes=10 - n)
        stored = await store.tables.start(
            table_id,
            Game.new(Rules(), seed=n),
            deadline=deadline,
            remind_at=deadline - timedelta(minutes=1),
        )
        ids.append(stored.id)
    assert await store.deadlines.next() == T0 + timedelta(minutes=7)
    due = await store.deadlines.due(T0 + timedelta(minutes=9))
    assert [(a.game_id, a.kind) for a in due] == [
        (ids[2], AlarmKind.REMINDER),  # 7 min
        (ids[1], AlarmKind.REMINDER),  # 8 min: a reminder before a deadline at the same time
        (ids[2], AlarmKind.DEADLINE),
        (ids[0], AlarmKind.REMINDER),  # 9 min
        (ids[1], AlarmKind.DEADLINE),
    ]
    assert due[0].deadline_at == T0 + timedelta(minutes=8)
    await store.deadlines.set_reminder(ids[2], 1, None)
    await store.deadlines.set(ids[1], 1, None)
    assert [a.game_id for a in await store.deadlines.due(T0 + timedelta(minutes=8))] == [ids[2]]


async def test_people_and_their_hand_messages(store: Store) -> None:
    assert (await store.settings.user(5)).notify is True
    await store.settings.set_language(5, "it")
    await store.settings.set_notify(5, False)
    settings = await store.settings.user(5)
    assert (settings.language, settings.notify) == ("it", False)
    table_id = await _full_table(store, Rules(), [SeatHolder.human(5), SeatHolder.human(6)])
    stored = await store.tables.start(table_id, Game.new(Rules(), seed=1))
    await store.games.set_seat_message(stored.id, 1, channel_id=40, message_id=41)
    assert await store.games.seat_messages(stored.id) == {1: (40, 41)}
    assert [x.id for x in await store.tables.in_channel(0)] == []


async def test_what_the_bot_remembers_of_a_game_is_kept(store: Store) -> None:
    """Closed DMs (told once a game) and each deal's count posted, kept in the file."""
    table_id = await _full_table(store, Rules(), [SeatHolder.human(5), SeatHolder.human(6)])
    stored = await store.tables.start(table_id, Game.new(Rules(), seed=1))
    assert await store.games.dms_refused(stored.id) == {}
    await store.games.set_dm_refused(stored.id, 1, at=3, noted=True)
    await store.games.set_dm_refused(stored.id, 0, at=4)
    assert await store.games.dms_refused(stored.id) == {1: (3, True), 0: (4, False)}
    await store.games.set_dm_refused(stored.id, 1, at=None)  # her DMs took the hand
    assert await store.games.dms_refused(stored.id) == {1: (None, True), 0: (4, False)}
    assert await store.games.deal_post(stored.id, 1) is None
    await store.games.set_deal_post(stored.id, 1, channel_id=70, message_id=71)
    await store.games.set_deal_post(stored.id, 1, channel_id=80, message_id=81)  # kept first
    assert await store.games.deal_post(stored.id, 1) == (70, 71)


async def test_what_a_restart_owes_is_kept(store: Store) -> None:
    """The table message's debt (a move's version not shown yet), a hand DM being sent and
    the table's note, kept in the file; each debt paid once."""
    table_id = await _full_table(store, Rules(), [SeatHolder.human(5), SeatHolder.human(6)])
    stored = await store.tables.start(table_id, Game.new(Rules(), seed=1))
    game_id = stored.id
    assert await store.games.owed_tables() == [(table_id, game_id)]  # never shown yet
    await store.games.set_table_shown(game_id, stored.version)
    assert await store.games.owed_tables() == []
    applied = await LiveGames.of(store).apply_move(
        game_id, stored.version, stored.game.legal_moves()[0], by=Actor.user(5)
    )
    assert await store.games.owed_tables() == [(table_id, game_id)]  # the move owes it
    await store.games.set_table_shown(game_id, applied.version)
    await store.games.set_table_shown(game_id, stored.version)  # an older edit: no debt again
    assert await store.games.owed_tables() == []
    await store.games.owe_table(game_id)  # a change that keeps the version
    assert await store.games.owed_tables() == [(table_id, game_id)]
    await store.games.set_table_shown(game_id, applied.version)
    assert await store.games.owed_tables() == []

    assert await store.games.hands_being_sent() == []
    nonce = await store.games.hand_nonce(game_id, 1, 2**62 + 7)
    assert nonce == 2**62 + 7
    assert await store.games.hand_nonce(game_id, 1, 99) == nonce  # a send tried again
    assert await store.games.hands_being_sent() == [(table_id, game_id, 1)]
    await store.games.set_seat_message(game_id, 1, channel_id=40, message_id=41)
    assert await store.games.hands_being_sent() == []  # remembered: the send is done
    assert await store.games.hand_nonce(game_id, 0, 11) == 11
    await store.games.set_dm_refused(game_id, 0, at=3)  # refused: nothing was sent
    assert await store.games.hands_being_sent() == []

    assert await store.games.note(game_id) is None
    await store.games.set_note(game_id, "handed", 6)
    assert await store.games.note(game_id) == ("handed", 6)
    await store.games.set_note(game_id, None, None)
    assert await store.games.note(game_id) is None


async def test_a_match_keeps_its_rating_changes(store: Store) -> None:
    """Each rated player's score before and after, written with the match's end."""
    LiveGames.of(store).rating_policy = _Policy()
    for match in range(2):
        holders = [SeatHolder.human(5), SeatHolder.human(6)]
        table_id = await _full_table(store, Rules(), holders)
        stored = await store.tables.start(table_id, Game.new(Rules(), seed=1))
        ended = await LiveGames.of(store).end_match(
            stored.id, stored.version, losing_side=1, reason="resign"
        )
        assert ended.rating_changes
        kept = await store.games.rating_changes(stored.id)
        assert kept == sorted(
            (c.board, c.rating_id, None if c.before is None else c.before.score, c.after.score)
            for c in ended.rating_changes
        )
        befores = {k[2] for k in kept}
        assert (befores == {None}) if match == 0 else (None not in befores)  # first, then not
        assert (table_id, stored.id) in await store.games.owed_tables()  # the final table


async def test_a_persons_dm_channel_is_the_one_their_last_hand_reached(store: Store) -> None:
    """Kept across restarts, so the bot need not ask Discord to open it again."""
    assert await store.games.dm_channel_of(5) is None
    first = await _full_table(store, Rules(), [SeatHolder.human(5), SeatHolder.human(6)])
    game = await store.tables.start(first, Game.new(Rules(), seed=1))
    assert await store.games.dm_channel_of(5) is None  # no hand of theirs remembered yet
    await store.games.set_seat_message(game.id, 0, channel_id=40, message_id=41)
    await store.games.set_seat_message(game.id, 1, channel_id=50, message_id=51)
    assert await store.games.dm_channel_of(5) == 40
    assert await store.games.dm_channel_of(6) == 50
    second = await _full_table(store, Rules(), [SeatHolder.human(6), SeatHolder.human(5)])
    later = await store.tables.start(second, Game.new(Rules(), seed=2))
    await store.games.set_seat_message(later.id, 1, channel_id=42, message_id=43)
    assert await store.games.dm_channel_of(5) == 42  # the newest game's
    assert await store.games.dm_channel_of(7) is None
