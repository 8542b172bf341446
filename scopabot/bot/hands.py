"""``/scopa hand`` (a hand shown to its person alone) and ``/scopa notify`` (a direct message
on a correspondence turn). The hands' own messages, kept up to date as the game goes, are
``delivery``'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from scopabot.render.i18n import tr

from .actions import say
from .autocomplete import game_choices, game_of
from .context import table_link

if TYPE_CHECKING:
    from .client import ScopaBot


def setup(bot: ScopaBot) -> None:
    """Nothing to make: the hands' messages are the delivery's, made with the bot."""


@app_commands.command(name=_("hand"), description=_("Show your hand (only you see it)"))
@app_commands.rename(game=_("game"))
@app_commands.describe(game=_("Which of your games (when you play several)"))
async def hand(interaction: discord.Interaction[ScopaBot], game: str | None = None) -> None:
    lang = await interaction.client.langs.of_interaction(interaction)
    game_id = await game_of(interaction, game)
    table = await interaction.client.service.tables.of_game(game_id)
    link = table_link(table) if interaction.guild_id is None else None
    view, files, _v = await interaction.client.delivery.hand_view(
        game_id, interaction.user.id, lang, link=link
    )
    await say(interaction, view=view, files=files)


hand.autocomplete("game")(game_choices)


@app_commands.command(
    name=_("notify"), description=_("Correspondence games: a direct message on your turn")
)
@app_commands.rename(on=_("on"))
@app_commands.describe(on=_("On or off"))
async def notify(interaction: discord.Interaction[ScopaBot], on: bool) -> None:
    lang = await interaction.client.langs.of_interaction(interaction)
    await interaction.client.service.people.set_notify(interaction.user.id, on=on)
    await say(interaction, tr("notify.on" if on else "notify.off", lang))
