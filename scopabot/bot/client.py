"""The discord.py client of ScopaBot. Thin on purpose: game logic lives in ``service``."""

from __future__ import annotations

import logging

import discord
import discord.gateway
import discord.http
import yarl
from discord.ext import commands

from .config import Config

log = logging.getLogger(__name__)


def use_endpoints(*, api_base: str | None, gateway: str | None) -> None:
    """Point discord.py at another Discord (the test stand-in) before it connects."""
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


def intents() -> discord.Intents:
    """No privileged intents: the bot is driven by interactions, not by reading chat."""
    return discord.Intents.default()


class ScopaBot(commands.Bot):
    def __init__(self, config: Config) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned, intents=intents(), help_command=None
        )
        self.config = config

    async def setup_hook(self) -> None:
        # Cogs and persistent DynamicItem buttons are registered here (later issues), so
        # buttons on old messages keep working after a restart.
        log.debug("setup_hook done")

    async def on_connect(self) -> None:
        log.info("Connected to the Discord gateway")

    async def on_ready(self) -> None:
        assert self.user is not None
        log.info("Ready as %s (id %s) in %d server(s)", self.user, self.user.id, len(self.guilds))
