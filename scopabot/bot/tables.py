"""Tables: ``/scopa new`` and the invitation it posts, its buttons, the start and the
rematch; ``/scopa table``, ``/scopa rules`` and ``/scopa games`` to look at a table again.

On start the invitation grows a thread holding the table message (or, where the bot may not
create threads, becomes the table message itself, edited through the click: no REST call);
each person gets their hand by DM. The host is told in words what permission is missing.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Self

import discord
from discord import app_commands
from discord import ui as dui
from discord.app_commands import locale_str as _

from scopabot.render.i18n import Lang, tr
from scopabot.render.invite import closed_screen, invite_screen, pace_text
from scopabot.render.rules import rules_lines
from scopabot.render.screens import Action, Screen
from scopabot.service import RuleChoices, TableInfo, TableStatus

from . import ids, ui
from .actions import Control, edit_clicked, say
from .autocomplete import game_choices, game_of
from .choices import (
    LEVELS,
    PACES,
    PRESETS,
    PRIMIERA,
    RULE_OPTION_DESCRIPTIONS,
    RULE_OPTION_NAMES,
    TIEBREAKS,
)
from .context import seat_names, table_link, table_title
from .ids import Kind
from .ui import PLAIN, Controls, Look
from .visibility import check_may_see_table

if TYPE_CHECKING:
    from .client import ScopaBot

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Placement:
    """Where /scopa new opens its table: here (the reply) or the server's game channel."""

    channel_id: int | None
    elsewhere: bool = False  # posted in the game channel; the host gets a pointer to it
    note: str = ""  # said to the host besides (why the game channel was not used)
    refused: str = ""  # nothing is opened, and this says why


def is_thread(channel: Any) -> bool:
    kind = getattr(channel, "type", None)
    return kind in (discord.ChannelType.public_thread, discord.ChannelType.private_thread)


# A table's controls -------------------------------------------------------------------
# ``sb|t|<table>|0|<action>|<arg>``: a table gathering players has no version to compare;
# each click is checked by the service against the table as it is now.

TABLE = Kind.TABLE


class TableControl(Control[dui.Button[Any]], template=r"(?!)"):
    action = Action.JOIN  # each kind its own

    def __init__(self, table_id: int, look: Look = PLAIN, arg: str = "") -> None:
        custom_id = ids.custom_id(TABLE, table_id, 0, self.action, arg)
        super().__init__(look.button(custom_id))
        self.table_id = self.about = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: dui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["table"]), Look.of(item))

    async def show(self, interaction: discord.Interaction[ScopaBot], table: TableInfo) -> None:
        """The invitation as the click left it, in the table's public language."""
        invitations = interaction.client.invitations
        public = await interaction.client.langs.of_table(table)
        await edit_clicked(interaction, invitations.invite_view(table, public))


def _table(action: Action, arg: str = "") -> str:
    return ids.template(TABLE, action, id="table", arg=arg)


class JoinTable(TableControl, template=_table(Action.JOIN, r"(?P<side>[0-9]?)")):
    """A free seat taken (at four, on the side chosen, or any)."""

    action = Action.JOIN

    def __init__(self, table_id: int, look: Look = PLAIN, side: int | None = None) -> None:
        super().__init__(table_id, look, "" if side is None else str(side))
        self.side = side

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: dui.Item[Any], match: re.Match[str], /
    ) -> Self:
        side = int(match["side"]) if match["side"] else None
        return cls(int(match["table"]), Look.of(item), side)

    async def act(self, interaction: discord.Interaction[ScopaBot], lang: Lang) -> None:
        service = interaction.client.service
        table = await service.tables.join(self.table_id, user=interaction.user.id, side=self.side)
        interaction.client.messages.open_dm_soon(interaction.user.id)
        await self.show(interaction, table)


class LeaveTable(TableControl, template=_table(Action.LEAVE)):
    action = Action.LEAVE

    async def act(self, interaction: discord.Interaction[ScopaBot], lang: Lang) -> None:
        table = await interaction.client.service.tables.leave(
            self.table_id, user=interaction.user.id
        )
        await self.show(interaction, table)


class AddComputer(TableControl, template=_table(Action.ADD_COMPUTER)):
    action = Action.ADD_COMPUTER

    async def act(self, interaction: discord.Interaction[ScopaBot], lang: Lang) -> None:
        service = interaction.client.service
        table = await service.tables.add_computer(self.table_id, by=interaction.user.id)
        await self.show(interaction, table)


