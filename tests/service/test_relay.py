"""Several processes on one database: a move applied where its table is not shown.

Two services on one database stand for two bot processes: ``here`` shows the tables of server
``SHOWN`` (its shard), ``there`` shows the others (a DM click, the scheduler). A move ``there``
applies to a table of ``SHOWN`` writes a notice in its transaction; ``here`` claims it and
gets the events ``there`` published, and its own copy of the game is brought up to date."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from scopabot.service import (
    CardPlayed,
    ErrorCode,
    Event,
    FakeClock,
    GameService,
    HandChanged,
    InlineThinker,
    MatchOver,
    Pace,
    SeatTakenBack,
    TableStarted,
    TimeoutAction,
    TimeoutApplied,
    TurnStarted,
)
from scopabot.service.tournaments import RoundStarted, TournamentFinished
from scopabot.store import Store
from scopabot.store.tournaments import TournamentStatus

from .helpers import play_once

SHOWN = 5 << 22  # a server of shard 1 of 2


def shard_1(guild_id: int | None) -> bool:
    return guild_id is not None and (guild_id >> 22) % 2 == 1


def shard_0(guild_id: int | None) -> bool:
    return not shard_1(guild_id)


class Shown:
    """What the front end of the showing process was handed."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    async def __call__(self, events: Sequence[Event]) -> None:
        self.events.extend(events)

    def of(self, kind: type[Event]) -> list[Event]:
        return [e for e in self.events if isinstance(e, kind)]


@pytest.fixture
async def pair(
    database: Path | str, clock: FakeClock
) -> AsyncIterator[tuple[GameService, GameService]]:
    """``here`` (shard 1: shows SHOWN) and ``there`` (shard 0), each on its own store."""
    stores = [await Store.open(database), await Store.open(database)]
    services = [
        await GameService.start(s, clock=clock, thinker=InlineThinker(), computer_pause=0)
        for s in stores
    ]
    here, there = services
    here.relay.show_here(shard_1)
    there.relay.show_here(shard_0)
    yield here, there
    for service in services:
        await service.close()
    for store in stores:
        await store.close()


async def started(service: GameService, *, computers: int = 0) -> int:
    table = await service.tables.open(host=1, guild_id=SHOWN, channel_id=77, computers=computers)
    if not computers:
        await service.tables.join(table.id, user=2)
    return (await service.tables.start(table.id, by=1, seed=3)).game_id


async def test_a_move_made_elsewhere_reaches_the_process_that_shows_its_table(
    pair: tuple[GameService, GameService],
) -> None:
    here, there = pair
    game_id = await started(here)
    before = await here.games.public_view(game_id)  # here holds the game, at its start
    mover = before.seats[before.turn].user_id
    assert mover is not None
    moved = await play_once(there, game_id, mover)  # the DM click reached the other process
    assert await here.store.outbox.count() == 1
    shown = Shown()
    assert await here.relay.take(shown) == 1
    assert await here.relay.take(shown) == 0  # taken once
    assert await here.store.outbox.count() == 0
    [played] = shown.of(CardPlayed)
    assert isinstance(played, CardPlayed) and moved.move is not None
    assert (played.version, played.user_id, played.public) == (moved.version, mover, None)
    assert played.play.card == moved.move.card
    [turn] = shown.of(TurnStarted)
    assert isinstance(turn, TurnStarted)
    assert turn.user_id == 3 - mover and turn.version == moved.version
    # The mover's own hand was answered where they clicked; the others' are shown here.
    assert all(isinstance(e, HandChanged) and e.seat != played.seat for e in shown.of(HandChanged))
    after = await here.games.public_view(game_id)
    assert after.version == moved.version  # here's copy was brought up to date
    # Here plays on from it; there's old copy is refused with the stale version, then reads
    # the game again.
    nxt = await play_once(here, game_id, 3 - mover)
    assert await here.store.outbox.count() == 0  # shown here: no notice
    view = await there.games.seat_view(game_id, user=mover)
    assert view.version == nxt.version


