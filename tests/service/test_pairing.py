"""The pure rules of tournaments: round robin, Swiss, knock-out, groups, standings."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopabot.service.pairing import (
    WIN_POINTS,
    Outcome,
    Pairing,
    Result,
    bracket_order,
    bracket_size,
    crossed_seeds,
    draw_pairs,
    knockout_first_round,
    knockout_next_round,
    knockout_rounds,
    match_seed,
    round_robin,
    seed_order,
    snake_groups,
    standings,
    swiss_round,
)


def met_in(rounds: list[list[Pairing]]) -> list[frozenset[int]]:
    return [frozenset((p.a, p.b)) for r in rounds for p in r if p.b is not None]


def each_once_a_round(pairs: list[Pairing], entries: list[int]) -> None:
    seen = [e for p in pairs for e in (p.a, p.b) if e is not None]
    assert len(seen) == len(set(seen)), "someone is paired twice in a round"
    assert set(seen) <= set(entries)


# ---------------------------------------------------------------------- round robin


@given(st.integers(min_value=2, max_value=17))
def test_round_robin_meets_everyone_once(n: int) -> None:
    entries = list(range(100, 100 + n))
    rounds = round_robin(entries)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    for r in rounds:
        each_once_a_round(r, entries)
        assert {e for p in r for e in (p.a, p.b) if e is not None} == set(entries)
        assert sum(p.b is None for p in r) == n % 2  # one rests when odd, the rest last
        assert r[-1].b is None or n % 2 == 0
    met = met_in(rounds)
    assert len(met) == len(set(met)) == n * (n - 1) // 2
    if n % 2:
        rests = [p.a for r in rounds for p in r if p.b is None]
        assert sorted(rests) == entries  # each rests exactly once


def test_round_robin_of_one_is_empty() -> None:
    assert round_robin([7]) == []


# ---------------------------------------------------------------------- standings


def test_round_robin_tie_breaks_written_down() -> None:
    """Three level on wins: head to head first; level there too, points scored, then
    conceded, then the seed."""
    a, b, c, d = 1, 2, 3, 4
    results = [
        Result(1, a, b, Outcome.A, 11, 5),
        Result(1, c, d, Outcome.A, 11, 9),
        Result(2, b, c, Outcome.A, 11, 8),
        Result(2, a, d, Outcome.B, 7, 11),
        Result(3, c, a, Outcome.B, 6, 11),
        Result(3, b, d, Outcome.A, 11, 10),
    ]
    # wins: a 2 (b, c), b 2 (c, d), c 1 (d), d 1 (a): a beat b, c beat d head to head.
    table = standings([d, c, b, a], results)
    assert [s.entry for s in table] == [a, b, c, d]


def test_head_to_head_then_points() -> None:
    a, b, c, d = 1, 2, 3, 4
    results = [
        Result(1, a, b, Outcome.A, 11, 5),
        Result(1, c, d, Outcome.A, 11, 9),
        Result(2, b, c, Outcome.A, 11, 8),
        Result(2, a, d, Outcome.B, 7, 11),
        Result(3, c, a, Outcome.B, 6, 11),
        Result(3, d, b, Outcome.A, 11, 10),
    ]
    # wins: a 2 (b, c), b 1 (c), c 1 (d), d 2 (a, b). a-d level: d beat a head to head.
    # b, c level on 1: b beat c head to head.
    table = standings([a, b, c, d], results)
    assert [s.entry for s in table] == [d, a, b, c]
    assert table[0].match_points == 2 * WIN_POINTS
    assert table[0].tiebreak == WIN_POINTS and table[1].tiebreak == 0


def test_three_way_circle_falls_to_points_scored_then_conceded_then_seed() -> None:
    a, b, c = 1, 2, 3
    circle = [
        Result(1, a, b, Outcome.A, 11, 9),
        Result(2, b, c, Outcome.A, 11, 9),
        Result(3, c, a, Outcome.A, 12, 10),
    ]
    # each 1 win, head to head level (each beat one): scored a 21, b 20, c 21; conceded
    # a 21, b 20, c 21 → a and c level on scored and conceded: the seed (a before c).
    assert [s.entry for s in standings([a, b, c], circle)] == [a, c, b]
    assert [s.entry for s in standings([c, b, a], circle)] == [c, a, b]
    fewer_conceded = [
        Result(1, a, b, Outcome.A, 11, 9),
        Result(2, b, c, Outcome.A, 11, 9),
        Result(3, c, a, Outcome.A, 11, 10),
    ]
    # scored: a 21, b 20, c 20; b and c level on scored: conceded b 20, c 21.
    assert [s.entry for s in standings([a, b, c], fewer_conceded)] == [a, b, c]


def test_rest_counts_nothing_and_bye_counts_a_win() -> None:
    rest = standings([1, 2], [Result(1, 1, None, Outcome.REST)])
    assert all(s.played == 0 and s.match_points == 0 for s in rest)
    bye = standings([1, 2], [Result(1, 2, None, Outcome.BYE)], swiss=True)
    assert bye[0].entry == 2 and bye[0].won == 1 and bye[0].match_points == WIN_POINTS


def test_both_lost_is_a_loss_for_both() -> None:
    table = standings([1, 2], [Result(1, 1, 2, Outcome.BOTH_LOST)])
    assert all(s.lost == 1 and s.won == 0 for s in table)


def test_swiss_buchholz_breaks_ties() -> None:
    results = [
        Result(1, 1, 2, Outcome.A, 11, 3),
        Result(1, 3, 4, Outcome.A, 11, 3),
        Result(2, 2, 4, Outcome.A, 5, 3),  # 2 now has a win: 1's opponent is stronger
    ]
    # 1, 2, 3 one win each; Buchholz 1: 2, 2: 2 (1 and 4), 3: 0; 1 and 2 level: scored 11 v 8.
    table = standings([4, 3, 2, 1], results, swiss=True)
    assert [s.entry for s in table] == [1, 2, 3, 4]
    assert [s.tiebreak for s in table] == [WIN_POINTS, WIN_POINTS, 0, 2 * WIN_POINTS]


# ---------------------------------------------------------------------- Swiss


def rematch_free_exists(order: list[int], met: set[frozenset[int]], byes: set[int]) -> bool:
    candidates: list[int | None] = [None]
    if len(order) % 2:
        fresh = [e for e in order if e not in byes]
        candidates = list(fresh or order)
    for bye in candidates:
        rest = [e for e in order if e != bye]
        if _perfect(rest, met):
            return True
    return False


def _perfect(rest: list[int], met: set[frozenset[int]]) -> bool:
    if not rest:
        return True
    first = rest[0]
    return any(
        frozenset((first, o)) not in met and _perfect([x for x in rest[1:] if x != o], met)
        for o in rest[1:]
    )


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(min_value=2, max_value=9),
    rounds=st.integers(min_value=1, max_value=8),
    seed=st.integers(min_value=0, max_value=10_000),
)
def test_swiss_rounds_pair_once_without_avoidable_rematch(n: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    entries = list(range(1, n + 1))
    results: list[Result] = []
    for number in range(1, rounds + 1):
        ranked = [s.entry for s in standings(entries, results, swiss=True)]
        met = {frozenset((r.a, r.b)) for r in results if r.b is not None}
        byes = {r.a for r in results if r.outcome is Outcome.BYE}
        pairs = swiss_round(ranked, results)
        each_once_a_round(pairs, entries)
        assert {e for p in pairs for e in (p.a, p.b) if e is not None} == set(entries)
        played = [frozenset((p.a, p.b)) for p in pairs if p.b is not None]
        if rematch_free_exists(ranked, met, byes):
            assert not set(played) & met, "a rematch although another pairing existed"
        bye = [p.a for p in pairs if p.b is None]
        assert len(bye) == n % 2
        if bye:
            without = [e for e in ranked if e not in byes]
            if without:
                assert bye[0] in without, "a second bye while someone has had none"
            if not set(played) & met and not byes & {bye[0]}:
                # the lowest-ranked without a bye, unless that would force a rematch
                lower = without[without.index(bye[0]) + 1 :]
                for e in lower:
                    rest = [x for x in ranked if x != e]
                    assert not _perfect(rest, met), "a lower-ranked entry could have had it"
        for p in pairs:
            if p.b is None:
                results.append(Result(number, p.a, None, Outcome.BYE))
            else:
                outcome = rng.choice([Outcome.A, Outcome.B])
                results.append(
                    Result(number, p.a, p.b, outcome, rng.randint(0, 16), rng.randint(0, 16))
                )


def test_swiss_pairs_equal_scores_down_the_table() -> None:
    ranked = [1, 2, 3, 4, 5, 6]
    assert [(p.a, p.b) for p in swiss_round(ranked, [])] == [(1, 2), (3, 4), (5, 6)]


def test_swiss_bye_to_lowest_without_one() -> None:
    ranked = [1, 2, 3, 4, 5]
    first = swiss_round(ranked, [])
    assert first[-1] == Pairing(2, 5, None)
    second = swiss_round(ranked, [Result(1, 5, None, Outcome.BYE)])
    assert second[-1].a == 4 and second[-1].b is None


def test_swiss_backtracks_rather_than_rematch() -> None:
    # 1-2 and 3-4 met; down the table 1-3 then 2-4 would be fine; make 2-4 a rematch too,
    # so 1 must take 4 and 2 take 3.
    met = [Result(1, 1, 2, Outcome.A), Result(1, 3, 4, Outcome.A), Result(2, 2, 4, Outcome.A)]
    met.append(Result(2, 1, 3, Outcome.A))
    pairs = swiss_round([1, 2, 3, 4], met)
    assert {frozenset((p.a, p.b)) for p in pairs} == {frozenset((1, 4)), frozenset((2, 3))}


def test_swiss_rematch_only_when_unavoidable() -> None:
    pairs = swiss_round([1, 2], [Result(1, 1, 2, Outcome.A)])
    assert [(p.a, p.b) for p in pairs] == [(1, 2)]


# ---------------------------------------------------------------------- knock-out


def test_bracket_order_keeps_top_seeds_apart() -> None:
    assert bracket_order(2) == [1, 2]
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]


@given(st.integers(min_value=2, max_value=70))
def test_knockout_bracket_shape(n: int) -> None:
    seeded = list(range(1000, 1000 + n))
    size = bracket_size(n)
    assert size >= n > size // 2 or n == 2
    first = knockout_first_round(seeded)
    assert len(first) == size // 2
    each_once_a_round(first, seeded)
    assert {e for p in first for e in (p.a, p.b) if e is not None} == set(seeded)
    byes = [p.a for p in first if p.b is None]
    assert byes == [] or sorted(seeded.index(b) for b in byes) == list(range(size - n))
    for p in first:  # seed s meets seed size + 1 - s
        if p.b is not None:
            assert seeded.index(p.a) + seeded.index(p.b) + 2 == size + 1
    # Top seeds win every match: seeds 1 and 2 meet in the final, after knockout_rounds.
    winners: list[int | None] = [p.a for p in first]
    rounds = 1
    while len(winners) > 1:
        nxt = knockout_next_round(winners)
        each_once_a_round(nxt, seeded)
        winners = [min(p.a, p.b) if p.b is not None else p.a for p in nxt]
        rounds += 1
    assert rounds == knockout_rounds(n)
    if n >= 2:
        assert winners == [seeded[0]]


def test_knockout_six_gives_byes_to_top_two() -> None:
    first = knockout_first_round([1, 2, 3, 4, 5, 6])
    assert [(p.a, p.b) for p in first] == [(1, None), (4, 5), (2, None), (3, 6)]


def test_knockout_next_round_walkovers_and_empty_slots() -> None:
    nxt = knockout_next_round([1, None, None, None, 5, 6, None, 8])
    assert nxt == [Pairing(0, 1, None), Pairing(2, 5, 6), Pairing(3, 8, None)]


def test_knockout_needs_two() -> None:
    with pytest.raises(ValueError):
        knockout_first_round([1])


# ---------------------------------------------------------------------- groups


@given(
    groups=st.sampled_from([2, 4, 8]),
    per_group=st.integers(min_value=2, max_value=5),
    seed=st.integers(min_value=0, max_value=1000),
)
def test_groups_cross_winners_with_runners_up(groups: int, per_group: int, seed: int) -> None:
    seeded = list(range(1, groups * per_group + 1))
    dealt = snake_groups(seeded, groups)
    assert sorted(e for g in dealt for e in g) == seeded
    assert {len(g) for g in dealt} == {per_group}
    rng = random.Random(seed)
    finals = [rng.sample(g, len(g)) for g in dealt]  # any group result
    group_of = {e: i for i, g in enumerate(finals) for e in g}
    place_of = {e: g.index(e) for g in finals for e in g}
    first = knockout_first_round(crossed_seeds(finals, 2))
    for p in first:
        assert p.b is not None
        assert group_of[p.a] != group_of[p.b]
        assert {place_of[p.a], place_of[p.b]} == {0, 1}


def test_snake_groups_share_the_seeds() -> None:
    assert snake_groups([1, 2, 3, 4, 5, 6, 7, 8], 2) == [[1, 4, 5, 8], [2, 3, 6, 7]]
    with pytest.raises(ValueError):
        snake_groups([1, 2, 3], 2)


# ---------------------------------------------------------------------- entries, seeds


def test_draw_pairs_and_seeds_are_deterministic() -> None:
    solos = list(range(10))
    pairs = draw_pairs(solos, random.Random(3))
    assert pairs == draw_pairs(solos, random.Random(3))
    assert sorted(itertools.chain.from_iterable(pairs)) == solos
    with pytest.raises(ValueError):
        draw_pairs([1, 2, 3], random.Random(0))
    assert seed_order([1, 2, 3], random.Random(1), {1: 10.0, 2: 30.0, 3: 20.0}) == [2, 3, 1]
    assert sorted(seed_order([1, 2, 3], random.Random(1))) == [1, 2, 3]
    assert match_seed(5, 1, 0) == match_seed(5, 1, 0) != match_seed(5, 1, 1)
