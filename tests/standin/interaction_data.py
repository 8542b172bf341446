"""One interaction as the stand-in keeps it, and the shapes discord.py receives for it.

The interaction types and the answers (callback types) Discord allows for each, the live
record of one interaction, its INTERACTION_CREATE payload, the ``interaction_metadata`` of
the messages its answers create and the ``with_response`` answer to its callback.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from enum import IntEnum
from typing import TYPE_CHECKING

from .models import Channel, Message, Payload, User

if TYPE_CHECKING:
    from .messages import Messages
    from .world import World


class InteractionType(IntEnum):
    PING = 1
    APPLICATION_COMMAND = 2
    MESSAGE_COMPONENT = 3
    AUTOCOMPLETE = 4
    MODAL_SUBMIT = 5


class Callback(IntEnum):
    PONG = 1
    CHANNEL_MESSAGE = 4
    DEFERRED_CHANNEL_MESSAGE = 5
    DEFERRED_UPDATE_MESSAGE = 6
    UPDATE_MESSAGE = 7
    AUTOCOMPLETE_RESULT = 8
    MODAL = 9


ALLOWED: dict[InteractionType, frozenset[Callback]] = {
    InteractionType.APPLICATION_COMMAND: frozenset(
        {Callback.CHANNEL_MESSAGE, Callback.DEFERRED_CHANNEL_MESSAGE, Callback.MODAL}
    ),
    InteractionType.MESSAGE_COMPONENT: frozenset(
        {
            Callback.CHANNEL_MESSAGE,
            Callback.DEFERRED_CHANNEL_MESSAGE,
            Callback.DEFERRED_UPDATE_MESSAGE,
            Callback.UPDATE_MESSAGE,
            Callback.MODAL,
        }
    ),
    InteractionType.AUTOCOMPLETE: frozenset({Callback.AUTOCOMPLETE_RESULT}),
    InteractionType.MODAL_SUBMIT: frozenset(
        {
            Callback.CHANNEL_MESSAGE,
            Callback.DEFERRED_CHANNEL_MESSAGE,
            Callback.DEFERRED_UPDATE_MESSAGE,
            Callback.UPDATE_MESSAGE,
        }
    ),
}


@dataclass(eq=False)
class Interaction:
    """One interaction and everything the bot answered to it (live: it keeps changing)."""

    id: int
    token: str
    type: InteractionType
    user: User
    channel: Channel
    data: Payload
    created_at: float
    locale: str = "it"
    source: Message | None = None  # the message whose component was used
    response: Callback | None = None
    failed: bool = False
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    choices: list[Payload] | None = None
    modal: Payload | None = None
    timer: asyncio.TimerHandle | None = None

    @property
    def guild_id(self) -> int | None:
        return self.channel.guild_id

    def __str__(self) -> str:
        """What the user did, as a failing test names it: ``/scopa new by alice``."""
        data, who = self.data, self.user.username
        if self.type in (InteractionType.APPLICATION_COMMAND, InteractionType.AUTOCOMPLETE):
            names = [str(data.get("name"))]
            options = data.get("options") or []
            while options and options[0].get("type") in (1, 2):
                names.append(str(options[0]["name"]))
                options = options[0].get("options") or []
            typed = "autocomplete of " if self.type is InteractionType.AUTOCOMPLETE else ""
            return f"{typed}/{' '.join(names)} by {who}"
        used = "modal" if self.type is InteractionType.MODAL_SUBMIT else "component"
        return f"{used} {data.get('custom_id')!r} by {who}"


def create_payload(it: Interaction, world: World, messages: Messages) -> Payload:
    """INTERACTION_CREATE as discord.py parses it, from a guild channel or a DM."""
    channel = it.channel
    guild = world.guild_of(channel)
    if guild is not None:
        owners = {"0": str(guild.id)}
        bot_permissions = world.permissions_in(world.bot.id, channel)  # overwrites applied
    else:
        owners = {"1": str(it.user.id)}
        bot_permissions = 0x4000 | 0x8000 | 0x400 | 0x800 | 0x10000
    data: Payload = {
        "id": str(it.id),
        "application_id": str(world.application_id),
        "type": int(it.type),
        "data": it.data,
        "token": it.token,
        "version": 1,
        "locale": it.locale,
        "entitlements": [],
        "attachment_size_limit": 10 * 1024 * 1024,
        "channel": channel.payload(),
        "channel_id": str(channel.id),
        "app_permissions": str(bot_permissions),
        "authorizing_integration_owners": owners,
        "context": 0 if guild is not None else 1,
    }
    if guild is not None:
        member = guild.members[it.user.id]
        data.update(
            guild_id=str(guild.id),
            guild_locale="it",
            guild={"id": str(guild.id), "locale": "it", "features": []},
            member=member.payload(permissions=world.permissions_in(it.user.id, channel)),
        )
    else:
        data["user"] = it.user.payload()
    if it.source is not None:
        data["message"] = messages.payload(it.source)
    return data


def metadata(it: Interaction) -> Payload:
    """``interaction_metadata`` of the messages an interaction's answers create."""
    guild_id = it.guild_id
    metadata: Payload = {
        "id": str(it.id),
        "type": int(it.type),
        "user": it.user.payload(),
        "authorizing_integration_owners": {"0": str(guild_id)}
        if guild_id
        else {"1": str(it.user.id)},
    }
    if it.type is InteractionType.APPLICATION_COMMAND:
        metadata["name"] = it.data.get("name")
        metadata["command_type"] = it.data.get("type", 1)
    if it.source is not None:
        metadata["interacted_message_id"] = str(it.source.id)
    return metadata


def callback_response(it: Interaction, kind: Callback, messages: Messages) -> Payload:
    """The ``with_response`` answer to a callback: ``{interaction, resource}``."""
    info: Payload = {"id": str(it.id), "type": int(it.type)}
    if (
        kind
        in (
            Callback.CHANNEL_MESSAGE,
            Callback.DEFERRED_CHANNEL_MESSAGE,
            Callback.UPDATE_MESSAGE,
        )
        and it.original is not None
    ):
        info.update(
            response_message_id=str(it.original.id),
            response_message_loading=it.original.loading,
            response_message_ephemeral=it.original.ephemeral,
        )
    response: Payload = {"interaction": info}
    if kind in (Callback.CHANNEL_MESSAGE, Callback.UPDATE_MESSAGE) and it.original:
        response["resource"] = {
            "type": int(kind),
            "message": messages.payload(it.original),
        }
    return response