class CancelTable(TableControl, template=_table(Action.CANCEL)):
    action = Action.CANCEL

    async def act(self, interaction: discord.Interaction[ScopaBot], lang: Lang) -> None:
        bot = interaction.client
        table = await bot.service.tables.cancel(self.table_id, by=interaction.user.id)
        public = await bot.langs.of_table(table)
        screen = closed_screen(table.rules, public, table_id=table.id, reason="cancelled")
        await edit_clicked(interaction, ui.build(screen, table_controls(table))[0])


class StartTable(TableControl, template=_table(Action.START)):
    """The match begins: the table message placed (a thread, or the invitation itself)."""

    action = Action.START

    async def act(self, interaction: discord.Interaction[ScopaBot], lang: Lang) -> None:
        await interaction.client.invitations.start(interaction, self.table_id, lang)


TABLE_CONTROLS = (JoinTable, LeaveTable, AddComputer, CancelTable, StartTable)
_BY_ACTION: dict[Action, type[TableControl]] = {c.action: c for c in TABLE_CONTROLS}


def table_controls(table: TableInfo) -> Controls:
    def button(action: Action, arg: str, look: Look) -> dui.Item[Any]:
        if action is Action.JOIN:
            return JoinTable(table.id, look, int(arg) if arg else None)
        return _BY_ACTION[action](table.id, look)

    return Controls(button)


def can_thread(interaction: discord.Interaction[ScopaBot]) -> bool:
    perms = interaction.app_permissions
    channel = interaction.channel
    in_text = isinstance(channel, discord.TextChannel) or (
        channel is not None and getattr(channel, "type", None) == discord.ChannelType.text
    )
    return bool(
        interaction.guild_id is not None
        and in_text
        and perms.create_public_threads
        and perms.send_messages_in_threads
    )


