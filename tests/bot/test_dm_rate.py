"""Many tables starting at once open their players' DM channels within Discord's rate limit.

Opening a DM channel is one route with no channel in it, so every opening of the bot shares
one bucket; the stand-in enforces it (5 a second here, as in ``bench/bot.py``) and records a
violation when the bot sends past what its ``X-RateLimit-*`` headers said was left.
"""

from __future__ import annotations

import asyncio
import functools
from pathlib import Path

from tests.standin import DiscordStandIn
from tests.standin.models import Message

from .helpers import JOIN, START, BotProcess, hand_message, unanswered, world_with_threads

PEOPLE = 30
OPEN_DM = "/users/@me/channels"


async def test_dm_channels_opened_at_once_stay_within_the_rate_limit(tmp_path: Path) -> None:
    world = world_with_threads()
    guild = next(iter(world.guilds.values()))
    users = []
    for n in range(PEOPLE):
        user = world.add_user(f"player{n}")
        world.add_member(guild, user)
        users.append(user)
    async with DiscordStandIn(world) as s:
        s.rate_limits.enabled = True
        s.rate_limits.limit, s.rate_limits.window = 5, 1.0
        # Interaction answers are not limited per route by Discord, while the stand-in would
        # put every callback of every person into one bucket: leave them out, as the bench does.
        check = s.rate_limits.check
        s.rate_limits.check = lambda route, major: (  # type: ignore[method-assign]
            (None, {}, False)
            if route.startswith(("/interactions/", "/webhooks/"))
            else check(route, major)
        )
        for n in range(PEOPLE):  # a busy Discord: each opening answered after its own delay
            s.dispatcher.answer_slowly(OPEN_DM, 0.05 + (n % 5) * 0.1)
        bot = BotProcess(s, tmp_path / "bot.db")
        await bot.start()
        try:

            async def start(n: int) -> None:
                # People start over three seconds, not all at once: openings keep coming
                # while earlier ones are on their way (what outran discord.py's accounting).
                await asyncio.sleep(n * 0.1)
                invitation = (
                    await actors[n].slash("scopa new", computers=1, deals=1, channel="tavolo")
                ).message
                assert invitation is not None
                await actors[n].click(invitation, START)

            actors = [s.user(f"player{n}") for n in range(PEOPLE)]
            await asyncio.gather(*(start(n) for n in range(PEOPLE)))
            for actor in actors:  # every hand reached its DM
                await s.wait_for(functools.partial(hand_message, s, actor), timeout=60)
            opened = [r for r in s.requests if r.route == OPEN_DM]
            assert len(opened) >= PEOPLE
            assert not [r for r in s.requests if r.status == 429]
        finally:
            code = await bot.stop()
        assert code == 0, bot.output()
        assert not bot.errors(), bot.output()
    s.check()
    assert not unanswered(s)


def openings_for(s: DiscordStandIn, user_id: int) -> list[object]:
    return [
        r
        for r in s.requests
        if r.route == OPEN_DM
        and r.status == 200
        and str((r.body or {}).get("recipient_id")) == str(user_id)
    ]


async def test_a_dm_channel_is_opened_as_its_person_sits_once_and_serves_the_hand(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    """The opening is made while the table fills, not after the start with the first hand
    waiting for it: the host's at /scopa new, a joiner's at Join, each once."""
    s = threaded
    alice, bob = s.user("alice"), s.user("bob")
    invitation = (await alice.slash("scopa new")).message
    assert invitation is not None
    await s.wait_for(lambda: openings_for(s, alice.user.id), timeout=30)
    assert not openings_for(s, bob.user.id)  # not seated yet
    assert not (await bob.click(invitation, JOIN)).failed
    await s.wait_for(lambda: openings_for(s, bob.user.id), timeout=30)
    assert not (await alice.click(invitation, START)).failed
    for actor in (alice, bob):  # every hand reached its DM, in the channel opened early
        hand = await s.wait_for(functools.partial(hand_message, s, actor), timeout=60)
        assert len(openings_for(s, actor.user.id)) == 1
        opened = openings_for(s, actor.user.id)[0]
        assert str(hand.channel_id) == str(opened.response["id"])  # type: ignore[attr-defined]


async def test_after_a_restart_a_known_persons_dm_channel_is_not_opened_again(
    threaded: DiscordStandIn, tmp_path: Path
) -> None:
    """Discord keeps a person's DM channel with the bot for good: the one a hand of theirs
    reached, as the store remembers it, serves their next game after a restart, with no new
    opening (one request fewer on the bucket the whole bot shares, at the busiest moment)."""
    s = threaded
    alice = s.user("alice")

    async def new_match() -> Message:
        before = hand_message(s, alice)
        invitation = (await alice.slash("scopa new", computers=1, deals=1)).message
        assert invitation is not None
        assert not (await alice.click(invitation, START)).failed

        def dealt() -> Message | None:
            hand = hand_message(s, alice)
            return hand if hand is not None and hand is not before else None

        return await s.wait_for(dealt, timeout=60)

    bot = BotProcess(s, tmp_path / "bot.db")
    await bot.start()
    try:
        first = await new_match()
    finally:
        code = await bot.stop()  # graceful: the hand's message is remembered before it ends
    assert code == 0, bot.output()
    assert len(openings_for(s, alice.user.id)) == 1
    bot = BotProcess(s, tmp_path / "bot.db")
    await bot.start()
    try:
        second = await new_match()
    finally:
        code = await bot.stop()
    assert code == 0, bot.output()
    assert not bot.errors(), bot.output()
    assert second.channel_id == first.channel_id
    assert len(openings_for(s, alice.user.id)) == 1
