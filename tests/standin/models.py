"""Discord's objects as the stand-in keeps them, and the JSON shapes discord.py parses.

The ``payload()`` methods write each object exactly as Discord serialises it (snowflakes as
strings, every field discord.py reads present), because the client under test builds its own
objects from these payloads and would fail on anything less.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from .permissions import Overwrite

IS_COMPONENTS_V2 = 1 << 15
EPHEMERAL = 1 << 6
LOADING = 1 << 7

Payload = dict[str, Any]


class ChannelType(IntEnum):
    GUILD_TEXT = 0
    DM = 1
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12


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
    overwrites: dict[int, Overwrite] = field(default_factory=dict)  # guild channels
    archived: bool = False  # threads
    locked: bool = False  # threads
    archive_timestamp: str = ""  # threads: when archived last changed
    deleted: bool = False

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
            "permission_overwrites": [o.payload(t) for t, o in self.overwrites.items()],
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
                    "archived": self.archived,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": self.archive_timestamp or self.created_at,
                    "locked": self.locked,
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

    def text(self) -> str:
        """Everything a person read on the message in this state (see :meth:`Message.text`)."""
        parts = [self.content]
        for embed in self.embeds:
            parts.extend(_embedstrings_in(embed))
        for component in walk_components(self.components):
            parts.extend(_componentstrings_in(component))
        return "\n".join(p for p in parts if p)


@dataclass
class Message:
    id: int
    channel_id: int
    author: User
    content: str = ""
    embeds: list[Payload] = field(default_factory=list)
    components: list[Payload] = field(default_factory=list)
    attachments: list[Payload] = field(default_factory=list)
    poll: Payload | None = None  # as Discord returns it (answer ids, expiry)
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
        if self.poll is not None:
            data["poll"] = self.poll
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
            parts.extend(_embedstrings_in(embed))
        for component in walk_components(self.components):
            parts.extend(_componentstrings_in(component))
        return "\n".join(p for p in parts if p)

    def received(self) -> Iterator[tuple[str, str]]:
        """Every string the bot chose that any client receives, shown or not, with its path.

        Not only what is drawn: custom_ids, select option values, link URLs, emoji names,
        attachment file names and descriptions and media alt text all reach every viewer's
        client, so a secret in any of them is as good as said out loud.
        """
        yield "content", self.content
        yield from strings_in(self.embeds, "embeds")
        yield from strings_in(self.components, "components")
        for i, attachment in enumerate(self.attachments):
            for key in ("filename", "title", "description"):
                if isinstance(attachment.get(key), str):
                    yield f"attachments[{i}].{key}", attachment[key]
        if self.poll is not None:
            yield from strings_in(self.poll, "poll")

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


def strings_in(node: Any, path: str) -> Iterator[tuple[str, str]]:
    """Every string inside ``node`` (dicts and lists, walked to the end), with its path."""
    if isinstance(node, str):
        yield path, node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from strings_in(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from strings_in(value, f"{path}[{i}]")


def _embedstrings_in(embed: Payload) -> Iterator[str]:
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


def _componentstrings_in(component: Payload) -> Iterator[str]:
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