class Invitations:
    """A table while it gathers players (its invitation message), its start and its rematch."""

    def __init__(self, bot: ScopaBot) -> None:
        self.bot = bot
        self.service = bot.service
        # Tables a quick Start placed from its own click before the invitation's id came back.
        self._placed_first: set[int] = set()

    def invite_view(self, table: TableInfo, lang: Lang, note: str = "") -> discord.ui.LayoutView:
        names = seat_names(table, lang)
        seats = {seat: names[seat] for seat in table.seats}
        screen = invite_screen(
            table.rules,
            seats,
            lang,
            table_id=table.id,
            host=f"<@{table.host}>",
            pace=pace_text(table.pace.kind.value, table.pace.seconds, lang),
            level=table.level,
            note=note,
        )
        return ui.build(screen, table_controls(table))[0]

    async def placement(self, interaction: discord.Interaction[ScopaBot], lang: Lang) -> Placement:
        """The server's game channel when it has one the bot may post in; else here, if the
        bot may send messages here (a table it could not ping in, or post again when its
        message is deleted, would be lost): else nothing opens, and the host is told why."""
        here = interaction.channel_id
        if interaction.guild_id is None:
            return Placement(here)
        settings = await self.service.settings.get(interaction.guild_id)
        game, note = settings.game_channel_id, ""
        if game and game != here:
            guild = self.bot.get_guild(interaction.guild_id)
            channel = guild.get_channel(game) if guild is not None else None
            if isinstance(channel, discord.TextChannel) and guild is not None:
                allowed = channel.permissions_for(guild.me)
                if allowed.view_channel and allowed.send_messages:
                    return Placement(game, elsewhere=True)
                perm = tr("perm.send_name", lang)
                note = tr("invite.game_channel_closed", lang, where=f"<#{game}>", perm=perm)
        perms = interaction.app_permissions
        thread = is_thread(interaction.channel)
        may_send = perms.send_messages_in_threads if thread else perms.send_messages
        if not (perms.view_channel and may_send):
            name = tr("perm.send_threads_name" if thread else "perm.send_name", lang)
            refused = tr("perm.send_here", lang, where=f"<#{here}>", perm=name)
            return Placement(None, refused=refused)
        return Placement(here, note=note)

    async def post_invitation(
        self,
        interaction: discord.Interaction[ScopaBot],
        table: TableInfo,
        lang: Lang,
        *,
        placement: Placement | None = None,
    ) -> None:
        """The invitation, public and in the server's language: the reply to /scopa new, or
        a message in the game channel with a short ephemeral pointer to it."""
        public = await self.bot.langs.of_table(table)
        view = self.invite_view(table, public)
        if placement is not None and placement.elsewhere and placement.channel_id:
            await self._post_elsewhere(interaction, table, view, placement.channel_id, lang)
            return
        if interaction.response.is_done():
            message = await interaction.followup.send(view=view, wait=True)
        else:
            callback = await interaction.response.send_message(view=view)
            message = callback.resource  # type: ignore[assignment]
        if isinstance(message, discord.Message):
            await self._remember_invitation(table.id, interaction.channel_id, message.id)
        if placement is not None and placement.note:
            await say(interaction, placement.note)

    async def _remember_invitation(
        self, table_id: int, channel_id: int | None, message_id: int
    ) -> None:
        """Store where the invitation is, once Discord has said its id, unless a click on it
        came first: people see the invitation before the bot learns its id (a busy Discord
        answers late), and a quick Start has placed the table from its own click already
        (:meth:`_place`). Writing now would point the table back at the invitation."""
        if table_id in self.bot.delivery.placing or table_id in self._placed_first:
            self._placed_first.discard(table_id)
            return
        await self.bot.delivery.set_table_messages(
            table_id, channel_id=channel_id, message_id=message_id
        )

    async def _post_elsewhere(
        self,
        interaction: discord.Interaction[ScopaBot],
        table: TableInfo,
        view: discord.ui.LayoutView,
        channel_id: int,
        lang: Lang,
    ) -> None:
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            sent = await self.bot.messages.send(channel_id, view=view)
        except discord.HTTPException:
            log.exception("table %s: could not post in the game channel", table.id)
            await self.service.tables.cancel(table.id, by=table.host)
            await say(interaction, tr("err.unexpected", lang, game="-"))
            return
        await self.bot.delivery.set_table_messages(
            table.id, channel_id=channel_id, message_id=sent.id
        )
        link = f"https://discord.com/channels/{interaction.guild_id}/{channel_id}/{sent.id}"
        await say(interaction, tr("invite.posted_in", lang, where=f"<#{channel_id}>", link=link))

    async def start(
        self, interaction: discord.Interaction[ScopaBot], table_id: int, lang: Lang
    ) -> None:
        delivery = self.bot.delivery
        delivery.placing.add(table_id)
        try:
            started = await self.service.tables.start(table_id, by=interaction.user.id)
            table = started.table
            game_id = started.game_id
            public = await self.bot.langs.of_table(table)
            table = await self._place(interaction, table, game_id, public, lang)
        finally:
            delivery.placing.discard(table_id)
        assert table.game_id is not None or game_id
        await delivery.placed(table.id)
        delivery.table(table.id, game_id).request()
        for seat, holder in table.seats.items():
            if holder.user_id is not None:
                delivery.hand(table.id, game_id, seat).request()

    async def _place(
        self,
        interaction: discord.Interaction[ScopaBot],
        table: TableInfo,
        game_id: int,
        public: Lang,
        lang: Lang,
    ) -> TableInfo:
        """Put the table message in a new thread, or turn the invitation into it."""
        messages = self.bot.messages
        if table.message_id is None and interaction.message is not None:
            # Clicked before the bot learnt the invitation's id: the click says where it is.
            self._placed_first.add(table.id)
            table = await self.service.tables.set_messages(
                table.id, channel_id=interaction.channel_id, message_id=interaction.message.id
            )
        if can_thread(interaction) and table.message_id is not None:
            started = Screen(
                (
                    f"## {table_title(table, public)}",
                    tr("invite.started", public, where=f"<#{table.message_id}>"),
                )
            )
            await edit_clicked(interaction, ui.build(started, table_controls(table))[0])
            try:
                thread_id = await messages.start_thread(table, table_title(table, public))
                view, files, _v = await self.bot.delivery.table_view(
                    table, game_id, public, pictures=messages.may_attach(table.channel_id)
                )
                people = [h.user_id for h in table.seats.values() if h.user_id is not None]
                sent = await messages.send(thread_id, view=view, files=files, mention=people)
                return await self.bot.delivery.set_table_messages(
                    table.id, thread_id=thread_id, message_id=sent.id
                )
            except discord.Forbidden:
                log.info("table %s: could not open a thread; staying in the channel", table.id)
                await say(interaction, self._missing(interaction, lang, "threads"))
        view, files, _v = await self.bot.delivery.table_view(table, game_id, public)
        await edit_clicked(interaction, view, files)
        perms = interaction.app_permissions
        if interaction.guild_id is not None and not perms.create_public_threads:
            await say(interaction, self._missing(interaction, lang, "threads"))
        message_id = interaction.message.id if interaction.message else table.message_id
        return await self.bot.delivery.set_table_messages(
            table.id, channel_id=interaction.channel_id, message_id=message_id
        )

    def _missing(self, interaction: discord.Interaction[ScopaBot], lang: Lang, what: str) -> str:
        where = f"<#{interaction.channel_id}>"
        return tr(
            "err.perm",
            lang,
            what=tr(f"perm.{what}", lang),
            where=where,
            perm=tr(f"perm.{what}_name", lang),
        )

    async def rematch(
        self, interaction: discord.Interaction[ScopaBot], game_id: int, lang: Lang
    ) -> None:
        """A new table for the players of a finished match, opened by the service in one step
        (:meth:`Tables.open_rematch`); a second click points to the one the first opened."""
        rematch = await self.service.tables.open_rematch(
            game_id, by=interaction.user.id, channel_id=interaction.channel_id
        )
        table = rematch.table
        if not rematch.opened:
            where = table_link(table) or f"<#{table.channel_id}>"
            await say(interaction, tr("rematch.already", lang, where=where))
            return
        await self.post_invitation(interaction, table, lang)


