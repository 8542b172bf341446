"""Settings of the Discord bot, read from the environment (and ``.env``, loaded by bot.py).

Kept free of discord.py so that a missing token or a bad setting can be reported before the
heavy import. A relative ``SCOPABOT_DB`` is taken from the folder of ``bot.py`` (where ``.env``
is read too), never from the folder the bot happens to be started from: a service manager
started without a working directory must open the same database as the admin's shell.
``SCOPABOT_DATABASE_URL=postgresql://…`` puts the store on PostgreSQL instead (docs/postgresql.md);
without it the SQLite file is used. ``SCOPABOT_SHARDS=0-3`` with ``SCOPABOT_SHARD_COUNT=8`` (or
``bot.py --shards 0-3 --shard-count 8``) runs a slice of the shards, so that several processes
share the bot's servers (README, "Several processes").
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

TOKEN_HELP = """\
ScopaBot needs a Discord bot token, and DISCORD_TOKEN is not set.

  1. Open the Discord Developer Portal: https://discord.com/developers/applications
  2. Pick (or create) your application, open "Bot" and press "Reset Token"; copy it.
  3. Put it in a file named .env next to bot.py (see .env.example):
         DISCORD_TOKEN=your-token-here
  4. Invite the bot to your server with the "bot" and "applications.commands" scopes
     (OAuth2 -> URL Generator in the same portal).

Then run the same command again: `.venv/bin/python bot.py` in the virtualenv of the
README (`.venv\\Scripts\\python bot.py` on Windows, `docker run --env-file .env ...` in Docker).
"""

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


class MissingToken(RuntimeError):
    """DISCORD_TOKEN is unset or empty."""


class BadSetting(ValueError):
    """A setting that cannot be used; the message names it and says what it may be."""


@dataclass(frozen=True)
class Config:
    token: str
    api_base: str | None = None  # SCOPABOT_DISCORD_API_BASE, e.g. http://127.0.0.1:PORT/api/v10
    gateway: str | None = None  # SCOPABOT_DISCORD_GATEWAY, e.g. ws://127.0.0.1:PORT/
    db_path: str = "scopabot.db"
    database_url: str | None = None  # SCOPABOT_DATABASE_URL: postgresql://… instead of the file
    log_level: str = "INFO"
    computer_pause: float | None = None  # SCOPABOT_COMPUTER_PAUSE, seconds between computer plays
    clock_speed: float | None = None  # SCOPABOT_CLOCK_SPEED: tests only, time runs this much faster
    picture_workers: int = 1  # SCOPABOT_PICTURE_WORKERS: processes drawing (0: a thread of the bot)
    # SCOPABOT_SHARDS / SCOPABOT_SHARD_COUNT: the shards this process runs, out of how many in
    # all; None for both: every shard, as many as Discord recommends.
    shard_ids: tuple[int, ...] | None = None
    shard_count: int | None = None

    @classmethod
    def from_env(
        cls, environ: Mapping[str, str] | None = None, *, home: Path | None = None
    ) -> Config:
        """``home`` is where a relative ``SCOPABOT_DB`` lives (bot.py passes its folder)."""
        env = os.environ if environ is None else environ
        token = env.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise MissingToken(TOKEN_HELP)
        level = (env.get("LOG_LEVEL") or "INFO").strip().upper()
        if level not in LOG_LEVELS or not isinstance(logging.getLevelName(level), int):
            raise BadSetting(
                f"LOG_LEVEL={env.get('LOG_LEVEL')!r} is not a level: "
                f"use {', '.join(LOG_LEVELS[:-1])} or {LOG_LEVELS[-1]} (in .env or the environment)"
            )
        database_url = _database_url(env)
        shard_ids, shard_count = _shards(env)
        db_path = Path(os.path.expanduser(env.get("SCOPABOT_DB") or "scopabot.db"))
        if home is not None and not db_path.is_absolute():
            db_path = home / db_path
        return cls(
            token=token,
            api_base=env.get("SCOPABOT_DISCORD_API_BASE") or None,
            gateway=env.get("SCOPABOT_DISCORD_GATEWAY") or None,
            db_path=str(db_path.absolute() if home is not None else db_path),
            database_url=database_url,
            log_level=level,
            computer_pause=_number(env, "SCOPABOT_COMPUTER_PAUSE"),
            clock_speed=_number(env, "SCOPABOT_CLOCK_SPEED"),
            picture_workers=_count(env, "SCOPABOT_PICTURE_WORKERS", 1),
            shard_ids=shard_ids,
            shard_count=shard_count,
        )

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process runs the shard Discord sends ``guild_id``'s events to (None:
        DMs, which go to shard 0). Every guild is this process's when it runs every shard."""
        if self.shard_ids is None or self.shard_count is None:
            return True
        shard = 0 if guild_id is None else (guild_id >> 22) % self.shard_count
        return shard in self.shard_ids

    @property
    def shards_text(self) -> str | None:
        """The slice as people write it (``0-3 of 8``), None when this process runs them all."""
        if self.shard_ids is None or self.shard_count is None:
            return None
        return f"{shard_ranges(self.shard_ids)} of {self.shard_count}"

    @property
    def database(self) -> str:
        """What the store opens: the PostgreSQL URL when one is set, else the SQLite file."""
        return self.database_url or self.db_path


