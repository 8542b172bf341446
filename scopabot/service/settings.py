"""A server's settings: its language, its channel for tables, its default rule options.

``service.settings``: read, saved, and changed by a manager's choices (checked by
:func:`.options.updated_settings`, so every front end gets the same refusals).
"""

from __future__ import annotations

from collections.abc import Sequence

from scopabot.store import GuildSettings, Store

from .options import Options, updated_settings


class Settings:
    """A server's settings (``service.settings``)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def get(self, guild_id: int) -> GuildSettings:
        return await self.store.settings.guild(guild_id)

    async def discord_locale(self, guild_id: int) -> str | None:
        """The server's Discord locale as the process that runs its shard last saw it: what
        another process speaks there while no manager chose a language (issue #18)."""
        return await self.store.settings.locale(guild_id)

    async def seen_locales(self, seen: Sequence[tuple[int, str]]) -> None:
        """This process's servers' Discord locales, (server, locale) pairs, for the others."""
        await self.store.settings.seen_locales(seen)

    async def save(self, settings: GuildSettings) -> None:
        await self.store.settings.save_guild(settings)

    async def change(
        self,
        guild_id: int,
        *,
        language: str | None = None,
        channel: int | None = None,
        options: Options | None = None,
        reset: bool = False,
    ) -> GuildSettings:
        """A manager's choices applied and saved (see :func:`.options.updated_settings`)."""
        current = await self.store.settings.guild(guild_id)
        changed = updated_settings(
            current, language=language, channel=channel, options=options or {}, reset=reset
        )
        await self.store.settings.save_guild(changed)
        return changed
