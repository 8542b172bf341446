"""A tournament's next round and standings, worked out from its stored rows alone.

Pure functions (no I/O) over what :class:`~scopabot.store.tournaments.TournamentStore` hands
out, on top of the rules of :mod:`.pairing`: the same rows give the same round, whoever asks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from scopabot.store.tournaments import (
    Entry,
    NewPairing,
    StoredPairing,
    Tournament,
    TournamentStatus,
)

from .errors import ServiceError
from .pairing import (
    Format,
    Outcome,
    Pairing,
    Result,
    Standing,
    crossed_seeds,
    knockout_first_round,
    knockout_next_round,
    knockout_rounds,
    round_robin,
    swiss_round,
)
from .pairing import standings as league_table
from .tournament_views import StandingRow, TournamentErrorCode, refuse, row_of_standing

LEAGUE: Final = "league"
KNOCKOUT: Final = "knockout"


def not_registering(t: Tournament, status: str) -> ServiceError:
    return refuse(
        TournamentErrorCode.NOT_REGISTERING,
        f"registration is closed ({status})",
        tournament_id=t.id,
        status=status,
    )


def entries_needed(t: Tournament) -> int:
    if t.format == Format.GROUPS:
        assert t.groups is not None and t.qualifiers is not None
        return max(2 * t.groups, t.groups * t.qualifiers, 2)
    if t.format == Format.ROUND_ROBIN:
        return 3
    return 2


def stage_of(t: Tournament, number: int) -> str:
    if t.knockout_from is not None and number >= t.knockout_from:
        return KNOCKOUT
    return LEAGUE


def rounds_in_all(t: Tournament, entries: Sequence[Entry]) -> int | None:
    if t.status is TournamentStatus.REGISTERING:
        return t.rounds
    if t.format == Format.ROUND_ROBIN:
        return len(round_robin([e.id for e in entries]))
    if t.format == Format.SWISS:
        return swiss_rounds(t, len(entries))
    if t.bracket is not None and t.knockout_from is not None:
        return t.knockout_from - 1 + knockout_rounds(t.bracket)
    return None


def swiss_rounds(t: Tournament, entries: int) -> int:
    if t.rounds is not None:
        return t.rounds
    return max(3, (entries - 1).bit_length())


def results_of(stored: Sequence[StoredPairing], *, round_from: int = 1) -> list[Result]:
    return [
        Result(p.round, p.entry_a, p.entry_b, Outcome(p.outcome), p.points_a, p.points_b)
        for p in stored
        if p.outcome is not None and p.round >= round_from
    ]


def plan_round(
    t: Tournament, entries: Sequence[Entry], stored: Sequence[StoredPairing], number: int
) -> list[tuple[Pairing, int | None]] | None:
    """The pairings of round ``number`` (with their group), or None when it is over."""
    seeded = [e.id for e in entries]  # by seed
    active = [e.id for e in entries if e.withdrawn_at is None]
    if t.format == Format.ROUND_ROBIN:
        schedule = round_robin(seeded)
        if number > len(schedule) or len(active) < 2:
            return None
        return [(p, None) for p in schedule[number - 1]]
    if t.format == Format.SWISS:
        if number > swiss_rounds(t, len(seeded)) or len(active) < 2:
            return None
        done = results_of(stored)
        table = league_table(seeded, done, swiss=True)
        ranked = [s.entry for s in table if s.entry in set(active)]
        return [(p, None) for p in swiss_round(ranked, done)]
    assert t.knockout_from is not None and t.bracket is not None
    if number < t.knockout_from:  # the groups' round robins, side by side
        slot = 0
        out: list[tuple[Pairing, int | None]] = []
        for group, members in enumerate(groups_of(entries)):
            schedule = round_robin(members)
            if number <= len(schedule):
                for p in schedule[number - 1]:
                    out.append((Pairing(slot, p.a, p.b), group))
                    slot += 1
        return out
    if number == t.knockout_from:
        if t.format == Format.KNOCKOUT:
            seeds = seeded
        else:
            assert t.qualifiers is not None
            done = results_of(stored)
            tables = [
                [s.entry for s in league_table(members, done)] for members in groups_of(entries)
            ]
            seeds = crossed_seeds(tables, t.qualifiers)
        return [(p, None) for p in knockout_first_round(seeds)]
    matches = t.bracket >> (number - t.knockout_from)  # of the round just played
    if matches <= 1:
        return None  # that was the final
    winners: list[int | None] = [None] * matches
    for last in stored:
        if last.round == number - 1 and last.outcome is not None:
            winners[last.slot] = winner_of(last)
    return [(p, None) for p in knockout_next_round(winners)] or None


def groups_of(entries: Sequence[Entry]) -> list[list[int]]:
    count = max((e.group_no or 0) for e in entries) + 1
    return [[e.id for e in entries if e.group_no == g] for g in range(count)]


def winner_of(p: StoredPairing) -> int | None:
    if p.outcome in (Outcome.A, Outcome.BYE):
        return p.entry_a
    if p.outcome == Outcome.B:
        return p.entry_b
    return None


def lost_by(p: StoredPairing, entry: int) -> Outcome:
    """The outcome when ``entry`` loses this pairing without playing."""
    return Outcome.B if entry == p.entry_a else Outcome.A


def as_stored(
    t: Tournament, number: int, p: Pairing, group: int | None, withdrawn: set[int]
) -> NewPairing:
    """A pairing as stored: byes, rests and walkovers over a withdrawn entry decided now.
    With computers filling in, a Swiss bye is played against a computer, and in a league a
    computer plays a withdrawn entry's remaining matches: those are left to be played."""
    league = t.format in (Format.ROUND_ROBIN, Format.GROUPS) and stage_of(t, number) == LEAGUE
    if p.b is None:
        if league:
            return NewPairing(p.slot, p.a, None, group, Outcome.REST.value, "rest")
        if t.computers and t.format == Format.SWISS and p.a not in withdrawn:
            return NewPairing(p.slot, p.a, None, group)
        if p.a in withdrawn:
            return NewPairing(p.slot, p.a, None, group, Outcome.BOTH_LOST.value, "withdrawn")
        return NewPairing(p.slot, p.a, None, group, Outcome.BYE.value, "bye")
    a_out, b_out = p.a in withdrawn, p.b in withdrawn
    if a_out and b_out:
        return NewPairing(p.slot, p.a, p.b, group, Outcome.BOTH_LOST.value, "withdrawn")
    if (a_out or b_out) and t.computers and league:
        return NewPairing(p.slot, p.a, p.b, group)  # a computer plays for the one gone
    if a_out or b_out:
        won = Outcome.B if a_out else Outcome.A
        return NewPairing(p.slot, p.a, p.b, group, won.value, "withdrawn")
    return NewPairing(p.slot, p.a, p.b, group)


