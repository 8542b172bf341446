"""A whole match while Discord fails, rate-limits or answers late at random and the bot is
killed at random: at the end every promise of docs/promises.md still holds."""

from __future__ import annotations

import random
import sqlite3
from contextlib import closing
from pathlib import Path

from scopabot.store import Store
from tests.standin import Actor, DiscordStandIn
from tests.store.helpers import check_database

from .helpers import (
    ASKED,
    CALLBACK,
    CAPTURE_ID,
    BotProcess,
    answer_given_up,
    answers_let_go,
    card_labels,
    fresh_turn,
    hand_message,
    held,
    is_over,
    live_cards,
    next_turn,
    start_against_computer,
    table_messages,
    unanswered,
    version_on,
    world_with_threads,
)

SEED = 17
FAILING = 60.0  # seconds of 500s at most to a card click's answer (healed sooner)


def hand_version(s: DiscordStandIn, alice: Actor) -> int | None:
    shown = hand_message(s, alice)
    return None if shown is None else version_on(shown)


async def test_a_match_through_random_faults_keeps_every_promise(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    database = tmp_path / "bot.db"
    async with DiscordStandIn(world_with_threads()) as s:
        bot = BotProcess(s, database)
        await bot.start()
        alice = s.user("alice")
        faults: list[str] = []
        failed_clicks = 0
        try:
            thread = await start_against_computer(s, alice, deals=1)
            restarted = False
            for _ in range(150):  # a tied deal is followed by another
                # After a restart the hand the killed bot left may look live: not hers to play.
                wait = fresh_turn if restarted else next_turn
                restarted = False
                turn = await wait(s, thread, [alice], timeout=20)
                if turn is None:
                    break
                hand = turn[1]
                fault = rng.choice(["none", "none", "429", "slow", "500", "kill"])
                faults.append(fault)
                if fault == "429":
                    s.rate_limits.inject(retry_after=rng.uniform(0.05, 0.5))
                elif fault == "slow":
                    s.dispatcher.answer_slowly(CALLBACK, rng.uniform(0.2, 1.5))
                cards = live_cards(hand)
                button = cards[rng.randrange(len(cards))]
                others = [c for c in card_labels(hand) if c != button["label"]]
                s.privacy.set_secrets(alice.user, [held(c) for c in others])
                if fault == "500":
                    # Discord fails this answer, and every retry of it, until the bot has
                    # let it go (3.5 s after the click, its log says) and no attempt of it
                    # is still on its way: then, and only then, Discord is well again. So no
                    # retry reaches a healthy Discord late, however busy the machine.
                    let_go, seen = answers_let_go(bot), version_on(hand)
                    asked = answers_let_go(bot, ASKED)
                    s.dispatcher.fail_for(CALLBACK, FAILING)
                    async with s.expect_violation("failed", timeout=5):
                        result = await alice.click(hand, str(button["custom_id"]))
                    failed_clicks += 1
                    await answer_given_up(s, bot, result.interaction.id, before=let_go)
                    s.dispatcher.heal(CALLBACK)
                    if answers_let_go(bot, ASKED) > asked:
                        # The card asked which capture: nothing was played, and her hand
                        # stays as it was, to be clicked again.
                        assert hand_version(s, alice) == seen
                        continue
                    # Her hand's message is brought up to date by a plain edit: her next
                    # click is on that, not on the hand she clicked.
                    await s.wait_for(lambda seen=seen: hand_version(s, alice) != seen, timeout=10)
                    continue
                result = await alice.click(hand, str(button["custom_id"]))
                assert not result.failed and result.message is not None, fault
                asked = [
                    b for b in result.message.buttons() if CAPTURE_ID.match(str(b["custom_id"]))
                ]
                if asked:
                    chosen = await alice.click(result.message, str(rng.choice(asked)["custom_id"]))
                    assert not chosen.failed
                if fault == "kill":  # right after her move: the computer's reply may be pending
                    await bot.kill()
                    await bot.start()
                    restarted = True
            else:
                raise AssertionError(f"the match did not end; faults: {faults}")
        finally:
            assert await bot.stop() == 0, bot.output()
        s.check()  # no card of hers shown to anyone else, nothing else Discord would refuse
        assert len(unanswered(s)) == failed_clicks
        assert {"kill", "500", "429", "slow"} <= set(faults), faults

        # Nothing lost, nothing doubled: the match ended, all forty cards of each deal were
        # played (36 moves of 18 each after the 4 on the table; a match of one deal that ends
        # tied plays further deals until the tie is broken, as the rules say), every game
        # replays from its record.
        assert is_over(table_messages(s, thread)[0])
        counts = await check_database(database)
        [game_id] = counts
        store = await Store.open(database)
        try:
            deals = (await store.games.load(game_id)).game.deal_number
        finally:
            await store.close()
        assert counts == {game_id: 36 * deals}, (counts, deals)
        with closing(sqlite3.connect(database)) as db:
            by = dict(db.execute("SELECT actor, count(*) FROM moves GROUP BY actor").fetchall())
        assert by == {"user": 18 * deals, "computer": 18 * deals}, by
        # No token in the log, through every restart.
        log = "\n".join(bot.lines)
        for secret in {it.token for it in s.interactions.by_id.values()} | {s.world.token}:
            assert secret not in log
    assert not bot.errors(), bot.output()
