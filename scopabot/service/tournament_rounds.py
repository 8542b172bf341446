"""Running a tournament's rounds: each match's end recorded from the store, the next round
paired and its tables opened, dealt and announced, the end with its standings kept, and the
round deadlines the service's one scheduler wakes for.

It acts only from what the store says (a match's end is read back from the stored result, a
round is over when every pairing of it is decided), so :meth:`Rounds.advance` is safe to
call at any time, after a restart too; and since a round is opened once and a pairing gets
one table and one result (the store's guards), a second process or a double click never
pairs anybody twice or opens two tables.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, Final

from scopabot.store import ActorKind, GameStatus, TableStatus
from scopabot.store.models import from_ms
from scopabot.store.tournaments import (
    Entry,
    StoredPairing,
    Tournament,
    TournamentChangedError,
    TournamentStatus,
)

from .events import Event, MatchOver, TableCancelled
from .pairing import Outcome, match_seed
from .tournament_book import TournamentBook
from .tournament_plans import (
    KNOCKOUT,
    as_stored,
    plan_round,
    stage_of,
    standing_rows,
    tournament_winner,
)
from .tournament_seam import call_off, end_game
from .tournament_views import (
    MatchInfo,
    RoundStarted,
    TournamentFinished,
    match_info,
    row_data,
)
from .views import Pace

log = logging.getLogger(__name__)

_RETRY_AFTER: Final = timedelta(minutes=1)


class Rounds:
    """A tournament's rounds, from the first one's pairing to the end (see the module)."""

    def __init__(self, book: TournamentBook) -> None:
        self.book = book
        self.service = book.service
        self.store = book.store
        self._unsubscribe = self.service.subscribe(self._on_event)
        self.service.relay.hears("round", self._round_news)
        self.service.relay.hears("finished", self._finished_news)

    async def resume(self) -> None:
        """After a start-up: look at every tournament in play again (results written while
        nobody listened, tables not yet opened or dealt, a round complete)."""
        for t in await self.store.tournaments.playing():
            try:
                await self.advance(t.id)
            except Exception:
                log.exception("tournament %s could not resume", t.id)

    async def _on_event(self, event: Event) -> None:
        if isinstance(event, MatchOver | TableCancelled) and event.table_id is not None:
            found = await self.store.tournaments.pairing_at_table(event.table_id)
            if found is not None and found.outcome is None:
                await self.advance(found.tournament_id)

    async def advance(self, tournament_id: int) -> None:
        """Record what has ended, open what is missing, and start the next round (or end
        the tournament) when every match of this one is decided. Safe to call any time."""
        async with self.book.lock(tournament_id):
            t = await self.store.tournaments.get(tournament_id)
            if t.status is not TournamentStatus.PLAYING:
                return
            undecided = [
                p
                for p in await self.store.tournaments.pairings(t.id, round_number=t.round)
                if p.outcome is None
            ]
            for p in undecided:
                await self.record(t, p)
            if any(
                p.outcome is None
                for p in await self.store.tournaments.pairings(t.id, round_number=t.round)
            ):
                await self._open_tables(t)
                if not await self.store.tournaments.round_announced(t.id, t.round):
                    await self._announce_round(t)  # its opener was stopped before it could
                return
            await self.store.tournaments.finish_round(t.id, t.round, at=self.book.now())
            await self.next_round(t)

    async def record(self, t: Tournament, p: StoredPairing) -> None:
        """Decide a pairing whose match has ended, from the stored result."""
        if p.table_id is None or p.outcome is not None:
            return
        table = await self.service.store.tables.get(p.table_id)
        if table.game_id is None:
            return
        info = await self.service.store.games.info(table.game_id)
        if info.status is GameStatus.PLAYING:
            return
        if info.status is GameStatus.ABANDONED:
            await self.decide(t, p, Outcome.BOTH_LOST, reason="not_played")
            return
        result = await self.service.store.boards.match_result(game_id=table.game_id)
        stored = await self.service.store.games.load(table.game_id)
        totals = stored.game.totals
        winner = None if result is None else result.winner_side
        if result is None:
            outcome = stored.game.outcome()
            winner = None if outcome is None else outcome.winner
        if winner == 0:
            decided = Outcome.A
        elif winner == 1:
            decided = Outcome.B
        else:
            decided = await self._no_winner(t, p)
        reason = "match" if result is None else result.reason
        await self.decide(t, p, decided, reason=reason, points=(totals[0], totals[1]))

    async def _no_winner(self, t: Tournament, p: StoredPairing) -> Outcome:
        """A match that ended without a winner (undecided after three spareggi, or level on
        a fixed number of deals): in a knock-out the better seed goes through; in a league
        both lose."""
        if stage_of(t, p.round) == KNOCKOUT:
            seeds = {e.id: e.seed or 0 for e in await self.store.tournaments.entries(t.id)}
            return Outcome.A if seeds[p.entry_a] <= seeds.get(p.entry_b or 0, 0) else Outcome.B
        return Outcome.BOTH_LOST

    async def decide(
        self,
        t: Tournament,
        p: StoredPairing,
        outcome: Outcome,
        *,
        reason: str,
        points: tuple[int, int] = (0, 0),
    ) -> None:
        await self.store.tournaments.decide(
            p.id,
            outcome=outcome.value,
            points_a=points[0],
            points_b=points[1],
            reason=reason,
            at=self.book.now(),
        )

    async def game_of(self, p: StoredPairing) -> int | None:
        if p.table_id is None:
            return None
        table = await self.service.store.tables.get(p.table_id)
        if table.game_id is None or table.status is not TableStatus.PLAYING:
            return None
        return table.game_id

    # ------------------------------------------------------------------ rounds

    async def next_round(self, t: Tournament) -> None:
        """Pair and open the round after ``t.round``, or end the tournament."""
        entries = await self.store.tournaments.entries(t.id)
        stored = await self.store.tournaments.pairings(t.id)
        number = t.round + 1
        planned = plan_round(t, entries, stored, number)
        if planned is None:
            await self._finish(t, entries, stored)
            return
        withdrawn = {e.id for e in entries if e.withdrawn_at is not None}
        new = [as_stored(t, number, p, group, withdrawn) for p, group in planned]
        deadline = self.book.now() + timedelta(seconds=t.round_seconds)
        try:
            t = await self.store.tournaments.open_round(
                t.id,
                t.version,
                round_number=number,
                stage=stage_of(t, number),
                deadline=deadline,
                pairings=new,
                at=self.book.now(),
            )
        except TournamentChangedError:
            return  # someone else opened it: their round stands
        self.service.deadlines.wake(deadline)
        await self._open_tables(t)
        matches = await self._announce_round(t)
        if all(m.outcome is not None for m in matches):  # a round of byes and walkovers only
            await self.store.tournaments.finish_round(t.id, number, at=self.book.now())
            await self.next_round(await self.store.tournaments.get(t.id))

    async def _round_started(
        self,
        t: Tournament,
        number: int,
        deadline: datetime,
        *,
        opened: frozenset[int] | None = None,
    ) -> RoundStarted:
        """Round ``number`` as the store has it; with ``opened``, the slots undecided when it
        was opened are told as being played (a round told late, as it was opened)."""
        entries = await self.store.tournaments.entries(t.id)
        people = {e.id: e.people for e in entries}
        matches = tuple(
            match_info(p, people)
            for p in await self.store.tournaments.pairings(t.id, round_number=number)
        )
        if opened is not None:
            matches = tuple(
                replace(m, outcome=None, points=(0, 0), reason=None) if m.slot in opened else m
                for m in matches
            )
        return RoundStarted(
            table_id=None,
            game_id=None,
            tournament=self.book.info_of(t, entries),
            number=number,
            deadline=deadline,
            matches=matches,
        )

    async def _announce_round(self, t: Tournament) -> tuple[MatchInfo, ...]:
        """Tell the round in play, its tables opened (once: ``TournamentBook.announce``);
        its matches."""
        assert t.round_deadline is not None  # a round in play has one
        event = await self._round_started(t, t.round, t.round_deadline)
        await self.book.announce(event)
        return event.matches

    async def _round_news(self, note: dict[str, Any]) -> list[Event]:
        """A round another process opened in a server shown here (``Book.announce``), as it
        was opened: its pairings undecided then are told as being played."""
        t = await self.store.tournaments.get(int(note["tournament"]))
        opened = frozenset(note.get("open") or ())
        deadline = from_ms(int(note["deadline"]))
        return [await self._round_started(t, int(note["round"]), deadline, opened=opened)]

    async def _finished_news(self, note: dict[str, Any]) -> list[Event]:
        """A tournament of a server shown here, ended (or called off) by another process."""
        t = await self.store.tournaments.get(int(note["tournament"]))
        entries = await self.store.tournaments.entries(t.id)
        rows = standing_rows(t, entries, await self.store.tournaments.pairings(t.id))
        return [
            TournamentFinished(
                table_id=None,
                game_id=None,
                tournament=self.book.info_of(t, entries),
                standings=tuple(rows),
                cancelled=bool(note.get("cancelled")),
            )
        ]

    async def _open_tables(self, t: Tournament) -> None:
        """Open, fill and deal the table of every undecided pairing of the round in play
        that has none yet (or whose table was opened but not dealt when the process
        stopped)."""
        entries = {e.id: e for e in await self.store.tournaments.entries(t.id)}
        for p in await self.store.tournaments.pairings(t.id, round_number=t.round):
            if p.outcome is not None:
                continue
            b = None if p.entry_b is None else entries[p.entry_b]
            try:
                await self._open_table(t, p, entries[p.entry_a], b)
            except Exception:
                log.exception("tournament %s could not open the table of pairing %s", t.id, p.id)

    async def _open_table(self, t: Tournament, p: StoredPairing, a: Entry, b: Entry | None) -> None:
        """Seat each side's people (a computer for a bye or for an entry gone), then deal."""
        service = self.service
        table_id = p.table_id
        if table_id is None:
            options = dict(t.options)
            if stage_of(t, p.round) == KNOCKOUT:
                options["tiebreak"] = "ko"  # a knock-out match always has a winner
            table = await service.tables.open(
                host=t.organiser_id,
                guild_id=t.guild_id,
                channel_id=None,  # the front end places it: a thread of the tournament's channel
                preset=t.preset,
                players=t.players,
                options=options,
                pace=Pace.from_dict(t.pace),
                on_timeout=t.on_timeout,
                level=t.level,
                seat_host=False,
            )
            if not await self.store.tournaments.attach_table(p.id, table.id):
                await service.tables.cancel(table.id, by=t.organiser_id)  # lost a race
                return
            table_id = table.id
        info = await service.tables.get(table_id)
        if info.status is not TableStatus.OPEN:
            return
        for side, entry in ((0, a), (1, b)):
            if entry is None or entry.withdrawn_at is not None:
                continue  # a computer sits there
            for person in entry.people:
                if info.seat_of(person) is None:
                    info = await service.tables.join(table_id, user=person, side=side)
        while info.open_seats:
            info = await service.tables.add_computer(table_id, by=t.organiser_id, level=t.level)
        await service.tables.start(
            table_id, by=t.organiser_id, seed=match_seed(t.seed, p.round, p.slot)
        )

    async def _finish(
        self, t: Tournament, entries: Sequence[Entry], stored: Sequence[StoredPairing]
    ) -> None:
        rows = standing_rows(t, entries, stored)
        winner = tournament_winner(t, entries, stored)
        try:
            t = await self.store.tournaments.finish(
                t.id,
                t.version,
                status=TournamentStatus.FINISHED,
                standings=[row_data(r) for r in rows],
                winner_entry=winner,
                at=self.book.now(),
            )
        except TournamentChangedError:
            return
        await self.book.announce(
            TournamentFinished(
                table_id=None,
                game_id=None,
                tournament=self.book.info_of(t, entries),
                standings=tuple(rows),
            )
        )

    # ------------------------------------------------------------------ round deadlines

    async def next_due(self) -> datetime | None:
        """The scheduler's question: the earliest round deadline."""
        return await self.store.tournaments.next_deadline()

    async def run_due(self, now: datetime) -> int:
        """The scheduler's call: end every round whose deadline has passed; how many."""
        done = 0
        for t in await self.store.tournaments.due(now):
            try:
                await self._deadline(t.id)
                done += 1
            except Exception:
                log.exception("the round deadline of tournament %s failed", t.id)
                fresh = await self.store.tournaments.get(t.id)
                await self.store.tournaments.set_deadline(t.id, fresh.version, now + _RETRY_AFTER)
        return done

    async def _deadline(self, tournament_id: int) -> None:
        """The round's time is up: every match still undecided is decided now. A side that
        never played a card itself loses (both: both lose); a match both sides played is
        won by the side ahead on points (level: the side that made the last capture loses,
        as after the third spareggio; no capture yet: the side to play loses)."""
        async with self.book.lock(tournament_id):
            t = await self.store.tournaments.get(tournament_id)
            if t.status is not TournamentStatus.PLAYING:
                return
            for p in await self.store.tournaments.pairings(t.id, round_number=t.round):
                await self.record(t, p)
            for p in await self.store.tournaments.pairings(t.id, round_number=t.round):
                if p.outcome is None:
                    await self._decide_at_deadline(t, p)
            await self.store.tournaments.finish_round(t.id, t.round, at=self.book.now())
            await self.next_round(await self.store.tournaments.get(t.id))

    async def _decide_at_deadline(self, t: Tournament, p: StoredPairing) -> None:
        store = self.service.store
        table = None if p.table_id is None else await store.tables.get(p.table_id)
        if table is None or table.game_id is None:
            if table is not None and table.status is TableStatus.OPEN:
                await self.service.tables.cancel(table.id, by=table.host_id)
            await self.decide(t, p, Outcome.BOTH_LOST, reason="not_played")
            return
        game_id = table.game_id
        history = await store.games.moves(game_id)
        stored = await store.games.load(game_id)
        game = stored.game
        played = {game.rules.side_of(m.seat) for m in history if m.actor.kind is ActorKind.USER}
        holders = (await store.games.info(game_id)).seats
        for side in range(game.rules.sides):  # a computer filling in always plays
            seats = [s for s in range(game.rules.players) if game.rules.side_of(s) == side]
            if all(not holders[s].is_human for s in seats):
                played.add(side)
        totals = (game.totals[0], game.totals[1])
        if not played:
            await call_off(self.service, game_id)
            await self.decide(t, p, Outcome.BOTH_LOST, reason="not_played", points=totals)
            return
        if len(played) == 1:
            losing, reason = 1 - next(iter(played)), "not_played"
        elif totals[0] != totals[1]:
            losing, reason = (0 if totals[0] < totals[1] else 1), "deadline"
        else:
            last = game.last_capturer
            losing = game.rules.side_of(game.turn if last is None else last)
            reason = "deadline"
        await self.decide(
            t, p, Outcome.B if losing == 0 else Outcome.A, reason=reason, points=totals
        )
        await end_game(self.service, game_id, losing_side=losing, reason="forfeit")


__all__ = ["Rounds"]
