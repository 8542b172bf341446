"""The privacy guard: no message seen by anyone else may reveal a player's secret cards.

Tests register what each player must keep to themselves (their hand, as the strings or
patterns the bot would render them with) and update it as the game moves. After every
message the bot creates or edits, the guard reads everything any viewer could read of it —
content, embeds, component labels and also custom_ids, which every client receives — and
records a finding for each secret shown to someone other than its owner.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from .models import ChannelType, Message, User
from .world import World


@dataclass(frozen=True)
class Leak:
    message_id: int
    owner: str
    secret: str
    seen_by: tuple[str, ...]
    where: str

    def __str__(self) -> str:
        viewers = ", ".join(self.seen_by)
        return (
            f"message {self.message_id} in {self.where} reveals {self.owner}'s secret "
            f"{self.secret!r} to {viewers}"
        )


@dataclass
class PrivacyGuard:
    world: World
    secrets: dict[int, list[tuple[str, re.Pattern[str]]]] = field(default_factory=dict)

    def set_secrets(self, user: User, secrets: Iterable[str | re.Pattern[str]]) -> None:
        """Replace ``user``'s secrets; plain strings match literally."""
        self.secrets[user.id] = [
            (s.pattern, s) if isinstance(s, re.Pattern) else (s, re.compile(re.escape(s)))
            for s in secrets
        ]

    def clear(self, user: User) -> None:
        self.secrets.pop(user.id, None)

    def viewers(self, message: Message) -> list[User]:
        world = self.world
        return [
            u for u in world.users.values() if u.id != world.bot.id and world.sees(u.id, message)
        ]

    def check(self, message: Message) -> list[Leak]:
        if not self.secrets:
            return []
        readable = "\n".join([message.text(), *message.custom_ids()])
        viewers = self.viewers(message)
        leaks = []
        for owner_id, patterns in self.secrets.items():
            others = tuple(u.username for u in viewers if u.id != owner_id)
            if not others:
                continue
            for shown, pattern in patterns:
                if pattern.search(readable):
                    leaks.append(
                        Leak(
                            message.id,
                            self.world.users[owner_id].username,
                            shown,
                            others,
                            self._where(message),
                        )
                    )
        return leaks

    def _where(self, message: Message) -> str:
        channel = self.world.channels[message.channel_id]
        if channel.type is ChannelType.DM and channel.recipient is not None:
            return f"the DM with {channel.recipient.username}"
        return f"#{channel.name}"
