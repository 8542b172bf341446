"""Discord fails the answer to a card click: the move stands and the person still sees it."""

from __future__ import annotations

from pathlib import Path

from tests.standin import DiscordStandIn, InteractionResult

from .helpers import (
    CALLBACK,
    BotProcess,
    answer_given_up,
    answers_let_go,
    card_labels,
    hand_message,
    live_cards,
    next_turn,
    start_against_computer,
    unanswered,
    world_with_threads,
)


async def test_a_failed_answer_to_a_card_still_shows_the_card_played(tmp_path: Path) -> None:
    async with DiscordStandIn(world_with_threads()) as s:
        bot = BotProcess(s, tmp_path / "bot.db")
        await bot.start()
        try:
            failed = await _click_while_discord_fails(s, bot)
        finally:
            assert await bot.stop() == 0, bot.output()
        s.check()
        assert unanswered(s) == [failed.interaction]  # that one click, and only it
    assert not bot.errors(), bot.output()


async def _click_while_discord_fails(s: DiscordStandIn, bot: BotProcess) -> InteractionResult:
    alice = s.user("alice")
    thread = await start_against_computer(s, alice, deals=1)
    turn = await next_turn(s, thread, [alice])
    assert turn is not None
    hand = turn[1]
    assert hand.channel_id == s.world.dm_channel(alice.user).id  # her hand, in her DM
    card = live_cards(hand)[0]
    label = str(card["label"])
    # Every answer to an interaction fails, for longer than discord.py would go on retrying
    # (about 25 s): so no answer is ever taken, however slow a loaded machine is, and the
    # bot must give up on its own (below) rather than be refused late.
    let_go = answers_let_go(bot)
    s.dispatcher.fail_for(CALLBACK, 60.0)
    async with s.expect_violation("failed", timeout=5):
        result = await alice.click(hand, str(card["custom_id"]))
    assert result.failed
    # The move was stored; her hand's message shows it (by a plain edit) long before
    # discord.py would give up retrying the failed answer (about 25 s).
    await s.wait_for(
        lambda: (shown := hand_message(s, alice)) is not None and label not in card_labels(shown),
        timeout=8,
    )
    said = [m.text() for m in s.world.messages.values() if m.ephemeral_to == alice.user.id]
    assert not [t for t in said if "storto" in t]  # no apology saying nothing changed
    turn = await next_turn(s, thread, [alice], timeout=20)
    assert turn is not None and label not in card_labels(turn[1])
    # The bot let the answer go once Discord's 3 s were over (its log says so), instead of
    # leaving discord.py to retry five times over 25 s, past any deadline Discord keeps.
    attempts = await answer_given_up(s, bot, result.interaction.id, before=let_go)
    assert 1 <= len(attempts) <= 3, [(r.status, r.path) for r in attempts]
    return result
