"""What one card click costs the bot in calls to the service: the move itself, and whatever its
events need to show — carried by the events, not asked for again — plus the one write that
says the table's edit reached Discord (the move's debt to it, paid once).

The real bot runs in this process (``ScopaBot(service=...)``) against the stand-in, its service
wrapped so that every call is counted; two people play, so the only moves are theirs.
"""

from __future__ import annotations

import asyncio
import inspect
from collections import Counter
from pathlib import Path
from typing import Any

from scopabot.bot.client import ScopaBot
from scopabot.bot.config import Config
from scopabot.service import GameService, InlineThinker
from scopabot.store import Store
from tests.standin import DiscordStandIn

from .helpers import JOIN, START, hand_message, live_cards, play_from, thread_named

MOST_CALLS_A_CLICK = 3


PARTS = ("tables", "games", "people", "settings", "boards", "score_sheets", "tournaments")


class CountedService:
    """The service as the bot sees it, counting each call it makes, on the root or on one of
    its parts (named ``"games.play"``)."""

    def __init__(
        self, real: Any, *, prefix: str = "", counter: CountedService | None = None
    ) -> None:
        self._real = real
        self._prefix = prefix
        self._counter = counter or self
        self.calls: list[str] = []
        self.users: list[int | None] = []  # the ``user`` of each call, if it names one

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._real, name)
        if not self._prefix and name in PARTS:
            return CountedService(attr, prefix=f"{name}.", counter=self)
        if not inspect.iscoroutinefunction(attr):
            return attr
        counter, called = self._counter, self._prefix + name

        async def counted(*args: Any, **kwargs: Any) -> Any:
            counter.calls.append(called)
            counter.users.append(kwargs.get("user"))
            return await attr(*args, **kwargs)

        return counted


async def test_a_card_click_costs_at_most_three_service_calls(
    threaded: DiscordStandIn, tmp_path: Path
) -> None:
    s = threaded
    store = await Store.open(tmp_path / "bot.db")
    service = await GameService.start(store, thinker=InlineThinker(), computer_pause=0)
    counted = CountedService(service)
    bot = ScopaBot(Config(token=s.world.token), service=counted)  # type: ignore[arg-type]
    try:
        async with s.connected(bot):
            alice, bob = s.user("alice"), s.user("bob")
            invitation = (await alice.slash("scopa new")).message
            assert invitation is not None
            await bob.click(invitation, JOIN)
            await alice.click(invitation, START)
            await s.wait_for(lambda: thread_named(s, "Scopa"), timeout=5)
            costs: list[Counter[str]] = []
            read_back: list[str] = []
            for _ in range(8):

                def ready() -> Any:
                    for actor in (alice, bob):
                        hand = hand_message(s, actor)
                        if hand is not None and live_cards(hand):
                            return actor, hand
                    return None

                actor, hand = await s.wait_for(ready, timeout=10)
                await bot.delivery.idle()
                await service.settle()
                before = len(counted.calls)
                _, asked = await play_from(s, actor, hand)
                for _ in range(3):  # the move's events delivered and every message refreshed
                    await service.settle()
                    await bot.delivery.idle()
                    await asyncio.sleep(0.05)
                if asked:  # the card could take different cards: two clicks, not one
                    continue
                costs.append(Counter(counted.calls[before:]))
                read_back += [
                    name
                    for name, user in zip(
                        counted.calls[before:], counted.users[before:], strict=True
                    )
                    if name == "games.public_view"
                    or (name == "games.seat_view" and user == actor.user.id)
                ]
            assert len(costs) >= 3
            # The table's edit, once it reached Discord, pays the move's debt to it: one write
            # a click, never more (a debt is paid once), beside the move and what it shows.
            assert all(c.pop("games.table_shown", 0) == 1 for c in costs), costs
            worst = max(costs, key=lambda c: sum(c.values()))
            assert sum(worst.values()) <= MOST_CALLS_A_CLICK, costs
            # Nothing the move returned is read back: not the table, not the mover's hand (the
            # next player's hand, unchanged by the move, is that seat's own view).
            assert read_back == [], costs
    finally:
        await service.close()
        await store.close()
