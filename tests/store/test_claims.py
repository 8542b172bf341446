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
