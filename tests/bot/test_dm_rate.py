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

from .helpers import START, BotProcess, hand_message, unanswered, world_with_threads

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
