"""The bot killed at each step of a deal's end and started again finds the same messages:
each deal's count posted once, whole (its last plays and each side's primiera cards, which
the events of plays made before the restart no longer tell), and the table showing the last
deal's end through the next deal's first round, as it does without a restart."""

from __future__ import annotations

import json
import re
import sqlite3
from contextlib import closing
from typing import Any

from scopabot.render.i18n import Lang, tr
from tests.standin import Actor, DiscordStandIn, InteractionResult, Message

from .helpers import (
    REMATCH,
    BotProcess,
    hand_message,
    live_cards,
    next_turn,
    play_from,
    start_against_computer,
    table_messages,
    thread_named,
)
from .test_delivery import deal_counts

MESSAGES = "/channels/{channel_id}/messages"
MESSAGE = "/channels/{channel_id}/messages/{message_id}"


def last_round(s: DiscordStandIn, thread: Any, alice: Actor, deal: int) -> Message | None:
    """Alice's hand when she holds her last card of ``deal``, the deck empty."""
    hand = hand_message(s, alice)
    tables = table_messages(s, thread)
    if hand is None or not tables or len(live_cards(hand)) != 1:
        return None
    deck = re.escape(tr("table.deck", Lang.IT, deck=0, dealer="@", deal=deal)).replace("@", ".*")
    return hand if re.search(deck, tables[0].text()) else None


async def play_to_last_card(s: DiscordStandIn, thread: Any, alice: Actor, deal: int) -> Message:
    while (hand := last_round(s, thread, alice, deal)) is None:
        turn = await next_turn(s, thread, [alice])
        assert turn is not None, f"the match ended before deal {deal}'s last round"
        if last_round(s, thread, alice, deal) is None:
            await play_from(s, alice, turn[1])
    return hand


def posted(bot: BotProcess, deal: int) -> bool:
    """Whether the bot's store remembers deal ``deal``'s count as posted."""
    with closing(sqlite3.connect(bot.database)) as db:
        row = db.execute("SELECT 1 FROM deal_posts WHERE deal = ?", (deal,)).fetchone()
    return row is not None


def owed(bot: BotProcess) -> bool:
    """Whether the bot's store says a table message owes an edit (a move not shown yet)."""
    with closing(sqlite3.connect(bot.database)) as db:
        row = db.execute(
            "SELECT 1 FROM games WHERE table_shown IS NULL OR table_shown < version"
        ).fetchone()
    return row is not None


def being_sent(bot: BotProcess) -> list[tuple[int, int | None]]:
    """``(seat, message id)`` of the hand DMs the store has a send begun for (a nonce)."""
    with closing(sqlite3.connect(bot.database)) as db:
        rows = db.execute(
            "SELECT seat, message_id FROM game_seats WHERE dm_nonce IS NOT NULL"
        ).fetchall()
    return [(int(r[0]), r[1]) for r in rows]


def remembered_hands(bot: BotProcess) -> list[int]:
    with closing(sqlite3.connect(bot.database)) as db:
        rows = db.execute("SELECT message_id FROM game_seats WHERE message_id IS NOT NULL")
        return [int(r[0]) for r in rows]


async def restarted_owing_nothing(bot: BotProcess) -> None:
    """Start ``bot`` again and wait until it has looked for what it owes and found nothing."""
    seen = len(bot.lines)
    await bot.start()
    await bot.standin.wait_for(
        lambda: any(
            "bringing the messages of 0 game(s) up to date, 0 hand DM(s)" in line
            for line in bot.lines[seen:]
        ),
        timeout=10,
    )


def whole(count: Message, deal: int) -> None:
    text = count.text()
    assert text.startswith(f"**{tr('deal.end', Lang.IT, deal=deal)}**"), text
    assert " gioca " in text or " cala " in text, text  # its last plays
    assert "**Primiera** · " in text and " di " in text.split("**Primiera** · ")[1], text


