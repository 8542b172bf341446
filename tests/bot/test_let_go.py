"""What the bot keeps of a match is let go once it is over and its last messages are shown:
kept, every match a process ever showed stayed in its memory, and each of Python's full
collections walked it all (docs/speed.md).

The real bot runs in this process (``ScopaBot(service=...)``) against the stand-in, so what it
holds can be looked at; the wait before letting go is made nil."""

from __future__ import annotations

from pathlib import Path

import pytest

from scopabot.bot import delivery as delivery_module
from scopabot.bot.client import ScopaBot
from scopabot.bot.config import Config
from scopabot.service import GameService, InlineThinker
from scopabot.store import Store
from tests.standin import DiscordStandIn

from .helpers import (
    REMATCH,
    START,
    hand_message,
    is_over,
    live_cards,
    play_from,
    table_messages,
)

MATCHES = 3


async def test_a_match_over_is_let_go_and_its_last_messages_stay_right(
    threaded: DiscordStandIn, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(delivery_module, "LET_GO_AFTER", 0.0)
    s = threaded
    store = await Store.open(tmp_path / "bot.db")
    service = await GameService.start(store, thinker=InlineThinker(), computer_pause=0)
    bot = ScopaBot(Config(token=s.world.token), service=service)
    try:
        async with s.connected(bot):
            alice = s.user("alice")
            threads: list[object] = []
            played: list[int] = []
            for n in range(MATCHES):
                invitation = (await alice.slash("scopa new", computers=1)).message
                assert invitation is not None
                await alice.click(invitation, START)

                def new_thread(n: int = n) -> object | None:
                    found = [c for c in s.world.channels.values() if c.is_thread]
                    return found[-1] if len(found) > n else None

                thread = await s.wait_for(new_thread, timeout=5)
                threads.append(thread)
                hand = await s.wait_for(
                    lambda: (h := hand_message(s, alice)) is not None and live_cards(h) and h,
                    timeout=10,
                )
                await play_from(s, alice, hand)  # a move: every message of it has been edited
                await service.settle()
                await bot.delivery.idle()
                played.append(max(bot.delivery.held_games()))
                await alice.slash("scopa resign", channel=thread)
                await s.wait_for(lambda t=thread: is_over(table_messages(s, t)[-1]), timeout=10)
                await service.settle()
                await bot.delivery.idle()
                s.privacy.clear(alice.user)  # her hand of this match is no secret in the next
            # Each match let go at the next one's end; the last is let go at a later end.
            held = bot.delivery.held_games()
            assert held <= {played[-1]}, (held, played)
            assert {game_id for game_id, _ in bot.delivery.hands} <= {played[-1]}
            assert len(bot.delivery.tables) <= 1
            # What a person sees of the matches let go is still right: each table says it is
            # over, and its Rematch button opens the rematch.
            for thread in threads:
                assert is_over(table_messages(s, thread)[-1])
            first = table_messages(s, threads[0])[-1]
            rematch = (await alice.click(first, REMATCH)).message
            assert rematch is not None and f"tavolo {MATCHES + 1}" in rematch.text()
    finally:
        await service.close()
        await store.close()
