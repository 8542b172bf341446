"""A table's thread archived or deleted by a moderator: the next move reopens or replaces it."""

from __future__ import annotations

from typing import Any

from tests.standin import DiscordStandIn

from .helpers import (
    START,
    BotProcess,
    is_over,
    next_turn,
    play_from,
    table_caught_up,
    table_messages,
)


def live_thread(standin: DiscordStandIn) -> Any:
    """The table's thread as people can open it now (not a deleted one)."""
    for channel in standin.world.channels.values():
        if channel.is_thread and not channel.deleted and (channel.name or "").startswith("Scopa"):
            return channel
    return None


async def started(standin: DiscordStandIn) -> Any:
    alice = standin.user("alice")
    invitation = (await alice.slash("scopa new", computers=1, deals=1)).message
    assert invitation is not None
    assert not (await alice.click(invitation, START)).failed
    thread = await standin.wait_for(lambda: live_thread(standin), timeout=5)
    await standin.wait_for(lambda: table_messages(standin, thread), timeout=5)
    return thread


async def play_to_the_end(standin: DiscordStandIn, thread: Any) -> None:
    alice = standin.user("alice")
    while (turn := await next_turn(standin, thread, [alice])) is not None:
        await play_from(standin, alice, turn[1])


async def test_an_archived_table_thread_is_reopened_on_the_next_move(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice = s.user("alice")
    thread = await started(s)
    turn = await next_turn(s, thread, [alice])
    assert turn is not None
    table = await table_caught_up(s, thread, turn[1])  # between two moves
    s.world.archive_thread(thread)  # a moderator, or a day without moves
    edits = len(table.history)
    played, _ = await play_from(s, alice, turn[1])
    await s.wait_for(lambda: not thread.archived and len(table.history) > edits, timeout=5)
    # The move is on the table message, edited in place (the card named mid-sentence).
    assert played.lower() in table.text().lower()
    await play_to_the_end(s, thread)
    assert table_messages(s, thread) == [table] and is_over(table)
    # No edit was refused on the way: the bot opened the thread before editing.
    assert not [r for r in s.requests if r.status == 400 and "50083" in str(r.response)]


async def test_a_deleted_table_thread_is_opened_again_and_the_match_goes_on(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice = s.user("alice")
    thread = await started(s)
    for _ in range(2):
        turn = await next_turn(s, thread, [alice])
        assert turn is not None
        await play_from(s, alice, turn[1])
    turn = await next_turn(s, thread, [alice])
    assert turn is not None
    await table_caught_up(s, thread, turn[1])  # between two moves, not during an edit
    s.world.delete_channel(thread)  # a moderator deletes the thread and the table in it
    played, _ = await play_from(s, alice, turn[1])
    new = await s.wait_for(lambda: live_thread(s), timeout=5)
    assert new.id != thread.id and new.parent_id == thread.parent_id
    table = (await s.wait_for(lambda: table_messages(s, new), timeout=5))[0]
    await s.wait_for(
        lambda: played.lower() in table.text().lower(), timeout=5
    )  # nothing lost: the move is there
    assert "La mia mano" in [b.get("label") for b in table.buttons()]
    await play_to_the_end(s, new)
    assert table_messages(s, new) == [table] and is_over(table)
    hand_links = [m.text() for m in s.dm_timeline(alice.user)]
    assert f"/{new.id}/" in hand_links[-1]  # the hand points to the new thread
    assert not [r for r in s.requests if r.status == 404 and "10003" in str(r.response)]


async def test_a_thread_archived_while_the_bot_was_down_is_reopened_after_one_refusal(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice = s.user("alice")
    thread = await started(s)
    turn = await next_turn(s, thread, [alice])
    assert turn is not None
    table = await table_caught_up(s, thread, turn[1])  # between two moves
    await bot_py.kill()
    s.world.archive_thread(thread)  # nobody told the bot: it was not running
    await bot_py.start()
    async with s.expect_violation("refused", code=50083) as refused:  # Discord's 400
        played, _ = await play_from(s, alice, turn[1])
        await s.wait_for(
            lambda: not thread.archived and played.lower() in table.text().lower(), timeout=5
        )
    assert len(refused.caught) == 1  # refused once, then opened and edited
    await play_to_the_end(s, thread)
    assert table_messages(s, thread) == [table] and is_over(table)
