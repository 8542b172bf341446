"""Who meets whom, and who stands where: the pure rules of a tournament.

No I/O, and nothing random but a ``random.Random`` made from a seed, so a round's pairings are
the same every time they are worked out (after a restart, in a second process, in a test).
Entries are plain ints (the store's entry ids), listed in seed order where order matters;
decided pairings are :class:`Result` values. The service (:mod:`.tournaments`) stores what
this module decides and never pairs by itself.

The tie-breaks, written down. Round robin and groups: more match points (a win 2, a loss or a
double loss 0); then head to head (the match points won in the matches between the entries
still level); then more points scored in all the matches; then fewer points conceded; then
the seed. Swiss (sistema Danese): match points (a bye counts as a win), then Buchholz (the
match points of the opponents met), then points scored, fewer conceded, the seed.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

WIN_POINTS: Final = 2
_SEARCH_LIMIT: Final = 200_000  # steps of the rematch-free search before settling for less


class Format(StrEnum):
    ROUND_ROBIN = "round_robin"  # girone all'italiana
    SWISS = "swiss"  # sistema Danese
    KNOCKOUT = "knockout"  # eliminazione diretta
    GROUPS = "groups"  # round-robin groups, then a crossed knock-out of the first K of each


class Outcome(StrEnum):
    """How a pairing was decided."""

    A = "a"  # entry a won
    B = "b"  # entry b won
    BOTH_LOST = "both_lost"  # neither played by the deadline, or both withdrew
    BYE = "bye"  # a had nobody to meet: a win (Swiss), a walkover (knock-out)
    REST = "rest"  # a round robin's odd entry out: no match, no points


@dataclass(frozen=True, slots=True)
class Pairing:
    """One match of a round; ``b`` None: ``a`` has a bye (or rests, in a round robin)."""

    slot: int
    a: int
    b: int | None


@dataclass(frozen=True, slots=True)
class Result:
    """A decided pairing, with the points each side scored in its match (0 when unplayed)."""

    round: int
    a: int
    b: int | None
    outcome: Outcome
    points_a: int = 0
    points_b: int = 0

    @property
    def winner(self) -> int | None:
        if self.outcome in (Outcome.A, Outcome.BYE):
            return self.a
        if self.outcome is Outcome.B:
            return self.b
        return None

    def involves(self, entry: int) -> bool:
        return entry == self.a or entry == self.b


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of a standings table (rank 1 leads); ``tiebreak`` is the head-to-head points
    (round robin) or the Buchholz (Swiss) that ranked it."""

    rank: int
    entry: int
    played: int
    won: int
    lost: int
    match_points: int
    tiebreak: int
    scored: int
    conceded: int


def match_seed(tournament_seed: int, round_number: int, slot: int) -> int:
    """The deal's seed of one match: fixed by the tournament's seed, its round and slot."""
    return random.Random(f"{tournament_seed}/{round_number}/{slot}").randrange(2**31)


# ---------------------------------------------------------------------- entries and seeds


def draw_pairs(solos: Sequence[int], rng: random.Random) -> list[tuple[int, int]]:
    """Pairs drawn at random among people who signed up alone (an even number of them)."""
    if len(solos) % 2:
        raise ValueError("an odd number of people cannot all be paired")
    drawn = list(solos)
    rng.shuffle(drawn)
    return [(drawn[i], drawn[i + 1]) for i in range(0, len(drawn), 2)]


def seed_order(
    entries: Sequence[int], rng: random.Random, ratings: Mapping[int, float] | None = None
) -> list[int]:
    """Entries in seed order: by rating, best first (level ratings drawn), or all drawn."""
    drawn = list(entries)
    rng.shuffle(drawn)
    if ratings is None:
        return drawn
    return sorted(drawn, key=lambda e: -ratings.get(e, float("-inf")))


# ---------------------------------------------------------------------- round robin


