"""Killed with the computer's reply stored but not shown: at start-up the messages catch up."""

from __future__ import annotations

import re
import sqlite3
from contextlib import closing
from pathlib import Path

from scopabot.service.live import LiveGames
from scopabot.store import Actor, Store
from tests.standin import DiscordStandIn, Message

from .helpers import (
    PLAY_ID,
    BotProcess,
    hand_message,
    live_cards,
    next_turn,
    play_from,
    start_against_computer,
    table_messages,
)


async def test_at_start_up_the_table_and_the_hands_show_the_stored_position(
    threaded: DiscordStandIn, tmp_path: Path
) -> None:
    s = threaded
    database = tmp_path / "bot.db"
    bot = BotProcess(s, database)
    await bot.start()
    alice = s.user("alice")
    thread = await start_against_computer(s, alice, deals=1)
    turn = await next_turn(s, thread, [alice])
    assert turn is not None
    hand = turn[1]
    table = table_messages(s, thread)[0]
    await s.wait_for(lambda: f"Tocca a <@{alice.user.id}>" in table.text(), timeout=10)
    # Her hand's message is known to the bot (its id stored a moment after it was sent).
    await s.wait_for(lambda: _hand_messages_stored(database), timeout=10)
    await bot.kill()
    before = table.text()

    # Her move and the computer's reply reached the database, not her messages (as when the
    # bot is killed between a write and its messages): it is her turn again, at a version
    # her hand's buttons do not name.
    store = await Store.open(database)
    try:
        (info,) = await store.games.playing()
        stored = await store.games.load(info.id)
        mine = stored.game.turn
        applied = await LiveGames.of(store).apply_move(
            info.id,
            stored.version,
            stored.game.legal_moves()[0],
            by=Actor.user(alice.user.id),
        )
        applied = await LiveGames.of(store).apply_move(
            info.id, applied.version, applied.game.legal_moves()[0], by=Actor.computer()
        )
        assert applied.game.turn == mine
    finally:
        await store.close()

    await bot.start()
    try:
        await s.wait_for(
            lambda: (h := hand_message(s, alice)) is not None and _versions(h) == {applied.version},
            timeout=10,
        )
        shown = hand_message(s, alice)
        assert shown is hand  # the same message, edited in place
        await s.wait_for(
            lambda: table.text() != before and f"Tocca a <@{alice.user.id}>" in table.text(),
            timeout=10,
        )
        assert "Computer (normale)" in table.text().split("**In tavola:**")[0]
        assert table_messages(s, thread) == [table]
        await play_from(s, alice, shown)  # and her buttons play
    finally:
        assert await bot.stop() == 0, bot.output()
    assert not bot.errors(), bot.output()
    assert re.search(r"bringing the messages of 1 game\(s\) up to date", bot.output())


def _versions(hand: Message) -> set[int]:
    """The game versions her live card buttons name."""
    return {int(m[2]) for b in live_cards(hand) if (m := PLAY_ID.match(str(b["custom_id"])))}


def _hand_messages_stored(database: Path) -> bool:
    with closing(sqlite3.connect(database)) as db:
        return bool(db.execute("SELECT 1 FROM game_seats WHERE message_id IS NOT NULL").fetchall())
