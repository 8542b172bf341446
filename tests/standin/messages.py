"""Creating, editing and deleting messages, with everything Discord does around it.

REST routes and interaction responses both end here, so the rules live once: the fields a
body may set, edit history for assertions, the gateway echo (MESSAGE_CREATE/UPDATE/DELETE,
never for ephemeral messages) and the privacy check after every change.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .gateway import Gateway
from .models import EPHEMERAL, IS_COMPONENTS_V2, LOADING, Channel, Message, Payload, User
from .privacy import Leak, PrivacyGuard
from .world import World

# Flags a bot may set on a message it sends; Discord ignores the others.
SETTABLE_FLAGS = EPHEMERAL | IS_COMPONENTS_V2 | (1 << 2) | (1 << 12)


class Messages:
    def __init__(
        self, world: World, gateway: Gateway, privacy: PrivacyGuard, on_leak: Callable[[Leak], None]
    ) -> None:
        self.world = world
        self.gateway = gateway
        self.privacy = privacy
        self.on_leak = on_leak

    def create(
        self,
        channel: Channel,
        author: User,
        body: Payload,
        *,
        files: list[Payload] | None = None,
        ephemeral_to: int | None = None,
        **extra: Any,
    ) -> Message:
        world = self.world
        message = Message(
            id=extra.pop("id", None) or world.ids.next(),
            channel_id=channel.id,
            author=author,
            timestamp=world.clock.iso(),
            ephemeral_to=ephemeral_to,
            **extra,
        )
        self._apply(message, body, files or [], creating=True)
        if ephemeral_to is not None:
            message.flags |= EPHEMERAL
        world.messages[message.id] = message
        message.snapshot(world.clock.now())
        self._echo("MESSAGE_CREATE", message, channel)
        self._after_change(message)
        return message

    def edit(
        self,
        message: Message,
        body: Payload,
        *,
        files: list[Payload] | None = None,
        finish_loading: bool = False,
    ) -> Message:
        world = self.world
        self._apply(message, body, files or [], creating=False)
        if finish_loading:
            message.flags &= ~LOADING
        message.edited_timestamp = world.clock.iso()
        message.snapshot(world.clock.now())
        self._echo("MESSAGE_UPDATE", message, world.channels[message.channel_id])
        self._after_change(message)
        return message

    def delete(self, message: Message) -> None:
        message.deleted = True
        channel = self.world.channels[message.channel_id]
        if message.ephemeral_to is None:
            data: Payload = {"id": str(message.id), "channel_id": str(channel.id)}
            if channel.guild_id:
                data["guild_id"] = str(channel.guild_id)
            self.gateway.dispatch_message(
                "MESSAGE_DELETE", data, channel_type=channel.type, author_id=self.world.bot.id
            )
        self.world.touch()

    def payload(self, message: Message) -> Payload:
        channel = self.world.channels[message.channel_id]
        return message.payload(guild_id=channel.guild_id)

    # ------------------------------------------------------------------------------------

    def _apply(
        self, message: Message, body: Payload, files: list[Payload], *, creating: bool
    ) -> None:
        if "content" in body:
            message.content = body["content"] or ""
        if "embeds" in body:
            message.embeds = [_embed(e) for e in body["embeds"] or []]
        elif body.get("embed"):
            message.embeds = [_embed(body["embed"])]
        if "components" in body:
            message.components = body["components"] or []
        if body.get("flags") is not None:
            keep = message.flags & ~SETTABLE_FLAGS
            flags = int(body["flags"]) & SETTABLE_FLAGS
            if not creating:
                flags = (flags & ~EPHEMERAL) | (message.flags & EPHEMERAL)
            message.flags = keep | flags
        if "attachments" in body or files:
            message.attachments = self._attachments(body.get("attachments"), files, message)

    def _attachments(
        self, wanted: list[Payload] | None, files: list[Payload], message: Message
    ) -> list[Payload]:
        kept = {str(a["id"]): a for a in message.attachments}
        result = []
        for item in wanted or []:
            if str(item.get("id")) in kept:
                result.append(kept[str(item["id"])])
        for f in files:
            attachment_id = self.world.ids.next()
            result.append(
                {
                    "id": str(attachment_id),
                    "filename": f["filename"],
                    "size": f["size"],
                    "content_type": f.get("content_type") or "application/octet-stream",
                    "url": f"https://cdn.discordapp.com/attachments/{message.channel_id}/"
                    f"{attachment_id}/{f['filename']}",
                    "proxy_url": f"https://media.discordapp.net/attachments/{message.channel_id}/"
                    f"{attachment_id}/{f['filename']}",
                }
            )
        return result

    def _echo(self, event: str, message: Message, channel: Channel) -> None:
        if message.ephemeral_to is None:
            data = message.payload(guild_id=channel.guild_id)
            guild = self.world.guild_of(channel)
            if guild is not None and message.author.id in guild.members:
                member = guild.members[message.author.id].payload()
                del member["user"]
                data["member"] = member
            self.gateway.dispatch_message(
                event, data, channel_type=channel.type, author_id=message.author.id
            )
        self.world.touch()

    def _after_change(self, message: Message) -> None:
        if message.author.id != self.world.bot.id:
            return  # people may say what they like about their own cards
        for leak in self.privacy.check(message):
            self.on_leak(leak)


def _embed(embed: Payload) -> Payload:
    """Discord fills in ``type: rich`` and drops nulls; discord.py reads it back that way."""
    data = {k: v for k, v in embed.items() if v is not None}
    data.setdefault("type", "rich")
    return data