def tournament_winner(
    t: Tournament, entries: Sequence[Entry], stored: Sequence[StoredPairing]
) -> int | None:
    if t.knockout_from is None:
        table = league_rows(t, entries, stored)
        return table[0].entry if table else None
    final = max((p.round for p in stored), default=0)
    last = [p for p in stored if p.round == final]
    return winner_of(last[0]) if len(last) == 1 else None


def league_rows(
    t: Tournament, entries: Sequence[Entry], stored: Sequence[StoredPairing]
) -> list[Standing]:
    return league_table([e.id for e in entries], results_of(stored), swiss=t.format == Format.SWISS)


def standing_rows(
    t: Tournament, entries: Sequence[Entry], stored: Sequence[StoredPairing]
) -> list[StandingRow]:
    """The table shown: a league's standings; a knock-out's by the round each entry reached
    (the winner first), then the seed; groups then knock-out: the knock-out's entries first,
    then the others by their group place."""
    by_id = {e.id: e for e in entries}
    if t.knockout_from is None:
        table = league_rows(t, entries, stored)
        return [row_of_standing(s, by_id[s.entry], s.rank) for s in table]
    league = {s.entry: s for s in league_rows(t, entries, stored)}
    knockout = [p for p in stored if p.round >= t.knockout_from]
    reached: dict[int, int] = {}
    for p in knockout:
        for entry in (p.entry_a, p.entry_b):
            if entry is not None:
                reached[entry] = max(reached.get(entry, 0), 2 * p.round)
        won = winner_of(p)
        if won is not None and p.outcome is not None:
            reached[won] = max(reached[won], 2 * p.round + 1)
    place: dict[int, int] = {}
    if t.format == Format.GROUPS:
        done = results_of([p for p in stored if p.round < t.knockout_from])
        for members in groups_of(entries):
            for s in league_table(members, done):
                place[s.entry] = s.rank
    seed = {e.id: e.seed or 0 for e in entries}
    order = sorted(
        (e.id for e in entries),
        key=lambda e: (-reached.get(e, 0), place.get(e, 0), seed[e]),
    )
    return [row_of_standing(league[e], by_id[e], rank) for rank, e in enumerate(order, start=1)]


__all__ = [
    "KNOCKOUT",
    "LEAGUE",
    "as_stored",
    "entries_needed",
    "groups_of",
    "league_rows",
    "lost_by",
    "not_registering",
    "plan_round",
    "results_of",
    "rounds_in_all",
    "stage_of",
    "standing_rows",
    "swiss_rounds",
    "tournament_winner",
    "winner_of",
]
