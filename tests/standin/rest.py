"""The bot-authenticated REST routes: identity, commands, channels, messages, DMs, threads.

Routes are written exactly as the OpenAPI spec writes them, so the request validator finds
the right schema by the same string. Interaction callbacks and webhook follow-ups live in
``interactions.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import errors
from . import permissions as perms
from .errors import DiscordError, missing_permissions, not_found, thread_archived
from .models import Channel, ChannelType, Command, Guild, Message, Payload

if TYPE_CHECKING:
    from .dispatch import Call, Handler
    from .server import DiscordStandIn

RouteSpec = tuple[str, str, "Handler", bool]


class RestApi:
    def __init__(self, standin: DiscordStandIn) -> None:
        self.s = standin
        self.world = standin.world

    def routes(self) -> list[RouteSpec]:
        from .channels import ChannelsApi

        app = "/applications/{application_id}"
        channel = "/channels/{channel_id}"
        return [
            ("GET", "/users/@me", self.me, True),
            ("GET", "/users/{user_id}", self.get_user, True),
            ("POST", "/users/@me/channels", self.open_dm, True),
            ("GET", "/oauth2/applications/@me", self.application, True),
            ("GET", "/applications/@me", self.application, True),
            ("GET", "/gateway", self.gateway, False),
            ("GET", "/gateway/bot", self.gateway_bot, True),
            ("GET", f"{app}/commands", self.list_commands, True),
            ("PUT", f"{app}/commands", self.overwrite_commands, True),
            ("POST", f"{app}/commands", self.upsert_command, True),
            ("GET", f"{app}/commands/{{command_id}}", self.get_command, True),
            ("PATCH", f"{app}/commands/{{command_id}}", self.edit_command, True),
            ("DELETE", f"{app}/commands/{{command_id}}", self.delete_command, True),
            ("GET", f"{app}/guilds/{{guild_id}}/commands", self.list_commands, True),
            ("PUT", f"{app}/guilds/{{guild_id}}/commands", self.overwrite_commands, True),
            ("POST", f"{app}/guilds/{{guild_id}}/commands", self.upsert_command, True),
            ("GET", f"{app}/guilds/{{guild_id}}/commands/{{command_id}}", self.get_command, True),
            (
                "PATCH",
                f"{app}/guilds/{{guild_id}}/commands/{{command_id}}",
                self.edit_command,
                True,
            ),
            (
                "DELETE",
                f"{app}/guilds/{{guild_id}}/commands/{{command_id}}",
                self.delete_command,
                True,
            ),
            ("GET", "/guilds/{guild_id}", self.get_guild, True),
            ("GET", "/guilds/{guild_id}/channels", self.guild_channels, True),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member, True),
            ("GET", channel, self.get_channel, True),
            ("GET", f"{channel}/messages", self.list_messages, True),
            ("POST", f"{channel}/messages", self.send_message, True),
            ("GET", f"{channel}/messages/{{message_id}}", self.get_message, True),
            ("PATCH", f"{channel}/messages/{{message_id}}", self.edit_message, True),
            ("DELETE", f"{channel}/messages/{{message_id}}", self.delete_message, True),
            ("POST", f"{channel}/typing", self.typing, True),
            *ChannelsApi(self).routes(),
        ]

    # Identity --------------------------------------------------------------------------------

    async def me(self, call: Call) -> Payload:
        return {**self.world.bot.payload(), "verified": True, "mfa_enabled": False}

    async def get_user(self, call: Call) -> Payload:
        user = self.world.users.get(call.snowflake("user_id"))
        if user is None:
            raise not_found(errors.UNKNOWN_USER, "User")
        return user.payload()

    async def application(self, call: Call) -> Payload:
        world = self.world
        owner = next(iter(world.guilds.values()), None)
        owner_user = world.users[owner.owner_id] if owner else world.bot
        return {
            "id": str(world.application_id),
            "name": world.bot.username,
            "icon": None,
            "description": "",
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": owner_user.payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "bot": world.bot.payload(),
            "interactions_endpoint_url": None,
            "tags": [],
        }

    async def gateway(self, call: Call) -> Payload:
        return {"url": self.s.gateway_url}

    async def gateway_bot(self, call: Call) -> Payload:
        # Discord recommends a shard per 1,000 guilds (the "Get Gateway Bot" route).
        return {
            "url": self.s.gateway_url,
            "shards": max(1, -(-len(self.s.world.guilds) // 1000)),
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 0,
                "max_concurrency": 1,
            },
        }

    # Application commands ----------------------------------------------------------------------

    def _scope(self, call: Call) -> int | None:
        if call.snowflake("application_id") != self.world.application_id:
            raise DiscordError(403, 50001, "Missing Access")
        guild_id = call.snowflake("guild_id") if "guild_id" in call.params else None
        if guild_id is not None and guild_id not in self.world.guilds:
            raise DiscordError(403, 50001, "Missing Access")
        return guild_id

    def _commands(self, guild_id: int | None) -> list[Command]:
        return [c for c in self.world.commands.values() if c.guild_id == guild_id]

    def _command_payload(self, command: Command) -> Payload:
        data = {
            "type": 1,
            "description": "",
            "default_member_permissions": None,
            "nsfw": False,
            **command.data,
            "id": str(command.id),
            "application_id": str(self.world.application_id),
            "version": str(command.id),
        }
        if command.guild_id is not None:
            data["guild_id"] = str(command.guild_id)
        return data

    def _store(self, guild_id: int | None, data: Payload) -> Command:
        """Upsert by (name, type), keeping the id as Discord does."""
        kind = int(data.get("type", 1))
        for command in self._commands(guild_id):
            if command.name == data["name"] and command.type == kind:
                command.data = data
                return command
        command = Command(self.world.ids.next(), guild_id, data)
        self.world.commands[command.id] = command
        return command

    async def list_commands(self, call: Call) -> list[Payload]:
        return [self._command_payload(c) for c in self._commands(self._scope(call))]

    async def overwrite_commands(self, call: Call) -> list[Payload]:
        guild_id = self._scope(call)
        stored = [self._store(guild_id, data) for data in call.body or []]
        keep = {c.id for c in stored}
        for command in self._commands(guild_id):
            if command.id not in keep:
                del self.world.commands[command.id]
        self.world.touch()
        return [self._command_payload(c) for c in stored]

    async def upsert_command(self, call: Call) -> Any:
        command = self._store(self._scope(call), call.body)
        self.world.touch()
        return self._command_payload(command)

    def _command(self, call: Call) -> Command:
        guild_id = self._scope(call)
        command = self.world.commands.get(call.snowflake("command_id"))
        if command is None or command.guild_id != guild_id:
            raise not_found(errors.UNKNOWN_APPLICATION_COMMAND, "application command")
        return command

    async def get_command(self, call: Call) -> Payload:
        return self._command_payload(self._command(call))

    async def edit_command(self, call: Call) -> Payload:
        command = self._command(call)
        command.data = {**command.data, **call.body}
        self.world.touch()
        return self._command_payload(command)

    async def delete_command(self, call: Call) -> None:
        del self.world.commands[self._command(call).id]
        self.world.touch()

    # Guilds ----------------------------------------------------------------------------------

    def _guild(self, call: Call) -> Guild:
        guild = self.world.guilds.get(call.snowflake("guild_id"))
        if guild is None:
            raise not_found(errors.UNKNOWN_GUILD, "Guild")
        return guild

    async def get_guild(self, call: Call) -> Payload:
        data = self.world.guild_create_payload(self._guild(call))
        for key in (
            "members",
            "channels",
            "threads",
            "voice_states",
            "presences",
            "large",
            "member_count",
            "joined_at",
            "unavailable",
        ):
            data.pop(key, None)
        return data

    async def guild_channels(self, call: Call) -> list[Payload]:
        guild = self._guild(call)
        return [self.world.channels[c].payload() for c in guild.channel_ids]

    async def get_member(self, call: Call) -> Payload:
        member = self._guild(call).members.get(call.snowflake("user_id"))
        if member is None:
            raise not_found(10007, "Member")
        return member.payload()

    # Channels and messages -----------------------------------------------------------------------

    def _channel(self, call: Call) -> Channel:
        channel = self.world.channels.get(call.snowflake("channel_id"))
        if channel is None or not self.world.can_see(self.world.bot.id, channel):
            raise not_found(errors.UNKNOWN_CHANNEL, "Channel")
        return channel

    def _bot_may(self, channel: Channel, needed: int) -> bool:
        have = self.world.permissions_in(self.world.bot.id, channel)
        return have & needed == needed

    def _require(self, channel: Channel, needed: int) -> None:
        """Discord's 403 50013 when the bot lacks a permission ``needed`` in ``channel``."""
        if channel.guild_id is not None and not self._bot_may(channel, needed):
            raise missing_permissions()

    def _message(self, call: Call) -> Message:
        channel = self._channel(call)
        message = self.world.messages.get(call.snowflake("message_id"))
        if (
            message is None
            or message.deleted
            or message.channel_id != channel.id
            or message.ephemeral_to is not None
        ):
            raise not_found(errors.UNKNOWN_MESSAGE, "Message")
        return message

    async def get_channel(self, call: Call) -> Payload:
        channel = self._channel(call)
        return channel.payload(message_count=len(self.world.channel_messages(channel.id)))

    async def list_messages(self, call: Call) -> list[Payload]:
        channel = self._channel(call)
        limit = int(call.query.get("limit", 50))
        found = self.world.channel_messages(channel.id)
        if "before" in call.query:
            found = [m for m in found if m.id < int(call.query["before"])]
        if "after" in call.query:
            found = [m for m in found if m.id > int(call.query["after"])]
        newest_first = sorted(found, key=lambda m: m.id, reverse=True)[:limit]
        return [self.s.messages.payload(m) for m in newest_first]

    async def send_message(self, call: Call) -> Payload:
        channel = self._channel(call)
        if channel.type is ChannelType.DM:
            recipient = channel.recipient
            if recipient is None or recipient.bot or not recipient.dms_open:
                raise errors.cannot_send_to_user()
        body = dict(call.body or {})
        needed = perms.VIEW_CHANNEL | (
            perms.SEND_MESSAGES_IN_THREADS if channel.is_thread else perms.SEND_MESSAGES
        )
        if call.files:
            needed |= perms.ATTACH_FILES
        self._require(channel, needed)
        if channel.archived and channel.locked and not self._bot_may(channel, perms.MANAGE_THREADS):
            raise thread_archived()  # a locked thread opens again only for moderators
        extra: dict[str, Any] = {}
        reference = body.get("message_reference")
        if isinstance(reference, dict) and reference.get("message_id"):
            extra["message_reference"] = {
                "type": 0,
                "message_id": str(reference["message_id"]),
                "channel_id": str(channel.id),
            }
            extra["type"] = 19
        if not (
            body.get("content")
            or body.get("embeds")
            or body.get("components")
            or call.files
            or body.get("sticker_ids")
            or body.get("poll")
        ):
            raise DiscordError(400, 50006, "Cannot send an empty message")
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce"):
            made = self.s.messages.by_nonce(self.world.bot, nonce)
            if made is not None:  # that message is returned, no new one is created
                return {**self.s.messages.payload(made), "nonce": nonce}
        self.world.posted_in(channel)  # an archived thread opens again
        message = self.s.messages.create(channel, self.world.bot, body, files=call.files, **extra)
        if nonce is not None:
            self.s.messages.remember_nonce(message, nonce)
            return {**self.s.messages.payload(message), "nonce": nonce}
        return self.s.messages.payload(message)

    async def get_message(self, call: Call) -> Payload:
        return self.s.messages.payload(self._message(call))

    async def edit_message(self, call: Call) -> Payload:
        message = self._message(call)
        if message.author.id != self.world.bot.id:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        if self.world.channels[message.channel_id].archived:
            raise thread_archived()  # Discord: no edits in an archived thread
        if call.files:  # new files on an edit need Attach Files too
            self._require(self._channel(call), perms.ATTACH_FILES)
        return self.s.messages.payload(
            self.s.messages.edit(message, call.body or {}, files=call.files)
        )

    async def delete_message(self, call: Call) -> None:
        self.s.messages.delete(self._message(call))

    async def typing(self, call: Call) -> None:
        self._channel(call)

    # DMs and threads ---------------------------------------------------------------------------

    async def open_dm(self, call: Call) -> Payload:
        recipient = self.world.users.get(int(call.body.get("recipient_id") or 0))
        if recipient is None:
            raise not_found(errors.UNKNOWN_USER, "User")
        return self.world.dm_channel(recipient).payload()
