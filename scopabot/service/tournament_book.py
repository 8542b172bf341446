"""What every part of the tournaments works from: a tournament read by its number, its
view for front ends, its lock, the clock, who may organise it, and the news that someone
joined, left or withdrew.

One book is shared by :class:`~.tournaments.Tournaments` (reading, registration, the start),
:class:`~.tournament_rounds.Rounds` (running the rounds and their deadlines) and
:class:`~.tournament_rulings.Rulings` (a withdrawal, an abandoned match, a cancellation), so
the three hold the same lock for a tournament: one change to it at a time in this process
(the store's versions guard against another).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from scopabot.store import NotFoundError
from scopabot.store.models import to_ms
from scopabot.store.tournaments import Entry, Tournament

from .pairing import Format
from .tournament_plans import rounds_in_all
from .tournament_seam import TournamentHost
from .tournament_views import (
    RoundStarted,
    TournamentChanged,
    TournamentErrorCode,
    TournamentFinished,
    TournamentInfo,
    refuse,
)

log = logging.getLogger(__name__)


class TournamentBook:
    """The tournaments' shared basics (see the module)."""

    def __init__(self, service: TournamentHost) -> None:
        self.service = service
        self.store = service.store
        self._locks: dict[int, asyncio.Lock] = {}

    def lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    def now(self) -> datetime:
        return self.service.clock.now()

    async def get(self, tournament_id: int) -> Tournament:
        try:
            return await self.store.tournaments.get(tournament_id)
        except NotFoundError:
            raise refuse(
                TournamentErrorCode.UNKNOWN_TOURNAMENT,
                f"no tournament {tournament_id}",
                tournament_id=tournament_id,
            ) from None

    def info_of(self, t: Tournament, entries: Sequence[Entry]) -> TournamentInfo:
        people = {e.id: e.people for e in entries}
        return TournamentInfo(
            id=t.id,
            guild_id=t.guild_id,
            channel_id=t.channel_id,
            organiser=t.organiser_id,
            name=t.name,
            format=Format(t.format),
            preset=t.preset,
            players=t.players,
            status=t.status,
            round=t.round,
            rounds=rounds_in_all(t, entries),
            round_deadline=t.round_deadline,
            winner=None if t.winner_entry is None else people.get(t.winner_entry),
            entries=tuple(e.people for e in entries),
        )

    def must_organise(self, t: Tournament, by: int, manager: bool) -> None:
        if by != t.organiser_id and not manager:
            raise refuse(
                TournamentErrorCode.NOT_ORGANISER,
                "only the organiser may do that",
                tournament_id=t.id,
            )

    async def announce(self, event: RoundStarted | TournamentFinished) -> None:
        """A round opened, or the tournament ended: published here, and, when another process
        shows the tournament's server, told to that process (``service.relay``), which places
        the round's tables, announces it and tells its players; this process's front end
        then shows nothing of it (it asks ``bot.owns``). A round is announced once: its row
        is marked in the transaction that writes its notice (of two processes, or of a start
        after a kill, one announces it), and its note names the pairings it opened
        undecided, so a notice read late tells the round as it was opened."""
        t = event.tournament
        elsewhere = not self.service.relay.shown_here(t.guild_id)
        if isinstance(event, RoundStarted):
            note: dict[str, Any] = {
                "e": "round",
                "tournament": t.id,
                "round": event.number,
                "deadline": to_ms(event.deadline),
                "open": [m.slot for m in event.matches if m.outcome is None],
            }
            try:
                first = await self.store.tournaments.announce_round(
                    t.id,
                    event.number,
                    at=self.now(),
                    guild_id=t.guild_id,
                    notes=[note] if elsewhere else None,
                )
            except Exception:  # still unannounced: the next look at the tournament tries again
                log.exception("tournament %s: round %s not announced", t.id, event.number)
                return
            if first:
                self.service.hub.publish([event])
            return
        self.service.hub.publish([event])
        note = {"e": "finished", "tournament": t.id, "cancelled": event.cancelled}
        try:
            await self.service.relay.tell_elsewhere(t.guild_id, [note], version=t.round)
        except Exception:
            log.exception("tournament %s: its end was not told to its server's process", t.id)

    async def changed(self, tournament_id: int, user: int, what: str) -> TournamentInfo:
        """Tell everyone someone joined, left or withdrew; the tournament as it is now."""
        t = await self.get(tournament_id)
        info = self.info_of(t, await self.store.tournaments.entries(t.id))
        self.service.hub.publish(
            [
                TournamentChanged(
                    table_id=None, game_id=None, tournament=info, user_id=user, what=what
                )
            ]
        )
        return info


__all__ = ["TournamentBook"]
