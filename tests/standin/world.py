"""The in-memory Discord: who and what exists, who sees what, and change notification.

The world is plain synchronous data; it does not know about HTTP or the gateway. Whenever
something changes that Discord would tell the bot about, it calls ``emit(event, data)``,
which the server wires to the gateway. Every change also bumps ``version`` and wakes
``wait_for``, so tests wait for a condition instead of sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

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

    def next(self) -> int:
        ms = int(self._clock.now() * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._counter) & 0x3FFFFF)


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
        self._changed = asyncio.Event()

    # Change notification ----------------------------------------------------------------

    def touch(self) -> None:
        self.version += 1
        self._changed.set()

    async def wait_for(self, predicate: Callable[[], Any], *, timeout: float = 2.0) -> Any:
        """Wait until ``predicate()`` is truthy and return it.

        It is re-checked after every change to the world, and every 10 ms besides, since
        predicates may also read the bot's own state, which changes without telling us.
        """
        async with asyncio.timeout(timeout):
            while not (result := predicate()):
                self._changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), 0.01)
            return result

    # Builders for tests -----------------------------------------------------------------

    def add_user(self, username: str, *, dms_open: bool = True, bot: bool = False) -> User:
        user = User(self.ids.next(), username, bot=bot, dms_open=dms_open)
        self.users[user.id] = user
        return user

    def add_guild(self, name: str, *, owner: User) -> Guild:
        guild = Guild(self.ids.next(), name, owner.id)
        # @everyone shares the guild's id; send messages, view channel, use app commands
        guild.roles.append(Role(guild.id, "@everyone", permissions=0x80000000 | 0x800 | 0x400))
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

    def dm_channel(self, user: User) -> Channel:
        """The bot's DM channel with ``user``, opened on first use like Discord does."""
        for channel in self.channels.values():
            if channel.type is ChannelType.DM and channel.recipient is user:
                return channel
        channel = Channel(self.ids.next(), ChannelType.DM, recipient=user)
        self.channels[channel.id] = channel
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

    def can_see(self, user_id: int, channel: Channel) -> bool:
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
        return [
            m
            for m in self.messages.values()
            if m.channel_id == channel.id and self.sees(viewer.id, m)
        ]

    def channel_messages(self, channel_id: int) -> list[Message]:
        return [
            m
            for m in self.messages.values()
            if m.channel_id == channel_id and not m.deleted and m.ephemeral_to is None
        ]

    # Guild payloads for the gateway -----------------------------------------------------

    def guild_create_payload(self, guild: Guild) -> Payload:
        channels = [self.channels[c] for c in guild.channel_ids]
        threads = [c for c in self.channels.values() if c.is_thread and c.guild_id == guild.id]
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
