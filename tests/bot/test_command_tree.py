"""The slash commands as people see them stay as they were when the bot's code moved.

``commands.json`` holds every command the bot registers, with its options, descriptions and
their translations, as Discord stores them; moving a command between files (or changing how
it is declared) must not change a word of it. A change of wording is made on purpose: run
with ``SCOPABOT_WRITE_COMMANDS=1`` to write the file again, and read its diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from tests.standin import DiscordStandIn

from .helpers import BotProcess

STORED = Path(__file__).with_name("commands.json")


def shown(standin: DiscordStandIn) -> list[dict[str, Any]]:
    """The commands as registered, without the ids Discord gives them."""
    drop = {"id", "application_id", "version", "guild_id"}
    found = [
        {k: v for k, v in command.data.items() if k not in drop}
        for command in standin.world.commands.values()
    ]
    return sorted(found, key=lambda c: (str(c.get("name")), int(c.get("type") or 1)))


async def test_the_registered_commands_are_the_ones_people_know(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    commands = shown(threaded)
    assert {c["name"] for c in commands} >= {"scopa", "score"}
    text = json.dumps(commands, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    if os.environ.get("SCOPABOT_WRITE_COMMANDS"):
        STORED.write_text(text, encoding="utf-8")
    assert text == STORED.read_text(encoding="utf-8")
