"""The in-memory Discord: users, guilds, channels, threads, messages and commands.

The world is plain synchronous data. It knows how Discord serialises each object (the
``payload()`` methods), because discord.py parses exactly those shapes; it does not know about
HTTP or the gateway. Whenever something changes that Discord would tell the bot about, the
world calls ``emit(event, data)``; the server forwards that to the gateway. Every change also
bumps ``version`` and wakes ``wait_for`` so tests can wait for a condition instead of sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import IntEnum
from typing import Any

DISCORD_EPOCH_MS = 1_420_070_400_000
IS_COMPONENTS_V2 = 1 << 15
EPHEMERAL = 1 << 6
LOADING = 1 << 7

Payload = dict[str, Any]


class ChannelType(IntEnum):
    GUILD_TEXT = 0
    DM = 1
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12


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


@dataclass
class User:
    id: int
    username: str
    bot: bool = False
    dms_open: bool = True
    global_name: str | None = None

    def payload(self) -> Payload:
        return {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name or self.username,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }


@dataclass
class Role:
    id: int
    name: str
    permissions: int = 0
    position: int = 0

    def payload(self) -> Payload:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass
class Member:
    user: User
    joined_at: str
    roles: list[int] = field(default_factory=list)
    nick: str | None = None

    def payload(self, *, permissions: int | None = None) -> Payload:
        data: Payload = {
            "user": self.user.payload(),
            "nick": self.nick,
            "avatar": None,
            "roles": [str(r) for r in self.roles],
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
        }
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass
class Channel:
    id: int
    type: ChannelType
    name: str | None = None
    guild_id: int | None = None
    parent_id: int | None = None
    position: int = 0
    recipient: User | None = None  # DMs
    owner_id: int | None = None  # threads
    thread_members: set[int] = field(default_factory=set)
    created_at: str = ""

    @property
    def is_thread(self) -> bool:
        return self.type in (ChannelType.PUBLIC_THREAD, ChannelType.PRIVATE_THREAD)

    def payload(self, *, message_count: int = 0) -> Payload:
        if self.type is ChannelType.DM:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": None,
                "recipients": [self.recipient.payload()],
                "flags": 0,
            }
        data: Payload = {
            "id": str(self.id),
            "type": int(self.type),
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
            "topic": None,
        }
        if self.is_thread:
            data.update(
                owner_id=str(self.owner_id),
                message_count=message_count,
                member_count=len(self.thread_members),
                total_message_sent=message_count,
                thread_metadata={
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": self.created_at,
                    "locked": False,
                    "invitable": True,
                    "create_timestamp": self.created_at,
                },
            )
            del data["position"], data["permission_overwrites"], data["topic"]
        return data


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    roles: list[Role] = field(default_factory=list)
    members: dict[int, Member] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)

    def permissions_of(self, user_id: int) -> int:
        """The member's base permissions: the OR of @everyone and their roles."""
        if user_id == self.owner_id:
            return (1 << 53) - 1
        member = self.members.get(user_id)
        mine = set(member.roles) if member else set()
        value = 0
        for role in self.roles:
            if role.id == self.id or role.id in mine:
                value |= role.permissions
        return value


@dataclass
class Revision:
    """One state of a message as users saw it, kept so tests can follow every edit."""

    at: float
    content: str
    embeds: list[Payload]
    components: list[Payload]
    flags: int


@dataclass
class Message:
    id: int
    channel_id: int
    author: User
    content: str = ""
    embeds: list[Payload] = field(default_factory=list)
    components: list[Payload] = field(default_factory=list)
    attachments: list[Payload] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    timestamp: str = ""
    edited_timestamp: str | None = None
    ephemeral_to: int | None = None  # only this user sees it
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_metadata: Payload | None = None
    message_reference: Payload | None = None
    thread_id: int | None = None
    deleted: bool = False
    history: list[Revision] = field(default_factory=list)

    @property
    def loading(self) -> bool:
        """A deferred reply still showing "… is thinking"."""
        return bool(self.flags & LOADING)

    @property
    def ephemeral(self) -> bool:
        return self.ephemeral_to is not None

    @property
    def is_v2(self) -> bool:
        return bool(self.flags & IS_COMPONENTS_V2)

    def snapshot(self, at: float) -> None:
        self.history.append(
            Revision(at, self.content, list(self.embeds), list(self.components), self.flags)
        )

    def payload(self, *, guild_id: int | None = None) -> Payload:
        data: Payload = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": self.attachments,
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        if self.message_reference is not None:
            data["message_reference"] = self.message_reference
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
        return data

    # What people read -------------------------------------------------------------------

    def text(self) -> str:
        """Everything a person reads on this message: content, embeds and component text."""
        parts = [self.content]
        for embed in self.embeds:
            parts.extend(_embed_strings(embed))
        for component in walk_components(self.components):
            parts.extend(_component_strings(component))
        return "\n".join(p for p in parts if p)

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in walk_components(self.components) if "custom_id" in c]

    def buttons(self) -> list[Payload]:
        return [c for c in walk_components(self.components) if c.get("type") == 2]

    def button(self, label_or_id: str) -> Payload:
        """The button whose label or custom_id is ``label_or_id``; fails clearly otherwise."""
        for button in self.buttons():
            if label_or_id in (button.get("label"), button.get("custom_id")):
                return button
        shown = [b.get("label") or b.get("custom_id") for b in self.buttons()]
        raise LookupError(f"no button {label_or_id!r} on message {self.id}; buttons: {shown}")

    def selects(self) -> list[Payload]:
        return [c for c in walk_components(self.components) if c.get("type") in (3, 5, 6, 7, 8)]


def walk_components(components: list[Payload]) -> Iterator[Payload]:
    """Every component, depth first, through action rows, containers, sections and labels."""
    for component in components:
        yield component
        yield from walk_components(component.get("components") or [])
        if isinstance(component.get("accessory"), dict):
            yield from walk_components([component["accessory"]])
        if isinstance(component.get("component"), dict):
            yield from walk_components([component["component"]])


def _embed_strings(embed: Payload) -> Iterator[str]:
    for key in ("title", "description"):
        if embed.get(key):
            yield str(embed[key])
    for key in ("footer", "author"):
        sub = embed.get(key) or {}
        for inner in ("text", "name"):
            if sub.get(inner):
                yield str(sub[inner])
    for f in embed.get("fields") or []:
        yield str(f.get("name", ""))
        yield str(f.get("value", ""))


def _component_strings(component: Payload) -> Iterator[str]:
    for key in ("label", "placeholder", "content", "description"):
        if component.get(key):
            yield str(component[key])
    for option in component.get("options") or []:
        yield str(option.get("label", ""))
        if option.get("description"):
            yield str(option["description"])


@dataclass
class Command:
    """An application command as registered by the bot (the stored payload plus ids)."""

    id: int
    guild_id: int | None
    data: Payload

    @property
    def name(self) -> str:
        return str(self.data["name"])

    @property
    def type(self) -> int:
        return int(self.data.get("type", 1))


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
        self, parent: Channel, name: str, *, owner: User, private: bool = False,
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
        threads = [
            c for c in self.channels.values() if c.is_thread and c.guild_id == guild.id
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