async def test_the_loser_of_a_race_is_refused_cleanly_and_reads_the_game_again(
    pair: tuple[GameService, GameService],
) -> None:
    here, there = pair
    game_id = await started(here)
    public = await there.games.public_view(game_id)  # both hold the game at one version
    mover = public.seats[public.turn].user_id or 0
    view = await there.games.seat_view(game_id, user=mover)
    card = str(next(iter(view.choices)))
    capture = "+".join(str(c) for c in view.choices[next(iter(view.choices))][0].sorted_capture())
    plays = [
        s.games.play(game_id, user=mover, card=card, capture=capture or None, version=view.version)
        for s in (here, there) * 5
    ]
    results = await asyncio.gather(*plays, return_exceptions=True)
    won = [r for r in results if not isinstance(r, BaseException)]
    assert len(won) == 1, results
    assert all(getattr(r, "code", None) is ErrorCode.STALE_VERSION for r in results if r not in won)
    for service in (here, there):
        assert (await service.games.public_view(game_id)).version == view.version + 1
    stored = await here.store.games.load(game_id)
    assert stored.version == view.version + 1 and stored.game.move_count == 1


async def test_only_the_moves_of_another_processs_tables_leave_a_notice(
    pair: tuple[GameService, GameService],
) -> None:
    _, there = pair
    elsewhere = await there.tables.open(host=1, guild_id=4 << 22, channel_id=78)
    await there.tables.join(elsewhere.id, user=2)
    game_id = (await there.tables.start(elsewhere.id, by=1, seed=3)).game_id
    for _ in range(3):
        public = await there.games.public_view(game_id)
        await play_once(there, game_id, public.seats[public.turn].user_id or 0)
    assert await there.store.outbox.count() == 0  # shard 0's table, moved by shard 0
    shown = Shown()
    assert await there.relay.take(shown) == 0


async def test_two_processes_of_one_shard_never_both_take_a_notice(
    database: Path | str, clock: FakeClock
) -> None:
    stores = [await Store.open(database) for _ in range(3)]
    services = [
        await GameService.start(s, clock=clock, thinker=InlineThinker(), computer_pause=0)
        for s in stores
    ]
    try:
        mover_side, *showing = services
        mover_side.relay.show_here(shard_0)
        for service in showing:
            service.relay.show_here(shard_1)
        game_id = await started(mover_side)
        for _ in range(4):
            public = await mover_side.games.public_view(game_id)
            await play_once(mover_side, game_id, public.seats[public.turn].user_id or 0)
        assert await mover_side.store.outbox.count() == 5  # the start, then four moves
        shown = [Shown(), Shown()]
        counts = await asyncio.gather(
            *(s.relay.take(r) for s, r in zip(showing, shown, strict=True))
        )
        counts += await asyncio.gather(
            *(s.relay.take(r) for s, r in zip(showing, shown, strict=True))
        )
        assert sum(counts) == 5
        played = [e.version for r in shown for e in r.events if isinstance(e, CardPlayed)]
        assert len(played) == len(set(played)) == 4  # each move shown once, by one of them
    finally:
        for service in services:
            await service.close()
        for store in stores:
            await store.close()


async def test_a_notice_claimed_by_a_process_that_died_is_taken_again(
    pair: tuple[GameService, GameService], monkeypatch: pytest.MonkeyPatch
) -> None:
    here, there = pair
    game_id = await started(here)
    public = await there.games.public_view(game_id)
    await play_once(there, game_id, public.seats[public.turn].user_id or 0)
    [(notice_id, _)] = await here.store.outbox.pending(stale_before=0)
    now = 1_000_000_000_000
    claimed = await here.store.outbox.claim([notice_id], by="dead", at=now, stale_before=0)
    assert len(claimed) == 1
    assert await here.store.outbox.claim([notice_id], by="other", at=now, stale_before=0) == []
    assert await here.store.outbox.pending(stale_before=now) == []
    again = await here.store.outbox.claim([notice_id], by="next", at=now + 1, stale_before=now + 1)
    assert [n.id for n in again] == [notice_id]


async def test_a_match_ended_elsewhere_comes_with_its_rating_changes(
    pair: tuple[GameService, GameService],
) -> None:
    here, there = pair
    game_id = await started(here)
    await there.games.resign(game_id, user=1)  # /scopa resign in a DM: shard 0
    shown = Shown()
    assert await here.relay.take(shown) == 1
    [over] = shown.of(MatchOver)
    assert isinstance(over, MatchOver)
    assert (over.reason, over.losing_side, over.winner_side) == ("resign", 0, 1)
    assert set(over.rating_changes) == {1, 2} and set(over.global_rating_changes) == {1, 2}
    public = await here.games.public_view(game_id)
    assert public.finished


