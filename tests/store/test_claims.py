"""Two bot processes on one database (two stores here): a deadline or a reminder is claimed
before it is acted on, so that of two schedulers reading the same alarm one takes it; the same
move sent through both is played once. On both databases."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

from scopabot.engine import Rules
from scopabot.store import AlarmKind, Store

from .helpers import new_game

T0 = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


async def test_of_two_processes_one_claims_each_alarm(database: Path | str) -> None:
    one = await Store.open(database)
    two = await Store.open(database)
    try:
        games = [await new_game(one, Rules(), seed) for seed in range(3)]
        for stored in games:
            await one.deadlines.set(
                stored.id, stored.version, T0, remind_at=T0 - timedelta(seconds=30)
            )
        seen_one = await one.deadlines.due(T0 + timedelta(seconds=1))
        seen_two = await two.deadlines.due(T0 + timedelta(seconds=1))
        assert seen_one == seen_two and len(seen_one) == 6  # a reminder and a deadline each
        later = T0 + timedelta(minutes=5)
        results = await asyncio.gather(
            *(
                store.deadlines.claim(alarm, then=later)
                for alarm in seen_one
                for store in (one, two, one, two)
            )
        )
        for n, alarm in enumerate(seen_one):
            assert results[4 * n : 4 * n + 4].count(True) == 1, alarm
        # Claimed: moved on, so no scheduler finds them due again at the same moment.
        assert await two.deadlines.due(T0 + timedelta(seconds=1)) == []
        assert {a.kind for a in await one.deadlines.due(later)} == {
            AlarmKind.DEADLINE,
            AlarmKind.REMINDER,
        }
    finally:
        await one.close()
        await two.close()


async def test_a_hundred_same_moves_through_two_processes_play_one(database: Path | str) -> None:
    """The same click arriving 100 times, half through each of two stores on one database (two
    bot processes): one move is written, every other attempt is refused as stale."""
    from scopabot.service.live import LiveGames
    from scopabot.store import Actor, StaleVersionError

    one = await Store.open(database)
    two = await Store.open(database)
    try:
        stored = await new_game(one, Rules(), seed=11)
        move = stored.game.legal_moves()[0]

        async def click(store: Store) -> bool:
            try:
                await LiveGames.of(store).apply_move(
                    stored.id, stored.version, move, by=Actor.user(100)
                )
            except StaleVersionError:
                return False
            return True

        results = await asyncio.gather(*(click(s) for _ in range(50) for s in (one, two)))
        assert results.count(True) == 1
        for store in (one, two):
            reloaded = await store.games.load(stored.id)
            assert reloaded.version == stored.version + 1 and reloaded.game.move_count == 1
            assert len(await store.games.moves(stored.id)) == 1
    finally:
        await one.close()
        await two.close()


async def test_one_process_at_a_time_holds_the_scheduler_lease(database: Path | str) -> None:
    """Of two processes asking together, one holds the lease; it renews it, the other does
    not get it while it lives; released (or run out), the other takes it."""
    one = await Store.open(database)
    two = await Store.open(database)
    try:
        asked = await asyncio.gather(
            *(
                store.deadlines.hold_lease("scheduler", name, 30)
                for _ in range(10)
                for store, name in ((one, "one"), (two, "two"))
            ),
        )
        holders = {("one", "two")[n % 2] for n, held in enumerate(asked) if held > 0}
        assert len(holders) == 1
        (winner,) = holders
        first, second = (one, two) if winner == "one" else (two, one)
        loser = "two" if winner == "one" else "one"
        assert 29 < await first.deadlines.hold_lease("scheduler", winner, 30) <= 30  # renewed
        assert await second.deadlines.hold_lease("scheduler", loser, 30) == 0
        holder = await second.deadlines.lease_holder("scheduler")
        assert holder is not None and holder[0] == winner and 29 < holder[1] <= 30
        await second.deadlines.release_lease("scheduler", loser)  # not its to give up
        assert await second.deadlines.hold_lease("scheduler", loser, 30) == 0
        await first.deadlines.release_lease("scheduler", winner)
        assert await second.deadlines.hold_lease("scheduler", loser, 0.05) > 0
        # Run out (its process stopped renewing it): the other takes it.
        await asyncio.sleep(0.1)
        assert await first.deadlines.hold_lease("scheduler", winner, 30) > 0
        assert await second.deadlines.hold_lease("scheduler", loser, 30) == 0
    finally:
        await one.close()
        await two.close()


async def test_a_computer_turn_is_claimed_by_one_process(database: Path | str) -> None:
    """Two processes about to think the same computer turn: one claims it; the claim is
    renewed by its holder, a later turn is anyone's, and a claim that ran out with its turn
    still to play is an orphan another process takes over."""
    one = await Store.open(database)
    two = await Store.open(database)
    try:
        stored = await new_game(one, Rules(), 1)
        game, version = stored.id, stored.version
        claimed = await asyncio.gather(
            *(
                store.deadlines.claim_turn(game, version, name, 30)
                for _ in range(10)
                for store, name in ((one, "one"), (two, "two"))
            )
        )
        holders = {("one", "two")[n % 2] for n, took in enumerate(claimed) if took}
        assert len(holders) == 1  # its holder renewing it, the other refused every time
        (winner,) = holders
        loser = "two" if winner == "one" else "one"
        assert await two.deadlines.claim_turn(game, version, winner, 30)  # renewed
        assert not await one.deadlines.claim_turn(game, version, loser, 30)
        assert not await two.deadlines.claim_turn(game, version - 1, loser, 30)  # older
        assert await one.deadlines.orphaned_turns() == []
        # The holder dies: its claim runs out with the turn still to play.
        assert await one.deadlines.claim_turn(game, version, winner, 0.05)
        await asyncio.sleep(0.1)
        assert await two.deadlines.orphaned_turns() == [game]
        assert await two.deadlines.claim_turn(game, version, loser, 30)
        assert await one.deadlines.orphaned_turns() == []
        # The next turn is anyone's, whoever held the last.
        assert await one.deadlines.claim_turn(game, version + 1, winner, 30)
        assert not await two.deadlines.claim_turn(game, version + 1, loser, 30)
    finally:
        await one.close()
        await two.close()


async def test_a_computer_turn_no_process_claimed_is_found(database: Path | str) -> None:
    """A person's move written, then its process killed before it claimed the computer turn
    after it: that turn is listed as unclaimed until some process claims it (at its version
    or a later one); a person's turn, a claim of an older turn and a finished game are not."""
    from scopabot.service.live import LiveGames
    from scopabot.store import Actor

    one = await Store.open(database)
    two = await Store.open(database)
    try:
        stored = await new_game(one, Rules(), 1)  # a person in seat 0, a computer in seat 1
        game, version = stored.game, stored.version
        if game.turn == 1:
            applied = await LiveGames.of(one).apply_move(
                stored.id, version, game.legal_moves()[0], by=Actor.computer()
            )
            game, version = applied.game, applied.version
        assert game.turn == 0
        assert await two.deadlines.unclaimed_turns() == []  # a person's turn
        applied = await LiveGames.of(one).apply_move(
            stored.id, version, game.legal_moves()[0], by=Actor.user(100)
        )
        version = applied.version
        assert applied.game.turn == 1
        assert await two.deadlines.unclaimed_turns() == [(stored.id, version)]
        assert await one.deadlines.claim_turn(stored.id, version - 1, "one", 30)  # older turn
        assert await two.deadlines.unclaimed_turns() == [(stored.id, version)]
        assert await one.deadlines.claim_turn(stored.id, version, "one", 0.05)
        assert await two.deadlines.unclaimed_turns() == []
        await asyncio.sleep(0.1)  # run out: an orphan now, not an unclaimed turn
        assert await two.deadlines.unclaimed_turns() == []
        assert await two.deadlines.orphaned_turns() == [stored.id]
        await one.games.abandon(stored.id, version)
        async with one.database.write() as db:
            await db.execute("DELETE FROM computer_turns")
        assert await two.deadlines.unclaimed_turns() == []  # no longer played
    finally:
        await one.close()
        await two.close()


async def test_two_processes_opening_and_starting_tables_at_once_all_get_through(
    database: Path | str,
) -> None:
    """Two processes opening, filling and starting unrelated tables at the same moments:
    PostgreSQL refuses some of those transactions for the other's (small tables are read
    whole), and the store runs them again; every table starts, none twice, nothing is
    refused to its caller (as on SQLite, whose one writer at a time waits instead)."""
    from scopabot.engine import Game
    from scopabot.store import SeatHolder

    one = await Store.open(database)
    two = await Store.open(database)
    try:

        async def table(store: Store, n: int) -> int:
            opened = await store.tables.create(host_id=100 + n, rules=Rules(), guild_id=n)
            await store.tables.take_seat(opened.id, 0, SeatHolder.human(100 + n))
            await store.tables.take_seat(opened.id, 1, SeatHolder.computer("easy"))
            started = await store.tables.start(opened.id, Game.new(Rules(), seed=n))
            return started.id

        games = await asyncio.gather(*(table((one, two)[n % 2], n) for n in range(40)))
        assert len(set(games)) == 40
        assert len(await one.games.playing()) == 40
    finally:
        await one.close()
        await two.close()