def _database_url(env: Mapping[str, str]) -> str | None:
    text = (env.get("SCOPABOT_DATABASE_URL") or "").strip()
    if not text:
        return None
    if text.split("://", 1)[0].lower() not in ("postgresql", "postgres") or "://" not in text:
        # The value is not repeated: it may hold a password.
        raise BadSetting(
            "SCOPABOT_DATABASE_URL must be a PostgreSQL URL, "
            "postgresql://user:password@host:5432/database; leave it out (in .env or the "
            "environment) to keep the games in the SQLite file SCOPABOT_DB"
        )
    return text


def _number(env: Mapping[str, str], name: str) -> float | None:
    text = env.get(name)
    if not text or not text.strip():
        return None
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0:  # NaN too
        raise BadSetting(f"{name}={text!r} is not a number of seconds (0 or more)")
    return value


def _count(env: Mapping[str, str], name: str, default: int) -> int:
    text = (env.get(name) or "").strip()
    if not text:
        return default
    if not text.isdigit():
        raise BadSetting(f"{name}={env.get(name)!r} is not a number of processes (0 or more)")
    return int(text)


SHARDS_HELP = (
    "shards are written like 0-3 or 0,2,5-7 (each from 0 to SCOPABOT_SHARD_COUNT - 1), "
    "with the count of shards of all processes in SCOPABOT_SHARD_COUNT (or bot.py --shards 0-3 "
    "--shard-count 8)"
)


def _shards(env: Mapping[str, str]) -> tuple[tuple[int, ...] | None, int | None]:
    """``shard_ids`` and ``shard_count`` from ``SCOPABOT_SHARDS`` and ``SCOPABOT_SHARD_COUNT``."""
    count_text = (env.get("SCOPABOT_SHARD_COUNT") or "").strip()
    ids_text = (env.get("SCOPABOT_SHARDS") or "").strip()
    if not count_text:
        if ids_text:
            raise BadSetting(
                f"SCOPABOT_SHARDS={ids_text!r} needs SCOPABOT_SHARD_COUNT, the number of shards "
                "of all processes together (the same in each)"
            )
        return None, None
    if not count_text.isdigit() or int(count_text) < 1:
        raise BadSetting(
            f"SCOPABOT_SHARD_COUNT={count_text!r} is not a number of shards (1 or more)"
        )
    count = int(count_text)
    ids = parse_shards(ids_text, count) if ids_text else tuple(range(count))
    return ids, count


def parse_shards(text: str, count: int) -> tuple[int, ...]:
    """``0-3`` or ``0,2,5-7``: the shard ids, sorted, each below ``count`` (BadSetting if not)."""
    ids: set[int] = set()
    for part in text.replace(" ", "").split(","):
        first, dash, last = part.partition("-")
        if not first.isdigit() or (dash and not last.isdigit()):
            raise BadSetting(f"SCOPABOT_SHARDS={text!r} is not a list of shards: {SHARDS_HELP}")
        low, high = int(first), int(last) if dash else int(first)
        if low > high or high >= count:
            raise BadSetting(
                f"SCOPABOT_SHARDS={text!r} does not fit SCOPABOT_SHARD_COUNT={count}: {SHARDS_HELP}"
            )
        ids.update(range(low, high + 1))
    return tuple(sorted(ids))


def shard_ranges(ids: tuple[int, ...]) -> str:
    """``(0, 1, 2, 3, 6)`` as ``0-3,6``."""
    parts: list[str] = []
    start = prev = None
    for n in [*ids, None]:
        if prev is not None and (n is None or n != prev + 1):
            parts.append(str(start) if start == prev else f"{start}-{prev}")
            start = None
        if start is None:
            start = n
        prev = n
    return ",".join(parts)