async def test_a_forfeit_by_timeout_elsewhere_comes_with_whose_time_ran_out(
    pair: tuple[GameService, GameService],
) -> None:
    """The scheduler's process forfeits a table another process shows (its rule: a turn
    not played loses the match): the table's process is told whose time ran out, before the
    match's end, as the scheduler's process published them (its table's note says so)."""
    here, there = pair
    table = await here.tables.open(
        host=1, guild_id=SHOWN, channel_id=77, pace=Pace.live(30), on_timeout="forfeit"
    )
    await here.tables.join(table.id, user=2)
    game_id = (await here.tables.start(table.id, by=1, seed=3)).game_id
    public = await there.games.public_view(game_id)
    late = public.seats[public.turn].user_id
    await there.games.timeout(game_id, public.version)  # the deadline, in there's scheduler
    shown = Shown()
    assert await here.relay.take(shown) == 1
    told = [e for e in shown.events if isinstance(e, TimeoutApplied | MatchOver)]
    assert [type(e) for e in told] == [TimeoutApplied, MatchOver]
    timeout, over = told
    assert isinstance(timeout, TimeoutApplied) and isinstance(over, MatchOver)
    assert (timeout.what, timeout.seat, timeout.user_id) == (
        TimeoutAction.FORFEIT,
        public.turn,
        late,
    )
    assert timeout.version == over.version and over.reason == "forfeit"
    assert over.losing_side == public.turn % 2  # two players: a seat is a side


async def test_a_hand_drawn_before_another_processs_move_is_known_to_be_old(
    pair: tuple[GameService, GameService],
) -> None:
    """The table's process drew a hand at one version; a click elsewhere moved the game
    meanwhile: asked before it sends the hand, it learns so (and its copy is the game's
    now), rather than edit the person's DM back to a turn already played."""
    here, there = pair
    game_id = await started(here)
    drawn = (await here.games.public_view(game_id)).version
    assert not await here.relay.moved_since(game_id, drawn)
    public = await there.games.public_view(game_id)
    await play_once(there, game_id, public.seats[public.turn].user_id or 0)
    assert await here.relay.moved_since(game_id, drawn)
    assert (await here.games.public_view(game_id)).version == drawn + 1  # read again
    assert not await here.relay.moved_since(game_id, drawn + 1)


async def test_a_computers_reply_to_a_move_made_elsewhere_is_told_too(
    pair: tuple[GameService, GameService],
) -> None:
    here, there = pair
    game_id = await started(here, computers=1)
    public = await there.games.public_view(game_id)
    if public.seats[public.turn].user_id is None:  # the computer opens: there plays it
        await here.settle()
    public = await there.games.public_view(game_id)
    await play_once(there, game_id, 1)
    await there.settle()  # the computer answers in the process that applied the move
    shown = Shown()
    await here.relay.take(shown)
    played = [e for e in shown.events if isinstance(e, CardPlayed)]
    assert [p.user_id is None for p in played] == [False, True]  # the person, the computer
    assert played[1].version == played[0].version + 1
    turns = [e for e in shown.events if isinstance(e, TurnStarted)]
    assert [t.user_id for t in turns] == [1]  # only the turn that is the game's now


async def test_a_seat_taken_back_elsewhere_is_told_with_the_same_version(
    database: Path | str, clock: FakeClock
) -> None:
    stores = [await Store.open(database), await Store.open(database)]
    here = await GameService.start(
        stores[0], clock=clock, thinker=InlineThinker(), computer_pause=0
    )
    # There's clock stands still, so the deadlines must be here's: here holds the scheduler's
    # lease before there asks for it (asked at once, either may win it, and a there holding it
    # would never see a deadline pass: the loop below would wait for ever).
    for _ in range(500):
        if here.deadlines.holds_lease:
            break
        await asyncio.sleep(0.01)
    assert here.deadlines.holds_lease, "here never took the scheduler's lease"
    there = await GameService.start(
        stores[1], clock=FakeClock(), thinker=InlineThinker(), computer_pause=0
    )
    here.relay.show_here(shard_1)
    there.relay.show_here(shard_0)
    try:
        table = await here.tables.open(
            host=1, guild_id=SHOWN, channel_id=77, pace=Pace.live(30, reminder=False)
        )
        await here.tables.join(table.id, user=2)
        game_id = (await here.tables.start(table.id, by=1, seed=3)).game_id
        while 0 not in (await here.games.public_view(game_id)).away:
            public = await here.games.public_view(game_id)
            if public.seats[public.turn].user_id == 1:
                await clock.advance(30)  # person 1 never plays: here's scheduler times out
            else:
                await play_once(here, game_id, 2)
            await here.settle()
        assert await here.store.outbox.count() == 0  # all shown where they happened
        version = (await here.games.public_view(game_id)).version
        await there.games.take_seat_back(game_id, user=1)  # "Take my seat back" in a DM
        shown = Shown()
        assert await here.relay.take(shown) == 1
        [back] = shown.of(SeatTakenBack)
        assert isinstance(back, SeatTakenBack) and (back.seat, back.user_id) == (0, 1)
        public = await here.games.public_view(game_id)
        assert public.away == frozenset() and public.version >= version
    finally:
        for service in (here, there):
            await service.close()
        for store in stores:
            await store.close()


