"""``/scopa leaderboard`` (paged with buttons) and ``/scopa stats``."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Self

import discord
from discord import app_commands
from discord import ui as dui
from discord.app_commands import Choice
from discord.app_commands import locale_str as _

from scopabot.render.boards import BoardLine, StatsLine, leaderboard_screen, stats_screen
from scopabot.render.i18n import Lang, tr
from scopabot.render.screens import Action
from scopabot.service import GLOBAL

from . import ids, ui
from .actions import Control, edit_clicked, say
from .choices import PRESETS
from .ids import Kind
from .tournaments import tournaments_line
from .ui import PLAIN, Controls, Look

if TYPE_CHECKING:
    from .client import ScopaBot

PAGE = 10
BOARDS = [Choice(name=_("This server"), value="server"), Choice(name=_("Everyone"), value="global")]
CATEGORIES = [c.value for c in PRESETS]


class BoardPage(
    Control[dui.Button[Any]],
    template=ids.template(
        Kind.BOARD, Action.PAGE, id="board", number="category", arg=r"(?P<cursor>[^|]{0,60})"
    ),
):
    """A leaderboard's page turned: ``sb|b|<board>|<category>|n|<cursor>``, the board a
    server's id (or everyone's), the category the index of its preset, the cursor where the
    page starts ("" for the first)."""

    def __init__(self, board: int, category: int, cursor: str, look: Look = PLAIN) -> None:
        custom_id = ids.custom_id(Kind.BOARD, board, category, Action.PAGE, cursor)
        super().__init__(look.button(custom_id))
        self.board = self.about = board
        self.category, self.cursor = category, cursor

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: dui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["board"]), int(match["category"]), match["cursor"], Look.of(item))

    async def act(self, interaction: discord.Interaction[ScopaBot], lang: Lang) -> None:
        """A page turned by anyone: the message is public, so it stays in the server's
        language, not the clicker's."""
        bot = interaction.client
        public = await bot.langs.of_place(interaction)
        view = await bot.boards.screen(self.board, self.category, self.cursor, public)
        await edit_clicked(interaction, view)


def board_controls(board: int, category: int) -> Controls:
    def button(action: Action, arg: str, look: Look) -> dui.Item[Any]:
        assert action is Action.PAGE, action
        return BoardPage(board, category, arg, look)

    return Controls(button)


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
        return ui.build(screen, board_controls(board, category))[0]


def setup(bot: ScopaBot) -> None:
    bot.boards = BoardPages(bot)
    bot.add_dynamic_items(BoardPage)


@app_commands.command(
    name=_("leaderboard"), description=_("The best players of this server or of everyone")
)
@app_commands.rename(board=_("board"), game=_("preset"))
@app_commands.describe(board=_("This server or everyone"), game=_("Which game"))
@app_commands.choices(board=BOARDS, game=PRESETS)
async def leaderboard(
    interaction: discord.Interaction[ScopaBot], board: str = "server", game: str = "scopa"
) -> None:
    bot = interaction.client
    pages = interaction.client.boards
    public = await bot.langs.of_place(interaction)  # a public message
    where = GLOBAL if board == "global" or interaction.guild_id is None else interaction.guild_id
    view = await pages.screen(where, CATEGORIES.index(game), "", public)
    await say(interaction, view=view, ephemeral=False)


@app_commands.command(name=_("stats"), description=_("Matches, wins and rating of a player"))
@app_commands.rename(user=_("user"), board=_("board"))
@app_commands.describe(user=_("Whose statistics"), board=_("This server or everyone"))
@app_commands.choices(board=BOARDS)
async def stats(
    interaction: discord.Interaction[ScopaBot],
    user: discord.User | None = None,
    board: str = "server",
) -> None:
    bot = interaction.client
    lang = await bot.langs.of_interaction(interaction)
    who = user or interaction.user
    where = GLOBAL if board == "global" or interaction.guild_id is None else interaction.guild_id
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
    await say(interaction, view=ui.build(screen, ui.NO_CONTROLS)[0])
    entered = await bot.service.tournaments.of_user(who.id)
    if entered:
        await say(interaction, tournaments_line(entered, who.id, lang))
