"""``/scopa play``, ``/scopa back`` and ``/scopa resign``: a move typed, a seat taken back, a
match given up. Each is one service call and a reply in the person's language; a game's
buttons (the same moves, clicked) are its controls, in ``actions``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from scopabot.render.cards import card_the
from scopabot.render.hand import capture_screen
from scopabot.render.i18n import tr
from scopabot.service import ChooseCapture

from . import ui
from .actions import GAME_CONTROLS, Actions, game_controls, say
from .autocomplete import capture_choices, card_choices, game_choices, game_of
from .context import table_title

if TYPE_CHECKING:
    from .client import ScopaBot


def setup(bot: ScopaBot) -> None:
    bot.actions = Actions(bot)
    bot.add_dynamic_items(*GAME_CONTROLS)


@app_commands.command(name=_("play"), description=_("Play a card from your hand"))
@app_commands.rename(card=_("card"), capture=_("capture"), game=_("game"))
@app_commands.describe(
    card=_("A card of your hand"),
    capture=_("The cards to take, when there is a choice"),
    game=_("Which of your games (when you play several)"),
)
async def play(
    interaction: discord.Interaction[ScopaBot],
    card: str,
    capture: str | None = None,
    game: str | None = None,
) -> None:
    lang = await interaction.client.langs.of_interaction(interaction)
    game_id = await game_of(interaction, game)
    try:
        outcome = await interaction.client.service.games.play(
            game_id, user=interaction.user.id, card=card, capture=capture
        )
    except ChooseCapture as choice:
        seat_view = await interaction.client.service.games.seat_view(
            game_id, user=interaction.user.id
        )
        screen = capture_screen(
            choice.card, choice.choices, lang, title=table_title(seat_view.table, lang)
        )
        await say(interaction, view=ui.build(screen, game_controls(game_id, seat_view.version))[0])
        return
    assert outcome.move is not None
    await say(interaction, tr("played", lang, card=card_the(outcome.move.card, lang)))


play.autocomplete("card")(card_choices)
play.autocomplete("capture")(capture_choices)
play.autocomplete("game")(game_choices)


@app_commands.command(
    name=_("back"), description=_("Take your seat back from the computer playing for you")
)
@app_commands.rename(game=_("game"))
@app_commands.describe(game=_("Which of your games (when you play several)"))
async def back(interaction: discord.Interaction[ScopaBot], game: str | None = None) -> None:
    lang = await interaction.client.langs.of_interaction(interaction)
    game_id = await game_of(interaction, game)
    await interaction.client.service.games.take_seat_back(game_id, user=interaction.user.id)
    await say(interaction, tr("took_back", lang))


back.autocomplete("game")(game_choices)


@app_commands.command(name=_("resign"), description=_("Resign the match: your side loses"))
@app_commands.rename(game=_("game"))
@app_commands.describe(game=_("Which of your games (when you play several)"))
async def resign(interaction: discord.Interaction[ScopaBot], game: str | None = None) -> None:
    lang = await interaction.client.langs.of_interaction(interaction)
    game_id = await game_of(interaction, game, guess=False)
    table = await interaction.client.service.tables.of_game(game_id)
    await interaction.client.service.games.resign(game_id, user=interaction.user.id)
    await say(interaction, tr("resigned.at", lang, table=table_title(table, lang)))


resign.autocomplete("game")(game_choices)