CHILD = """
import asyncio, json, sys
from scopabot.service import GameService, InlineThinker, ServiceError
from scopabot.service.tournaments import RoundStarted, TournamentFinished
from scopabot.store import Store
from scopabot.store.tournaments import TournamentStatus

async def main(database, game_id, user, card, capture, version, count):
    store = await Store.open(database)
    service = await GameService.start(store, thinker=InlineThinker(), computer_pause=0)
    await service.games.public_view(game_id)  # holds the game, as a bot process would
    print("ready", flush=True)
    sys.stdin.readline()  # go
    plays = [
        service.games.play(game_id, user=user, card=card, capture=capture or None, version=version)
        for _ in range(count)
    ]
    results = await asyncio.gather(*plays, return_exceptions=True)
    won = sum(1 for r in results if not isinstance(r, BaseException))
    codes = sorted({str(r.code) for r in results if isinstance(r, ServiceError)})
    others = [
        repr(r) for r in results if isinstance(r, BaseException) and not isinstance(r, ServiceError)
    ]
    print(json.dumps({"won": won, "codes": codes, "others": others}), flush=True)
    await service.close()
    await store.close()

args = sys.argv[1:]
asyncio.run(main(args[0], int(args[1]), int(args[2]), args[3], args[4], int(args[5]), int(args[6])))
"""


async def test_a_hundred_same_clicks_through_two_processes_make_one_move(
    database: Path | str, clock: FakeClock
) -> None:
    """Two processes on one database, each with its own copy of the game: the same card at
    the same version, 50 times in each at once; one move is stored, every other click is
    refused as made on an old version, and nothing else goes wrong."""
    import json
    import sys

    store = await Store.open(database)
    service = await GameService.start(store, clock=clock, thinker=InlineThinker(), computer_pause=0)
    try:
        game_id = await started(service)
        public = await service.games.public_view(game_id)
        mover = public.seats[public.turn].user_id or 0
        view = await service.games.seat_view(game_id, user=mover)
        card = next(iter(view.choices))
        capture = "+".join(str(c) for c in view.choices[card][0].sorted_capture())
        child = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            CHILD,
            str(database),
            str(game_id),
            str(mover),
            str(card),
            capture,
            str(view.version),
            "50",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        assert child.stdin is not None and child.stdout is not None
        assert (await asyncio.wait_for(child.stdout.readline(), 60)).strip() == b"ready"
        child.stdin.write(b"go\n")
        await child.stdin.drain()
        plays = [
            service.games.play(
                game_id, user=mover, card=str(card), capture=capture or None, version=view.version
            )
            for _ in range(50)
        ]
        results = await asyncio.gather(*plays, return_exceptions=True)
        theirs = json.loads(await asyncio.wait_for(child.stdout.readline(), 60))
        assert await child.wait() == 0
        won = sum(1 for r in results if not isinstance(r, BaseException)) + theirs["won"]
        assert won == 1, (results, theirs)
        mine = {str(getattr(r, "code", r)) for r in results if isinstance(r, BaseException)}
        assert mine <= {str(ErrorCode.STALE_VERSION)} and theirs["others"] == []
        assert set(theirs["codes"]) <= {str(ErrorCode.STALE_VERSION)}
        stored = await store.games.load(game_id)
        assert stored.version == view.version + 1 and stored.game.move_count == 1
    finally:
        await service.close()
        await store.close()


