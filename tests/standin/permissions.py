"""Discord's permission bits and how a member's permissions in one channel are computed.

The computation is Discord's own ("Permission Overwrites" in the permissions topic of the
developer docs): the guild's base permissions (the owner and ``ADMINISTRATOR`` have all),
then the channel's overwrites for @everyone, for the member's roles together, and for the
member, each denying then allowing. A thread has no overwrites of its own: it takes its
parent's. The stand-in uses the result for ``app_permissions`` and a member's
``permissions`` in interactions, and to refuse REST calls with 50013 "Missing Permissions"
as Discord does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .models import Channel, Guild

CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL = (1 << 53) - 1

ROLE, MEMBER = 0, 1


@dataclass
class Overwrite:
    """A channel's permission overwrite for a role (``ROLE``) or a member (``MEMBER``)."""

    type: int
    allow: int = 0
    deny: int = 0

    def payload(self, target: int) -> dict[str, object]:
        return {
            "id": str(target),
            "type": self.type,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


def permissions_in(guild: Guild, user_id: int, channel: Channel, parent: Channel | None) -> int:
    """``user_id``'s permissions in ``channel`` (a thread's come from ``parent``)."""
    base = guild.permissions_of(user_id)
    if user_id == guild.owner_id or base & ADMINISTRATOR:
        return ALL
    source = parent if channel.is_thread and parent is not None else channel
    overwrites = source.overwrites
    value = base
    everyone = overwrites.get(guild.id)
    if everyone is not None:
        value = (value & ~everyone.deny) | everyone.allow
    member = guild.members.get(user_id)
    roles = set(member.roles) if member else set()
    allow = deny = 0
    for target, overwrite in overwrites.items():
        if overwrite.type == ROLE and target in roles:
            allow |= overwrite.allow
            deny |= overwrite.deny
    value = (value & ~deny) | allow
    mine = overwrites.get(user_id)
    if mine is not None and mine.type == MEMBER:
        value = (value & ~mine.deny) | mine.allow
    if not value & VIEW_CHANNEL:
        return 0  # Discord: a channel one cannot see grants nothing
    return value
