"""Tournaments as kept: entries once per person, a round opened once, a pairing decided once
and given one table, standings and winner kept for good (and across a reopening)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from scopabot.engine import Rules
from scopabot.store import NotFoundError, Store
from scopabot.store.tournaments import (
    AlreadyEnteredError,
    NewPairing,
    NotEnteredError,
    NotRegisteringError,
    TournamentChangedError,
    TournamentStatus,
    TournamentStore,
)

T0 = datetime(2025, 3, 1, 18, tzinfo=UTC)


def fields(**over: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "organiser_id": 1,
        "name": "Coppa",
        "format": "round_robin",
        "preset": "scopa",
        "players": 2,
        "options": {"target": 11},
        "pace": {"kind": "untimed", "seconds": None, "reminders": []},
        "on_timeout": "computer",
        "level": "normal",
        "round_seconds": 86400,
        "seeding": "draw",
        "seed": 7,
        "guild_id": 10,
        "channel_id": 20,
        "at": T0,
    }
    base.update(over)
    return base


@pytest.fixture
def tournaments(store: Store) -> TournamentStore:
    return store.tournaments


async def test_create_and_read_back(tournaments: TournamentStore) -> None:
    t = await tournaments.create(**fields(rounds=3, format="swiss"))
    again = await tournaments.get(t.id)
    assert again == t
    assert t.status is TournamentStatus.REGISTERING and t.round == 0 and t.rounds == 3
    assert t.options == {"target": 11} and t.created_at == T0
    assert [x.id for x in await tournaments.in_guild(10)] == [t.id]
    assert await tournaments.in_guild(11) == []
    with pytest.raises(NotFoundError):
        await tournaments.get(t.id + 1)


async def test_each_person_is_entered_once(tournaments: TournamentStore) -> None:
    t = await tournaments.create(**fields(preset="scopone", players=4))
    pair = await tournaments.enter(t.id, 100, partner_id=101)
    assert pair.people == (100, 101)
    for user, partner in ((101, None), (102, 100), (100, 103)):
        with pytest.raises(AlreadyEnteredError) as refused:
            await tournaments.enter(t.id, user, partner_id=partner)
        assert refused.value.user_id in (100, 101)
    assert [e.people for e in await tournaments.entries(t.id)] == [(100, 101)]  # nothing added
    solo = await tournaments.enter(t.id, 102)
    assert (await tournaments.entry_of(t.id, 101)).id == pair.id
    left = await tournaments.leave(t.id, 101)  # either member takes the pair out
    assert left.id == pair.id
    assert [e.id for e in await tournaments.entries(t.id)] == [solo.id]
    with pytest.raises(NotEnteredError):
        await tournaments.leave(t.id, 100)
    assert [x.id for x in await tournaments.of_user(102)] == [t.id]
    assert await tournaments.of_user(100) == []


async def test_start_draws_pairs_and_closes_registration(tournaments: TournamentStore) -> None:
    t = await tournaments.create(**fields(preset="scopone", players=4))
    a = await tournaments.enter(t.id, 100, partner_id=101)
    b = await tournaments.enter(t.id, 102)
    c = await tournaments.enter(t.id, 103)
    started = await tournaments.start(
        t.id, t.version + 3, pairs=[(b.id, c.id)], seeds=[b.id, a.id], at=T0
    )
    assert started.status is TournamentStatus.PLAYING and started.started_at == T0
    entries = await tournaments.entries(t.id)
    assert [(e.people, e.seed) for e in entries] == [((102, 103), 1), ((100, 101), 2)]
    assert (await tournaments.entry_of(t.id, 103)).id == b.id
    with pytest.raises(NotRegisteringError):
        await tournaments.enter(t.id, 104)
    with pytest.raises(NotRegisteringError):
        await tournaments.leave(t.id, 100)


async def test_a_round_is_opened_once(tournaments: TournamentStore) -> None:
    t = await tournaments.create(**fields())
    e = [await tournaments.enter(t.id, u) for u in (1, 2, 3)]
    t = await tournaments.start(t.id, t.version + 3, pairs=[], seeds=[x.id for x in e], at=T0)
    pairs = [NewPairing(0, e[0].id, e[1].id), NewPairing(1, e[2].id, None, outcome="rest")]
    deadline = T0 + timedelta(days=1)
    opened = await tournaments.open_round(
        t.id, t.version, round_number=1, stage="league", deadline=deadline, pairings=pairs, at=T0
    )
    assert opened.round == 1 and opened.round_deadline == deadline
    with pytest.raises(TournamentChangedError):  # a second process read the same version
        await tournaments.open_round(
            t.id,
            t.version,
            round_number=1,
            stage="league",
            deadline=deadline,
            pairings=pairs,
            at=T0,
        )
    stored = await tournaments.pairings(t.id, round_number=1)
    assert [(p.slot, p.entry_a, p.entry_b, p.outcome) for p in stored] == [
        (0, e[0].id, e[1].id, None),
        (1, e[2].id, None, "rest"),
    ]
    assert stored[1].decided_at == T0
    assert await tournaments.next_deadline() == deadline
    assert await tournaments.due(deadline - timedelta(seconds=1)) == []
    assert [x.id for x in await tournaments.due(deadline)] == [t.id]
    [r] = await tournaments.rounds(t.id)
    assert r.stage == "league" and r.finished_at is None
    await tournaments.finish_round(t.id, 1, at=deadline)
    assert (await tournaments.rounds(t.id))[0].finished_at == deadline


async def test_a_pairing_gets_one_table_and_one_result(
    store: Store, tournaments: TournamentStore
) -> None:
    t = await tournaments.create(**fields())
    e = [await tournaments.enter(t.id, u) for u in (1, 2)]
    t = await tournaments.start(t.id, t.version + 2, pairs=[], seeds=[x.id for x in e], at=T0)
    t = await tournaments.open_round(
        t.id,
        t.version,
        round_number=1,
        stage="knockout",
        deadline=T0 + timedelta(hours=1),
        pairings=[NewPairing(0, e[0].id, e[1].id)],
        at=T0,
    )
    [p] = await tournaments.pairings(t.id)
    one = await store.tables.create(host_id=1, rules=Rules())
    two = await store.tables.create(host_id=1, rules=Rules())
    assert await tournaments.attach_table(p.id, one.id)
    assert not await tournaments.attach_table(p.id, two.id)  # a double click, a 2nd process
    found = await tournaments.pairing_at_table(one.id)
    assert found is not None and found.id == p.id
    assert await tournaments.pairing_at_table(two.id) is None
    assert await tournaments.decide(
        p.id, outcome="a", points_a=11, points_b=4, reason="match", at=T0
    )
    assert not await tournaments.decide(p.id, outcome="b", reason="deadline", at=T0)
    [p] = await tournaments.pairings(t.id)
    assert (p.outcome, p.points_a, p.points_b, p.reason) == ("a", 11, 4, "match")


async def test_standings_and_winner_kept_for_good(
    database: Path | str, tournaments: TournamentStore
) -> None:
    t = await tournaments.create(**fields())
    e = [await tournaments.enter(t.id, u) for u in (1, 2)]
    t = await tournaments.start(t.id, t.version + 2, pairs=[], seeds=[x.id for x in e], at=T0)
    table = [{"rank": 1, "entry": e[1].id}, {"rank": 2, "entry": e[0].id}]
    done = await tournaments.finish(
        t.id,
        t.version,
        status=TournamentStatus.FINISHED,
        standings=table,
        winner_entry=e[1].id,
        at=T0 + timedelta(days=2),
    )
    assert done.status is TournamentStatus.FINISHED and done.round_deadline is None
    with pytest.raises(TournamentChangedError):
        await tournaments.finish(
            t.id,
            t.version,
            status=TournamentStatus.CANCELLED,
            standings=None,
            winner_entry=None,
            at=T0,
        )
    reopened = await Store.open(database)
    try:
        kept = await reopened.tournaments.get(t.id)
    finally:
        await reopened.close()
    assert kept.standings == table and kept.winner_entry == e[1].id
    assert kept.finished_at == T0 + timedelta(days=2)


async def test_withdraw_once_and_organiser_role(tournaments: TournamentStore) -> None:
    t = await tournaments.create(**fields())
    e = await tournaments.enter(t.id, 5)
    assert await tournaments.withdraw(t.id, e.id, at=T0)
    assert not await tournaments.withdraw(t.id, e.id, at=T0)
    assert (await tournaments.entry_of(t.id, 5)).withdrawn_at == T0
    assert await tournaments.organiser_role(10) is None
    await tournaments.set_organiser_role(10, 555)
    assert await tournaments.organiser_role(10) == 555
    await tournaments.set_organiser_role(10, None)
    assert await tournaments.organiser_role(10) is None
