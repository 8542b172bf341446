"""At DEBUG, the log holds no hidden card and no token: discord.py's own logging included."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

import pytest

from scopabot.bot.log_privacy import guard_logs
from tests.standin import DiscordStandIn

from .helpers import (
    CARD_NAME,
    MY_HAND,
    BotProcess,
    next_turn,
    play_from,
    start_against_computer,
    table_messages,
)

GAME_CONTROL = re.compile(r"sb\|g\|\d+\|\d+\|[pc]\|[^\"|]+")


async def test_debug_logs_hold_no_hidden_card_and_no_token(
    threaded: DiscordStandIn, tmp_path: Path
) -> None:
    s = threaded
    bot = BotProcess(s, tmp_path / "bot.db", env={"LOG_LEVEL": "DEBUG"})
    await bot.start()
    try:
        alice = s.user("alice")
        thread = await start_against_computer(s, alice, deals=1)
        for _ in range(4):
            turn = await next_turn(s, thread, [alice])
            assert turn is not None
            await play_from(s, alice, turn[1])
        # The hand asked for in other ways too: an ephemeral answer (a webhook edit).
        await alice.click(table_messages(s, thread)[0], MY_HAND)
        await alice.slash("scopa hand", channel=thread)
    finally:
        assert await bot.stop() == 0, bot.output()
    log = bot.lines
    discord_lines = [line for line in log if " discord." in line]
    # It was DEBUG: discord.py's requests and gateway events are in the log ...
    assert any(" discord.http: " in line for line in discord_lines)
    assert any("WebSocket Event" in line for line in discord_lines)
    # ... and none of what they carried: every card button the bot sent (a hand's cards,
    # its captures), every hand's text, every interaction token and the bot's token.
    sent = json.dumps([r.body for r in s.requests], default=str)
    controls = set(GAME_CONTROL.findall(sent))
    assert controls, "no card button was sent"
    hands = {
        line
        for m in s.world.messages.values()
        if m.channel_id in {s.world.dm_channel(alice.user).id} or m.ephemeral_to
        for line in m.text().splitlines()
        if CARD_NAME.search(line)
    }
    tokens = {it.token for it in s.interactions.by_id.values()} | {s.world.token}
    assert len(tokens) > 5
    text = "\n".join(log)
    for secret in sorted(controls | hands | tokens):
        assert secret not in text, secret
    for line in discord_lines:
        assert not CARD_NAME.search(line), line
    # Nor does any message, shown or not, carry the bot's token.
    for message in s.world.messages.values():
        assert not [where for where, text in message.received() if s.world.token in text]
    # The database library's operations carried the games themselves (a new deal's deck
    # order, a loaded snapshot with every hand).
    assert not [line for line in log if " aiosqlite: " in line and "partial(" in line]
    assert not bot.errors(), bot.output()


def test_warnings_and_tracebacks_are_cleaned_too(caplog: pytest.LogCaptureFixture) -> None:
    """A rate-limited interaction URL (WARNING) and a failed button's traceback (ERROR)."""
    factory, quiet = logging.getLogRecordFactory(), logging.getLogger("aiosqlite").level
    guard_logs()
    token = "aW50ZXJhY3Rpb24" + "x" * 60
    try:
        _log_the_worst(token, caplog)
    finally:
        logging.setLogRecordFactory(factory)
        logging.getLogger("aiosqlite").setLevel(quiet)
    text = caplog.text
    assert token not in text and "/webhooks/123/…/messages" in text and "1.50 seconds" in text
    assert "7d" not in text and "7 di denari" not in text and "sb|g|4|17|p|…" in text


def _log_the_worst(token: str, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG):
        logging.getLogger("discord.http").warning(
            "We are being rate limited. %s %s responded with 429. Retrying in %.2f seconds.",
            "POST",
            f"https://discord.com/api/v10/webhooks/123/{token}/messages/@original",
            1.5,
        )
        try:
            raise ValueError("no such card sb|g|4|17|p|7d")
        except ValueError:
            logging.getLogger("discord.ui.view").exception(
                "Ignoring exception in view %r for item %r",
                "<View>",
                "<Button label='7 di denari'>",
            )
