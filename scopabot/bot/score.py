"""``/score``: the score keeper for games played with real cards.

``/score start`` posts a sheet with +1/+2/+3 buttons per side, Undo and End; ``/score add``
writes any other number. A button's custom_id carries the sheet and how many entries the
person saw, so a double click or an old message adds nothing.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from scopabot.render.boards import sheet_screen
from scopabot.render.i18n import Lang, tr
from scopabot.render.screens import Action
from scopabot.service.score_keeping import ScoreKeeping, Standings

from . import ui
from .actions import edit_clicked, say
from .ids import Target

# The bot is typed ``Any`` here: importing ``ScopaBot`` would make an import cycle (its
# client imports every part), and ``tests/test_layers.py`` refuses cycles.
ScopaBot = Any


def sheet_view(standings: Standings, lang: Lang) -> discord.ui.LayoutView:
    last = ""
    if standings.last is not None:
        entry = standings.last
        side = standings.sides[entry.side].name
        last = tr("sheet.last", lang, points=entry.points, side=side)
    screen = sheet_screen(
        standings.title,
        [(s.name, s.points, s.needs) for s in standings.sides],
        lang,
        target=standings.target,
        winner=standings.winner,
        tied=standings.tied_at_target,
        closed=standings.closed,
        last=last,
    )
    seen = len(standings.entries)
    return ui.build(screen, lambda action, arg: Target("k", standings.sheet_id, seen, action, arg))[
        0
    ]


class Sheets:
    def __init__(self, bot: ScopaBot) -> None:
        self.bot = bot
        keeping = getattr(bot.service, "score_sheets", None)
        self.keeping: ScoreKeeping = keeping or ScoreKeeping(bot.service.store)

    async def on_click(
        self, interaction: discord.Interaction[Any], target: Target, lang: Lang
    ) -> None:
        public = await self.bot.langs.of_guild(interaction.guild_id)
        now = await self.keeping.standings(target.id)
        if len(now.entries) != target.version:
            await say(interaction, tr("err.stale_version", lang))
            return
        user = interaction.user.id
        if target.action is Action.SCORE:
            side, _, points = target.arg.partition(".")
            now = await self.keeping.add(target.id, side=int(side), points=int(points), by=user)
        elif target.action is Action.UNDO:
            now = await self.keeping.undo(target.id, by=user)
        elif target.action is Action.END:
            now = await self.keeping.close(target.id, by=user)
        await edit_clicked(interaction, sheet_view(now, public))


def add(bot: ScopaBot) -> None:
    sheets = Sheets(bot)
    bot.sheets = sheets
    group = app_commands.Group(
        name=_("score"), description=_("Keep the score of a game played with real cards")
    )

    @group.command(name=_("start"), description=_("Start a score sheet"))
    @app_commands.rename(sides=_("sides"), target=_("target"))
    @app_commands.describe(
        sides=_("Side names, separated by commas (default: Noi, Voi)"),
        target=_("Points to win (default 11)"),
    )
    async def start(
        interaction: discord.Interaction[Any],
        sides: str | None = None,
        target: app_commands.Range[int, 1, 101] = 11,
    ) -> None:
        names = [n.strip() for n in (sides or "Noi, Voi").split(",") if n.strip()]
        standings = await sheets.keeping.open(
            owner=interaction.user.id,
            sides=names,
            target=target,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
        )
        public = await bot.langs.of_guild(interaction.guild_id)
        await say(interaction, view=sheet_view(standings, public), ephemeral=False)

    bot.tree.add_command(group)
    return None