def round_robin(entries: Sequence[int]) -> list[list[Pairing]]:
    """Every round of a round robin by the circle method: each entry meets each other once;
    with an odd number, one entry rests each round (last in the round, ``b`` None).

    >>> [[(p.a, p.b) for p in r] for r in round_robin([1, 2, 3, 4])]
    [[(1, 4), (2, 3)], [(1, 3), (4, 2)], [(1, 2), (3, 4)]]
    """
    ring: list[int | None] = list(entries)
    if len(ring) < 2:
        return []
    if len(ring) % 2:
        ring.append(None)
    n = len(ring)
    rounds: list[list[Pairing]] = []
    for _ in range(n - 1):
        played: list[tuple[int, int | None]] = []
        rests: list[tuple[int, int | None]] = []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if a is not None and b is not None:
                played.append((a, b))
            else:
                rest = a if b is None else b
                assert rest is not None
                rests.append((rest, None))
        rounds.append([Pairing(slot, a, b) for slot, (a, b) in enumerate(played + rests)])
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


# ---------------------------------------------------------------------- standings


@dataclass(slots=True)
class _Line:
    played: int = 0
    won: int = 0
    lost: int = 0
    match_points: int = 0
    scored: int = 0
    conceded: int = 0


def _lines(entries: Sequence[int], results: Sequence[Result]) -> dict[int, _Line]:
    lines = {e: _Line() for e in entries}
    for r in results:
        if r.outcome is Outcome.REST:
            continue
        sides = [(r.a, r.points_a, r.points_b)]
        if r.b is not None:
            sides.append((r.b, r.points_b, r.points_a))
        for entry, scored, conceded in sides:
            line = lines.get(entry)
            if line is None:
                continue
            line.played += 1
            line.scored += scored
            line.conceded += conceded
            if r.winner == entry:
                line.won += 1
                line.match_points += WIN_POINTS
            else:
                line.lost += 1
    return lines


def standings(
    entries: Sequence[int], results: Iterable[Result], *, swiss: bool = False
) -> list[Standing]:
    """The standings table by the tie-breaks in this module's docstring; ``entries`` in seed
    order (the last tie-break)."""
    done = [r for r in results]
    lines = _lines(entries, done)
    seed = {e: i for i, e in enumerate(entries)}
    tiebreak: dict[int, int] = {}
    if swiss:
        for e in entries:
            met = [r.b if r.a == e else r.a for r in done if r.b is not None and r.involves(e)]
            tiebreak[e] = sum(lines[o].match_points for o in met if o in lines)
    else:
        level: dict[int, list[int]] = defaultdict(list)
        for e in entries:
            level[lines[e].match_points].append(e)
        for group in level.values():
            members = set(group)
            for e in group:
                tiebreak[e] = sum(
                    WIN_POINTS for r in done if r.a in members and r.b in members and r.winner == e
                )
    order = sorted(
        entries,
        key=lambda e: (
            -lines[e].match_points,
            -tiebreak[e],
            -lines[e].scored,
            lines[e].conceded,
            seed[e],
        ),
    )
    return [
        Standing(
            rank=i + 1,
            entry=e,
            played=lines[e].played,
            won=lines[e].won,
            lost=lines[e].lost,
            match_points=lines[e].match_points,
            tiebreak=tiebreak[e],
            scored=lines[e].scored,
            conceded=lines[e].conceded,
        )
        for i, e in enumerate(order)
    ]


# ---------------------------------------------------------------------- Swiss (Danese)


