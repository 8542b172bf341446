"""Pictures the bot has shown are kept by what they show (their sketch): a table message
refreshed for a new version of the game whose picture did not change (a timer, a note, a
seat) costs no trip to the drawing process, yet its file is named by the new version; a hand
shown again is the same picture. What changes the picture draws it again."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import pytest

from scopabot.bot.pictures import Pictures
from scopabot.engine import Game, Rules
from scopabot.render.i18n import Lang
from scopabot.service import (
    Pace,
    PaceKind,
    PublicView,
    SeatHolder,
    SeatView,
    TableInfo,
    TableStatus,
    TimeoutRule,
)


class _Bot:
    """What the pictures ask of the bot: its listeners and the people it has seen."""

    config = None

    def add_listener(self, *_: Any) -> None:
        pass

    def get_user(self, user_id: int) -> None:
        return None


@pytest.fixture
async def pictures() -> AsyncIterator[Pictures]:
    kept = Pictures(_Bot())  # type: ignore[arg-type]
    try:
        yield kept
    finally:
        kept.close()


def _position(moves: int) -> tuple[PublicView, SeatView]:
    game = Game.new(Rules(), seed=5)
    rng = random.Random(5)
    for _ in range(moves):
        game.play(rng.choice(game.legal_moves()))
    view = game.view_for(game.turn)
    seats = {
        0: SeatHolder(user_id=11, ai_level=None),
        1: SeatHolder(user_id=None, ai_level="normal"),
    }
    table = TableInfo(
        id=3,
        guild_id=1,
        channel_id=2,
        thread_id=None,
        message_id=4,
        host=11,
        rules=view.rules,
        status=TableStatus.PLAYING,
        pace=Pace(PaceKind.LIVE, 60),
        on_timeout=TimeoutRule.COMPUTER,
        level="normal",
        seats=seats,
        game_id=9,
        version=moves,
    )
    public = PublicView.from_view(
        view, game_id=9, table=table, version=moves, deadline=None, seats=seats
    )
    seat_view = SeatView(
        game_id=9,
        table=table,
        seat=view.seat,
        version=moves,
        view=view,
        public=public,
        deadline=None,
        seats=seats,
    )
    return public, seat_view


async def test_a_table_whose_picture_did_not_change_is_not_drawn_again(
    pictures: Pictures,
) -> None:
    public, _ = _position(5)
    first = await pictures.table(public, Lang.IT, urgent=True)
    assert [p.filename for p in first] == ["table-9-5.png"]
    later = replace(public, version=6)  # the same position, a later version (a note, a timer)
    again = await pictures.table(later, Lang.IT, urgent=False)
    assert pictures.kept == 1
    assert [p.filename for p in again] == ["table-9-6.png"]  # named by the version shown
    assert [p.data for p in again] == [p.data for p in first]
    assert [p.description for p in again] == [p.description for p in first]
    moved, _ = _position(6)  # a card played: drawn again
    drawn = await pictures.table(moved, Lang.IT, urgent=False)
    assert pictures.kept == 1
    assert drawn[0].data != first[0].data
    english = await pictures.table(public, Lang.EN, urgent=False)  # another language
    assert pictures.kept == 1 and english[0].description != first[0].description


async def test_a_hand_shown_again_is_the_same_picture_without_drawing(
    pictures: Pictures,
) -> None:
    _, seat_view = _position(4)
    first = await pictures.hand(seat_view, Lang.IT, urgent=True)
    again = await pictures.hand(seat_view, Lang.IT, urgent=True)
    assert pictures.kept == 1 and again == first
    _, later = _position(5)  # the hand or the turn changed
    assert await pictures.hand(later, Lang.IT, urgent=True) != first
    assert pictures.kept == 1
