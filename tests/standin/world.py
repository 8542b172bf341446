"""The in-memory Discord: who and what exists, who sees what, and change notification.

The world is plain synchronous data; it does not know about HTTP or the gateway. Whenever
something changes that Discord would tell the bot about, it calls ``emit(event, data)``,
which the server wires to the gateway. Every change also bumps ``version`` and wakes
``wait_for``, so tests wait for a condition instead of sleeping.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from . import permissions as perms
from .models import (
    Channel,
    ChannelType,
    Command,
    Guild,
    Member,
    Message,
    Payload,
    Role,
    User,
)
from .permissions import Overwrite

DISCORD_EPOCH_MS = 1_420_070_400_000


class Clock:
    """Wall-clock time that tests can push forward (to expire 15-minute tokens at once)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def now(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds

    def iso(self) -> str:
        return datetime.fromtimestamp(self.now(), UTC).isoformat()


class Snowflakes:
    """Real-looking snowflakes: the timestamp in the top bits, a counter in the low ones."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._counter = itertools.count(1)

    def next(self, *, shard: tuple[int, int] | None = None) -> int:
        """A new id; with ``shard`` (``(shard_id, num_shards)``) one whose guild that shard
        hears of, its timestamp put at most ``num_shards - 1`` ms ahead."""
        ms = int(self._clock.now() * 1000) - DISCORD_EPOCH_MS
        if shard is not None:
            shard_id, num_shards = shard
            ms += (shard_id - ms) % num_shards
        return (ms << 22) | (next(self._counter) & 0x3FFFFF)


# How much longer than a test's own timeout a wait may take before it fails (see
# ``World.wait_for``); ``STANDIN_PATIENCE=1`` holds tests to their written timeouts.
PATIENCE = float(os.environ.get("STANDIN_PATIENCE", "3"))


class World:
    """All state of the stand-in, with builders for tests and lookups for the server."""

    def __init__(self, *, bot_name: str = "ScopaBot", token: str = "standin-token") -> None:
        self.clock = Clock()
        self.ids = Snowflakes(self.clock)
        self.token = token
        self.application_id = self.ids.next()
        self.bot = User(self.application_id, bot_name, bot=True)
        self.users: dict[int, User] = {self.bot.id: self.bot}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.commands: dict[int, Command] = {}
        self.emit: Callable[[str, Payload], None] = lambda event, data: None
        self.version = 0
        # The waiters of ``wait_for``, woken all at once by a change or by the one shared tick:
        # a bench's hundreds of people each waiting for their hand cost a future a wake-up,
        # not a task and a timer each (which made the harness, not the bot, the busy process).
        self._waiters: list[asyncio.Future[None]] = []
        self._tick: asyncio.TimerHandle | None = None
        self._dms: dict[int, Channel] = {}  # user id -> the bot's DM channel with them
        self._by_channel: dict[int, list[Message]] = {}  # channel id -> its messages, oldest first

    # Change notification ----------------------------------------------------------------

    def touch(self) -> None:
        self.version += 1
        self._wake()

    def _wake(self) -> None:
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    def _next_change(self) -> asyncio.Future[None]:
        """A future that comes true at the next change, or within 10 ms (one tick for all)."""
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[None] = loop.create_future()
        self._waiters.append(waiter)
        if self._tick is None:
            self._tick = loop.call_later(0.01, self._wake)
        return waiter

    async def wait_for(self, predicate: Callable[[], Any], *, timeout: float = 2.0) -> Any:
        """Wait until ``predicate()`` is truthy and return it.

        It is re-checked after every change to the world, and every 10 ms besides, since
        predicates may also read the bot's own state, which changes without telling us.
        ``timeout`` is how long a test is willing to wait for that state on a quiet machine,
        never a claim about speed (speed is measured by ``bench/``): it is stretched by
        :data:`PATIENCE`, so that a loaded machine (CI's two cores running pytest, bot.py,
        its picture workers and PostgreSQL at once) fails a test only when the state never
        comes, not when it comes late. What Discord itself times (an interaction's 3 s) is
        not stretched: the stand-in judges those by its own clock.
        """
        async with asyncio.timeout(timeout * PATIENCE):
            while not (result := predicate()):
                await self._next_change()
            return result

    # Builders for tests -----------------------------------------------------------------

    def add_user(self, username: str, *, dms_open: bool = True, bot: bool = False) -> User:
        user = User(self.ids.next(), username, bot=bot, dms_open=dms_open)
        self.users[user.id] = user
        return user

    def add_guild(self, name: str, *, owner: User, shard: tuple[int, int] | None = None) -> Guild:
        """A new server; with ``shard`` (``(shard_id, num_shards)``) one whose events go to
        that shard (its id chosen so: ``(id >> 22) % num_shards == shard_id``)."""
        guild = Guild(self.ids.next(shard=shard), name, owner.id)
        # @everyone shares the guild's id: Discord's defaults for a new server (view, send,
        # embed links, attach files, read history, use commands) but not threads, which
        # tests grant with a role to see both ways a table is placed.
        everyone = (
            perms.VIEW_CHANNEL
            | perms.SEND_MESSAGES
            | perms.EMBED_LINKS
            | perms.ATTACH_FILES
            | perms.READ_MESSAGE_HISTORY
            | perms.USE_APPLICATION_COMMANDS
        )
        guild.roles.append(Role(guild.id, "@everyone", permissions=everyone))
        self.guilds[guild.id] = guild
        self.add_member(guild, owner)
        self.add_member(guild, self.bot)
        return guild

    def add_role(self, guild: Guild, name: str, *, permissions: int = 0) -> Role:
        role = Role(self.ids.next(), name, permissions, position=len(guild.roles))
        guild.roles.append(role)
        return role

    def add_member(self, guild: Guild, user: User, *, roles: list[Role] | None = None) -> Member:
        member = Member(user, self.clock.iso(), [r.id for r in roles or []])
        guild.members[user.id] = member
        return member

    def add_text_channel(self, guild: Guild, name: str) -> Channel:
        channel = Channel(
            self.ids.next(), ChannelType.GUILD_TEXT, name, guild.id, position=len(guild.channel_ids)
        )
        self.channels[channel.id] = channel
        guild.channel_ids.append(channel.id)
        return channel

    def add_thread(
        self,
        parent: Channel,
        name: str,
        *,
        owner: User,
        private: bool = False,
        thread_id: int | None = None,
    ) -> Channel:
        """A thread in ``parent``; one started from a message takes the message's id."""
        kind = ChannelType.PRIVATE_THREAD if private else ChannelType.PUBLIC_THREAD
        thread = Channel(
            thread_id or self.ids.next(),
            kind,
            name,
            parent.guild_id,
            parent_id=parent.id,
            owner_id=owner.id,
            thread_members={owner.id},
            created_at=self.clock.iso(),
        )
        self.channels[thread.id] = thread
        data = thread.payload()
        data["newly_created"] = True
        self.emit("THREAD_CREATE", data)
        self.touch()
        return thread

    # What moderators do ------------------------------------------------------------------

    def set_overwrite(
        self, channel: Channel, target: User | Role | Guild, *, allow: int = 0, deny: int = 0
    ) -> None:
        """A channel's permission overwrite for a member, a role or @everyone (the guild)."""
        kind = perms.MEMBER if isinstance(target, User) else perms.ROLE
        channel.overwrites[target.id] = Overwrite(kind, allow, deny)
        self.emit("CHANNEL_UPDATE", channel.payload())
        self.touch()

    def archive_thread(
        self, thread: Channel, *, archived: bool = True, locked: bool = False
    ) -> None:
        """Archive (or unarchive) a thread, as a moderator or Discord's inactivity timer does."""
        assert thread.is_thread and not thread.deleted
        thread.archived, thread.locked = archived, locked
        thread.archive_timestamp = self.clock.iso()
        self.emit("THREAD_UPDATE", thread.payload())
        self.touch()

    def delete_channel(self, channel: Channel) -> None:
        """Delete a channel or thread with everything in it, as a moderator does.

        Discord sends THREAD_DELETE (CHANNEL_DELETE for a channel) and no event per
        message; a message that started the thread stays in the parent, threadless."""
        channel.deleted = True
        for message in self.messages.values():
            if message.channel_id == channel.id:
                message.deleted = True
            elif message.thread_id == channel.id:
                message.thread_id = None
        if channel.is_thread:
            self.emit(
                "THREAD_DELETE",
                {
                    "id": str(channel.id),
                    "guild_id": str(channel.guild_id),
                    "parent_id": str(channel.parent_id),
                    "type": int(channel.type),
                },
            )
        else:
            guild = self.guild_of(channel)
            if guild is not None and channel.id in guild.channel_ids:
                guild.channel_ids.remove(channel.id)
            self.emit("CHANNEL_DELETE", channel.payload())
        self.touch()

    def posted_in(self, channel: Channel) -> None:
        """Someone posted in ``channel``: an archived thread that is not locked opens again.

        Discord's threads topic: "Sending a message will automatically unarchive the
        thread, unless the thread has been locked by a moderator" (the Threads page of the
        developer docs, "Active & Archived Threads")."""
        if channel.is_thread and channel.archived and not channel.locked:
            self.archive_thread(channel, archived=False)

    def dm_channel(self, user: User) -> Channel:
        """The bot's DM channel with ``user``, opened on first use like Discord does."""
        channel = self._dms.get(user.id)
        if channel is None:
            channel = Channel(self.ids.next(), ChannelType.DM, recipient=user)
            self.channels[channel.id] = channel
            self._dms[user.id] = channel
        return channel

    # Lookups ------------------------------------------------------------------------------

    def user_named(self, username: str) -> User:
        for user in self.users.values():
            if user.username == username:
                return user
        raise LookupError(f"no user named {username!r}")

    def channel_named(self, name: str) -> Channel:
        for channel in self.channels.values():
            if channel.name == name:
                return channel
        raise LookupError(f"no channel named {name!r}")

    def guild_of(self, channel: Channel) -> Guild | None:
        return self.guilds.get(channel.guild_id) if channel.guild_id else None

    def permissions_in(self, user_id: int, channel: Channel) -> int:
        """``user_id``'s permissions in ``channel``, overwrites applied (DMs: the usual few)."""
        guild = self.guild_of(channel)
        if guild is None:
            return (
                perms.VIEW_CHANNEL
                | perms.SEND_MESSAGES
                | perms.EMBED_LINKS
                | perms.ATTACH_FILES
                | perms.READ_MESSAGE_HISTORY
            )
        parent = self.channels.get(channel.parent_id) if channel.parent_id else None
        return perms.permissions_in(guild, user_id, channel, parent)

    def can_see(self, user_id: int, channel: Channel) -> bool:
        if channel.deleted:
            return False
        if channel.type is ChannelType.DM:
            return user_id in (self.bot.id, channel.recipient.id if channel.recipient else 0)
        if channel.type is ChannelType.PRIVATE_THREAD:
            return user_id in channel.thread_members or user_id == self.bot.id
        guild = self.guild_of(channel)
        return guild is not None and user_id in guild.members

    def sees(self, user_id: int, message: Message) -> bool:
        """Whether ``user_id`` sees ``message``: ephemeral ones only for their owner."""
        if message.deleted:
            return False
        if message.ephemeral_to is not None:
            return message.ephemeral_to == user_id
        return self.can_see(user_id, self.channels[message.channel_id])

    def timeline(self, channel: Channel, viewer: User) -> list[Message]:
        """The channel as ``viewer`` sees it now, oldest first, with edits applied."""
        return [m for m in self._by_channel.get(channel.id, ()) if self.sees(viewer.id, m)]

    def channel_messages(self, channel_id: int) -> list[Message]:
        return [
            m
            for m in self._by_channel.get(channel_id, ())
            if not m.deleted and m.ephemeral_to is None
        ]

    def add_message(self, message: Message) -> None:
        """A new message, kept by id and in its channel's order (timelines read one channel,
        not every message ever sent)."""
        self.messages[message.id] = message
        self._by_channel.setdefault(message.channel_id, []).append(message)

    # Guild payloads for the gateway -----------------------------------------------------

    def guild_create_payload(self, guild: Guild) -> Payload:
        channels = [self.channels[c] for c in guild.channel_ids]
        threads = [  # active threads only, as Discord syncs them
            c
            for c in self.channels.values()
            if c.is_thread and c.guild_id == guild.id and not c.deleted and not c.archived
        ]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(guild.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in guild.roles],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "it",
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": guild.members[self.bot.id].joined_at,
            "large": False,
            "unavailable": False,
            "member_count": len(guild.members),
            "members": [m.payload() for m in guild.members.values()],
            "channels": [c.payload() for c in channels],
            "threads": [t.payload() for t in threads],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


def default_world() -> World:
    """A small server to play in: #tavolo in "Osteria", four players, one with DMs closed."""
    world = World()
    alice = world.add_user("alice")
    guild = world.add_guild("Osteria", owner=alice)
    for name in ("bob", "carol"):
        world.add_member(guild, world.add_user(name))
    world.add_member(guild, world.add_user("dave", dms_open=False))
    world.add_text_channel(guild, "tavolo")
    world.add_text_channel(guild, "chiacchiere")
    return world
