from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from scopabot.engine import Game, IllegalMoveError, InvalidMoveError, Preset, Rules
from scopabot.service.live import LiveGames
from scopabot.store import (
    Actor,
    ActorKind,
    GameStatus,
    MatchResult,
    NotFoundError,
    Rating,
    RatingValue,
    SeatHolder,
    StaleVersionError,
    Store,
)

from .helpers import (
    PRESETS,
    check_database,
    new_game,
    play_random,
    replay,
    seats_for,
    stored_game_rows,
)


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: f"{r.preset}-{r.players}")
async def test_snapshot_and_record_give_the_same_game(rules: Rules, database: Path | str) -> None:
    rng = random.Random(str(rules))
    store = await Store.open(database)
    played = {}
    for seed in range(6):
        stored = await new_game(store, rules, seed)
        # Stop some games part-way (mid-deal, mid-match) and play others to the end.
        limit = None if seed % 2 else rng.randrange(1, 120)
        stored = await play_random(store, stored, rng, limit)
        played[stored.id] = stored
        replayed = await replay(store, stored.id)
        assert replayed.game.to_snapshot() == stored.game.to_snapshot()
    await store.close()
    # A fresh store has nothing in memory: this loads from the snapshots on disk.
    counts = await check_database(database)
    fresh = await Store.open(database)
    for game_id, stored in played.items():
        loaded = await fresh.games.load(game_id)
        assert loaded.game.to_snapshot() == stored.game.to_snapshot()
        assert loaded.version == stored.version
        assert counts[game_id] == stored.game.move_count
    await fresh.close()


async def test_game_from_a_position_round_trips(store: Store) -> None:
    game = Game.from_position(
        Rules(), hands=[["9c", "2b"], ["10s", "6s"]], table=["1d", "3s", "4b", "5c"], turn=0
    )
    stored = await store.games.create(game, seats=[SeatHolder.human(1), SeatHolder.human(2)])
    applied = await LiveGames.of(store).apply_move(
        stored.id, stored.version, "9c:4b+5c", by=Actor.user(1)
    )
    replayed = await replay(store, stored.id)
    assert replayed.game.to_snapshot() == applied.game.to_snapshot()
    assert [str(c) for c in replayed.game.table] == ["1d", "3s"]


async def test_two_clicks_on_the_same_button_make_one_move(
    store: Store, database: Path | str
) -> None:
    stored = await new_game(store, Rules(preset=Preset.SCOPONE_SCIENTIFICO), seed=1)
    move = stored.game.legal_moves()[0]
    results = await asyncio.gather(
        *(
            LiveGames.of(store).apply_move(stored.id, stored.version, move, by=Actor.user(100))
            for _ in range(5)
        ),
        return_exceptions=True,
    )
    ok = [r for r in results if not isinstance(r, BaseException)]
    stale = [r for r in results if isinstance(r, StaleVersionError)]
    assert len(ok) == 1 and len(stale) == 4
    assert stale[0].expected == stored.version and stale[0].actual == stored.version + 1
    assert (await stored_game_rows(store))[stored.id] == (stored.version + 1, 1, 1)


async def test_a_second_process_writing_makes_the_cached_copy_stale(database: Path | str) -> None:
    first = await Store.open(database)
    second = await Store.open(database)
    stored = await new_game(first, Rules(), seed=3)
    await first.games.load(stored.id)  # cached in `first`
    move = stored.game.legal_moves()[0]
    await LiveGames.of(second).apply_move(stored.id, stored.version, move, by=Actor.user(100))
    with pytest.raises(StaleVersionError):
        await LiveGames.of(first).apply_move(stored.id, stored.version, move, by=Actor.user(100))
    reloaded = await first.games.load(stored.id)
    assert reloaded.version == stored.version + 1 and reloaded.game.move_count == 1
    await first.close()
    await second.close()


