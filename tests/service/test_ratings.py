"""The openskill rating policy: who moves which way, teams, free-for-all, levels, draws."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from scopabot.ai import Level
from scopabot.engine import Game, Preset, Rules
from scopabot.service import FakeClock, GameService, InlineThinker, MatchOver
from scopabot.service.live import LiveGames
from scopabot.service.ratings import (
    Boards,
    RatingsPolicy,
    computer_rating_id,
    conservative_score,
    level_of_rating_id,
    side_ranks,
)
from scopabot.store import (
    COMPUTER_RATING_IDS,
    GLOBAL,
    Actor,
    MatchResult,
    Rating,
    SeatHolder,
    Store,
    rating_id,
)
from scopabot.store.models import MatchPlayer, RatingValue

WHEN = datetime(2025, 1, 1, tzinfo=UTC)


def result(
    holders: list[SeatHolder],
    *,
    sides: list[int] | None = None,
    winner: int | None = 0,
    totals: tuple[int, ...] | None = None,
    reason: str = "target",
) -> MatchResult:
    sides = sides if sides is not None else list(range(len(holders)))
    n_sides = max(sides) + 1
    return MatchResult(
        id=1,
        game_id=1,
        guild_id=7,
        category="scopa",
        winner_side=winner,
        reason=reason,
        totals=totals if totals is not None else tuple([11] + [5] * (n_sides - 1)),
        deals=3,
        finished_at=WHEN,
        players=tuple(
            MatchPlayer(seat, side, holder, side == winner)
            for seat, (holder, side) in enumerate(zip(holders, sides, strict=True))
        ),
    )


def stored(rid: int, mu: float, sigma: float) -> Rating:
    return Rating(GLOBAL, "scopa", rid, mu, sigma, conservative_score(mu, sigma), 3, WHEN)


def humans(*ids: int) -> list[SeatHolder]:
    return [SeatHolder.human(i) for i in ids]


def test_a_win_raises_the_winner_and_lowers_the_loser() -> None:
    policy = RatingsPolicy()
    new = policy(result(humans(1, 2)), {1: None, 2: None})
    first = policy.first_rating(1)
    assert new[1].score > first.score and new[1].mu > first.mu
    assert new[2].score < first.score and new[2].mu < first.mu
    assert new[1].score == pytest.approx(new[1].mu - 3 * new[1].sigma)


def test_the_winner_side_decides_not_the_totals() -> None:
    # A resignation: side 1 was ahead on points but resigned, side 0 is named the winner.
    new = RatingsPolicy()(
        result(humans(1, 2), winner=0, totals=(3, 9), reason="resign"), {1: None, 2: None}
    )
    assert new[1].mu > new[2].mu


def test_stored_ratings_are_the_starting_point() -> None:
    policy = RatingsPolicy()
    current = {1: stored(1, 30.0, 3.0), 2: stored(2, 20.0, 3.0)}
    new = policy(result(humans(1, 2)), current)
    assert 30.0 < new[1].mu < 31.0  # an expected win moves little
    assert 19.0 < new[2].mu < 20.0
    upset = policy(result(humans(1, 2), winner=1, totals=(5, 11)), current)
    assert 30.0 - upset[1].mu > new[1].mu - 30.0  # an upset moves more


def test_partners_move_together_and_opponents_the_other_way() -> None:
    policy = RatingsPolicy()
    match = result(humans(1, 2, 3, 4), sides=[0, 1, 0, 1], winner=1, totals=(8, 12))
    new = policy(match, dict.fromkeys([1, 2, 3, 4]))
    assert new[2] == new[4] and new[1] == new[3]
    assert new[2].mu > 25.0 > new[1].mu
    # A pair of two is rated as one team: the same win moves each partner less than a
    # one-against-one win would (the team's strength is the pair's, each carries half).
    alone = policy(result(humans(2, 1), winner=0), {1: None, 2: None})
    assert new[2].mu - 25.0 < alone[2].mu - 25.0


def test_three_players_are_a_free_for_all_ranked_by_totals_after_the_winner() -> None:
    policy = RatingsPolicy()
    match = result(humans(1, 2, 3), winner=2, totals=(9, 4, 11))
    assert side_ranks(match, [0, 1, 2]) == [1, 2, 0]
    new = policy(match, dict.fromkeys([1, 2, 3]))
    assert new[3].mu > new[1].mu > new[2].mu
    assert new[3].mu > 25.0 > new[2].mu
    # Equal losers share second place and move alike.
    tied = policy(result(humans(1, 2, 3), winner=0, totals=(11, 6, 6)), dict.fromkeys([1, 2, 3]))
    assert tied[2] == tied[3] and tied[2].mu < 25.0 < tied[1].mu


def test_no_winner_is_a_draw() -> None:
    policy = RatingsPolicy()
    current = {1: stored(1, 30.0, 4.0), 2: stored(2, 20.0, 4.0)}
    new = policy(result(humans(1, 2), winner=None, totals=(12, 12), reason="undecided"), current)
    # A draw with a weaker player pulls the stronger down and the weaker up; both grow surer.
    assert new[1].mu < 30.0 and new[2].mu > 20.0
    assert new[1].sigma < 4.0 + 0.1 and new[2].sigma < 4.0 + 0.1
    even = policy(result(humans(1, 2), winner=None, totals=(12, 12)), {1: None, 2: None})
    assert even[1].mu == pytest.approx(even[2].mu) == pytest.approx(25.0)
    # A draw among three: nobody ranks above anybody, whatever the totals.
    assert side_ranks(result(humans(1, 2, 3), winner=None, totals=(3, 9, 1)), [0, 1, 2]) == [0] * 3


def test_computer_levels_have_fixed_pseudo_ids() -> None:
    assert [computer_rating_id(level) for level in Level] == [-1, -2, -3, -4, -5]
    assert computer_rating_id("expert") == -5 and computer_rating_id(Level.RANDOM) == -1
    assert all(level_of_rating_id(computer_rating_id(level)) is level for level in Level)
    assert level_of_rating_id(12345) is None and level_of_rating_id(-99) is None
    assert set(COMPUTER_RATING_IDS) == {level.value for level in Level}
    with pytest.raises(ValueError):
        computer_rating_id("easy")
    assert rating_id(SeatHolder.computer("hard")) == -4
    assert rating_id(SeatHolder.human(77)) == 77
    assert rating_id(SeatHolder.computer("no-such-level")) is None


def test_levels_start_in_order_of_strength() -> None:
    policy = RatingsPolicy()
    mus = [policy.first_rating(computer_rating_id(level)).mu for level in Level]
    assert mus == sorted(mus) and len(set(mus)) == len(mus)
    assert policy.first_rating(computer_rating_id(Level.NORMAL)).mu == policy.first_rating(1).mu


def test_beating_expert_moves_more_than_beating_random() -> None:
    policy = RatingsPolicy()
    expert, weak = computer_rating_id(Level.EXPERT), computer_rating_id(Level.RANDOM)
    # First matches: the levels start at their priors.
    vs_expert = policy(result([SeatHolder.human(1), SeatHolder.computer("expert")]), {1: None})
    vs_random = policy(result([SeatHolder.human(1), SeatHolder.computer("random")]), {1: None})
    assert vs_expert[1].mu > vs_random[1].mu > 25.0
    # With stored level ratings (the store passes computer seats too), the same holds, and the
    # beaten level loses rating.
    current = {1: None, expert: stored(expert, 33.0, 2.0), weak: stored(weak, 14.0, 2.0)}
    beat_expert = policy(result([SeatHolder.human(1), SeatHolder.computer("expert")]), current)
    beat_random = policy(result([SeatHolder.human(1), SeatHolder.computer("random")]), current)
    assert beat_expert[1].mu - 25.0 > beat_random[1].mu - 25.0 > 0
    assert beat_expert[expert].mu < 33.0
    assert beat_random[weak].mu < 14.0


def test_only_the_ids_the_store_passed_get_numbers() -> None:
    policy = RatingsPolicy()
    match = result([SeatHolder.human(1), SeatHolder.computer("hard"), SeatHolder.human(3)])
    assert set(policy(match, {1: None, 3: None})) == {1, 3}
    assert set(policy(match, {1: None, 3: None, -4: None})) == {1, 3, -4}


def test_one_level_in_two_seats_gets_one_answer() -> None:
    policy = RatingsPolicy()
    pair = [SeatHolder.human(1), SeatHolder.computer("normal")] * 2
    match = result(pair, sides=[0, 1, 0, 1], winner=0, totals=(11, 4))
    new = policy(match, {1: None, -3: None})
    assert new[-3].mu < policy.first_rating(-3).mu < new[1].mu


def test_the_same_input_gives_the_same_numbers() -> None:
    match = result(humans(1, 2, 3), winner=1, totals=(5, 11, 7))
    current = {1: stored(1, 27.0, 5.0), 2: None, 3: stored(3, 22.0, 6.5)}
    assert RatingsPolicy()(match, current) == RatingsPolicy()(match, current)


async def test_the_store_writes_the_policy_on_both_boards(database: Path | str) -> None:
    store = await Store.open(database)
    LiveGames.of(store).rating_policy = RatingsPolicy()
    try:
        rules = Rules(preset=Preset.SCOPA)
        stored_game = await store.games.create(
            Game.new(rules, seed=3),
            seats=[SeatHolder.human(10), SeatHolder.computer("expert")],
            guild_id=5,
        )
        game, version, rng = stored_game.game, stored_game.version, random.Random(3)
        while not game.is_over:
            actor = Actor.user(10) if game.turn == 0 else Actor.computer()
            applied = await LiveGames.of(store).apply_move(
                stored_game.id, version, rng.choice(game.legal_moves()), by=actor
            )
            game, version = applied.game, applied.version
        outcome = game.outcome()
        assert outcome is not None
        for board in (5, GLOBAL):
            mine = await store.boards.rating(10, "scopa", guild_id=board)
            assert mine is not None and mine.games == 1
            assert (mine.mu > 25.0) == (outcome.winner == 0)
            assert mine.score == pytest.approx(conservative_score(mine.mu, mine.sigma))
            # The computer level is rated too, under its pseudo id, the other way.
            level = await store.boards.rating(
                computer_rating_id(Level.EXPERT), "scopa", guild_id=board
            )
            prior = RatingsPolicy().first_rating(computer_rating_id(Level.EXPERT)).mu
            assert level is not None and level.games == 1
            assert (level.mu < prior) == (outcome.winner == 0)
            page = await store.boards.ratings("scopa", guild_id=board)
            assert {r.user_id for r in page.rows} == {10, computer_rating_id(Level.EXPERT)}
    finally:
        await store.close()


async def test_boards_list_people_and_levels_with_ranks_across_pages(
    database: Path | str,
) -> None:
    store = await Store.open(database)
    try:
        values = {uid: RatingValue(30.0 - uid, 2.0, 24.0 - uid) for uid in range(1, 6)}
        values[computer_rating_id(Level.EXPERT)] = RatingValue(33.0, 1.0, 30.0)
        values[computer_rating_id(Level.RANDOM)] = RatingValue(15.0, 1.0, 12.0)
        await store.boards.put_ratings("scopa", values, guild_id=8, count_game=True)
        boards = Boards(store)
        first = await boards.leaderboard(board=8, category="scopa", limit=4)
        assert [(r.rank, r.rating_id) for r in first.rows] == [(1, -5), (2, 1), (3, 2), (4, 3)]
        assert first.rows[0].level is Level.EXPERT and first.rows[0].user_id is None
        assert first.rows[1].level is None and first.rows[1].user_id == 1
        second = await boards.leaderboard(board=8, category="scopa", limit=4, after=first.after)
        assert [(r.rank, r.rating_id) for r in second.rows] == [(5, 4), (6, 5), (7, -1)]
        assert second.after is None
        levels = await boards.levels(board=8, category="scopa")
        assert [(r.level, r.rank) for r in levels] == [(Level.RANDOM, 7), (Level.EXPERT, 1)]
        records = await boards.stats(2, board=8)
        assert [(r.category, r.rank) for r in records] == [("scopa", 3)]
        assert records[0].rating is not None and records[0].rating.games == 1
        assert await boards.stats(2, board=GLOBAL) == []
    finally:
        await store.close()


def test_a_resigning_side_ranks_last_whatever_its_points() -> None:
    base = result(humans(1, 2, 3), winner=0, totals=(9, 10, 4), reason="resign")
    resigned = replace(base, losing_side=1)
    assert side_ranks(base, [0, 1, 2]) == [0, 1, 2]
    assert side_ranks(resigned, [0, 1, 2]) == [0, 2, 1]
    new = RatingsPolicy()(resigned, dict.fromkeys([1, 2, 3]))
    assert new[1].mu > new[3].mu > new[2].mu
    # Two sides: the resigner is simply the loser.
    two = replace(result(humans(1, 2), winner=1, totals=(8, 2)), losing_side=0)
    assert side_ranks(two, [0, 1]) == [1, 0]


async def test_a_levels_first_rating_change_starts_from_its_real_rating(
    database: Path | str,
) -> None:
    service = await GameService.open(
        database, clock=FakeClock(), thinker=InlineThinker(), computer_pause=0
    )
    try:
        table = await service.tables.open(host=1, guild_id=4, computers=1, level="expert")
        game_id = (await service.tables.start(table.id, by=1, seed=2)).game_id
        await service.settle()
        outcome = await service.games.resign(game_id, user=1)
        [over] = outcome.events
        assert isinstance(over, MatchOver)
        expert = computer_rating_id(Level.EXPERT)
        first = RatingsPolicy().first_rating(expert).score
        for changes in (over.rating_changes, over.global_rating_changes):
            before, after = changes[expert]
            assert before == pytest.approx(first) and after > first
            assert changes[1][0] is None  # the person's first rated match: a newcomer
        # Kept with the match: a final table drawn after a restart shows the same changes.
        kept = (over.rating_changes, over.global_rating_changes)
        assert await service.games.final_rating_changes(game_id) == kept
    finally:
        await service.close()
    again = await GameService.open(
        database, clock=FakeClock(), thinker=InlineThinker(), computer_pause=0
    )
    try:
        assert await again.games.final_rating_changes(game_id) == kept
    finally:
        await again.close()
