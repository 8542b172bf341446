"""A tournament's matches or the tournament itself decided before they are played out: a
player withdraws, the organiser abandons a vanished player's match, or calls the whole
tournament off. Each is refused with a typed reason (changing nothing) when it cannot apply.
"""

from __future__ import annotations

from contextlib import suppress

from scopabot.store import TableStatus
from scopabot.store.tournaments import (
    NotEnteredError,
    StoredPairing,
    TournamentChangedError,
    TournamentStatus,
)

from .errors import ServiceError
from .pairing import Outcome
from .tournament_book import TournamentBook
from .tournament_plans import lost_by, standing_rows
from .tournament_rounds import Rounds
from .tournament_seam import call_off, end_game
from .tournament_views import (
    MatchInfo,
    TournamentErrorCode,
    TournamentFinished,
    TournamentInfo,
    match_info,
    refuse,
    row_data,
)


class Rulings:
    """Withdrawals, abandoned matches and cancellations (see the module)."""

    def __init__(self, book: TournamentBook, rounds: Rounds) -> None:
        self.book = book
        self.rounds = rounds
        self.service = book.service
        self.store = book.store

    async def withdraw(self, tournament_id: int, *, user: int) -> TournamentInfo:
        """Leave a tournament in play: the entry loses its match in play and every later one
        (round robin), is paired no more (Swiss), or is out (knock-out)."""
        async with self.book.lock(tournament_id):
            t = await self.book.get(tournament_id)
            if t.status is not TournamentStatus.PLAYING:
                raise refuse(
                    TournamentErrorCode.NOT_PLAYING,
                    "the tournament is not being played",
                    tournament_id=t.id,
                    status=t.status.value,
                )
            try:
                entry = await self.store.tournaments.entry_of(t.id, user)
            except NotEnteredError:
                raise refuse(
                    TournamentErrorCode.NOT_ENTERED, "not entered", tournament_id=t.id, user=user
                ) from None
            if not await self.store.tournaments.withdraw(t.id, entry.id, at=self.book.now()):
                raise refuse(
                    TournamentErrorCode.ALREADY_WITHDRAWN,
                    "already withdrawn",
                    tournament_id=t.id,
                    user=user,
                )
            for p in await self.store.tournaments.pairings(t.id, round_number=t.round):
                if p.outcome is not None or entry.id not in (p.entry_a, p.entry_b):
                    continue
                game_id = await self.rounds.game_of(p)
                if game_id is not None:
                    with suppress(ServiceError):  # the match ended meanwhile: it stands
                        await self.service.games.resign(game_id, user=user)
                    await self.rounds.record(t, p)
                else:
                    await self.rounds.decide(t, p, lost_by(p, entry.id), reason="withdrawn")
        info = await self.book.changed(tournament_id, user, "withdrew")
        await self.rounds.advance(tournament_id)
        return info

    async def abandon_match(
        self,
        tournament_id: int,
        *,
        by: int,
        user: int,
        both: bool = False,
        manager: bool = False,
    ) -> MatchInfo:
        """The organiser decides the match ``user`` has to play this round (someone vanished
        and the round should not wait for its deadline): ``user``'s side loses it, or with
        ``both`` both sides do. A match in play ends now (counted like a resignation, for the
        ratings too; called off with no result when both lose); a table not yet dealt is
        closed."""
        async with self.book.lock(tournament_id):
            t = await self.book.get(tournament_id)
            self.book.must_organise(t, by, manager)
            if t.status is not TournamentStatus.PLAYING:
                raise refuse(
                    TournamentErrorCode.NOT_PLAYING,
                    "the tournament is not being played",
                    tournament_id=t.id,
                    status=t.status.value,
                )
            try:
                entry = await self.store.tournaments.entry_of(t.id, user)
            except NotEnteredError:
                raise refuse(
                    TournamentErrorCode.NO_MATCH, "not entered", tournament_id=t.id, user=user
                ) from None
            for p in await self.store.tournaments.pairings(t.id, round_number=t.round):
                await self.rounds.record(t, p)  # a match just ended stands as it ended
            found = [
                p
                for p in await self.store.tournaments.pairings(t.id, round_number=t.round)
                if p.outcome is None and entry.id in (p.entry_a, p.entry_b)
            ]
            if not found:
                raise refuse(
                    TournamentErrorCode.NO_MATCH,
                    "no match of theirs to decide this round",
                    tournament_id=t.id,
                    user=user,
                )
            p = found[0]
            outcome = Outcome.BOTH_LOST if both else lost_by(p, entry.id)
            await self._abandon(p, outcome, losing=0 if entry.id == p.entry_a else 1)
            entries = {e.id: e.people for e in await self.store.tournaments.entries(t.id)}
            decided = [q for q in await self.store.tournaments.pairings(t.id) if q.id == p.id]
        await self.rounds.advance(tournament_id)
        return match_info(decided[0], entries)

    async def _abandon(self, p: StoredPairing, outcome: Outcome, losing: int) -> None:
        store = self.service.store
        table = None if p.table_id is None else await store.tables.get(p.table_id)
        points = (0, 0)
        if table is not None and table.game_id is not None:
            stored = await store.games.load(table.game_id)
            points = (stored.game.totals[0], stored.game.totals[1])
        if not await self.store.tournaments.decide(
            p.id,
            outcome=outcome.value,
            points_a=points[0],
            points_b=points[1],
            reason="organiser",
            at=self.book.now(),
        ):
            return
        if table is None:
            return
        if table.game_id is None:
            if table.status is TableStatus.OPEN:
                await self.service.tables.cancel(table.id, by=table.host_id)
        elif outcome is Outcome.BOTH_LOST:
            await call_off(self.service, table.game_id)
        else:
            await end_game(self.service, table.game_id, losing_side=losing, reason="forfeit")

    async def cancel(self, tournament_id: int, *, by: int, manager: bool = False) -> TournamentInfo:
        """The organiser calls the tournament off; matches in play go on as ordinary games,
        and what was played is kept."""
        async with self.book.lock(tournament_id):
            t = await self.book.get(tournament_id)
            self.book.must_organise(t, by, manager)
            if t.status not in (TournamentStatus.REGISTERING, TournamentStatus.PLAYING):
                raise refuse(
                    TournamentErrorCode.NOT_PLAYING,
                    "the tournament is over",
                    tournament_id=t.id,
                    status=t.status.value,
                )
            entries = await self.store.tournaments.entries(t.id)
            rows = standing_rows(t, entries, await self.store.tournaments.pairings(t.id))
            try:
                t = await self.store.tournaments.finish(
                    t.id,
                    t.version,
                    status=TournamentStatus.CANCELLED,
                    standings=[row_data(r) for r in rows],
                    winner_entry=None,
                    at=self.book.now(),
                )
            except TournamentChangedError:
                raise refuse(
                    TournamentErrorCode.NOT_PLAYING, "the tournament moved on", tournament_id=t.id
                ) from None
            for p in await self.store.tournaments.pairings(t.id, round_number=t.round):
                if p.outcome is None and p.table_id is not None:
                    table = await self.service.store.tables.get(p.table_id)
                    if table.status is TableStatus.OPEN:
                        await self.service.tables.cancel(p.table_id, by=table.host_id)
            info = self.book.info_of(t, entries)
        await self.book.announce(
            TournamentFinished(
                table_id=None,
                game_id=None,
                tournament=info,
                standings=tuple(rows),
                cancelled=True,
            )
        )
        return info


__all__ = ["Rulings"]
