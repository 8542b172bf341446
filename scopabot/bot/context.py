"""Who reads a message, in which language, and how seat holders are named.

Replies follow the person (their ``/scopa settings`` choice, else their Discord client's
language); public messages follow the server (its setting, else its Discord locale). Names
are mentions, which Discord shows as each reader's view of the name and which never ping on
an edit.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

import discord

from scopabot.render.i18n import Lang, lang_of, tr
from scopabot.render.names import seat_marked
from scopabot.render.refusals import refusal_text
from scopabot.service import GameService, ServiceError, TableInfo

if TYPE_CHECKING:
    from .client import ScopaBot

log = logging.getLogger(__name__)


class Langs:
    """Languages of people and servers, cached: they are read on every message."""

    def __init__(
        self,
        service: GameService,
        *,
        guild_locale: Callable[[int], str | None] = lambda guild_id: None,
    ) -> None:
        self.service = service
        self.guild_locale = guild_locale
        self._users: dict[int, Lang | None] = {}
        self._seen: dict[int, Lang] = {}
        self._guilds: dict[int, Lang | None] = {}  # None: no language chosen

    async def of_interaction(self, interaction: discord.Interaction[ScopaBot]) -> Lang:
        seen = lang_of(str(interaction.locale))
        self._seen[interaction.user.id] = seen
        stored = await self.stored(interaction.user.id)
        return stored or seen

    async def stored(self, user_id: int) -> Lang | None:
        if user_id not in self._users:
            value = await self.service.people.language(user_id)
            self._users[user_id] = lang_of(value) if value else None
        return self._users[user_id]

    async def of_user(self, user_id: int, *, guild_id: int | None = None) -> Lang:
        """For a DM: their choice, else the client language we last saw, else the server's."""
        stored = await self.stored(user_id)
        if stored:
            return stored
        if user_id in self._seen:
            return self._seen[user_id]
        return await self.of_guild(guild_id)

    async def of_guild(self, guild_id: int | None) -> Lang:
        """A server's public language: a manager's choice, else its Discord locale (read
        each time from the gateway's cache, so a change of locale is followed; for a server
        outside this process's shards, from the store, where its process records it)."""
        if guild_id is None:
            return Lang.EN
        if guild_id not in self._guilds:
            chosen = (await self.service.settings.get(guild_id)).language
            self._guilds[guild_id] = lang_of(chosen) if chosen else None
        chosen = self._guilds[guild_id]
        if chosen is not None:
            return chosen
        locale = self.guild_locale(guild_id)
        if locale is None:
            # Not in this process's gateway cache: a server of another process's shards
            # (a tournament's round opened here). Its locale as that process last saw it,
            # read each time (rare: only such paths post in another's server).
            locale = await self.service.settings.discord_locale(guild_id)
        return lang_of(locale)

    async def of_place(self, interaction: discord.Interaction[ScopaBot]) -> Lang:
        """The language of a public message posted where ``interaction`` happened: the
        server's, or in a DM the person's own (nobody else reads it)."""
        if interaction.guild_id is None:
            return await self.of_interaction(interaction)
        return await self.of_guild(interaction.guild_id)

    async def of_table(self, table: TableInfo) -> Lang:
        """A table's public language: its server's, or in a DM its host's (the only reader
        besides the bot, the table opened in their conversation)."""
        if table.guild_id is None:
            return await self.of_user(table.host)
        return await self.of_guild(table.guild_id)

    def forget_user(self, user_id: int) -> None:
        self._users.pop(user_id, None)

    def forget_guild(self, guild_id: int) -> None:
        self._guilds.pop(guild_id, None)


def seat_names(table: TableInfo, lang: Lang) -> list[str]:
    names = []
    for seat in range(table.rules.players):
        holder = table.seats.get(seat)
        if holder is None:
            names.append("—")
        elif holder.user_id is not None:
            names.append(f"<@{holder.user_id}>")
        else:
            level = tr(f"level.{holder.ai_level}", lang)
            names.append(tr("computer", lang, level=level))
    # Several computers of one level: each named by its seat, in text as in the pictures.
    return seat_marked(names, empty="—")


def rated_names(table: TableInfo, lang: Lang) -> dict[int, str]:
    """Names by rating id: people by user id (computers are rated too, not shown here)."""
    return {h.user_id: f"<@{h.user_id}>" for h in table.seats.values() if h.user_id is not None}


def error_text(error: ServiceError, lang: Lang) -> str:
    """The refusal in words from its code and data (render's :func:`refusal_text`); only a
    sentence still asking for ``message`` (score sheets) gets the service's own text."""
    params = dict(error.params)
    if error.code.value not in ("illegal_move", "bad_option", "bad_sheet"):
        params.setdefault("message", str(error))
    return refusal_text(error.code.value, params, lang)


def table_link(table: TableInfo) -> str | None:
    channel = table.thread_id or table.channel_id
    if channel is None or table.message_id is None:
        return None
    guild = table.guild_id if table.guild_id is not None else "@me"
    return f"https://discord.com/channels/{guild}/{channel}/{table.message_id}"


def table_title(table: TableInfo, lang: Lang) -> str:
    from scopabot.render.rules import preset_name

    return f"{preset_name(table.rules, lang)} · {tr('table.number', lang, id=table.id)}"
