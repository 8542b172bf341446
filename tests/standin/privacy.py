"""The privacy guard: nothing seen by anyone else may reveal a player's secret cards.

Tests register what each player must keep to themselves (their hand, as the strings or
patterns the bot would render them with) and update it as the game moves. After every
message the bot creates or edits, the guard reads every string any viewer's client receives
of it, drawn or not (``Message.received``: content, embeds, component labels, custom_ids,
select option values and descriptions, V2 text displays, media alt text, attachment file
names and descriptions, polls), and records a finding for each secret shown to someone other
than its owner. Modals and autocomplete choices, seen only by the person who used the
command, are read the same way.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from .models import ChannelType, Message, User
from .world import World


@dataclass(frozen=True)
class Leak:
    what: str  # "message 123", "the modal 'Com'è andata?'"
    owner: str
    secret: str
    seen_by: tuple[str, ...]
    where: str
    field: str  # the path of the first string that reveals it, e.g. "components[0]…value"

    def __str__(self) -> str:
        viewers = ", ".join(self.seen_by)
        return (
            f"{self.what} in {self.where} reveals {self.owner}'s secret "
            f"{self.secret!r} to {viewers} (in {self.field})"
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
        return self.check_shown(
            f"message {message.id}",
            list(message.received()),
            self.viewers(message),
            channel_id=message.channel_id,
        )

    def check_shown(
        self,
        what: str,
        received: list[tuple[str, str]],
        viewers: list[User],
        *,
        channel_id: int,
    ) -> list[Leak]:
        """Leaks among the ``received`` (path, text) strings shown to ``viewers``."""
        if not self.secrets:
            return []
        where = self._where(channel_id)
        leaks = []
        for owner_id, patterns in self.secrets.items():
            others = tuple(u.username for u in viewers if u.id != owner_id)
            if not others:
                continue
            for shown, pattern in patterns:
                path = next((p for p, text in received if pattern.search(text)), None)
                if path is not None:
                    owner = self.world.users[owner_id].username
                    leaks.append(Leak(what, owner, shown, others, where, path))
        return leaks

    def _where(self, channel_id: int) -> str:
        channel = self.world.channels[channel_id]
        if channel.type is ChannelType.DM and channel.recipient is not None:
            return f"the DM with {channel.recipient.username}"
        return f"#{channel.name}"