async def test_illegal_and_invalid_moves_write_nothing(store: Store, database: Path | str) -> None:
    game = Game.from_position(Rules(), hands=[["9c", "2b"], ["10s", "6s"]], table=["4b", "5c"])
    stored = await store.games.create(game, seats=[SeatHolder.human(1), SeatHolder.human(2)])
    with pytest.raises(IllegalMoveError):
        await LiveGames.of(store).apply_move(stored.id, stored.version, "9c", by=Actor.user(1))
    with pytest.raises(IllegalMoveError):
        await LiveGames.of(store).apply_move(
            stored.id, stored.version, "2b", by=Actor.user(1), seat=1
        )
    with pytest.raises(InvalidMoveError):
        await LiveGames.of(store).apply_move(stored.id, stored.version, "banana", by=Actor.user(1))
    assert (await stored_game_rows(store))[stored.id] == (1, 0, 0)
    applied = await LiveGames.of(store).apply_move(
        stored.id, stored.version, "9c:4b+5c", by=Actor.user(1)
    )
    assert applied.version == 2 and applied.result.scopa


async def test_moves_keep_who_made_them_and_when(store: Store) -> None:
    stored = await new_game(store, Rules(), seed=5)
    t0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
    game, version = stored.game, stored.version
    actors = [Actor.user(100), Actor.computer(), Actor.timeout()]
    for n, actor in enumerate(actors):
        applied = await LiveGames.of(store).apply_move(
            stored.id, version, game.legal_moves()[0], by=actor, at=t0 + timedelta(seconds=n)
        )
        game, version = applied.game, applied.version
    history = await store.games.moves(stored.id)
    assert [h.actor for h in history] == actors
    assert [h.at for h in history] == [t0, t0 + timedelta(seconds=1), t0 + timedelta(seconds=2)]
    assert [h.move for h in history] == [str(m) for m in game.record().moves]
    assert [h.seat for h in history] == [history[0].seat, 1 - history[0].seat, history[0].seat]
    assert history[2].actor.kind is ActorKind.TIMEOUT


async def test_a_finished_match_has_result_scores_and_stats(store: Store) -> None:
    rules = Rules(preset=Preset.SCOPONE_SCIENTIFICO)
    stored = await play_random(store, await new_game(store, rules, 11), random.Random(2))
    outcome = stored.game.outcome()
    assert outcome is not None
    info = await store.games.info(stored.id)
    assert info.status is GameStatus.FINISHED and info.finished_at is not None
    result = await store.boards.match_result(game_id=stored.id)
    assert result is not None
    assert result.winner_side == outcome.winner and result.totals == outcome.totals
    assert [p.won for p in result.players] == [rules.side_of(s) == outcome.winner for s in range(4)]
    # Seats 0 and 2 are humans on side 0: their statistics are side 0's deal figures.
    deals = stored.game.deal_scores
    for scope in (1, 0):
        stats = await store.boards.player_stats(100, "scopone_scientifico", guild_id=scope)
        assert stats is not None
        assert (stats.games, stats.wins) == (1, int(outcome.winner == 0))
        assert stats.deals == len(deals)
        assert stats.scope == sum(d.sides[0].scope for d in deals)
        assert stats.settebelli == sum(d.sides[0].settebello for d in deals)
        assert stats.primiere == sum(d.sides[0].primiera for d in deals)
        assert stats.points == sum(d.sides[0].total for d in deals)
        # What `/scopa stats` shows beside the totals: a match of few long deals and one of
        # many short deals compare by it.
        assert stats.points_per_deal == stats.points / len(deals)
    assert await store.boards.player_stats(101, "scopone_scientifico") is None  # a computer
    with pytest.raises(StaleVersionError):
        await LiveGames.of(store).apply_move(
            stored.id, stored.version - 1, "7d", by=Actor.user(100)
        )
    with pytest.raises(IllegalMoveError):
        await LiveGames.of(store).apply_move(stored.id, stored.version, "7d", by=Actor.user(100))


class _Policy:
    """+1 to the winners, -1 to the others; fails on demand."""

    def __init__(self) -> None:
        self.fail = False
        self.calls: list[tuple[int | None, dict[int, Rating | None]]] = []

    def __call__(
        self, result: MatchResult, current: dict[int, Rating | None]
    ) -> dict[int, RatingValue]:
        self.calls.append((result.guild_id, current))
        if self.fail:
            raise RuntimeError("rating service down")
        won = {p.seat_holder.user_id for p in result.players if p.won}
        out = {}
        for uid, rating in current.items():
            mu = (rating.mu if rating else 25.0) + (1 if uid in won else -1)
            out[uid] = RatingValue(mu, 8.0, mu - 24)
        return out


