"""Commands beyond playing: server settings, leaderboards and stats, the score keeper."""

from __future__ import annotations

from typing import Any

from discord import app_commands

from . import boards, score, settings, tournaments

# The bot is typed ``Any`` here: importing ``ScopaBot`` would make an import cycle (its
# client imports every part), and ``tests/test_layers.py`` refuses cycles.
ScopaBot = Any


def add(bot: ScopaBot) -> None:
    group = bot.tree.get_command("scopa")
    assert isinstance(group, app_commands.Group)
    boards.add(bot, group)
    settings.add(bot, group)
    tournaments.add(bot, group)
    score.add(bot)