def setup(bot: ScopaBot) -> None:
    bot.invitations = Invitations(bot)
    bot.add_dynamic_items(*TABLE_CONTROLS)


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
    lang = await interaction.client.langs.of_interaction(interaction)
    options = RuleChoices(  # the service decides (a target or deals, not both; the pace)
        target=target,
        deals=deals,
        asso_piglia_tutto=asso_piglia_tutto,
        napola=napola,
        re_bello=re_bello,
        primiera=primiera,
        tiebreak=tiebreak,
    )
    invitations = interaction.client.invitations
    placement = await invitations.placement(interaction, lang)
    if placement.refused:
        await say(interaction, placement.refused)
        return
    table = await interaction.client.service.tables.open(
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
    if table.seat_of(interaction.user.id) is not None:
        interaction.client.messages.open_dm_soon(interaction.user.id)
    await invitations.post_invitation(interaction, table, lang, placement=placement)


@app_commands.command(name=_("table"), description=_("Show the table of your game here"))
@app_commands.rename(game=_("game"))
@app_commands.describe(game=_("Which of your games (when you play several)"))
async def table(interaction: discord.Interaction[ScopaBot], game: str | None = None) -> None:
    lang = await interaction.client.langs.of_interaction(interaction)
    game_id = await game_of(interaction, game, seated=False)
    table = await interaction.client.service.tables.of_game(game_id)
    check_may_see_table(interaction, table)
    # The last deal's count too, all through the next deal (a table living in its channel
    # has no other place to read it back).
    view, files, _v = await interaction.client.delivery.table_view(
        table, game_id, lang, last_deal=True
    )
    await say(interaction, view=view, files=files)


table.autocomplete("game")(game_choices)


@app_commands.command(name=_("rules"), description=_("The options of your table in plain words"))
@app_commands.rename(game=_("game"))
@app_commands.describe(game=_("Which of your games (when you play several)"))
async def rules(interaction: discord.Interaction[ScopaBot], game: str | None = None) -> None:
    lang = await interaction.client.langs.of_interaction(interaction)
    game_id = await game_of(interaction, game, seated=False)
    table = await interaction.client.service.tables.of_game(game_id)
    check_may_see_table(interaction, table)
    lines = rules_lines(table.rules, lang)
    await say(interaction, f"**{table_title(table, lang)}**\n" + "\n".join(f"- {x}" for x in lines))


rules.autocomplete("game")(game_choices)


@app_commands.command(
    name=_("games"), description=_("Your tables everywhere, those waiting for you first")
)
async def games(interaction: discord.Interaction[ScopaBot]) -> None:
    lang = await interaction.client.langs.of_interaction(interaction)
    lines = []
    for g in await interaction.client.service.people.my_games(user=interaction.user.id):
        table = await interaction.client.service.tables.get(g.table_id)
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
