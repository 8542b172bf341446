"""``/scopa help``: how to play, in the person's language."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from scopabot.render.i18n import tr

from .actions import say

if TYPE_CHECKING:
    from .client import ScopaBot


def setup(bot: ScopaBot) -> None:
    """Nothing to make: the help is a text of the catalog."""


@app_commands.command(name=_("help"), description=_("How to play with ScopaBot"))
async def help(interaction: discord.Interaction[ScopaBot]) -> None:
    lang = await interaction.client.langs.of_interaction(interaction)
    await say(interaction, tr("help.text", lang))
