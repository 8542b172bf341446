"""The score keeper for real cards: from the first entry to a winner, undo, ties, refusals."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from scopabot.engine import Game, OutcomeReason, Preset, Rules
from scopabot.service.score_keeping import (
    ScoreKeeping,
    ScoreSheetCode,
    ScoreSheetError,
    Side,
    match_winner,
)
from scopabot.store import Store

OWNER, ANNA, BRUNO, CARLA, DINO, STRANGER = 1, 2, 3, 4, 5, 99


@pytest.fixture
async def keeping(database: Path | str) -> AsyncIterator[ScoreKeeping]:
    store = await Store.open(database)
    yield ScoreKeeping(store)
    await store.close()


class _Refusal:
    """``with _Refusal(code):`` — the block raises a ScoreSheetError with that code."""

    def __init__(self, code: ScoreSheetCode) -> None:
        self.code = code

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, error: object, tb: object) -> bool:
        assert isinstance(error, ScoreSheetError), f"expected {self.code}, got {error!r}"
        assert error.code is self.code, error
        return True


async def test_from_the_first_entry_to_a_winner(keeping: ScoreKeeping) -> None:
    sheet = await keeping.open(
        owner=OWNER,
        sides=[Side("Noi", (ANNA, BRUNO)), Side("Voi", (CARLA, DINO))],
        channel_id=7,
    )
    assert sheet.target == 11 and sheet.totals == (0, 0) and sheet.winner is None
    assert [s.needs for s in sheet.sides] == [11, 11]
    sid = sheet.sheet_id
    s = await keeping.add(sid, side=0, points=3, by=ANNA, note="carte, denari, settebello")
    s = await keeping.add(sid, side=1, points=2, by=CARLA)
    s = await keeping.add(sid, side=0, points=5, by=OWNER, note="napola")
    assert s.totals == (8, 2) and [x.needs for x in s.sides] == [3, 9] and s.winner is None
    s = await keeping.add(sid, side=1, points=1, by=DINO)
    s = await keeping.add(sid, side=0, points=3, by=BRUNO)
    assert s.totals == (11, 3) and s.winner == 0 and not s.tied_at_target
    assert [x.needs for x in s.sides] == [0, 8]
    assert s.last is not None and s.last.by_user == BRUNO and s.last.points == 3
    assert [(e.side, e.points) for e in s.entries] == [(0, 3), (1, 2), (0, 5), (1, 1), (0, 3)]
    assert [x.sheet_id for x in await keeping.sheets_in_channel(7)] == [sid]
    final = await keeping.close(sid, by=OWNER)
    assert final.closed and final.winner == 0 and final.totals == (11, 3)
    assert await keeping.sheets_in_channel(7) == []
    with _Refusal(ScoreSheetCode.SHEET_CLOSED):
        await keeping.add(sid, side=1, points=1, by=CARLA)
    with _Refusal(ScoreSheetCode.SHEET_CLOSED):
        await keeping.undo(sid, by=OWNER)
    with _Refusal(ScoreSheetCode.SHEET_CLOSED):
        await keeping.close(sid, by=OWNER)


async def test_a_later_entry_of_the_same_deal_can_still_take_the_win(
    keeping: ScoreKeeping,
) -> None:
    sid = (await keeping.open(owner=OWNER, sides=["a", "b"])).sheet_id
    await keeping.add(sid, side=0, points=10, by=OWNER)
    await keeping.add(sid, side=1, points=10, by=OWNER)
    assert (await keeping.add(sid, side=0, points=1, by=OWNER)).winner == 0
    assert (await keeping.add(sid, side=1, points=2, by=OWNER)).winner == 1


async def test_undo_takes_back_the_latest_entry(keeping: ScoreKeeping) -> None:
    sid = (
        await keeping.open(owner=OWNER, sides=[Side("Anna", (ANNA,)), Side("Bruno", (BRUNO,))])
    ).sheet_id
    await keeping.add(sid, side=0, points=2, by=ANNA)
    await keeping.add(sid, side=1, points=3, by=BRUNO)
    # Anna may not take back Bruno's entry; Bruno and the owner may.
    with _Refusal(ScoreSheetCode.NOT_YOUR_ENTRY):
        await keeping.undo(sid, by=ANNA)
    s = await keeping.undo(sid, by=BRUNO)
    assert s.totals == (2, 0) and s.last is not None and s.last.by_user == ANNA
    assert [e.undone_at is None for e in s.entries] == [True, False]
    s = await keeping.undo(sid, by=OWNER)  # the owner takes back Anna's
    assert s.totals == (0, 0) and s.last is None
    with _Refusal(ScoreSheetCode.NOTHING_TO_UNDO):
        await keeping.undo(sid, by=OWNER)
    # A winner undone is no winner any more.
    await keeping.add(sid, side=1, points=11, by=BRUNO)
    assert (await keeping.standings(sid)).winner == 1
    assert (await keeping.undo(sid, by=BRUNO)).winner is None


async def test_a_tie_at_the_target_plays_on(keeping: ScoreKeeping) -> None:
    sid = (await keeping.open(owner=OWNER, sides=["Noi", "Voi"], target=16)).sheet_id
    await keeping.add(sid, side=0, points=17, by=OWNER)
    s = await keeping.add(sid, side=1, points=17, by=OWNER)
    assert s.winner is None and s.tied_at_target
    assert [x.needs for x in s.sides] == [0, 0]
    s = await keeping.add(sid, side=1, points=1, by=OWNER)
    assert s.winner == 1 and not s.tied_at_target
    # A tie below the target is no tie at the target.
    low = (await keeping.open(owner=OWNER, sides=["x", "y"])).sheet_id
    await keeping.add(low, side=0, points=4, by=OWNER)
    s = await keeping.add(low, side=1, points=4, by=OWNER)
    assert s.winner is None and not s.tied_at_target


async def test_three_sides_and_custom_entries(keeping: ScoreKeeping) -> None:
    s = await keeping.open(owner=OWNER, sides=["Anna", "Bruno", "Carla"], target=21)
    sid = s.sheet_id
    for side, points in [(0, 7), (1, 13), (2, 4), (0, 14), (1, 8)]:
        s = await keeping.add(sid, side=side, points=points, by=OWNER)
    # 21 each for Anna and Bruno: a tie at the top, at the target.
    assert s.totals == (21, 21, 4) and s.winner is None and s.tied_at_target
    s = await keeping.add(sid, side=2, points=20, by=OWNER, note="a big deal")
    assert s.winner == 2 and s.totals == (21, 21, 24)
    assert s.entries[-1].note == "a big deal"
    # No target: a tally that never names a winner.
    tally = await keeping.open(owner=OWNER, sides=["a", "b"], target=None)
    s = await keeping.add(tally.sheet_id, side=0, points=101, by=OWNER)
    assert s.winner is None and s.sides[0].needs is None


async def test_refusals(keeping: ScoreKeeping) -> None:
    with _Refusal(ScoreSheetCode.UNKNOWN_SCORE_SHEET):
        await keeping.standings(12345)
    with _Refusal(ScoreSheetCode.UNKNOWN_SCORE_SHEET):
        await keeping.add(12345, side=0, points=1, by=OWNER)
    bad: list[tuple[list[str | Side], int]] = [
        (["solo"], 11),
        (["a", "b", "c", "d", "e"], 11),
        (["a", "A"], 11),
        (["a", " "], 11),
        (["a", "b"], 0),
        (["a", "b"], 102),
        ([Side("a", (ANNA,)), Side("b", (ANNA,))], 11),
    ]
    for sides, target in bad:
        with _Refusal(ScoreSheetCode.BAD_SHEET):
            await keeping.open(owner=OWNER, sides=sides, target=target)
    sid = (
        await keeping.open(owner=OWNER, sides=[Side("Noi", (ANNA,)), Side("Voi", (BRUNO,))])
    ).sheet_id
    with _Refusal(ScoreSheetCode.NOT_ON_SHEET):
        await keeping.add(sid, side=0, points=1, by=STRANGER)
    with _Refusal(ScoreSheetCode.BAD_SIDE):
        await keeping.add(sid, side=2, points=1, by=ANNA)
    for points in (0, -1, 102):
        with _Refusal(ScoreSheetCode.BAD_POINTS):
            await keeping.add(sid, side=0, points=points, by=ANNA)
    with _Refusal(ScoreSheetCode.NOT_SHEET_OWNER):
        await keeping.close(sid, by=ANNA)
    await keeping.add(sid, side=0, points=1, by=ANNA)
    with _Refusal(ScoreSheetCode.NOT_YOUR_ENTRY):
        await keeping.undo(sid, by=STRANGER)
    # Nothing refused was written.
    assert (await keeping.standings(sid)).totals == (1, 0)
    assert len((await keeping.standings(sid)).entries) == 1


async def test_names_only_sheets_take_entries_from_the_owner_alone(keeping: ScoreKeeping) -> None:
    sid = (await keeping.open(owner=OWNER, sides=["Noi", "Voi"])).sheet_id
    with _Refusal(ScoreSheetCode.NOT_ON_SHEET):
        await keeping.add(sid, side=0, points=1, by=ANNA)
    assert (await keeping.add(sid, side=0, points=1, by=OWNER)).totals == (1, 0)


def test_refusals_carry_a_code_and_params() -> None:
    error = ScoreSheetError(ScoreSheetCode.BAD_POINTS, "0 points", points=0, max=101)
    assert error.code == "bad_points" and error.params == {"points": 0, "max": 101}


@pytest.mark.parametrize(
    "rules",
    [
        Rules(preset=Preset.SCOPA),
        Rules(preset=Preset.SCOPA, players=3, target=16),
        Rules(preset=Preset.SCOPONE_SCIENTIFICO, target=21),
        Rules(preset=Preset.SCOPONE_CLASSICO, target=5),
    ],
)
def test_the_winner_rule_agrees_with_the_engine(rules: Rules) -> None:
    """After every deal of real matches, the sheet names the winner exactly when the engine
    ends the match to the target and names the same side (ties included)."""
    ended = 0
    for seed in range(40):
        game, rng = Game.new(rules, seed=seed), random.Random(seed)
        totals = [0] * rules.sides
        while not game.is_over:
            deal_score = game.play(rng.choice(game.legal_moves())).deal_score
            if deal_score is None:
                continue
            totals = [t + p for t, p in zip(totals, deal_score.totals, strict=True)]
            outcome = game.outcome()
            if outcome is not None and outcome.reason is OutcomeReason.NAPOLA_REALE:
                break
            expected = None if outcome is None else outcome.winner
            assert match_winner(totals, rules.target) == expected
            ended += outcome is not None
    assert ended >= 35
