"""Settings of the Discord bot, read from the environment (and ``.env``, loaded by bot.py).

Kept free of discord.py so that a missing token can be reported before the heavy import.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

TOKEN_HELP = """\
ScopaBot needs a Discord bot token, and DISCORD_TOKEN is not set.

  1. Open the Discord Developer Portal: https://discord.com/developers/applications
  2. Pick (or create) your application, open "Bot" and press "Reset Token"; copy it.
  3. Put it in a file named .env next to bot.py (see .env.example):
         DISCORD_TOKEN=your-token-here
  4. Invite the bot to your server with the "bot" and "applications.commands" scopes
     (OAuth2 -> URL Generator in the same portal).

Then run `python bot.py` again.
"""


class MissingToken(RuntimeError):
    """DISCORD_TOKEN is unset or empty."""


@dataclass(frozen=True)
class Config:
    token: str
    api_base: str | None = None  # SCOPABOT_DISCORD_API_BASE, e.g. http://127.0.0.1:PORT/api/v10
    gateway: str | None = None  # SCOPABOT_DISCORD_GATEWAY, e.g. ws://127.0.0.1:PORT/
    db_path: str = "scopabot.db"
    log_level: str = "INFO"
    computer_pause: float | None = None  # SCOPABOT_COMPUTER_PAUSE, seconds between computer plays
    clock_speed: float | None = None  # SCOPABOT_CLOCK_SPEED: tests only, time runs this much faster
    picture_workers: int = 1  # SCOPABOT_PICTURE_WORKERS: processes drawing (0: a thread of the bot)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Config:
        env = os.environ if environ is None else environ
        token = env.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise MissingToken(TOKEN_HELP)
        return cls(
            token=token,
            api_base=env.get("SCOPABOT_DISCORD_API_BASE") or None,
            gateway=env.get("SCOPABOT_DISCORD_GATEWAY") or None,
            db_path=env.get("SCOPABOT_DB") or "scopabot.db",
            log_level=(env.get("LOG_LEVEL") or "INFO").upper(),
            computer_pause=_number(env.get("SCOPABOT_COMPUTER_PAUSE")),
            clock_speed=_number(env.get("SCOPABOT_CLOCK_SPEED")),
            picture_workers=int(env.get("SCOPABOT_PICTURE_WORKERS") or 1),
        )


def _number(text: str | None) -> float | None:
    return float(text) if text and text.strip() else None
