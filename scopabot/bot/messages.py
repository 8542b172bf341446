"""Sending and editing the bot's own messages (table, hands), surviving what Discord does.

A deleted table message is sent again, a deleted thread is opened again, an archived one is
reopened; a closed DM (50007) is reported once, and a DM channel is opened once per person
(as they take a seat), never again after a restart for someone a hand already reached there.
Every call here counts against the bot's REST budget, so callers keep them few.

Pictures travel as files with the message; an edit passes them as ``attachments``, which
replaces the message's files (none are kept that the new components do not show).

Three calls go through ``Client.http``, discord.py's REST client, which its documentation
does not list: discord.py offers them publicly only on objects the bot does not hold. A
thread is reopened with ``Thread.edit``, but an archived thread leaves discord.py's cache
(discord.py #7541, fixed by #7574), so the object would cost a fetch, one more counted call,
each time; ``PartialMessageable`` (a channel known by its id) has no ``create_thread``, and
``PartialMessage.create_thread`` needs the server in the cache. ``tests/bot/
test_discord_surface.py`` fails if a new discord.py changes these calls.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from typing import TYPE_CHECKING, Any, Final

import aiohttp
import discord

from scopabot.service import GameService, TableInfo

from .context import table_title

if TYPE_CHECKING:
    from .client import ScopaBot

log = logging.getLogger(__name__)

UNKNOWN_CHANNEL, UNKNOWN_MESSAGE = 10003, 10008
CANNOT_DM, THREAD_ARCHIVED = 50007, 50083
THREAD_ARCHIVE_MINUTES: Final = 1440


def again(files: list[discord.File]) -> list[discord.File]:
    """The same files for another request: discord.py leaves a file it sent read to the end
    (the retry after a deleted message or an archived thread would upload nothing)."""
    out = []
    for f in files:
        fp: Any = f.fp
        out.append(discord.File(io.BytesIO(fp.getvalue()), f.filename, description=f.description))
    return out


class DmClosed(Exception):
    """The person does not accept direct messages from the bot."""


class Messages:
    def __init__(self, bot: ScopaBot, service: GameService) -> None:
        self.bot = bot
        self.service = service
        self._dm_channels: dict[int, int] = {}  # person -> their DM channel (a cache)
        self._dm_opening = asyncio.Lock()
        self._dm_early: dict[int, asyncio.Task[None]] = {}  # openings begun at a seat taken
        self._thread_locks: dict[int, asyncio.Lock] = {}
        # Threads a moderator (or Discord's inactivity timer) archived or deleted, as the
        # gateway told us: the next table edit reopens or replaces them first instead of
        # being refused. After a restart we know none; the refusals below still cover that.
        self.archived_threads: set[int] = set()
        self.deleted_threads: set[int] = set()
        bot.add_listener(self.on_raw_thread_update)
        bot.add_listener(self.on_raw_thread_delete)

    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        metadata = payload.data.get("thread_metadata") or {}
        if metadata.get("archived"):
            self.archived_threads.add(payload.thread_id)
        else:
            self.archived_threads.discard(payload.thread_id)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        self.deleted_threads.add(payload.thread_id)
        self.archived_threads.discard(payload.thread_id)

    # Tables ------------------------------------------------------------------------------

    async def edit_table(
        self, table: TableInfo, view: discord.ui.LayoutView, files: list[discord.File]
    ) -> TableInfo:
        """Edit the table message in place; recreate what was deleted. Returns the table
        with the ids in use now."""
        where = table.thread_id or table.channel_id
        if where is None:
            return table
        if table.message_id is None:
            return await self._resend(table, where, view, files)
        if table.thread_id in self.deleted_threads and table.channel_id:
            log.info("table %s: its thread was deleted; opening a new one", table.id)
            return await self.new_thread(table, view, files)
        if table.thread_id is not None and table.thread_id in self.archived_threads:
            log.info("table %s: its thread was archived; opening it again", table.id)
            await self.bot.http.edit_channel(table.thread_id, archived=False)
            self.archived_threads.discard(table.thread_id)
        message = self.bot.get_partial_messageable(where).get_partial_message(table.message_id)
        try:
            await message.edit(view=view, attachments=files)
            return table
        except discord.NotFound as error:
            if error.code == UNKNOWN_MESSAGE:
                log.info("table %s: its message was deleted; sending it again", table.id)
                return await self._resend(table, where, view, again(files))
            if error.code == UNKNOWN_CHANNEL and table.thread_id and table.channel_id:
                log.info("table %s: its thread was deleted; opening a new one", table.id)
                return await self.new_thread(table, view, again(files))
            raise
        except discord.HTTPException as error:  # 50083 comes as 400 "Thread is archived"
            if error.code == THREAD_ARCHIVED and table.thread_id:
                await self.bot.http.edit_channel(table.thread_id, archived=False)
                await message.edit(view=view, attachments=again(files))
                return table
            raise

    async def _resend(
        self,
        table: TableInfo,
        where: int,
        view: discord.ui.LayoutView,
        files: list[discord.File],
    ) -> TableInfo:
        channel = self.bot.get_partial_messageable(where)
        try:
            sent = await channel.send(view=view, files=files)
        except discord.NotFound as error:
            if error.code == UNKNOWN_CHANNEL and table.thread_id and table.channel_id:
                return await self.new_thread(table, view, again(files))
            raise
        return await self.bot.delivery.set_table_messages(table.id, message_id=sent.id)

    async def new_thread(
        self, table: TableInfo, view: discord.ui.LayoutView, files: list[discord.File]
    ) -> TableInfo:
        assert table.channel_id is not None
        data = await self.bot.http.start_thread_without_message(
            table.channel_id,
            name=table_title(table, await self.bot.langs.of_table(table)),  # as first named
            auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            type=discord.ChannelType.public_thread.value,
        )
        thread_id = int(data["id"])
        sent = await self.bot.get_partial_messageable(thread_id).send(view=view, files=files)
        return await self.bot.delivery.set_table_messages(
            table.id, thread_id=thread_id, message_id=sent.id
        )

    async def start_thread(self, table: TableInfo, name: str) -> int:
        """A thread on the invitation message (the thread's id is the message's)."""
        assert table.channel_id is not None and table.message_id is not None
        # One at a time per channel: many tables starting at once would otherwise all ask
        # before discord.py has heard the channel's thread limit, and some be refused (429).
        lock = self._thread_locks.setdefault(table.channel_id, asyncio.Lock())
        async with lock:
            data = await self.bot.http.start_thread_with_message(
                table.channel_id,
                table.message_id,
                name=name[:100],
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            )
        return int(data["id"])

    async def send(
        self,
        channel_id: int,
        *,
        content: str | None = None,
        view: discord.ui.LayoutView | None = None,
        files: list[discord.File] | None = None,
        mention: list[int] | None = None,
        nonce: int | str | None = None,
    ) -> discord.Message:
        """Send a message; with a ``nonce`` (the same for every try of one message) Discord
        answers a second send of it, made within a few minutes, with the message it made the
        first time instead of a copy (discord.py sends ``enforce_nonce`` with every nonce it
        is given: ``handle_message_parameters``; ``tests/bot/test_discord_surface.py`` fails
        if a new discord.py stops)."""
        users = [discord.Object(u) for u in mention or []]
        allowed = discord.AllowedMentions(users=users, roles=False, everyone=False)
        channel = self.bot.get_partial_messageable(channel_id)
        kwargs: dict[str, Any] = {"allowed_mentions": allowed}
        if nonce is not None:
            kwargs["nonce"] = nonce
        if view is not None:
            kwargs["view"] = view
            kwargs["files"] = files or []
        else:
            kwargs["content"] = content
            if files:
                kwargs["files"] = files
        return await channel.send(**kwargs)

    # Direct messages -----------------------------------------------------------------------

    async def dm_channel(self, user_id: int, *, ask_store: bool = True) -> int:
        """The person's DM channel, opened once. Openings go one at a time: they share one
        rate-limit bucket for the whole bot (no channel in the route), and discord.py,
        with several requests of one bucket in flight, takes the first answer's
        ``X-RateLimit-Remaining`` as what is left after all of them and sends past the limit
        (a 429, discord.py PR #10287); with one in flight every answer tells the truth. A
        hundred tables starting at once open their DMs at Discord's rate instead."""
        if user_id not in self._dm_channels:
            async with self._dm_opening:
                # A hand of theirs reached it before (another game, before a restart):
                # Discord keeps a person's DM channel with the bot for good, so it is not
                # asked for again. Looked up here, one at a time like the openings, so that
                # many tables starting at once do not crowd the store with these reads.
                if ask_store and user_id not in self._dm_channels:
                    known = await self.service.games.dm_channel_of(user_id)
                    if known is not None:
                        self._dm_channels[user_id] = known
                if user_id not in self._dm_channels:  # opened while this one waited
                    channel = await self.bot.create_dm(discord.Object(user_id))
                    self._dm_channels[user_id] = channel.id
        return self._dm_channels[user_id]

    def forget_dm(self, user_id: int, channel_id: int) -> None:
        """The channel kept for the person is gone (Discord answered Unknown Channel): the
        next send opens theirs again."""
        if self._dm_channels.get(user_id) == channel_id:
            del self._dm_channels[user_id]

    def open_dm_soon(self, user_id: int) -> None:
        """Open the person's DM channel now, in the background, as they take a seat: the
        opening (one at a time for the whole bot) is then made while the table fills and
        starts (the invitation, the start, the thread, the table message), not after them
        with the first hand waiting for it. A person's channel is opened once either way."""
        if user_id in self._dm_channels or user_id in self._dm_early:
            return
        task = asyncio.get_running_loop().create_task(self._open_early(user_id))
        self._dm_early[user_id] = task

    async def _open_early(self, user_id: int) -> None:
        try:
            await self.dm_channel(user_id)
        except (discord.HTTPException, aiohttp.ClientError, OSError) as error:
            # Nothing lost: the hand's send opens it then, and says what went wrong.
            log.info("could not open a DM channel ahead of the first hand: %s", error)
        finally:
            self._dm_early.pop(user_id, None)

    def close(self) -> None:
        """The bot stops: openings begun ahead of a hand are not waited for."""
        for task in list(self._dm_early.values()):
            task.cancel()

    def remember_dm(self, user_id: int, channel_id: int) -> None:
        self._dm_channels[user_id] = channel_id

    async def send_dm(
        self,
        user_id: int,
        *,
        content: str | None = None,
        view: discord.ui.LayoutView | None = None,
        files: list[discord.File] | None = None,
        nonce: int | None = None,
    ) -> discord.Message:
        channel_id = await self.dm_channel(user_id)
        try:
            try:
                return await self.send(
                    channel_id, content=content, view=view, files=files, nonce=nonce
                )
            except discord.NotFound as error:
                if error.code != UNKNOWN_CHANNEL:
                    raise
                # A channel kept from before no longer exists: theirs is opened afresh.
                self.forget_dm(user_id, channel_id)
                channel_id = await self.dm_channel(user_id, ask_store=False)
                again_files = again(files) if files else None
                return await self.send(
                    channel_id, content=content, view=view, files=again_files, nonce=nonce
                )
        except discord.Forbidden as error:
            if error.code == CANNOT_DM:
                raise DmClosed(user_id) from error
            raise

    async def edit_dm(
        self,
        channel_id: int,
        message_id: int,
        view: discord.ui.LayoutView,
        files: list[discord.File],
    ) -> bool:
        """Edit a hand in place; False when the message is gone (the caller sends anew)."""
        message = self.bot.get_partial_messageable(
            channel_id, type=discord.ChannelType.private
        ).get_partial_message(message_id)
        try:
            await message.edit(view=view, attachments=files)
            return True
        except discord.NotFound:
            return False

    async def delete_dm(self, channel_id: int, message_id: int) -> None:
        """Delete an old hand (already gone is fine)."""
        message = self.bot.get_partial_messageable(
            channel_id, type=discord.ChannelType.private
        ).get_partial_message(message_id)
        with contextlib.suppress(discord.NotFound):
            await message.delete()

    def may_attach(self, channel_id: int | None) -> bool:
        """Whether the bot may attach files (pictures) in a server channel, and its threads,
        as the gateway's cache says; elsewhere (a DM, a channel not cached) it may."""
        channel = self.bot.get_channel(channel_id) if channel_id is not None else None
        guild = getattr(channel, "guild", None)
        if channel is None or guild is None or guild.me is None:
            return True
        return bool(channel.permissions_for(guild.me).attach_files)  # type: ignore[union-attr]
