"""The ``/scopa`` commands that host and play a game. Each is one service call and a reply.

Replies are in the person's language and ephemeral unless everyone should see them (the
invitation). Anything slow is deferred first.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from scopabot.render.cards import card_the
from scopabot.render.hand import capture_screen
from scopabot.render.i18n import Lang, tr
from scopabot.render.rules import rules_lines
from scopabot.service import (
    CardParseError,
    ChooseCapture,
    RuleChoices,
    ServiceError,
    TableStatus,
)

from . import ui
from .actions import game_controls, say
from .autocomplete import GameNotFound, capture_choices, card_choices, game_choices, game_of
from .choices import (
    LEVELS,
    PACES,
    PRESETS,
    PRIMIERA,
    RULE_OPTION_DESCRIPTIONS,
    RULE_OPTION_NAMES,
    TIEBREAKS,
)
from .context import error_text, seat_names, table_link, table_title
from .visibility import check_may_see_table

if TYPE_CHECKING:
    from .client import ScopaBot

log = logging.getLogger(__name__)


async def command_error(
    bot: ScopaBot, interaction: discord.Interaction[ScopaBot], error: app_commands.AppCommandError
) -> None:
    """Every command's refusal in words; an unexpected error logged, with a short apology."""
    cause = getattr(error, "original", error)
    lang = await bot.langs.of_interaction(interaction)
    if isinstance(cause, ServiceError):
        await say(interaction, error_text(cause, lang))
    elif isinstance(cause, GameNotFound):
        await say(interaction, tr(cause.key, lang, **cause.params))
    elif isinstance(cause, CardParseError):
        await say(interaction, tr("err.not_a_card", lang))
    else:
        name = interaction.command.qualified_name if interaction.command else "?"
        log.error("/%s failed", name, exc_info=cause)
        await say(interaction, tr("err.unexpected", lang, game="-"))


