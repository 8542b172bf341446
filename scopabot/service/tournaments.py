"""Tournaments: registration, rounds paired by :mod:`.pairing`, each match at its own table.

The service's part that runs tournaments (``service.tournaments``): reading them, who may
organise, registration and the start live here; the rounds are run by
:class:`~.tournament_rounds.Rounds` and a match or the whole tournament decided early
(a withdrawal, an abandoned match, a cancellation) by :class:`~.tournament_rulings.Rulings`,
both on the one :class:`~.tournament_book.TournamentBook` (a tournament's lock, view and
clock). The pure rules of a round and of the standings are in :mod:`.tournament_plans`,
what front ends see in :mod:`.tournament_views`.

Everything it knows is in the store (``store.tournaments``), and it acts only from what the
store says: a match's end is read back from the stored result, a round is over when every
pairing of it is decided, the round's deadline is a row the service's one scheduler wakes
for. So a restart, mid-round or between rounds, simply looks again (:meth:`Tournaments.resume`);
and since a round is opened once and a pairing gets one table and one result (the store's
guards), a second process or a double click never pairs anybody twice or opens two tables.

How it meets the rest of the service (the seam, kept narrow so it survives a redesign; all
of it typed in :mod:`.tournament_seam`): the tables are opened, filled, dealt and cancelled
through the service's tables part and a resignation through its games part; the end of a
match reaches it as the :class:`~.events.MatchOver` event it subscribes to; the round
deadlines reach it through the scheduler's due sources (``next_due``/``run_due``); a match
decided at a round's deadline, or abandoned, is ended by the seam's ``end_game`` or
``call_off``.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, Final

from scopabot.engine import Preset
from scopabot.store import GLOBAL
from scopabot.store.tournaments import (
    AlreadyEnteredError,
    Entry,
    NotEnteredError,
    NotRegisteringError,
    Tournament,
    TournamentChangedError,
    TournamentStatus,
)

from .errors import ErrorCode, ServiceError
from .options import Options, chosen_options, table_rules
from .pairing import (
    Format,
    bracket_size,
    draw_pairs,
    round_robin,
    seed_order,
    snake_groups,
)
from .tournament_book import TournamentBook
from .tournament_plans import (
    entries_needed,
    not_registering,
    standing_rows,
)
from .tournament_rounds import Rounds
from .tournament_rulings import Rulings
from .tournament_seam import TournamentHost
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
    row_from_data,
)
from .views import Pace, TimeoutRule

MIN_ROUND: Final = timedelta(hours=1)
MAX_ROUND: Final = timedelta(days=30)
MAX_SWISS_ROUNDS: Final = 20


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
        self.book = TournamentBook(service)
        self.rounds = Rounds(self.book)
        self.rulings = Rulings(self.book, self.rounds)

    # ------------------------------------------------------------------ reading

    async def info(self, tournament_id: int) -> TournamentInfo:
        t = await self.book.get(tournament_id)
        return self.book.info_of(t, await self.store.tournaments.entries(t.id))

    async def in_guild(self, guild_id: int | None, *, active: bool = True) -> list[TournamentInfo]:
        return [
            self.book.info_of(t, await self.store.tournaments.entries(t.id))
            for t in await self.store.tournaments.in_guild(guild_id, active=active)
        ]

    async def in_play(self) -> list[TournamentInfo]:
        """Every tournament being played, everywhere (for a front end starting up)."""
        return [
            self.book.info_of(t, await self.store.tournaments.entries(t.id))
            for t in await self.store.tournaments.playing()
        ]

    async def of_user(self, user: int) -> list[TournamentInfo]:
        """The tournaments a person entered, newest first (for ``/scopa stats``)."""
        return [
            self.book.info_of(t, await self.store.tournaments.entries(t.id))
            for t in await self.store.tournaments.of_user(user)
        ]

    async def matches(
        self, tournament_id: int, *, round_number: int | None = None
    ) -> list[MatchInfo]:
        """Every pairing (of one round), in round and slot order: the bracket's data."""
        t = await self.book.get(tournament_id)
        people = {e.id: e.people for e in await self.store.tournaments.entries(t.id)}
        return [
            match_info(p, people)
            for p in await self.store.tournaments.pairings(t.id, round_number=round_number)
        ]

    async def standings(self, tournament_id: int) -> list[StandingRow]:
        """The standings table: as kept for good once it ended, else as it stands now."""
        t = await self.book.get(tournament_id)
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
            at=self.book.now(),
        )
        info = self.book.info_of(stored, [])
        self.service.hub.publish([TournamentCreated(table_id=None, game_id=None, tournament=info)])
        return info

    async def join(
        self, tournament_id: int, *, user: int, partner: int | None = None
    ) -> TournamentInfo:
        """Enter while registration is open: alone, or (four players a table) with a partner;
        with four players, people who enter alone are paired by draw at the start."""
        t = await self.book.get(tournament_id)
        if partner is not None and t.players != 4:
            raise refuse(
                TournamentErrorCode.PAIRS_ONLY_FOUR, "two-player tournaments have no pairs"
            )
        if partner == user:
            raise refuse(TournamentErrorCode.SAME_PERSON, "a pair is two people")
        try:
            await self.store.tournaments.enter(
                tournament_id, user, partner_id=partner, at=self.book.now()
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
        return await self.book.changed(tournament_id, user, "joined")

    async def leave(self, tournament_id: int, *, user: int) -> TournamentInfo:
        """Leave during registration (a pair leaves together)."""
        t = await self.book.get(tournament_id)
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
        return await self.book.changed(tournament_id, user, "left")

    async def start(self, tournament_id: int, *, by: int, manager: bool = False) -> TournamentInfo:
        """Close registration, draw the pairs and seeds, and open the first round."""
        async with self.book.lock(tournament_id):
            t = await self.book.get(tournament_id)
            self.book.must_organise(t, by, manager)
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
                    at=self.book.now(),
                )
            except (TournamentChangedError, NotRegisteringError):
                raise not_registering(t, "playing") from None
            await self.rounds.next_round(t)
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

    # ------------------------------------------------------------------ in play

    async def withdraw(self, tournament_id: int, *, user: int) -> TournamentInfo:
        """See :meth:`.tournament_rulings.Rulings.withdraw`."""
        return await self.rulings.withdraw(tournament_id, user=user)

    async def abandon_match(
        self,
        tournament_id: int,
        *,
        by: int,
        user: int,
        both: bool = False,
        manager: bool = False,
    ) -> MatchInfo:
        """See :meth:`.tournament_rulings.Rulings.abandon_match`."""
        return await self.rulings.abandon_match(
            tournament_id, by=by, user=user, both=both, manager=manager
        )

    async def cancel(self, tournament_id: int, *, by: int, manager: bool = False) -> TournamentInfo:
        """See :meth:`.tournament_rulings.Rulings.cancel`."""
        return await self.rulings.cancel(tournament_id, by=by, manager=manager)

    async def resume(self) -> None:
        """See :meth:`.tournament_rounds.Rounds.resume`."""
        await self.rounds.resume()

    async def advance(self, tournament_id: int) -> None:
        """See :meth:`.tournament_rounds.Rounds.advance`."""
        await self.rounds.advance(tournament_id)

    async def next_due(self) -> datetime | None:
        """The scheduler's question: the earliest round deadline."""
        return await self.rounds.next_due()

    async def run_due(self, now: datetime) -> int:
        """The scheduler's call: end every round whose deadline has passed; how many."""
        return await self.rounds.run_due(now)


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
