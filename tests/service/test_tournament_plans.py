"""Whole tournaments planned from stored rows alone (no service): random results and
withdrawals, every format, checked round by round."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from scopabot.service.pairing import (
    Format,
    Outcome,
    bracket_size,
    knockout_rounds,
    round_robin,
    snake_groups,
)
from scopabot.service.tournament_plans import (
    as_stored,
    plan_round,
    standing_rows,
    tournament_winner,
)
from scopabot.store.tournaments import Entry, StoredPairing, Tournament, TournamentStatus

T0 = datetime(2025, 5, 1, tzinfo=UTC)
BASE = Tournament(
    id=1,
    guild_id=1,
    channel_id=2,
    organiser_id=9,
    name="t",
    format="knockout",
    preset="scopa",
    players=2,
    options={},
    pace={},
    on_timeout="computer",
    level="normal",
    round_seconds=3600,
    rounds=None,
    groups=None,
    qualifiers=None,
    seeding="draw",
    seed=1,
    status=TournamentStatus.PLAYING,
    round=0,
    round_deadline=None,
    bracket=None,
    knockout_from=None,
    winner_entry=None,
    standings=None,
    version=0,
    created_at=T0,
    started_at=T0,
    finished_at=None,
    computers=False,
)


def run(
    fmt: Format, n: int, seed: int, quits: list[int], computers: bool = False
) -> tuple[Tournament, list[Entry], list[StoredPairing], set[int]]:
    """Play a tournament of ``n`` entries to its end with random results; before round r,
    entry ``quits[r]`` (if any, and still in) withdraws."""
    rng = random.Random(seed)
    entries = [Entry(i, 1, 100 + i, None, i, None, T0, None) for i in range(1, n + 1)]
    t = replace(BASE, format=fmt.value, computers=computers)
    if fmt is Format.KNOCKOUT:
        t = replace(t, bracket=bracket_size(n), knockout_from=1)
    elif fmt is Format.SWISS:
        t = replace(t, rounds=4)
    elif fmt is Format.GROUPS:
        groups = 2
        dealt = snake_groups([e.id for e in entries], groups)
        group_of = {e: g for g, members in enumerate(dealt) for e in members}
        entries = [replace(e, group_no=group_of[e.id]) for e in entries]
        ko_from = max(len(round_robin(g)) for g in dealt) + 1
        t = replace(t, groups=groups, qualifiers=2, bracket=4, knockout_from=ko_from)
    stored: list[StoredPairing] = []
    gone: dict[int, int] = {}  # entry -> the first round it was out of
    next_id = 1
    for number in range(1, 60):
        before = entries
        if number - 1 < len(quits) and quits[number - 1] in {e.id for e in entries}:
            q = quits[number - 1]
            if q not in gone:
                gone[q] = number
                entries = [replace(e, withdrawn_at=T0) if e.id == q else e for e in entries]
        planned = plan_round(t, entries, stored, number)
        if planned is None:  # it was over: a withdrawal after the end is none
            if entries is not before:
                gone.pop(quits[number - 1])
            return t, before, stored, gone
        seen = [x for p, _g in planned for x in (p.a, p.b) if x is not None]
        assert len(seen) == len(set(seen)), f"someone paired twice in round {number}"
        for p, group in planned:
            new = as_stored(t, number, p, group, set(gone))
            outcome = new.outcome
            if outcome is None:
                # now and then nobody played by the deadline: both lose
                outcome = rng.choice([Outcome.A.value, Outcome.B.value] * 4 + ["both_lost"])
            stored.append(
                StoredPairing(
                    id=next_id,
                    tournament_id=1,
                    round=number,
                    slot=new.slot,
                    group_no=new.group_no,
                    entry_a=new.entry_a,
                    entry_b=new.entry_b,
                    table_id=None,
                    outcome=outcome,
                    points_a=rng.randint(0, 12),
                    points_b=rng.randint(0, 12),
                    reason=new.reason or "match",
                    decided_at=T0,
                )
            )
            next_id += 1
        t = replace(t, round=number)
    raise AssertionError("the tournament never ended")


formats = st.sampled_from(list(Format))


@settings(max_examples=120, deadline=None)
@given(
    fmt=formats,
    n=st.integers(min_value=4, max_value=13),
    seed=st.integers(min_value=0, max_value=10_000),
    quits=st.lists(st.integers(min_value=0, max_value=13), max_size=4),
    computers=st.booleans(),
)
def test_every_format_ends_with_a_sound_table(
    fmt: Format, n: int, seed: int, quits: list[int], computers: bool
) -> None:
    t, entries, stored, gone = run(fmt, n, seed, quits, computers)
    rounds = max((p.round for p in stored), default=0)
    if fmt is Format.ROUND_ROBIN:
        assert rounds == len(round_robin(list(range(n))))
        met = [frozenset((p.entry_a, p.entry_b)) for p in stored if p.entry_b is not None]
        assert len(met) == len(set(met)) == n * (n - 1) // 2
    if fmt is Format.KNOCKOUT:
        assert rounds <= knockout_rounds(n)
        assert [sum(p.round == r for p in stored) for r in (1,)] == [bracket_size(n) // 2]
    if fmt is Format.SWISS:
        assert rounds <= 4
    for p in stored:  # once out, an entry wins nothing (and in a Swiss is paired no more)
        winner = p.entry_a if p.outcome in ("a", "bye") else p.entry_b if p.outcome == "b" else None
        for entry in (p.entry_a, p.entry_b):
            if entry in gone and p.round >= gone[entry]:
                league = fmt is Format.ROUND_ROBIN or p.group_no is not None
                if not (computers and league):  # else a computer plays on for it
                    assert winner != entry
                assert fmt is not Format.SWISS, "a withdrawn entry was paired"
    winner = tournament_winner(t, entries, stored)
    rows = standing_rows(t, entries, stored)
    assert sorted(r.rank for r in rows) == list(range(1, len(entries) + 1))
    assert sorted(r.people for r in rows) == sorted(e.people for e in entries)
    if winner is not None:
        people = next(e.people for e in entries if e.id == winner)
        assert rows[0].people == people
        if fmt in (Format.KNOCKOUT, Format.GROUPS):
            assert winner not in gone
    elif fmt in (Format.ROUND_ROBIN, Format.SWISS):
        raise AssertionError("a league always has a leader")
