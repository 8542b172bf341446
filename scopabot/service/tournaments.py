"""Tournaments: registration, rounds paired by :mod:`.pairing`, each match at its own table.

The service's part that runs tournaments (``service.tournaments``). Everything it knows is in
the store (:class:`~scopabot.store.tournaments.TournamentStore`), and it acts only from what
the store says: a match's end is read back from the stored result, a round is over when every
pairing of it is decided, the round's deadline is a row the service's one scheduler wakes for.
So a restart, mid-round or between rounds, simply looks again (:meth:`Tournaments.resume`);
and since a round is opened once and a pairing gets one table and one result (the store's
guards), a second process or a double click never pairs anybody twice or opens two tables.

How it meets the rest of the service (the seam, kept narrow so it survives a redesign; all
of it typed in :mod:`.tournament_seam`): the tables are opened, filled and dealt with the
service's public calls (``open_table``, ``join``, ``start_table``, ``cancel_table``,
``resign``); the end of a match reaches it as the :class:`~.events.MatchOver` event it
subscribes to; the round deadlines reach it through the scheduler's due sources
(``next_due``/``run_due``); a match decided at a round's deadline is ended by the seam's
``end_game`` or ``call_off``, the only code that touches the service's internals.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Collection, Mapping, Sequence
from contextlib import suppress
from datetime import datetime, timedelta
from typing import Any, Final

from scopabot.engine import Preset
from scopabot.store import (
    GLOBAL,
    ActorKind,
    GameStatus,
    NotFoundError,
    TableStatus,
)
from scopabot.store.tournaments import (
    AlreadyEnteredError,
    Entry,
    NotEnteredError,
    NotRegisteringError,
    StoredPairing,
    Tournament,
    TournamentChangedError,
    TournamentStatus,
)

from .errors import ErrorCode, ServiceError
from .events import Event, MatchOver, TableCancelled
from .options import Options, chosen_options, table_rules
from .pairing import (
    Format,
    Outcome,
    bracket_size,
    draw_pairs,
    match_seed,
    round_robin,
    seed_order,
    snake_groups,
)
from .tournament_plans import (
    KNOCKOUT,
    as_stored,
    entries_needed,
    lost_by,
    not_registering,
    plan_round,
    rounds_in_all,
    stage_of,
    standing_rows,
    tournament_winner,
)
from .tournament_seam import TournamentHost, call_off, end_game
from .tournament_views import (
    MatchInfo,
    RoundStarted,
    StandingRow,
    TournamentChanged,
    TournamentCreated,
    TournamentErrorCode,
    TournamentEvent,
    TournamentFinished,
    TournamentInfo,
    match_info,
    refuse,
    row_data,
    row_from_data,
)
from .views import Pace, TimeoutRule

log = logging.getLogger(__name__)

MIN_ROUND: Final = timedelta(hours=1)
MAX_ROUND: Final = timedelta(days=30)
MAX_SWISS_ROUNDS: Final = 20
_RETRY_AFTER: Final = timedelta(minutes=1)


# ---------------------------------------------------------------------- the part


def _format_of(value: str) -> Format:
    try:
        return Format(str(value).strip().lower())
    except ValueError:
        raise refuse(
            TournamentErrorCode.BAD_FORMAT, f"no tournament format {value!r}", value=str(value)
        ) from None


class Tournaments:
    """Tournaments on the service (a :class:`TournamentHost`; see the module's docstring)."""

    def __init__(self, service: TournamentHost) -> None:
        self.service = service
        self.store = service.store
        self._locks: dict[int, asyncio.Lock] = {}
        self._unsubscribe = service.subscribe(self._on_event)

    def _lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    def _now(self) -> datetime:
        return self.service.clock.now()

    # ------------------------------------------------------------------ reading

    async def _get(self, tournament_id: int) -> Tournament:
        try:
            return await self.store.tournaments.get(tournament_id)
        except NotFoundError:
            raise refuse(
                TournamentErrorCode.UNKNOWN_TOURNAMENT,
                f"no tournament {tournament_id}",
                tournament_id=tournament_id,
            ) from None

    async def info(self, tournament_id: int) -> TournamentInfo:
        t = await self._get(tournament_id)
        return self._info(t, await self.store.tournaments.entries(t.id))

    def _info(self, t: Tournament, entries: Sequence[Entry]) -> TournamentInfo:
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

    async def in_guild(self, guild_id: int | None, *, active: bool = True) -> list[TournamentInfo]:
        return [
            self._info(t, await self.store.tournaments.entries(t.id))
            for t in await self.store.tournaments.in_guild(guild_id, active=active)
        ]

    async def in_play(self) -> list[TournamentInfo]:
        """Every tournament being played, everywhere (for a front end starting up)."""
        return [
            self._info(t, await self.store.tournaments.entries(t.id))
            for t in await self.store.tournaments.playing()
        ]

    async def of_user(self, user: int) -> list[TournamentInfo]:
        """The tournaments a person entered, newest first (for ``/scopa stats``)."""
        return [
            self._info(t, await self.store.tournaments.entries(t.id))
            for t in await self.store.tournaments.of_user(user)
        ]

    async def matches(
        self, tournament_id: int, *, round_number: int | None = None
    ) -> list[MatchInfo]:
        """Every pairing (of one round), in round and slot order: the bracket's data."""
        t = await self._get(tournament_id)
        people = {e.id: e.people for e in await self.store.tournaments.entries(t.id)}
        return [
            match_info(p, people)
            for p in await self.store.tournaments.pairings(t.id, round_number=round_number)
        ]

    async def standings(self, tournament_id: int) -> list[StandingRow]:
        """The standings table: as kept for good once it ended, else as it stands now."""
        t = await self._get(tournament_id)
        entries = await self.store.tournaments.entries(t.id)
        if t.standings is not None:
            return [row_from_data(d) for d in t.standings]
        return standing_rows(t, entries, await self.store.tournaments.pairings(t.id))

    # ------------------------------------------------------------------ organising

    async def may_organise(
        self, guild_id: int | None, *, manager: bool, roles: Collection[int]
    ) -> bool:
        """Server managers organise; so do members with the role the server named."""
        if manager or guild_id is None:
            return True
        role = await self.store.tournaments.organiser_role(guild_id)
        return role is not None and role in roles

    async def set_organiser_role(
        self, guild_id: int, role_id: int | None, *, manager: bool
    ) -> None:
        """A server manager names (or, with None, clears) the role that organises."""
        if not manager:
            raise refuse(TournamentErrorCode.NOT_ORGANISER, "only managers name the role")
        await self.store.tournaments.set_organiser_role(guild_id, role_id)

    async def organiser_role(self, guild_id: int) -> int | None:
        return await self.store.tournaments.organiser_role(guild_id)

    async def create(
        self,
        *,
        by: int,
        name: str,
        format: str,
        guild_id: int | None = None,
        channel_id: int | None = None,
        manager: bool = False,
        roles: Collection[int] = (),
        preset: str = "scopa",
        players: int | None = None,
        options: Options | None = None,
        pace: Pace | None = None,
        on_timeout: TimeoutRule | str = TimeoutRule.COMPUTER,
        level: str = "normal",
        round_hours: float = 24,
        rounds: int | None = None,
        groups: int | None = None,
        qualifiers: int = 2,
        seeding: str = "draw",
        seed: int | None = None,
        computers: bool = False,
    ) -> TournamentInfo:
        """Open a tournament for registration. ``options`` are its matches' table options
        (over the server's defaults, checked and fixed now for every round); ``rounds`` the
        Swiss rounds (default: log2 of the entries, at least 3); ``groups`` and
        ``qualifiers`` for groups then knock-out; ``seeding`` ``rating`` or ``draw``;
        ``computers``: computer players (of ``level``) play a Swiss bye and a withdrawn
        entry's later league matches."""
        if not await self.may_organise(guild_id, manager=manager, roles=roles):
            raise refuse(
                TournamentErrorCode.NOT_ORGANISER,
                "only managers or the organiser role create tournaments",
                tournament_id=None,
            )
        kind = _format_of(format)
        players = players or (2 if str(preset) == Preset.SCOPA.value else 4)
        if players not in (2, 4):  # an entry is one side: one person, or a pair
            raise ServiceError(
                ErrorCode.BAD_OPTION,
                "tournament tables seat 2 or 4",
                problem="bad_choice",
                option="players",
                value=str(players),
            )
        defaults: Mapping[str, Any] = {}
        if guild_id is not None:
            defaults = (await self.service.store.settings.guild(guild_id)).default_rules
        checked = table_rules(preset, players, chosen_options(options or {}), defaults)
        # Every match of the tournament is played by these rules, whatever the server's
        # defaults become later.
        frozen = {k: v for k, v in checked.to_dict().items() if k not in ("preset", "players")}
        length = timedelta(hours=round_hours)
        if not MIN_ROUND <= length <= MAX_ROUND:
            raise refuse(
                TournamentErrorCode.BAD_ROUND_LENGTH,
                f"a round lasts 1 hour to 30 days, not {round_hours} hours",
                hours=round_hours,
                least=1,
                most=MAX_ROUND.days * 24,
            )
        if kind is Format.SWISS and rounds is not None and not 1 <= rounds <= MAX_SWISS_ROUNDS:
            raise refuse(
                TournamentErrorCode.BAD_ROUNDS,
                f"a Swiss tournament has 1 to {MAX_SWISS_ROUNDS} rounds",
                value=rounds,
                most=MAX_SWISS_ROUNDS,
            )
        if kind is Format.GROUPS:
            groups = groups or 2
            if not (1 <= groups <= 16 and 1 <= qualifiers <= 8 and groups * qualifiers >= 2):
                raise refuse(
                    TournamentErrorCode.BAD_GROUPS,
                    "groups then knock-out needs 1-16 groups, 1-8 going through, 2 in all",
                    groups=groups,
                    qualifiers=qualifiers,
                )
        if seeding not in ("rating", "draw"):
            raise refuse(TournamentErrorCode.BAD_SEEDING, f"no seeding {seeding!r}", value=seeding)
        try:
            rule = TimeoutRule(on_timeout)
        except ValueError:
            raise ServiceError(
                ErrorCode.BAD_OPTION,
                f"no timeout rule {on_timeout!r}",
                problem="bad_choice",
                option="on_timeout",
                value=str(on_timeout),
            ) from None
        stored = await self.store.tournaments.create(
            organiser_id=by,
            name=name.strip()[:100] or "Torneo",
            format=kind.value,
            preset=checked.preset.value,
            players=players,
            options=frozen,
            pace=(pace or Pace.correspondence()).to_dict(),
            on_timeout=rule.value,
            level=level,
            round_seconds=int(length.total_seconds()),
            seeding=seeding,
            seed=random.randrange(2**31) if seed is None else seed,
            guild_id=guild_id,
            channel_id=channel_id,
            rounds=rounds if kind is Format.SWISS else None,
            groups=groups if kind is Format.GROUPS else None,
            qualifiers=qualifiers if kind is Format.GROUPS else None,
            computers=computers,
            at=self._now(),
        )
        info = self._info(stored, [])
        self.service.hub.publish([TournamentCreated(table_id=None, game_id=None, tournament=info)])
        return info

    async def join(
        self, tournament_id: int, *, user: int, partner: int | None = None
    ) -> TournamentInfo:
        """Enter while registration is open: alone, or (four players a table) with a partner;
        with four players, people who enter alone are paired by draw at the start."""
        t = await self._get(tournament_id)
        if partner is not None and t.players != 4:
            raise refuse(
                TournamentErrorCode.PAIRS_ONLY_FOUR, "two-player tournaments have no pairs"
            )
        if partner == user:
            raise refuse(TournamentErrorCode.SAME_PERSON, "a pair is two people")
        try:
            await self.store.tournaments.enter(
                tournament_id, user, partner_id=partner, at=self._now()
            )
        except NotRegisteringError as exc:
            raise not_registering(t, exc.status) from None
        except AlreadyEnteredError as exc:
            raise refuse(
                TournamentErrorCode.ALREADY_ENTERED,
                f"{exc.user_id} is already entered",
                tournament_id=tournament_id,
                user=exc.user_id,
            ) from None
        return await self._changed(tournament_id, user, "joined")

    async def leave(self, tournament_id: int, *, user: int) -> TournamentInfo:
        """Leave during registration (a pair leaves together)."""
        t = await self._get(tournament_id)
        try:
            await self.store.tournaments.leave(tournament_id, user)
        except NotRegisteringError as exc:
            raise not_registering(t, exc.status) from None
        except NotEnteredError:
            raise refuse(
                TournamentErrorCode.NOT_ENTERED,
                "not entered",
                tournament_id=tournament_id,
                user=user,
            ) from None
        return await self._changed(tournament_id, user, "left")

    async def _changed(self, tournament_id: int, user: int, what: str) -> TournamentInfo:
        info = await self.info(tournament_id)
        self.service.hub.publish(
            [
                TournamentChanged(
                    table_id=None, game_id=None, tournament=info, user_id=user, what=what
                )
            ]
        )
        return info

    def _must_organise(self, t: Tournament, by: int, manager: bool) -> None:
        if by != t.organiser_id and not manager:
            raise refuse(
                TournamentErrorCode.NOT_ORGANISER,
                "only the organiser may do that",
                tournament_id=t.id,
            )

    async def start(self, tournament_id: int, *, by: int, manager: bool = False) -> TournamentInfo:
        """Close registration, draw the pairs and seeds, and open the first round."""
        async with self._lock(tournament_id):
            t = await self._get(tournament_id)
            self._must_organise(t, by, manager)
            if t.status is not TournamentStatus.REGISTERING:
                raise not_registering(t, t.status.value)
            entries = await self.store.tournaments.entries(t.id)
            rng = random.Random(t.seed)
            pairs: list[tuple[int, int]] = []
            if t.players == 4:
                solos = [e.id for e in entries if e.partner_id is None]
                if len(solos) % 2:
                    alone = [e.user_id for e in entries if e.partner_id is None]
                    raise refuse(
                        TournamentErrorCode.ODD_SOLOS,
                        f"{len(solos)} people entered alone: one has no partner",
                        solos=alone,
                    )
                pairs = draw_pairs(solos, rng)
            merged = {b for _, b in pairs}
            kept = [e for e in entries if e.id not in merged]
            needed = entries_needed(t)
            if len(kept) < needed:
                raise refuse(
                    TournamentErrorCode.TOO_FEW_ENTRIES,
                    f"{len(kept)} entries; {needed} are needed",
                    entries=len(kept),
                    needed=needed,
                )
            ratings = await self._ratings(t, kept, pairs) if t.seeding == "rating" else None
            seeds = seed_order([e.id for e in kept], rng, ratings)
            groups: dict[int, int] | None = None
            bracket = knockout_from = None
            if t.format == Format.GROUPS:
                assert t.groups is not None and t.qualifiers is not None
                dealt = snake_groups(seeds, t.groups)
                groups = {e: g for g, members in enumerate(dealt) for e in members}
                knockout_from = max(len(round_robin(g)) for g in dealt) + 1
                bracket = bracket_size(t.groups * t.qualifiers)
            elif t.format == Format.KNOCKOUT:
                bracket, knockout_from = bracket_size(len(seeds)), 1
            try:
                t = await self.store.tournaments.start(
                    t.id,
                    t.version,
                    pairs=pairs,
                    seeds=seeds,
                    groups=groups,
                    bracket=bracket,
                    knockout_from=knockout_from,
                    at=self._now(),
                )
            except (TournamentChangedError, NotRegisteringError):
                raise not_registering(t, "playing") from None
            await self._next_round(t)
        return await self.info(tournament_id)

    async def _ratings(
        self, t: Tournament, kept: Sequence[Entry], pairs: Sequence[tuple[int, int]]
    ) -> dict[int, float]:
        """Each entry's seeding rating: its people's leaderboard scores, averaged."""
        partner_of = {keep: merged for keep, merged in pairs}
        by_id = {e.id: e for e in await self.store.tournaments.entries(t.id)}
        out: dict[int, float] = {}
        board = GLOBAL if t.guild_id is None else t.guild_id
        for e in kept:
            people = list(e.people)
            if e.id in partner_of:
                people.append(by_id[partner_of[e.id]].user_id)
            scores = []
            for person in people:
                rating = await self.service.store.boards.rating(person, t.preset, guild_id=board)
                if rating is not None:
                    scores.append(rating.score)
            if scores:
                out[e.id] = sum(scores) / len(scores)
        return out

    async def withdraw(self, tournament_id: int, *, user: int) -> TournamentInfo:
        """Leave a tournament in play: the entry loses its match in play and every later one
        (round robin), is paired no more (Swiss), or is out (knock-out)."""
        async with self._lock(tournament_id):
            t = await self._get(tournament_id)
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
            if not await self.store.tournaments.withdraw(t.id, entry.id, at=self._now()):
                raise refuse(
                    TournamentErrorCode.ALREADY_WITHDRAWN,
                    "already withdrawn",
                    tournament_id=t.id,
                    user=user,
                )
            for p in await self.store.tournaments.pairings(t.id, round_number=t.round):
                if p.outcome is not None or entry.id not in (p.entry_a, p.entry_b):
                    continue
                game_id = await self._game_of(p)
                if game_id is not None:
                    with suppress(ServiceError):  # the match ended meanwhile: it stands
                        await self.service.games.resign(game_id, user=user)
                    await self._record(t, p)
                else:
                    await self._decide(t, p, lost_by(p, entry.id), reason="withdrawn")
        info = await self._changed(tournament_id, user, "withdrew")
        await self.advance(tournament_id)
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
        async with self._lock(tournament_id):
            t = await self._get(tournament_id)
            self._must_organise(t, by, manager)
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
                await self._record(t, p)  # a match just ended stands as it ended
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
        await self.advance(tournament_id)
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
            at=self._now(),
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
        async with self._lock(tournament_id):
            t = await self._get(tournament_id)
            self._must_organise(t, by, manager)
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
                    at=self._now(),
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
            info = self._info(t, entries)
        self.service.hub.publish(
            [
                TournamentFinished(
                    table_id=None,
                    game_id=None,
                    tournament=info,
                    standings=tuple(rows),
                    cancelled=True,
                )
            ]
        )
        return info

    # ------------------------------------------------------------------ running

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
        async with self._lock(tournament_id):
            t = await self.store.tournaments.get(tournament_id)
            if t.status is not TournamentStatus.PLAYING:
                return
            undecided = [
                p
                for p in await self.store.tournaments.pairings(t.id, round_number=t.round)
                if p.outcome is None
            ]
            for p in undecided:
                await self._record(t, p)
            if any(
                p.outcome is None
                for p in await self.store.tournaments.pairings(t.id, round_number=t.round)
            ):
                await self._open_tables(t)
                return
            await self.store.tournaments.finish_round(t.id, t.round, at=self._now())
            await self._next_round(t)

    async def _record(self, t: Tournament, p: StoredPairing) -> None:
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
            await self._decide(t, p, Outcome.BOTH_LOST, reason="not_played")
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
        await self._decide(t, p, decided, reason=reason, points=(totals[0], totals[1]))

    async def _no_winner(self, t: Tournament, p: StoredPairing) -> Outcome:
        """A match that ended without a winner (undecided after three spareggi, or level on
        a fixed number of deals): in a knock-out the better seed goes through; in a league
        both lose."""
        if stage_of(t, p.round) == KNOCKOUT:
            seeds = {e.id: e.seed or 0 for e in await self.store.tournaments.entries(t.id)}
            return Outcome.A if seeds[p.entry_a] <= seeds.get(p.entry_b or 0, 0) else Outcome.B
        return Outcome.BOTH_LOST

    async def _decide(
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
            at=self._now(),
        )

    async def _game_of(self, p: StoredPairing) -> int | None:
        if p.table_id is None:
            return None
        table = await self.service.store.tables.get(p.table_id)
        if table.game_id is None or table.status is not TableStatus.PLAYING:
            return None
        return table.game_id

    # ------------------------------------------------------------------ rounds

    async def _next_round(self, t: Tournament) -> None:
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
        deadline = self._now() + timedelta(seconds=t.round_seconds)
        try:
            t = await self.store.tournaments.open_round(
                t.id,
                t.version,
                round_number=number,
                stage=stage_of(t, number),
                deadline=deadline,
                pairings=new,
                at=self._now(),
            )
        except TournamentChangedError:
            return  # someone else opened it: their round stands
        self.service.deadlines.wake(deadline)
        await self._open_tables(t)
        people = {e.id: e.people for e in entries}
        matches = tuple(
            match_info(p, people)
            for p in await self.store.tournaments.pairings(t.id, round_number=number)
        )
        self.service.hub.publish(
            [
                RoundStarted(
                    table_id=None,
                    game_id=None,
                    tournament=self._info(t, entries),
                    number=number,
                    deadline=deadline,
                    matches=matches,
                )
            ]
        )
        if all(m.outcome is not None for m in matches):  # a round of byes and walkovers only
            await self.store.tournaments.finish_round(t.id, number, at=self._now())
            await self._next_round(await self.store.tournaments.get(t.id))

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
                at=self._now(),
            )
        except TournamentChangedError:
            return
        self.service.hub.publish(
            [
                TournamentFinished(
                    table_id=None,
                    game_id=None,
                    tournament=self._info(t, entries),
                    standings=tuple(rows),
                )
            ]
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
        async with self._lock(tournament_id):
            t = await self.store.tournaments.get(tournament_id)
            if t.status is not TournamentStatus.PLAYING:
                return
            for p in await self.store.tournaments.pairings(t.id, round_number=t.round):
                await self._record(t, p)
            for p in await self.store.tournaments.pairings(t.id, round_number=t.round):
                if p.outcome is None:
                    await self._decide_at_deadline(t, p)
            await self.store.tournaments.finish_round(t.id, t.round, at=self._now())
            await self._next_round(await self.store.tournaments.get(t.id))

    async def _decide_at_deadline(self, t: Tournament, p: StoredPairing) -> None:
        store = self.service.store
        table = None if p.table_id is None else await store.tables.get(p.table_id)
        if table is None or table.game_id is None:
            if table is not None and table.status is TableStatus.OPEN:
                await self.service.tables.cancel(table.id, by=table.host_id)
            await self._decide(t, p, Outcome.BOTH_LOST, reason="not_played")
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
            await self._decide(t, p, Outcome.BOTH_LOST, reason="not_played", points=totals)
            return
        if len(played) == 1:
            losing, reason = 1 - next(iter(played)), "not_played"
        elif totals[0] != totals[1]:
            losing, reason = (0 if totals[0] < totals[1] else 1), "deadline"
        else:
            last = game.last_capturer
            losing = game.rules.side_of(game.turn if last is None else last)
            reason = "deadline"
        await self._decide(
            t, p, Outcome.B if losing == 0 else Outcome.A, reason=reason, points=totals
        )
        await end_game(self.service, game_id, losing_side=losing, reason="forfeit")


__all__ = [
    "MatchInfo",
    "RoundStarted",
    "StandingRow",
    "TournamentChanged",
    "TournamentCreated",
    "TournamentErrorCode",
    "TournamentEvent",
    "TournamentFinished",
    "TournamentHost",
    "TournamentInfo",
    "Tournaments",
]
