"""Settings: a server's (language, default rules, game channel) and a person's (language,
notifications). The part is ``store.settings``; missing rows read as the defaults."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

from scopabot.engine import Rules

from .conflicts import conflicts_retried
from .database import AnyDatabase
from .models import GuildSettings, UserSettings, now, to_ms


class SettingsStore:
    """A server's and a person's settings: ``store.settings``."""

    def __init__(self, database: AnyDatabase) -> None:
        self._db = database

    # ------------------------------------------------------------------ servers

    async def guild(self, guild_id: int) -> GuildSettings:
        """A server's settings (the defaults when it never changed any)."""
        async with self._db.read() as db:
            rows = list(
                await db.execute_fetchall(
                    "SELECT language, default_rules, game_channel_id FROM guild_settings"
                    " WHERE guild_id = ?",
                    (guild_id,),
                )
            )
        if not rows:
            return GuildSettings(guild_id)
        language, rules, channel = rows[0]
        return GuildSettings(guild_id, language, json.loads(rules), channel)

    @conflicts_retried
    async def save_guild(self, settings: GuildSettings) -> None:
        if settings.default_rules:
            Rules.from_dict(settings.default_rules)  # refuse options no table could use
        async with self._db.write() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, language, default_rules, game_channel_id,"
                " updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
                " language = excluded.language, default_rules = excluded.default_rules,"
                " game_channel_id = excluded.game_channel_id, updated_at = excluded.updated_at",
                (
                    settings.guild_id,
                    settings.language,
                    json.dumps(settings.default_rules, sort_keys=True),
                    settings.game_channel_id,
                    to_ms(now()),
                ),
            )

    async def locale(self, guild_id: int) -> str | None:
        """The server's Discord locale as its shard's process last saw it (None: never seen):
        for another process that posts there without the server in its gateway cache."""
        return await self._db.read_once(_locale_row, guild_id)

    async def seen_locales(self, seen: Sequence[tuple[int, str]]) -> None:
        """The servers' Discord locales as this process sees them, (server, locale) pairs;
        one transaction, and a row is written only where the locale changed."""
        if seen:
            await self._db.write_once(_upsert_locales, list(seen), to_ms(now()))

    # ------------------------------------------------------------------ people

    async def user(self, user_id: int) -> UserSettings:
        """A person's settings (the defaults when they never chose any)."""
        row = await self._db.read_once(_user_row, user_id)
        return UserSettings(user_id) if row is None else UserSettings(user_id, row[0], row[1])

    async def set_language(self, user_id: int, language: str | None) -> None:
        """The person's language for replies (``None``: follow their Discord client)."""
        await self._db.write_once(_upsert_user, user_id, "language", language)

    async def set_notify(self, user_id: int, on: bool) -> None:
        await self._db.write_once(_upsert_user, user_id, "notify", int(on))


def _user_row(conn: sqlite3.Connection, user_id: int) -> tuple[str | None, bool] | None:
    row = conn.execute(
        "SELECT language, notify FROM user_settings WHERE user_id = ?", (user_id,)
    ).fetchone()
    return None if row is None else (row[0], bool(row[1]))


def _upsert_user(conn: sqlite3.Connection, user_id: int, column: str, value: object) -> None:
    # ``column`` is "language" or "notify", chosen above, never from input.
    assert column in ("language", "notify")
    conn.execute(
        "INSERT INTO user_settings (user_id, " + column + ", updated_at) VALUES (?, ?, ?)"
        " ON CONFLICT (user_id) DO UPDATE SET " + column + " = excluded." + column + ","
        " updated_at = excluded.updated_at",
        (user_id, value, to_ms(now())),
    )


def _locale_row(conn: sqlite3.Connection, guild_id: int) -> str | None:
    row = conn.execute(
        "SELECT locale FROM guild_locales WHERE guild_id = ?", (guild_id,)
    ).fetchone()
    return None if row is None else str(row[0])


def _upsert_locales(conn: sqlite3.Connection, seen: list[tuple[int, str]], stamp: int) -> None:
    for guild_id, locale in seen:
        conn.execute(
            "INSERT INTO guild_locales (guild_id, locale, seen_at) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET locale = excluded.locale,"
            " seen_at = excluded.seen_at WHERE guild_locales.locale <> excluded.locale",
            (guild_id, locale, stamp),
        )