async def test_a_table_started_by_another_process_is_told_with_every_hand(
    pair: tuple[GameService, GameService],
) -> None:
    here, there = pair
    # A tournament's next round, opened where the round before ended: there, for here's server.
    table = await there.tables.open(host=1, guild_id=SHOWN, channel_id=77)
    await there.tables.join(table.id, user=2)
    started_view = await there.tables.start(table.id, by=1, seed=3)
    shown = Shown()
    assert await here.relay.take(shown) == 1
    [begun] = shown.of(TableStarted)
    assert isinstance(begun, TableStarted) and begun.table.id == table.id
    assert sorted(e.seat for e in shown.of(HandChanged)) == [0, 1]  # type: ignore[attr-defined]
    [turn] = shown.of(TurnStarted)
    public = await here.games.public_view(started_view.game_id)
    assert isinstance(turn, TurnStarted) and turn.seat == public.turn
    assert turn.user_id == public.seats[public.turn].user_id


async def knockout_started(service: GameService, entrants: int) -> int:
    """A knock-out of one-deal matches in SHOWN's server, started there by ``service``."""
    t = await service.tournaments.create(
        by=1, manager=True, name="Coppa", format="knockout", guild_id=SHOWN, channel_id=77,
        options={"deals": 1}, seed=4,
    )  # fmt: skip
    for user in range(11, 11 + entrants):
        await service.tournaments.join(t.id, user=user)
    await service.tournaments.start(t.id, by=1)
    await service.settle()
    return t.id


async def resign_round(service: GameService, tournament_id: int, number: int) -> None:
    """Every match of round ``number`` resigned by its first side (a DM click each)."""
    for m in await service.tournaments.matches(tournament_id, round_number=number):
        if m.outcome is None:
            assert m.table_id is not None
            game_id = (await service.tables.get(m.table_id)).game_id
            assert game_id is not None
            await service.games.resign(game_id, user=m.a[0])
    await service.settle()


async def test_a_round_reached_elsewhere_is_told_to_the_process_of_its_server(
    pair: tuple[GameService, GameService],
) -> None:
    """A knock-out of four in here's server. Its first round ends there (the resignations are
    DM clicks: shard 0's process), which opens the final and deals its table; the server's
    process is told the round, after the deal's own notice, as it was opened, and then the
    end. Where the process that reaches the news shows the server, no notice is written."""
    here, there = pair
    tid = await knockout_started(here, 4)
    assert await here.store.outbox.count() == 0  # the first round, reached here: shown here
    await resign_round(there, tid, 1)
    shown = Shown()
    # Two matches' ends, the final's deal, then the round, in that order.
    assert await here.relay.take(shown) == 4
    assert await here.store.outbox.count() == 0
    kinds = [type(e) for e in shown.events]
    assert kinds.count(MatchOver) == 2
    assert max(i for i, k in enumerate(kinds) if k is MatchOver) < kinds.index(TableStarted)
    assert kinds.index(TableStarted) < kinds.index(RoundStarted) == len(kinds) - 1
    [told] = shown.of(RoundStarted)
    assert isinstance(told, RoundStarted)
    [final] = await there.tournaments.matches(tid, round_number=2)
    assert told.number == 2 and told.matches == (final,) and final.outcome is None
    assert told.tournament.guild_id == SHOWN and told.tournament.channel_id == 77
    assert told.deadline == (await there.tournaments.info(tid)).round_deadline
    started_there = shown.of(TableStarted)[0]
    assert started_there.table_id == final.table_id
    # The final resigned there too: the end is told here, with its standings.
    await resign_round(there, tid, 2)
    shown = Shown()
    assert await here.relay.take(shown) == 2  # the final's end, then the tournament's
    assert [type(e) for e in shown.events][-1] is TournamentFinished
    [over] = shown.of(TournamentFinished)
    assert isinstance(over, TournamentFinished) and not over.cancelled
    assert over.tournament.status is TournamentStatus.FINISHED
    assert over.tournament.winner == final.b  # its first side resigned
    assert over.standings == tuple(await there.tournaments.standings(tid))