def swiss_round(ranked: Sequence[int], results: Iterable[Result]) -> list[Pairing]:
    """The next Swiss round for the entries still in, ``ranked`` as the standings order them.

    Entries are paired down the standings, the first with the next it has not met (so equal
    scores meet, as the Danese pairs 1-2, 3-4); no rematch while any pairing of the whole round
    avoids one; with an odd number the bye goes to the lowest-ranked entry that has not had
    one (all had one: the lowest-ranked), again without forcing a rematch when another choice
    of bye avoids it. The bye is the last pairing.
    """
    done = list(results)
    met = {frozenset((r.a, r.b)) for r in done if r.b is not None}
    # A bye is any round without an opponent entry, also one played against a computer.
    had_bye = {r.a for r in done if r.b is None and r.outcome is not Outcome.REST}
    order = list(ranked)
    candidates: list[int | None] = [None]
    if len(order) % 2:
        fresh = [e for e in reversed(order) if e not in had_bye]
        candidates = list(fresh or reversed(order))
    for budget in range(len(order) // 2 + 1):
        for bye in candidates:
            rest = [e for e in order if e != bye]
            found = _pair(rest, met, budget, [0])
            if found is not None:
                pairs = [Pairing(i, a, b) for i, (a, b) in enumerate(found)]
                if bye is not None:
                    pairs.append(Pairing(len(pairs), bye, None))
                return pairs
    raise AssertionError("some pairing always exists")  # pragma: no cover - budget n/2 pairs all


def _pair(
    order: list[int], met: set[frozenset[int]], budget: int, steps: list[int]
) -> list[tuple[int, int]] | None:
    """Pair ``order`` from the top, each with the first it may meet, with at most ``budget``
    rematches, backtracking when the rest cannot be paired; None if impossible."""
    if not order:
        return []
    first, rest = order[0], order[1:]
    for i, other in enumerate(rest):
        rematch = frozenset((first, other)) in met
        if rematch and not budget:
            continue
        steps[0] += 1
        if steps[0] > _SEARCH_LIMIT:
            return None
        below = _pair(rest[:i] + rest[i + 1 :], met, budget - rematch, steps)
        if below is not None:
            return [(first, other), *below]
    return None


# ---------------------------------------------------------------------- knock-out


def bracket_size(entries: int) -> int:
    """The bracket's number of first-round places: the power of two at or above ``entries``."""
    size = 2
    while size < entries:
        size *= 2
    return size


def bracket_order(size: int) -> list[int]:
    """Seed numbers in bracket order, so seeds 1 and 2 can meet only in the final and each
    first-round match is seed s against seed size + 1 - s.

    >>> bracket_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    order = [1, 2]
    while len(order) < size:
        twice = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, twice - seed)]
    return order


def knockout_first_round(seeded: Sequence[int]) -> list[Pairing]:
    """The first round of a knock-out, ``seeded`` best first: 1 v N, 2 v N-1 in bracket
    order; when the entries are not a power of two the top seeds have byes (``b`` None)."""
    if len(seeded) < 2:
        raise ValueError("a knock-out needs two entries")
    order = bracket_order(bracket_size(len(seeded)))
    pairs: list[Pairing] = []
    for slot in range(len(order) // 2):
        high, low = order[2 * slot], order[2 * slot + 1]
        a = seeded[high - 1]
        b = seeded[low - 1] if low <= len(seeded) else None
        pairs.append(Pairing(slot, a, b))
    return pairs


def knockout_next_round(winners: Sequence[int | None]) -> list[Pairing]:
    """The next round from the winners of the last one, by slot (None: nobody came through,
    as when both sides of a match lost): slots 2k and 2k+1 meet in slot k; one alone goes on
    by walkover (``b`` None); a slot that nobody reaches has no pairing."""
    pairs: list[Pairing] = []
    for slot in range(len(winners) // 2):
        top, bottom = winners[2 * slot], winners[2 * slot + 1]
        if top is None and bottom is None:
            continue
        if top is None:
            top, bottom = bottom, None
        assert top is not None
        pairs.append(Pairing(slot, top, bottom))
    return pairs


def knockout_rounds(entries: int) -> int:
    """How many rounds a knock-out of ``entries`` takes."""
    return bracket_size(entries).bit_length() - 1


# ---------------------------------------------------------------------- groups


def snake_groups(seeded: Sequence[int], groups: int) -> list[list[int]]:
    """Entries dealt into groups in snake order (1 A, 2 B, 2nd row backwards...), so every
    group gets a fair share of the seeds."""
    if groups < 1 or len(seeded) < 2 * groups:
        raise ValueError("each group needs two entries")
    out: list[list[int]] = [[] for _ in range(groups)]
    for i, entry in enumerate(seeded):
        row, col = divmod(i, groups)
        out[col if row % 2 == 0 else groups - 1 - col].append(entry)
    return out


def crossed_seeds(group_tables: Sequence[Sequence[int]], qualifiers: int) -> list[int]:
    """The knock-out's seed order from each group's final order: every group winner, then
    every runner-up, ... in group order. With the bracket's 1 v N this crosses the groups:
    group winners meet runners-up of another group."""
    return [table[place] for place in range(qualifiers) for table in group_tables]


__all__ = [
    "WIN_POINTS",
    "Format",
    "Outcome",
    "Pairing",
    "Result",
    "Standing",
    "bracket_order",
    "bracket_size",
    "crossed_seeds",
    "draw_pairs",
    "knockout_first_round",
    "knockout_next_round",
    "knockout_rounds",
    "match_seed",
    "round_robin",
    "seed_order",
    "snake_groups",
    "standings",
    "swiss_round",
]
