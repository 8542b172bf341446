"""Channel and thread routes: modify and delete a channel, start, join and leave threads.

Written after the Threads page of Discord's developer docs: a thread is archived or opened
again with ``PATCH /channels/{thread}`` (``archived``), deleted with ``DELETE``; nothing is
edited in an archived thread (400, 50083 "Thread is archived"), while a message sent to it
opens it again unless a moderator locked it. Each route checks the bot's permissions in the
channel (overwrites applied) and refuses with 50013 "Missing Permissions" as Discord does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import errors
from . import permissions as perms
from .errors import DiscordError, missing_permissions, not_found, thread_archived
from .models import ChannelType, Payload

if TYPE_CHECKING:
    from .dispatch import Call
    from .rest import RestApi, RouteSpec


class ChannelsApi:
    def __init__(self, rest: RestApi) -> None:
        self.rest = rest
        self.s = rest.s
        self.world = rest.world
        self._channel = rest._channel
        self._message = rest._message
        self._bot_may = rest._bot_may
        self._require = rest._require

    def routes(self) -> list[RouteSpec]:
        channel = "/channels/{channel_id}"
        return [
            ("PATCH", channel, self.modify_channel, True),
            ("DELETE", channel, self.delete_channel, True),
            ("POST", f"{channel}/threads", self.start_thread, True),
            ("POST", f"{channel}/messages/{{message_id}}/threads", self.start_thread, True),
            ("PUT", f"{channel}/thread-members/@me", self.join_thread, True),
            ("PUT", f"{channel}/thread-members/{{user_id}}", self.join_thread, True),
            ("DELETE", f"{channel}/thread-members/{{user_id}}", self.leave_thread, True),
        ]

    async def start_thread(self, call: Call) -> Payload:
        parent = self._channel(call)
        if parent.type is not ChannelType.GUILD_TEXT:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        body = call.body or {}
        private = int(body.get("type") or 11) == ChannelType.PRIVATE_THREAD
        if "message_id" in call.params:
            private = False
        create = perms.CREATE_PRIVATE_THREADS if private else perms.CREATE_PUBLIC_THREADS
        self._require(parent, perms.VIEW_CHANNEL | create)
        thread_id = None
        if "message_id" in call.params:
            message = self._message(call)
            if message.thread_id is not None:
                raise DiscordError(
                    400, 160004, "A thread has already been created for this message"
                )
            thread_id = message.id
            private = False
        thread = self.world.add_thread(
            parent,
            str(body.get("name")),
            owner=self.world.bot,
            private=private,
            thread_id=thread_id,
        )
        if thread_id is not None:
            message.thread_id = thread.id
        return thread.payload()

    async def modify_channel(self, call: Call) -> Payload:
        """Rename a channel; archive, unarchive, lock or rename a thread, with the permissions
        the Threads page of Discord's docs lists under "Editing & Deleting Threads"."""
        channel = self._channel(call)
        body = call.body or {}
        if not channel.is_thread:
            self._require(channel, perms.MANAGE_CHANNELS)
            if "name" in body:
                channel.name = str(body["name"])
            self.world.emit("CHANNEL_UPDATE", channel.payload())
            self.world.touch()
            return channel.payload()
        bot = self.world.bot.id
        moderator = self._bot_may(channel, perms.MANAGE_THREADS)
        unarchive = body.get("archived") is False
        if channel.archived and "archived" not in body:
            raise thread_archived()
        if ("locked" in body or "rate_limit_per_user" in body) and not moderator:
            raise missing_permissions()
        if unarchive and not (moderator or bot in channel.thread_members):
            raise missing_permissions()  # "only requires the current user has been added"
        if unarchive and channel.locked and body.get("locked") is not False and not moderator:
            raise missing_permissions()  # a locked thread opens again only for moderators
        edits_owner_fields = {"name", "auto_archive_duration"} & set(body) or (
            body.get("archived") is True
        )
        if edits_owner_fields and not (moderator or channel.owner_id == bot):
            raise missing_permissions()
        if "name" in body:
            channel.name = str(body["name"])
        archived = bool(body.get("archived", channel.archived))
        locked = bool(body.get("locked", channel.locked))
        if (archived, locked) != (channel.archived, channel.locked):
            self.world.archive_thread(channel, archived=archived, locked=locked)
        else:
            self.world.emit("THREAD_UPDATE", channel.payload())
            self.world.touch()
        return channel.payload()

    async def delete_channel(self, call: Call) -> Payload:
        """Delete a thread (``MANAGE_THREADS``) or a channel (``MANAGE_CHANNELS``)."""
        channel = self._channel(call)
        if channel.type is ChannelType.DM:
            return channel.payload()  # closing a DM deletes nothing
        self._require(channel, perms.MANAGE_THREADS if channel.is_thread else perms.MANAGE_CHANNELS)
        self.world.delete_channel(channel)
        return channel.payload()

    async def join_thread(self, call: Call) -> None:
        thread = self._channel(call)
        if not thread.is_thread:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        user_id = call.snowflake("user_id") if "user_id" in call.params else self.world.bot.id
        if user_id not in self.world.users:
            raise not_found(errors.UNKNOWN_USER, "User")
        thread.thread_members.add(user_id)
        self.world.touch()

    async def leave_thread(self, call: Call) -> None:
        thread = self._channel(call)
        thread.thread_members.discard(call.snowflake("user_id"))
        self.world.touch()
