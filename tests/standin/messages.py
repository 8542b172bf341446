"""Creating, editing and deleting messages, with everything Discord does around it.

REST routes and interaction responses both end here, so the rules live once: the fields a
body may set, edit history for assertions, the gateway echo (MESSAGE_CREATE/UPDATE/DELETE,
never for ephemeral messages) and the privacy check after every change.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from .gateway import Gateway
from .models import EPHEMERAL, IS_COMPONENTS_V2, LOADING, Channel, Message, Payload, User
from .privacy import Leak, PrivacyGuard
from .world import World

# Flags a bot may set on a message it sends; Discord ignores the others.
SETTABLE_FLAGS = EPHEMERAL | IS_COMPONENTS_V2 | (1 << 2) | (1 << 12)

# Create Message with ``enforce_nonce``: "If true and nonce is present, it will be checked for
# uniqueness in the past few minutes. If another message was created by the same author with
# the same nonce, that message will be returned and no new message will be created."
# Discord gives no figure for "a few minutes"; five here.
NONCE_WINDOW = 300.0


class Messages:
    def __init__(
        self, world: World, gateway: Gateway, privacy: PrivacyGuard, on_leak: Callable[[Leak], None]
    ) -> None:
        self.world = world
        self.gateway = gateway
        self.privacy = privacy
        self.on_leak = on_leak
        # (author, nonce) -> (message id, when): the messages a nonce made, for enforce_nonce
        self._nonces: dict[tuple[int, str], tuple[int, float]] = {}

    def by_nonce(self, author: User, nonce: Any) -> Message | None:
        """The message ``author`` made with ``nonce`` in the last :data:`NONCE_WINDOW`."""
        found = self._nonces.get((author.id, str(nonce)))
        if found is None or self.world.clock.now() - found[1] > NONCE_WINDOW:
            return None
        message = self.world.messages.get(found[0])
        return None if message is None or message.deleted else message

    def remember_nonce(self, message: Message, nonce: Any) -> None:
        self._nonces[message.author.id, str(nonce)] = (message.id, self.world.clock.now())

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
        world.add_message(message)
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
        if creating and isinstance(body.get("poll"), dict):
            message.poll = self._poll(body["poll"])

    def _attachments(
        self, wanted: list[Payload] | None, files: list[Payload], message: Message
    ) -> list[Payload]:
        """Kept attachments (by id) and new uploads (``files[n]``, described by ``id: n``)."""
        kept = {str(a["id"]): a for a in message.attachments}
        uploads = {str(f["index"]): f for f in files if f.get("index") is not None}
        result = []
        for item in wanted or []:
            key = str(item.get("id"))
            if key in kept:
                result.append(kept[key])
            elif key in uploads:
                result.append(self._attachment(uploads.pop(key), item, message))
        described = {id(f) for f in uploads.values()}
        for f in files:
            if f.get("index") is None or id(f) in described:
                result.append(self._attachment(f, {}, message))
        return result

    def _attachment(self, upload: Payload, item: Payload, message: Message) -> Payload:
        attachment_id = self.world.ids.next()
        filename = item.get("filename") or upload["filename"]
        where = f"attachments/{message.channel_id}/{attachment_id}/{filename}"
        data: Payload = {
            "id": str(attachment_id),
            "filename": filename,
            "size": upload["size"],
            "content_type": upload.get("content_type") or "application/octet-stream",
            "url": f"https://cdn.discordapp.com/{where}",
            "proxy_url": f"https://media.discordapp.net/{where}",
        }
        if item.get("description"):
            data["description"] = item["description"]
        return data

    def _poll(self, poll: Payload) -> Payload:
        """The poll as Discord returns it: numbered answers and an expiry instead of hours."""
        hours = int(poll.get("duration") or 24)
        return {
            "question": poll.get("question") or {},
            "answers": [
                {"answer_id": i, "poll_media": answer.get("poll_media") or {}}
                for i, answer in enumerate(poll.get("answers") or [], start=1)
            ],
            "expiry": datetime.fromtimestamp(
                self.world.clock.now() + hours * 3600, UTC
            ).isoformat(),
            "allow_multiselect": bool(poll.get("allow_multiselect")),
            "layout_type": int(poll.get("layout_type") or 1),
        }

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
