"""Display names are data: a newline, backticks or a direction override break nothing."""

from __future__ import annotations

from pathlib import Path

from tests.standin import DiscordStandIn

from .helpers import (
    BotProcess,
    next_turn,
    play_from,
    start_against_computer,
    table_messages,
    unanswered,
    world_with_threads,
)

HOSTILE = "Al\n`Capo`\u202e\u200b"  # a line break, backticks, a right-to-left override
SHOWN = "Al ˋCapoˋ"


async def test_a_display_name_with_a_newline_is_drawn_and_written_on_one_line(
    tmp_path: Path,
) -> None:
    world = world_with_threads()
    world.user_named("alice").global_name = HOSTILE
    async with DiscordStandIn(world) as s:
        bot = BotProcess(s, tmp_path / "bot.db")
        await bot.start()
        try:
            alice = s.user("alice")
            thread = await start_against_computer(s, alice, deals=1)
            table = await s.wait_for(lambda: table_messages(s, thread), timeout=10)
            assert table[0].attachments, "the table's picture was not drawn"
            shown = (await alice.slash("scopa table", channel=thread)).message
            assert shown is not None and shown.attachments, shown and shown.text()
            assert "errore" not in shown.text().lower()
            while (turn := await next_turn(s, thread, [alice])) is not None:
                await play_from(s, alice, turn[1])
            # The deal's count: one intact code block (the breakdown).
            deal = await s.wait_for(
                lambda: [m for m in s.world.channel_messages(thread.id) if "```" in m.text()],
                timeout=10,
            )
            text = deal[-1].text()
            assert text.count("```") == 2, text
            # The pictures' descriptions name her on one line too.
            described = " ".join(
                str(a.get("description", ""))
                for m in s.world.channel_messages(thread.id)
                for a in m.attachments
            )
            assert SHOWN in described and "\u202e" not in described
        finally:
            assert await bot.stop() == 0, bot.output()
        s.check()
        assert not unanswered(s)
    assert not bot.errors(), bot.output()
    assert not [line for line in bot.lines if "failed" in line], bot.output()
