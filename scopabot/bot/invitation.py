"""Tables gathering players: the invitation, its buttons, the start and the rematch.

On start the invitation grows a thread holding the table message (or, where the bot may not
create threads, becomes the table message itself, edited through the click: no REST call);
each person gets their hand by DM. The host is told in words what permission is missing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import discord

from scopabot.render.i18n import Lang, tr
from scopabot.render.invite import closed_screen, invite_screen, pace_text
from scopabot.render.screens import Action, Screen
from scopabot.service import TableInfo

from . import ui
from .actions import edit_clicked, say
from .context import seat_names, table_link, table_title
from .ids import Target

# The bot is typed ``Any`` here: importing ``ScopaBot`` would make an import cycle (its
# client imports every part), and ``tests/test_layers.py`` refuses cycles.
ScopaBot = Any

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


def table_targets(table: TableInfo) -> ui.Targeter:
    return lambda action, arg: Target("t", table.id, 0, action, arg)


def can_thread(interaction: discord.Interaction[Any]) -> bool:
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
        return ui.build(screen, table_targets(table))[0]

    async def placement(self, interaction: discord.Interaction[Any], lang: Lang) -> Placement:
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
        interaction: discord.Interaction[Any],
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
        interaction: discord.Interaction[Any],
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

    async def on_click(
        self, interaction: discord.Interaction[Any], target: Target, lang: Lang
    ) -> None:
        table_id, user_id = target.id, interaction.user.id
        action = target.action
        if action is Action.JOIN:
            side = int(target.arg) if target.arg else None
            table = await self.service.tables.join(table_id, user=user_id, side=side)
        elif action is Action.LEAVE:
            table = await self.service.tables.leave(table_id, user=user_id)
        elif action is Action.ADD_COMPUTER:
            table = await self.service.tables.add_computer(table_id, by=user_id)
        elif action is Action.CANCEL:
            table = await self.service.tables.cancel(table_id, by=user_id)
            public = await self.bot.langs.of_table(table)
            screen = closed_screen(table.rules, public, table_id=table.id, reason="cancelled")
            await edit_clicked(interaction, ui.build(screen, table_targets(table))[0])
            return
        elif action is Action.START:
            await self.start(interaction, table_id, lang)
            return
        else:
            return
        public = await self.bot.langs.of_table(table)
        await edit_clicked(interaction, self.invite_view(table, public))

    async def start(self, interaction: discord.Interaction[Any], table_id: int, lang: Lang) -> None:
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
        interaction: discord.Interaction[Any],
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
            await edit_clicked(interaction, ui.build(started, table_targets(table))[0])
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

    def _missing(self, interaction: discord.Interaction[Any], lang: Lang, what: str) -> str:
        where = f"<#{interaction.channel_id}>"
        return tr(
            "err.perm",
            lang,
            what=tr(f"perm.{what}", lang),
            where=where,
            perm=tr(f"perm.{what}_name", lang),
        )

    async def rematch(
        self, interaction: discord.Interaction[Any], game_id: int, lang: Lang
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
