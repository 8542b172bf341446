"""``/scopa leaderboard`` (paged with buttons) and ``/scopa stats``."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.app_commands import locale_str as _

from scopabot.render.boards import BoardLine, StatsLine, leaderboard_screen, stats_screen
from scopabot.render.i18n import Lang, tr
from scopabot.service import GLOBAL

from . import ui
from .actions import edit_clicked, say
from .choices import PRESETS
from .ids import Target
from .tournaments import tournaments_line

# The bot is typed ``Any`` here: importing ``ScopaBot`` would make an import cycle (its
# client imports every part), and ``tests/test_layers.py`` refuses cycles.
ScopaBot = Any

PAGE = 10
BOARDS = [Choice(name=_("This server"), value="server"), Choice(name=_("Everyone"), value="global")]
CATEGORIES = [c.value for c in PRESETS]


class BoardPages:
    """Leaderboard pages; a page's custom_id holds the board, the category and the cursor."""

    def __init__(self, bot: ScopaBot) -> None:
        self.bot = bot

    async def screen(
        self, board: int, category: int, cursor: str, lang: Lang
    ) -> discord.ui.LayoutView:
        after = None
        if cursor:
            score, _, rid = cursor.partition(",")
            after = (float(score), int(rid))
        page = await self.bot.service.boards.leaderboard(
            board=board, category=CATEGORIES[category], after=after, limit=PAGE
        )
        lines = []
        for row in page.rows:
            if row.level is not None:
                name = tr("computer", lang, level=tr(f"level.{row.level.value}", lang))
            else:
                name = f"<@{row.rating_id}>"
            lines.append(BoardLine(row.rank, name, row.score, row.games))
        where = tr("board.global", lang) if board == GLOBAL else tr("board.server", lang)
        title = tr(
            "board.title", lang, game=tr(f"preset.{CATEGORIES[category]}", lang), where=where
        )
        next_cursor = None
        if page.after is not None and len(page.rows) == PAGE:
            next_cursor = f"{page.after[0]!r},{page.after[1]}"
        screen = leaderboard_screen(
            lines, lang, title=title, next_cursor=next_cursor, first_page=not cursor
        )
        return ui.build(screen, lambda action, arg: Target("b", board, category, action, arg))[0]

    async def on_click(
        self, interaction: discord.Interaction[Any], target: Target, lang: Lang
    ) -> None:
        """A page turned by anyone: the message is public, so it stays in the server's
        language, not the clicker's."""
        public = await self.bot.langs.of_place(interaction)
        view = await self.screen(target.id, target.version, target.arg, public)
        await edit_clicked(interaction, view)


def add(bot: ScopaBot, group: app_commands.Group) -> None:
    pages = BoardPages(bot)
    bot.boards = pages

    @group.command(
        name=_("leaderboard"), description=_("The best players of this server or of everyone")
    )
    @app_commands.rename(board=_("board"), game=_("preset"))
    @app_commands.describe(board=_("This server or everyone"), game=_("Which game"))
    @app_commands.choices(board=BOARDS, game=PRESETS)
    async def leaderboard(
        interaction: discord.Interaction[Any], board: str = "server", game: str = "scopa"
    ) -> None:
        public = await bot.langs.of_place(interaction)  # a public message
        where = (
            GLOBAL if board == "global" or interaction.guild_id is None else interaction.guild_id
        )
        view = await pages.screen(where, CATEGORIES.index(game), "", public)
        await say(interaction, view=view, ephemeral=False)

    @group.command(name=_("stats"), description=_("Matches, wins and rating of a player"))
    @app_commands.rename(user=_("user"), board=_("board"))
    @app_commands.describe(user=_("Whose statistics"), board=_("This server or everyone"))
    @app_commands.choices(board=BOARDS)
    async def stats(
        interaction: discord.Interaction[Any],
        user: discord.User | None = None,
        board: str = "server",
    ) -> None:
        lang = await bot.langs.of_interaction(interaction)
        who = user or interaction.user
        where = (
            GLOBAL if board == "global" or interaction.guild_id is None else interaction.guild_id
        )
        records = await bot.service.boards.stats(who.id, board=where)
        lines = []
        for record in records:
            s = record.stats
            lines.append(
                StatsLine(
                    game=tr(f"preset.{record.category}", lang),
                    score=record.rating.score if record.rating else None,
                    rank=record.rank,
                    games=s.games if s else 0,
                    wins=s.wins if s else 0,
                    scope=s.scope if s else 0,
                    settebelli=s.settebelli if s else 0,
                    points_per_deal=s.points_per_deal if s and s.deals else None,
                )
            )
        label = tr("board.global", lang) if where == GLOBAL else tr("board.server", lang)
        screen = stats_screen(f"<@{who.id}>", lines, lang, board=label)
        await say(interaction, view=ui.build(screen, lambda a, g: Target("b", 0, 0, a, g))[0])
        entered = await bot.service.tournaments.of_user(who.id)
        if entered:
            await say(interaction, tournaments_line(entered, who.id, lang))