async def _play_to_last_move(store: Store, seed: int) -> tuple[int, int, Game]:
    rng = random.Random(seed)
    stored = await new_game(store, Rules(), seed, guild_id=7)
    game, version = stored.game, stored.version
    while True:
        probe = game.copy()
        move = rng.choice(probe.legal_moves())
        probe.play(move)
        if probe.is_over:
            return stored.id, version, game
        applied = await LiveGames.of(store).apply_move(stored.id, version, move, by=Actor.user(100))
        game, version = applied.game, applied.version


async def test_ratings_move_in_the_same_transaction_as_the_last_move(database: Path | str) -> None:
    policy = _Policy()
    store = await Store.open(database)
    LiveGames.of(store).rating_policy = policy
    game_id, version, game = await _play_to_last_move(store, 4)
    last = next(m for m in game.legal_moves() if (g := game.copy()).play(m) and g.is_over)
    policy.fail = True
    with pytest.raises(RuntimeError):
        await LiveGames.of(store).apply_move(game_id, version, last, by=Actor.user(100))
    # Nothing of the last move stayed: no move row, no result, no statistics.
    assert (await stored_game_rows(store))[game_id] == (version, version - 1, version - 1)
    assert await store.boards.match_result(game_id=game_id) is None
    assert (await store.games.info(game_id)).status is GameStatus.PLAYING
    policy.fail = False
    applied = await LiveGames.of(store).apply_move(game_id, version, last, by=Actor.user(100))
    assert applied.game.is_over
    assert [scope for scope, _ in policy.calls[-2:]] == [7, 7]  # guild_id of the match
    rating = await store.boards.rating(100, "scopa", guild_id=7)
    global_rating = await store.boards.rating(100, "scopa")
    assert rating is not None and global_rating is not None
    assert rating.games == global_rating.games == 1
    assert rating.mu in (24.0, 26.0)
    await store.close()
    await check_database(database)


async def test_deadlines_are_found_in_order(store: Store) -> None:
    t0 = datetime(2025, 1, 1, tzinfo=UTC)
    ids = []
    people = [SeatHolder.human(100), SeatHolder.human(101)]  # a computer's turn has no deadline
    for n in range(4):
        stored = await store.games.create(Game.new(Rules(), seed=n), seats=people, guild_id=1)
        ids.append(stored.id)
        await store.deadlines.set(stored.id, stored.version, t0 + timedelta(minutes=10 - n))
    first = await store.games.load(ids[0])
    applied = await LiveGames.of(store).apply_move(
        ids[0],
        first.version,
        first.game.legal_moves()[0],
        by=Actor.user(100),
        deadline=t0 + timedelta(minutes=30),
    )
    due = await store.deadlines.due_deadlines(t0 + timedelta(minutes=9))
    assert [d.game_id for d in due] == [ids[3], ids[2], ids[1]]
    assert await store.deadlines.next_deadline() == t0 + timedelta(minutes=7)
    later = await store.deadlines.due_deadlines(t0 + timedelta(hours=1))
    assert later[-1].game_id == ids[0] and later[-1].version == applied.version
    with pytest.raises(StaleVersionError):
        await store.deadlines.set(ids[0], first.version, None)


async def test_abandon_and_missing_games(store: Store) -> None:
    stored = await new_game(store, Rules(), seed=1)
    assert (await store.games.playing(guild_id=1))[0].id == stored.id
    assert await store.games.abandon(stored.id, stored.version) == stored.version + 1
    assert await store.games.playing() == []
    with pytest.raises(StaleVersionError):
        await LiveGames.of(store).apply_move(stored.id, stored.version, "7d", by=Actor.user(1))
    with pytest.raises(NotFoundError):
        await store.games.load(999)
    with pytest.raises(ValueError, match="seats"):
        await store.games.create(Game.new(Rules(), seed=1), seats=seats_for(Rules())[:1])


async def test_many_games_moving_at_once_stay_consistent(
    store: Store, database: Path | str
) -> None:
    games = [await new_game(store, PRESETS[n % len(PRESETS)], seed=n) for n in range(12)]

    async def player(n: int) -> tuple[int, int]:
        final = await play_random(store, games[n], random.Random(n), 60)
        return final.id, final.game.move_count

    played = dict(await asyncio.gather(*(player(n) for n in range(len(games)))))
    assert await check_database(database) == played
    assert sum(played.values()) > 500