async def test_killed_at_each_step_of_a_deal_end_the_same_messages_are_found(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice = s.user("alice")
    thread = await start_against_computer(s, alice, deals=3)

    # 1. Killed before the deal's last play: its earlier plays were seen by the bot before.
    hand = await play_to_last_card(s, thread, alice, 1)
    await bot_py.kill()
    await bot_py.start()
    # 2. Killed once the count is posted and before the bot learns its id (Discord busy):
    # not remembered, it is sent again at start with the same nonce, and Discord gives back
    # the message it made. The table, owing the deal's end until its count is remembered,
    # is brought up to date at start and shows the last deal's end still.
    s.dispatcher.answer_slowly(MESSAGES, 60, method="POST", channel_id=thread.id)
    await play_from(s, alice, hand)
    [first] = await s.wait_for(lambda: deal_counts(s, thread), timeout=10)
    whole(first, 1)
    assert not posted(bot_py, 1)
    await bot_py.kill()
    assert owed(bot_py)
    table = table_messages(s, thread)[0]
    revisions = len(table.history)
    await bot_py.start()
    await s.wait_for(lambda: posted(bot_py, 1), timeout=10)
    await s.wait_for(lambda: len(table.history) > revisions, timeout=10)
    await s.wait_for(lambda: not owed(bot_py), timeout=10)
    assert deal_counts(s, thread) == [first], "a count posted twice"
    assert next(m for m in s.world.channel_messages(thread.id) if m.id == first.id) is first
    await next_turn(s, thread, [alice])
    assert tr("deal.end", Lang.IT, deal=1) in table.text(), table.text()

    # 3. Killed between the deal's end (stored) and its count (Discord failing to post it).
    hand = await play_to_last_card(s, thread, alice, 2)
    before = len(s.requests)
    s.dispatcher.fail_for(MESSAGES, 4.0)
    await play_from(s, alice, hand)
    await s.wait_for(
        lambda: any(r.route == MESSAGES and r.status == 500 for r in s.requests[before:]),
        timeout=10,
    )
    await bot_py.kill()
    assert len(deal_counts(s, thread)) == 1
    await s.wait_for(lambda: not s.dispatcher.failing(MESSAGES), timeout=10)
    await bot_py.start()
    counts = await s.wait_for(
        lambda: len(deal_counts(s, thread)) == 2 and deal_counts(s, thread), timeout=15
    )
    whole(counts[1], 2)
    await s.wait_for(lambda: posted(bot_py, 2), timeout=10)
    await bot_py.kill()  # and once more: it is not posted again
    await bot_py.start()
    turn = await next_turn(s, thread, [alice])
    assert turn is not None
    await play_from(s, alice, turn[1])
    assert len(deal_counts(s, thread)) == 2


async def test_a_table_told_of_closed_dms_is_not_told_again_after_a_restart(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice, dave = s.user("alice"), s.user("dave")  # dave does not accept DMs
    invitation = (await alice.slash("scopa new", deals=1)).message
    assert invitation is not None
    await dave.click(invitation, tr("btn.join", Lang.IT))
    async with s.expect_violation("refused", code=50007, timeout=10):
        await alice.click(invitation, tr("btn.start", Lang.IT))
    thread = await s.wait_for(lambda: thread_named(s, "Scopa"), timeout=5)
    told = tr("note.dm_closed", Lang.IT, mention=f"<@{dave.user.id}>")

    def notes() -> list[Message]:
        return [m for m in s.world.channel_messages(thread.id) if m.content == told]

    await s.wait_for(notes, timeout=5)
    table = table_messages(s, thread)[0]
    dave_turn = tr("turn.of", Lang.IT, name=f"<@{dave.user.id}>")
    for _ in range(3):  # a turn of dave's after the restart: his DMs are tried again
        await s.wait_for(lambda: not owed(bot_py), timeout=10)  # the table shows the move
        await bot_py.kill()
        await restarted_owing_nothing(bot_py)
        if dave_turn in table.text():
            clicked = await dave.click(table, tr("btn.my_hand", Lang.IT))
            # Right after a start its picture may be slow: the reply is deferred, then shown.
            shown = await s.wait_for(lambda c=clicked: shown_hand(c), timeout=10)
            async with s.expect_violation("refused", code=50007, timeout=10):
                await play_from(s, dave, shown)
        else:
            hand = await s.wait_for(lambda: live_cards_of(s, alice), timeout=10)
            async with s.expect_violation("refused", code=50007, timeout=10):
                await play_from(s, alice, hand)
    assert len(notes()) == 1, "the table was told again after a restart"


def shown_hand(clicked: InteractionResult) -> Message | None:
    """The ephemeral hand a "My hand" click brought, once it shows its cards."""
    shown = clicked.message
    return shown if shown is not None and live_cards(shown) else None


def live_cards_of(s: DiscordStandIn, actor: Actor) -> Message | None:
    hand = hand_message(s, actor)
    return hand if hand is not None and live_cards(hand) else None


async def test_a_hand_sent_just_before_a_crash_is_not_sent_twice(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    """Killed after the hand's DM reached Discord and before the bot learnt its id: sent again
    at start with the nonce kept before the send, Discord gives the same message back, and
    that message is the one the bot edits from then on."""
    s = threaded
    alice = s.user("alice")
    dm = s.world.dm_channel(alice.user)
    s.dispatcher.answer_slowly(MESSAGES, 60, method="POST", channel_id=dm.id)
    thread = await start_against_computer(s, alice, deals=1)
    hand = await s.wait_for(lambda: hand_message(s, alice), timeout=10)
    assert being_sent(bot_py) and not remembered_hands(bot_py)  # sent, not remembered
    await bot_py.kill()
    seen = len(bot_py.lines)
    await bot_py.start()
    await s.wait_for(lambda: remembered_hands(bot_py) == [hand.id], timeout=10)
    assert any("1 hand DM(s) being sent" in line for line in bot_py.lines[seen:])
    assert being_sent(bot_py) == []
    assert [m.id for m in s.dm_timeline(alice.user)] == [hand.id], "the hand sent twice"
    # The message remembered is the one edited: her moves reach it in place.
    turn = await next_turn(s, thread, [alice])
    assert turn is not None and turn[1] is hand
    await play_from(s, alice, hand)
    await s.wait_for(lambda: not owed(bot_py), timeout=10)
    await bot_py.kill()
    await restarted_owing_nothing(bot_py)
    turn = await next_turn(s, thread, [alice])
    assert turn is not None and turn[1] is hand
    assert [m.id for m in s.dm_timeline(alice.user)] == [hand.id]


async def test_a_final_table_owed_at_a_crash_is_drawn_the_same_after_it(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    """The final table's edit reached Discord and the bot was killed before it heard so: the
    debt stays in the store, and the restarted bot pays it with the same final table, rating
    changes included (kept with the match, no longer in the bot's memory). Paid, it is not
    paid again at the next start."""
    s = threaded
    alice = s.user("alice")
    thread = await start_against_computer(s, alice, deals=1)
    s.dispatcher.answer_slowly(
        MESSAGE,
        60,
        method="PATCH",
        channel_id=thread.id,
        when=lambda call: REMATCH in json.dumps(call.body),
    )
    while (turn := await next_turn(s, thread, [alice])) is not None:
        await play_from(s, alice, turn[1])
    [table] = table_messages(s, thread)
    final = table.text()
    assert tr("rating.title", Lang.IT) in final and " → " in final, final
    await bot_py.kill()
    assert owed(bot_py)
    revisions = len(table.history)
    await bot_py.start()
    await s.wait_for(lambda: len(table.history) > revisions and not owed(bot_py), timeout=10)
    assert table.text() == final
    assert table_messages(s, thread) == [table]

    await bot_py.kill()
    revisions = len(table.history)
    await restarted_owing_nothing(bot_py)
    assert len(table.history) == revisions, "a debt paid twice"


async def test_a_hand_not_yet_edited_at_a_crash_is_brought_up_to_date_at_start(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    """The table's debt stands for its game's hands too: the computer's reply shown on the
    table, alice's hand still being edited (Discord slow to answer) when the bot is killed,
    the debt is not paid; at start her hand is edited again and the debt paid."""
    s = threaded
    alice = s.user("alice")
    thread = await start_against_computer(s, alice, deals=1)
    turn = await next_turn(s, thread, [alice])
    assert turn is not None
    hand = turn[1]
    await s.wait_for(lambda: not owed(bot_py), timeout=10)
    dm = s.world.dm_channel(alice.user)
    s.dispatcher.answer_slowly(MESSAGE, 60, method="PATCH", channel_id=dm.id)
    edits = len(hand.history)
    await play_from(s, alice, hand)  # answered through the click; the computer replies
    await s.wait_for(lambda: live_cards(hand) and len(hand.history) > edits + 1, timeout=10)
    await bot_py.kill()
    assert owed(bot_py), "paid before the hand's edit was done"
    edits = len(hand.history)
    await bot_py.start()
    await s.wait_for(lambda: len(hand.history) > edits and not owed(bot_py), timeout=10)
    assert [m.id for m in s.dm_timeline(alice.user)] == [hand.id]
    turn = await next_turn(s, thread, [alice])
    assert turn is not None and turn[1] is hand
    await play_from(s, alice, hand)