class ScopaGroup(app_commands.Group):
    def __init__(self, bot: ScopaBot) -> None:
        super().__init__(name=_("scopa"), description=_("Play Scopa and Scopone"))
        self.bot = bot
        self.service = bot.service

    async def lang(self, interaction: discord.Interaction[ScopaBot]) -> Lang:
        return await self.bot.langs.of_interaction(interaction)

    async def game_of(
        self,
        interaction: discord.Interaction[ScopaBot],
        game: str | None,
        *,
        guess: bool = True,
        seated: bool = True,
    ) -> int:
        return await game_of(interaction, game, guess=guess, seated=seated)

    # /scopa new ----------------------------------------------------------------------------

    @app_commands.command(
        name=_("new"),
        description=_("Open a table: choose the game, options, pace and computer players"),
    )
    @app_commands.rename(
        preset=_("preset"),
        players=_("players"),
        **RULE_OPTION_NAMES,
        primiera=_("primiera"),
        tiebreak=_("tiebreak"),
        pace=_("pace"),
        minutes=_("minutes"),
        hours=_("hours"),
        computers=_("computers"),
        level=_("level"),
    )
    @app_commands.describe(
        preset=_("Which game"),
        players=_("How many players (Scopa: 2, 3 or 4)"),
        **RULE_OPTION_DESCRIPTIONS,
        primiera=_("How the primiera is counted"),
        tiebreak=_("A tie at the target"),
        pace=_("Live (minutes a turn) or by correspondence (hours a turn)"),
        minutes=_("Live: minutes a turn (default 2)"),
        hours=_("Correspondence: hours a turn (default 24)"),
        computers=_("How many seats computer players take"),
        level=_("How well computer players play"),
    )
    @app_commands.choices(
        preset=PRESETS, pace=PACES, level=LEVELS, primiera=PRIMIERA, tiebreak=TIEBREAKS
    )
    async def new(
        self,
        interaction: discord.Interaction[ScopaBot],
        preset: str = "scopa",
        players: app_commands.Range[int, 2, 4] | None = None,
        target: app_commands.Range[int, 1, 101] | None = None,
        deals: app_commands.Range[int, 1, 20] | None = None,
        asso_piglia_tutto: bool | None = None,
        napola: bool | None = None,
        re_bello: bool | None = None,
        primiera: str | None = None,
        tiebreak: str | None = None,
        pace: str = "live",
        minutes: app_commands.Range[int, 1, 15] | None = None,
        hours: app_commands.Range[int, 1, 168] | None = None,
        computers: app_commands.Range[int, 0, 3] = 0,
        level: str = "normal",
    ) -> None:
        lang = await self.lang(interaction)
        options = RuleChoices(  # the service decides (a target or deals, not both; the pace)
            target=target,
            deals=deals,
            asso_piglia_tutto=asso_piglia_tutto,
            napola=napola,
            re_bello=re_bello,
            primiera=primiera,
            tiebreak=tiebreak,
        )
        invitations = self.bot.invitations
        placement = await invitations.placement(interaction, lang)
        if placement.refused:
            await say(interaction, placement.refused)
            return
        table = await self.service.tables.open(
            host=interaction.user.id,
            guild_id=interaction.guild_id,
            channel_id=placement.channel_id,
            preset=preset,
            players=players,
            options=options,
            pace=pace,
            minutes=minutes,
            hours=hours,
            level=level,
            computers=computers,
        )
        await invitations.post_invitation(interaction, table, lang, placement=placement)

    # /scopa play ---------------------------------------------------------------------------

    @app_commands.command(name=_("play"), description=_("Play a card from your hand"))
    @app_commands.rename(card=_("card"), capture=_("capture"), game=_("game"))
    @app_commands.describe(
        card=_("A card of your hand"),
        capture=_("The cards to take, when there is a choice"),
        game=_("Which of your games (when you play several)"),
    )
    async def play(
        self,
        interaction: discord.Interaction[ScopaBot],
        card: str,
        capture: str | None = None,
        game: str | None = None,
    ) -> None:
        lang = await self.lang(interaction)
        game_id = await self.game_of(interaction, game)
        try:
            outcome = await self.service.games.play(
                game_id, user=interaction.user.id, card=card, capture=capture
            )
        except ChooseCapture as choice:
            seat_view = await self.service.games.seat_view(game_id, user=interaction.user.id)
            screen = capture_screen(
                choice.card, choice.choices, lang, title=table_title(seat_view.table, lang)
            )
            await say(
                interaction, view=ui.build(screen, game_controls(game_id, seat_view.version))[0]
            )
            return
        assert outcome.move is not None
        await say(interaction, tr("played", lang, card=card_the(outcome.move.card, lang)))

    play.autocomplete("card")(card_choices)
    play.autocomplete("capture")(capture_choices)
    play.autocomplete("game")(game_choices)

    # /scopa hand, table, rules, resign -----------------------------------------------------

    @app_commands.command(name=_("hand"), description=_("Show your hand (only you see it)"))
    @app_commands.rename(game=_("game"))
    @app_commands.describe(game=_("Which of your games (when you play several)"))
    async def hand(
        self, interaction: discord.Interaction[ScopaBot], game: str | None = None
    ) -> None:
        lang = await self.lang(interaction)
        game_id = await self.game_of(interaction, game)
        table = await self.service.tables.of_game(game_id)
        link = table_link(table) if interaction.guild_id is None else None
        view, files, _v = await self.bot.delivery.hand_view(
            game_id, interaction.user.id, lang, link=link
        )
        await say(interaction, view=view, files=files)

    hand.autocomplete("game")(game_choices)

    @app_commands.command(name=_("table"), description=_("Show the table of your game here"))
    @app_commands.rename(game=_("game"))
    @app_commands.describe(game=_("Which of your games (when you play several)"))
    async def table(
        self, interaction: discord.Interaction[ScopaBot], game: str | None = None
    ) -> None:
        lang = await self.lang(interaction)
        game_id = await self.game_of(interaction, game, seated=False)
        table = await self.service.tables.of_game(game_id)
        check_may_see_table(interaction, table)
        view, files, _v = await self.bot.delivery.table_view(table, game_id, lang, last_deal=True)
        await say(interaction, view=view, files=files)

    table.autocomplete("game")(game_choices)

    @app_commands.command(
        name=_("rules"), description=_("The options of your table in plain words")
    )
    @app_commands.rename(game=_("game"))
    @app_commands.describe(game=_("Which of your games (when you play several)"))
    async def rules(
        self, interaction: discord.Interaction[ScopaBot], game: str | None = None
    ) -> None:
        lang = await self.lang(interaction)
        game_id = await self.game_of(interaction, game, seated=False)
        table = await self.service.tables.of_game(game_id)
        check_may_see_table(interaction, table)
        lines = rules_lines(table.rules, lang)
        await say(
            interaction, f"**{table_title(table, lang)}**\n" + "\n".join(f"- {x}" for x in lines)
        )

    rules.autocomplete("game")(game_choices)

    @app_commands.command(
        name=_("back"), description=_("Take your seat back from the computer playing for you")
    )
    @app_commands.rename(game=_("game"))
    @app_commands.describe(game=_("Which of your games (when you play several)"))
    async def back(
        self, interaction: discord.Interaction[ScopaBot], game: str | None = None
    ) -> None:
        lang = await self.lang(interaction)
        game_id = await self.game_of(interaction, game)
        await self.service.games.take_seat_back(game_id, user=interaction.user.id)
        await say(interaction, tr("took_back", lang))

    back.autocomplete("game")(game_choices)

    @app_commands.command(name=_("resign"), description=_("Resign the match: your side loses"))
    @app_commands.rename(game=_("game"))
    @app_commands.describe(game=_("Which of your games (when you play several)"))
    async def resign(
        self, interaction: discord.Interaction[ScopaBot], game: str | None = None
    ) -> None:
        lang = await self.lang(interaction)
        game_id = await self.game_of(interaction, game, guess=False)
        table = await self.service.tables.of_game(game_id)
        await self.service.games.resign(game_id, user=interaction.user.id)
        await say(interaction, tr("resigned.at", lang, table=table_title(table, lang)))

    resign.autocomplete("game")(game_choices)

    # /scopa games, notify, help --------------------------------------------------------------

    @app_commands.command(
        name=_("games"), description=_("Your tables everywhere, those waiting for you first")
    )
    async def games(self, interaction: discord.Interaction[ScopaBot]) -> None:
        lang = await self.lang(interaction)
        lines = []
        for g in await self.service.people.my_games(user=interaction.user.id):
            table = await self.service.tables.get(g.table_id)
            line = f"- **{table_title(table, lang)}**"
            link = table_link(table)
            if link:
                line += f" · [{tr('games.open', lang)}]({link})"
            if g.status is TableStatus.OPEN:
                line += " · " + tr("games.gathering", lang)
            elif g.status is TableStatus.PLAYING and g.turn is not None:
                # Whose turn it is, then its clock: the deadline is the player in turn's.
                if g.waiting_for_you:
                    line += " · **" + tr("turn.yours", lang) + "**"
                else:
                    line += " · " + tr("turn.of", lang, name=seat_names(table, lang)[g.turn])
                if g.deadline is not None:
                    when = f"<t:{int(g.deadline.timestamp())}:R>"
                    line += " " + tr("turn.deadline", lang, when=when)
            lines.append(line)
        await say(interaction, "\n".join(lines) if lines else tr("games.none", lang))

    @app_commands.command(
        name=_("notify"), description=_("Correspondence games: a direct message on your turn")
    )
    @app_commands.rename(on=_("on"))
    @app_commands.describe(on=_("On or off"))
    async def notify(self, interaction: discord.Interaction[ScopaBot], on: bool) -> None:
        lang = await self.lang(interaction)
        await self.service.people.set_notify(interaction.user.id, on=on)
        await say(interaction, tr("notify.on" if on else "notify.off", lang))

    @app_commands.command(name=_("help"), description=_("How to play with ScopaBot"))
    async def help(self, interaction: discord.Interaction[ScopaBot]) -> None:
        lang = await self.lang(interaction)
        await say(interaction, tr("help.text", lang))
