"""Commands beyond playing: server settings, leaderboards and stats, the score keeper."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands

from . import boards, score, settings, tournaments

if TYPE_CHECKING:
    from .client import ScopaBot


def add(bot: ScopaBot) -> None:
    group = bot.tree.get_command("scopa")
    assert isinstance(group, app_commands.Group)
    boards.add(bot, group)
    settings.add(bot, group)
    tournaments.add(bot, group)
    score.add(bot)
