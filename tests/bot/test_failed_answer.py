"""Discord fails the answer to a card click: the move stands and the person still sees it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from scopabot.engine import VALUE_OF, Card
from scopabot.engine.captures import capture_options
from tests.standin import DiscordStandIn, InteractionResult, Message

from .helpers import (
    ASKED,
    CALLBACK,
    CAPTURE_ID,
    BotProcess,
    answer_given_up,
    answers_let_go,
    card_labels,
    hand_message,
    held,
    live_cards,
    next_turn,
    play_from,
    start_against_computer,
    table_caught_up,
    unanswered,
    version_on,
    world_with_threads,
)
from .test_pictures import cards_in, on_table_in_text


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
    # A card that is played at once (a card with two captures asks which, first: that
    # failed answer is the test below).
    felt = _felt(await table_caught_up(s, thread, hand))
    card = next(b for b in live_cards(hand) if len(capture_options(felt, False)[_value(b)]) <= 1)
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


async def test_a_failed_capture_question_changes_nothing_and_is_let_go(tmp_path: Path) -> None:
    """A card with several captures is answered by the question of which: when Discord fails
    that answer, nothing was played, the hand stays as it was, and the bot lets the answer go
    within Discord's window (not discord.py's 25 s of retries). Clicked again, the card asks
    again and is played."""
    async with DiscordStandIn(world_with_threads()) as s:
        bot = BotProcess(s, tmp_path / "bot.db")
        await bot.start()
        alice = s.user("alice")
        asked_once = None
        try:
            # Several deals: a card of hers with two captures comes sooner or later.
            thread = await start_against_computer(s, alice, deals=8)
            for _ in range(200):
                turn = await next_turn(s, thread, [alice], timeout=20)
                if turn is None:
                    break
                hand = turn[1]
                felt = _felt(await table_caught_up(s, thread, hand))
                asking = [
                    b for b in live_cards(hand) if len(capture_options(felt, False)[_value(b)]) > 1
                ]
                laying = [
                    b for b in live_cards(hand) if not capture_options(felt, False)[_value(b)]
                ]
                if not asking:
                    # Lay a card when she can: a fuller table asks sooner.
                    await play_from(
                        s, alice, hand, pick=live_cards(hand).index((laying or live_cards(hand))[0])
                    )
                    continue
                button = asking[0]
                label = str(button["label"])
                s.privacy.set_secrets(
                    alice.user, [held(c) for c in card_labels(hand) if c != label]
                )
                let_go, seen = answers_let_go(bot, ASKED), version_on(hand)
                s.dispatcher.fail_for(CALLBACK, 60.0)
                async with s.expect_violation("failed", timeout=5):
                    result = await alice.click(hand, str(button["custom_id"]))
                attempts = await answer_given_up(s, bot, result.interaction.id, before=let_go)
                assert 1 <= len(attempts) <= 3, [(r.status, r.path) for r in attempts]
                s.dispatcher.heal(CALLBACK)
                asked_once = result.interaction
                shown = hand_message(s, alice)
                assert shown is not None and version_on(shown) == seen
                assert label in card_labels(shown) and live_cards(shown)
                # Clicked again, it asks again; a capture chosen, the card is played.
                again = await alice.click(shown, str(button["custom_id"]))
                assert not again.failed and again.message is not None
                choices = [
                    b for b in again.message.buttons() if CAPTURE_ID.match(str(b["custom_id"]))
                ]
                assert len(choices) > 1
                assert not (await alice.click(again.message, str(choices[0]["custom_id"]))).failed
                await s.wait_for(
                    lambda label=label: (
                        (h := hand_message(s, alice)) is not None and label not in card_labels(h)
                    ),
                    timeout=10,
                )
                break
        finally:
            assert await bot.stop() == 0, bot.output()
        assert asked_once is not None, "no card of hers ever had two captures"
        s.check()
        assert unanswered(s) == [asked_once]
    assert not bot.errors(), bot.output()


def _felt(table: Message) -> tuple[int, ...]:
    return tuple(VALUE_OF[Card.parse(c).index] for c in on_table_in_text(table))


def _value(button: dict[str, Any]) -> int:
    return VALUE_OF[Card.parse(cards_in(str(button["label"]))[0]).index]
