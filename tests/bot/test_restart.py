"""The bot killed mid-game and started again: the game goes on, old buttons still work."""

from __future__ import annotations

from tests.standin import DiscordStandIn

from .helpers import (
    BotProcess,
    hand_message,
    next_turn,
    play_from,
    start_against_computer,
    table_messages,
)


async def test_killed_mid_game_then_restarted_old_buttons_still_work(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice = s.user("alice")
    thread = await start_against_computer(s, alice, deals=1)
    for _ in range(3):
        turn = await next_turn(s, thread, [alice])
        assert turn is not None
        await play_from(s, alice, turn[1])
    turn = await next_turn(s, thread, [alice])
    assert turn is not None
    hand = turn[1]
    syncs = sum(1 for r in s.requests if r.method == "PUT" and "commands" in r.path)
    assert syncs == 1

    await bot_py.kill()
    await bot_py.start()
    assert sum(1 for r in s.requests if r.method == "PUT" and "commands" in r.path) == syncs
    # The hand message sent before the crash: its buttons still play.
    assert hand_message(s, alice) is hand
    await play_from(s, alice, hand)
    while (turn := await next_turn(s, thread, [alice])) is not None:
        await play_from(s, alice, turn[1])
    assert "Vince" in table_messages(s, thread)[0].text()
    assert len(table_messages(s, thread)) == 1


async def test_a_deleted_table_message_is_posted_again_on_the_next_move(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice = s.user("alice")
    thread = await start_against_computer(s, alice, deals=1)
    turn = await next_turn(s, thread, [alice])
    assert turn is not None
    old = table_messages(s, thread)[0]
    old.deleted = True  # a moderator deleted it
    s.world.touch()
    async with s.expect_violation("refused", code=10008):  # Discord: Unknown Message
        await play_from(s, alice, turn[1])
    new = await s.wait_for(lambda: table_messages(s, thread), timeout=5)
    assert new[0].id != old.id and "La mia mano" in [b.get("label") for b in new[0].buttons()]
    turn = await next_turn(s, thread, [alice])
    assert turn is not None
    await play_from(s, alice, turn[1])
    assert len(table_messages(s, thread)) == 1  # edited in place again
