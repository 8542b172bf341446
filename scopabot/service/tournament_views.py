"""What front ends see of tournaments: the refusals' codes, the views and the events."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from scopabot.store.tournaments import Entry, StoredPairing, TournamentStatus

from .errors import ServiceError
from .events import Event
from .pairing import Format, Outcome, Standing


class TournamentErrorCode(StrEnum):
    """Refusals of tournament requests (``ServiceError.code``), with the params named."""

    UNKNOWN_TOURNAMENT = "unknown_tournament"  # tournament_id
    NOT_ORGANISER = "not_organiser"  # tournament_id (None when creating)
    NOT_REGISTERING = "not_registering"  # tournament_id, status
    NOT_PLAYING = "tournament_not_playing"  # tournament_id, status
    ALREADY_ENTERED = "already_entered"  # tournament_id, user
    NOT_ENTERED = "not_entered"  # tournament_id, user
    ALREADY_WITHDRAWN = "already_withdrawn"  # tournament_id, user
    PAIRS_ONLY_FOUR = "pairs_only_four"  # a partner named for a two-player tournament
    SAME_PERSON = "same_person"  # a pair of one person
    TOO_FEW_ENTRIES = "too_few_entries"  # entries, needed
    ODD_SOLOS = "odd_solos"  # solos: people who signed up alone, an odd number
    BAD_FORMAT = "bad_format"  # value
    BAD_ROUNDS = "bad_rounds"  # value, most
    BAD_GROUPS = "bad_groups"  # groups, qualifiers
    BAD_ROUND_LENGTH = "bad_round_length"  # hours, least, most
    BAD_SEEDING = "bad_seeding"  # value
    NO_MATCH = "no_match_to_decide"  # tournament_id, user: nothing of theirs undecided


# ---------------------------------------------------------------------- what front ends see


@dataclass(frozen=True, slots=True)
class TournamentInfo:
    id: int
    guild_id: int | None
    channel_id: int | None
    organiser: int
    name: str
    format: Format
    preset: str
    players: int
    status: TournamentStatus
    round: int
    rounds: int | None  # how many rounds in all, when known (Swiss, round robin, knock-out)
    round_deadline: datetime | None
    winner: tuple[int, ...] | None  # the winning person or pair, once known
    entries: tuple[tuple[int, ...], ...]  # the people of each entry, by seed once started


@dataclass(frozen=True, slots=True)
class StandingRow:
    rank: int
    people: tuple[int, ...]
    played: int
    won: int
    lost: int
    points: int  # match points (a win 2)
    tiebreak: int  # head to head (round robin, groups) or Buchholz (Swiss)
    scored: int
    conceded: int
    withdrawn: bool
    group: int | None = None


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """One pairing as shown: who meets whom, at which table, and how it went."""

    round: int
    slot: int
    group: int | None
    a: tuple[int, ...]
    b: tuple[int, ...] | None  # None: a bye (or a rest)
    table_id: int | None
    outcome: Outcome | None  # None: being played
    points: tuple[int, int]
    reason: str | None

    @property
    def winner(self) -> tuple[int, ...] | None:
        if self.outcome in (Outcome.A, Outcome.BYE):
            return self.a
        if self.outcome is Outcome.B:
            return self.b
        return None


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentEvent(Event):
    tournament: TournamentInfo


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentCreated(TournamentEvent):
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentChanged(TournamentEvent):
    """Someone joined, left or withdrew."""

    user_id: int
    what: str  # joined, left, withdrew


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundStarted(TournamentEvent):
    """A round is paired and its tables are open: tell each player their opponent, table
    and the round's deadline."""

    number: int
    deadline: datetime
    matches: tuple[MatchInfo, ...] = field(default_factory=tuple)


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentFinished(TournamentEvent):
    standings: tuple[StandingRow, ...]
    cancelled: bool = False


def refuse(code: TournamentErrorCode, message: str, **params: Any) -> ServiceError:
    return ServiceError(code, message, **params)


def row_of_standing(s: Standing, entry: Entry, rank: int) -> StandingRow:
    return StandingRow(
        rank=rank,
        people=entry.people,
        played=s.played,
        won=s.won,
        lost=s.lost,
        points=s.match_points,
        tiebreak=s.tiebreak,
        scored=s.scored,
        conceded=s.conceded,
        withdrawn=entry.withdrawn_at is not None,
        group=entry.group_no,
    )


def row_data(r: StandingRow) -> dict[str, Any]:
    return {
        "rank": r.rank,
        "people": list(r.people),
        "played": r.played,
        "won": r.won,
        "lost": r.lost,
        "points": r.points,
        "tiebreak": r.tiebreak,
        "scored": r.scored,
        "conceded": r.conceded,
        "withdrawn": r.withdrawn,
        "group": r.group,
    }


def row_from_data(d: Mapping[str, Any]) -> StandingRow:
    return StandingRow(
        rank=int(d["rank"]),
        people=tuple(int(x) for x in d["people"]),
        played=int(d["played"]),
        won=int(d["won"]),
        lost=int(d["lost"]),
        points=int(d["points"]),
        tiebreak=int(d["tiebreak"]),
        scored=int(d["scored"]),
        conceded=int(d["conceded"]),
        withdrawn=bool(d["withdrawn"]),
        group=None if d.get("group") is None else int(d["group"]),
    )


def match_info(p: StoredPairing, people: Mapping[int, tuple[int, ...]]) -> MatchInfo:
    return MatchInfo(
        round=p.round,
        slot=p.slot,
        group=p.group_no,
        a=people.get(p.entry_a, ()),
        b=None if p.entry_b is None else people.get(p.entry_b, ()),
        table_id=p.table_id,
        outcome=None if p.outcome is None else Outcome(p.outcome),
        points=(p.points_a, p.points_b),
        reason=p.reason,
    )


__all__ = [
    "MatchInfo",
    "RoundStarted",
    "StandingRow",
    "TournamentChanged",
    "TournamentCreated",
    "TournamentErrorCode",
    "TournamentEvent",
    "TournamentFinished",
    "TournamentInfo",
    "match_info",
    "refuse",
    "row_data",
    "row_from_data",
    "row_of_standing",
]