async def test_a_round_told_late_is_told_as_it_was_opened(
    pair: tuple[GameService, GameService],
) -> None:
    """The server's process was away while the round was opened there and a match of it was
    decided: the round's news still tells that match as being played, as it was opened
    (its table to place, its players to tell); the match's own end comes in its notice."""
    here, there = pair
    tid = await knockout_started(here, 8)
    await resign_round(there, tid, 1)
    [first, *_rest] = await there.tournaments.matches(tid, round_number=2)
    assert first.table_id is not None
    game_id = (await there.tables.get(first.table_id)).game_id
    assert game_id is not None
    await there.games.resign(game_id, user=first.a[0])
    await there.settle()
    shown = Shown()
    await here.relay.take(shown)
    [told] = shown.of(RoundStarted)
    assert isinstance(told, RoundStarted) and told.number == 2 and len(told.matches) == 2
    assert all(m.outcome is None and m.table_id is not None for m in told.matches)
    assert [m.table_id for m in told.matches] == [
        m.table_id for m in await there.tournaments.matches(tid, round_number=2)
    ]
    last = shown.events[-1]  # the match decided since: its own notice, after the round's
    assert isinstance(last, MatchOver) and last.table_id == first.table_id


async def test_a_round_its_opener_did_not_live_to_announce_is_announced_once_at_a_start(
    pair: tuple[GameService, GameService], database: Path | str, clock: FakeClock
) -> None:
    """The process that opened the final was stopped after dealing its table and before
    announcing it: the next process to start looks at the tournament again, finds the
    round unannounced and tells it to the server's process; a start after that tells
    nothing more."""
    here, there = pair
    tid = await knockout_started(here, 4)

    async def stopped_first(*_: object) -> None:
        """Killed here: the tables are dealt, the round not told."""

    there.tournaments.book.announce = stopped_first  # type: ignore[method-assign]
    await resign_round(there, tid, 1)
    [final] = await there.tournaments.matches(tid, round_number=2)
    assert final.table_id is not None and final.outcome is None  # opened and dealt
    shown = Shown()
    await here.relay.take(shown)
    assert not shown.of(RoundStarted)
    for _ in range(2):  # a process starting, twice (shard 0's again, say)
        store = await Store.open(database)
        again = await GameService.start(
            store, clock=clock, thinker=InlineThinker(), computer_pause=0, resume_tournaments=False
        )
        again.relay.show_here(shard_0)  # as bot.py does: its shards known, then resumed
        await again.tournaments.resume()
        await again.settle()
        await again.close()
        await store.close()
    shown = Shown()
    await here.relay.take(shown)
    [told] = shown.of(RoundStarted)
    assert isinstance(told, RoundStarted) and told.number == 2 and told.matches == (final,)


async def test_on_postgresql_a_notice_wakes_its_reader_at_the_commit(
    pair: tuple[GameService, GameService],
) -> None:
    here, there = pair
    game_id = await started(here)
    woken = asyncio.Event()
    listening = await here.store.outbox.listen(woken.set)
    if listening is None:  # SQLite: the readers look every second instead
        assert not str(here.store.path).startswith("postgresql")
        return
    try:
        assert listening.alive and not woken.is_set()
        public = await there.games.public_view(game_id)
        await play_once(there, game_id, public.seats[public.turn].user_id or 0)
        await asyncio.wait_for(woken.wait(), 10)  # NOTIFY comes with the move's commit
        shown = Shown()
        assert await here.relay.take(shown) == 1
    finally:
        await listening.close()
    assert not listening.alive


async def test_a_servers_discord_locale_seen_by_its_process_is_read_by_the_other(
    pair: tuple[GameService, GameService],
) -> None:
    """A process posting in a server outside its shards (a tournament's next round opened
    where the round before ended) has no gateway cache of it: the server's locale, recorded
    by the process of its shard, is what it speaks there when no manager chose a language."""
    here, there = pair
    assert await there.settings.discord_locale(SHOWN) is None  # never seen: the default
    await here.settings.seen_locales([(SHOWN, "it"), (SHOWN + 2, "en-GB")])
    assert await there.settings.discord_locale(SHOWN) == "it"
    assert await there.settings.discord_locale(SHOWN + 2) == "en-GB"
    await here.settings.seen_locales([(SHOWN, "en-US"), (SHOWN + 2, "en-GB")])  # one changed
    assert await there.settings.discord_locale(SHOWN) == "en-US"
    assert await there.settings.discord_locale(SHOWN + 2) == "en-GB"
    await here.settings.seen_locales([])  # nothing seen: nothing written, no error
    assert (await there.settings.get(SHOWN)).language is None  # a choice is another thing
