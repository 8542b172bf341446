"""The discord.py client of ScopaBot. Thin on purpose: game logic lives in ``service``."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl
from discord.app_commands import locale_str as _
from discord.ext import commands

from scopabot.service import Clock, GameService
from scopabot.service.events import Event
from scopabot.service.tournament_views import TournamentEvent

from . import boards, hands, help, play, score, settings, sync, tables, tournaments
from .actions import Actions, command_error
from .boards import BoardPages
from .config import Config
from .context import Langs
from .delivery import Delivery
from .messages import Messages
from .score import Sheets
from .tables import Invitations
from .tournaments import TournamentFront
from .translator import CatalogTranslator

log = logging.getLogger(__name__)

SHUTDOWN_WAIT = 8.0  # seconds for running handlers, then for message edits, when stopping
# discord.py runs each interaction in a task named after what it runs.
HANDLER_TASKS = (
    "CommandTree-invoker",
    "discord-ui-",
    "discord.py: on_interaction",
    "discord.py: on_app_command_completion",
)


def _handlers() -> list[asyncio.Task[Any]]:
    current = asyncio.current_task()
    return [
        t
        for t in asyncio.all_tasks()
        if t is not current and not t.done() and t.get_name().startswith(HANDLER_TASKS)
    ]


async def _wait(tasks: Sequence[asyncio.Future[Any]], timeout: float, what: str) -> None:
    """``what`` names one task (``"interaction handler"``); a count of them reads as English."""
    if not tasks:
        return
    log.info("Stopping: waiting for %s", _count(len(tasks), what))
    _done, pending = await asyncio.wait(tasks, timeout=timeout)
    if pending:
        log.warning("Stopping: %s still running after %.0f s", _count(len(pending), what), timeout)
        for task in pending:
            task.cancel()


def _count(n: int, what: str) -> str:
    if what.startswith("the "):  # a whole, not a count: "the messages being sent"
        return what
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


def use_endpoints(*, api_base: str | None, gateway: str | None) -> None:
    """Point discord.py at another Discord (the test stand-in) before it connects.

    discord.py has no option for it (no issue asks: its users talk to Discord only), so two
    class attributes are set: ``Route.BASE`` (every REST call's URL) and the gateway's
    ``DEFAULT_GATEWAY``; ``tests/bot/test_discord_surface.py`` fails if a new discord.py
    drops them."""
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


# One module a feature, each with its commands, its controls and a ``setup`` making its part.
FEATURES = (tables, play, hands, boards, settings, score, tournaments, help)


def scopa_group() -> discord.app_commands.Group:
    """``/scopa``: the features' commands, in the order people have always seen them."""
    group = discord.app_commands.Group(name=_("scopa"), description=_("Play Scopa and Scopone"))
    children: tuple[
        discord.app_commands.Command[Any, ..., None] | discord.app_commands.Group, ...
    ] = (
        tables.new,
        play.play,
        hands.hand,
        tables.table,
        tables.rules,
        play.back,
        play.resign,
        tables.games,
        hands.notify,
        help.help,
        boards.leaderboard,
        boards.stats,
        settings.settings,
        tournaments.tournament,
    )
    for command in children:
        group.add_command(command)
    return group


def invite_permissions() -> discord.Permissions:
    """What the bot needs where tables open (README, "Invite it", says why each)."""
    return discord.Permissions(
        view_channel=True,
        send_messages=True,
        create_public_threads=True,
        send_messages_in_threads=True,
        read_message_history=True,
        attach_files=True,
    )


def invite_url(application_id: int) -> str:
    return discord.utils.oauth_url(
        application_id,
        permissions=invite_permissions(),
        scopes=("bot", "applications.commands"),
    )


def intents() -> discord.Intents:
    """Servers and their channels and threads only. The bot is driven by interactions, not by
    reading chat: no privileged intents, and no message events either — with them Discord
    would echo every table and hand edit the bot makes back to it, each to be parsed on the
    event loop between clicks."""
    return discord.Intents(guilds=True)


def _shards(config: Config) -> dict[str, Any]:
    """discord.py's ``shard_ids`` and ``shard_count`` for the slice ``config`` names."""
    if config.shard_ids is None or config.shard_count is None:
        return {}
    return {"shard_ids": list(config.shard_ids), "shard_count": config.shard_count}


class ScopaTree(discord.app_commands.CommandTree["ScopaBot"]):
    async def interaction_check(self, interaction: discord.Interaction[ScopaBot], /) -> bool:
        """No command or suggestion is begun once the bot is stopping."""
        return not self.client.ignoring(interaction)


class ScopaBot(commands.AutoShardedBot):
    """One process for thousands of servers; ``service`` may be given (tests) or is started
    on ``store`` in ``setup_hook``. With ``config.shard_ids`` it runs those shards only (of
    ``config.shard_count``), other processes running the rest on the same database."""

    # The bot's parts, made in ``setup_hook`` (they need the service): each finds the others
    # through these, typed, rather than through names set on the client from outside.
    langs: Langs
    messages: Messages
    delivery: Delivery
    actions: Actions
    invitations: Invitations
    boards: BoardPages
    sheets: Sheets
    tournament_front: TournamentFront

    def __init__(
        self,
        config: Config,
        *,
        store: Any = None,
        service: GameService | None = None,
        clock: Clock | None = None,
        computer_pause: float | None = None,
        hash_path: str | None = None,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=ScopaTree,
            **_shards(config),
        )
        self.config = config
        self._store = store
        self._clock = clock
        self._computer_pause = computer_pause
        self._owns_service = service is None
        self.service: GameService = service  # type: ignore[assignment]
        self.hash_path = hash_path
        self.synced = False
        self._stopping: asyncio.Future[None] | None = None
        self.stopping = False  # no interaction is begun any more (see ``ignoring``)
        self._brought_up_to_date = False

    async def setup_hook(self) -> None:
        if self.service is None:
            kwargs: dict[str, Any] = {}
            if self._clock is not None:
                kwargs["clock"] = self._clock
            if self._computer_pause is not None:
                kwargs["computer_pause"] = self._computer_pause
            # Tournaments are looked at again once the bot listens (``on_ready``).
            self.service = await GameService.start(self._store, resume_tournaments=False, **kwargs)
        self.langs = Langs(self.service, guild_locale=self.guild_locale)
        self.messages = Messages(self, self.service)
        self.delivery = Delivery(self)
        self._unsubscribe = self.service.subscribe(self.delivery.on_event)
        if self.config.shard_ids is not None:  # other processes run the other shards
            self.service.relay.show_here(self.owns)
        for feature in FEATURES:
            feature.setup(self)
        self.tree.on_error = self._command_error  # type: ignore[method-assign]
        self.tree.add_command(scopa_group())
        self.tree.add_command(score.score)
        await self.tree.set_translator(CatalogTranslator())
        if self.owns(None):
            # The commands are the application's, not a shard's: the process of shard 0
            # registers them, so processes started together do not all sync.
            self.synced = await sync.sync_if_changed(self, self.hash_path)
        log.debug("setup_hook done")

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process runs the shard of ``guild_id`` (None: DMs, shard 0's), and so
        sends the messages of its tables (the others tell it through the database)."""
        return self.config.owns(guild_id)

    async def from_elsewhere(self, events: Sequence[Event]) -> None:
        """What another process told this one through the database: a game's events, for
        its messages here; a tournament's news (a round it opened, the end), for the
        tournament's channel, tables and players here."""
        played = [e for e in events if e.game_id is not None and e.table_id is not None]
        if played:
            await self.delivery.from_elsewhere(played)
        for event in events:
            if isinstance(event, TournamentEvent):
                await self.tournament_front.on_event(event)

    def guild_locale(self, guild_id: int) -> str | None:
        """The server's Discord locale (from the gateway's cache), for its public messages
        while no manager has chosen their language."""
        guild = self.get_guild(guild_id)
        return None if guild is None else str(guild.preferred_locale)

    async def _command_error(
        self,
        interaction: discord.Interaction[ScopaBot],
        error: discord.app_commands.AppCommandError,
    ) -> None:
        await command_error(interaction, error)

    def ignoring(self, interaction: discord.Interaction[ScopaBot]) -> bool:
        """Whether ``interaction`` came while the bot is stopping: nothing of it is done (it
        is not answered either: the person sees Discord's "failed", and tries again once the
        bot is back). Each kind of handler asks: the command tree, the buttons and selects,
        the forms; all through discord.py's public checks."""
        if self.stopping:
            log.info("Stopping: an interaction ignored")
        return self.stopping

    async def on_interaction(self, interaction: discord.Interaction[ScopaBot]) -> None:
        if interaction.type is discord.InteractionType.component and not self.stopping:
            await self.actions.on_unmatched(interaction)

    async def on_connect(self) -> None:
        log.info("Connected to the Discord gateway")

    async def on_ready(self) -> None:
        assert self.user is not None
        shards = self.config.shards_text
        log.info(
            "Ready as %s (id %s) in %d server(s)%s",
            self.user,
            self.user.id,
            len(self.guilds),
            f", shards {shards}" if shards else "",
        )
        if not self.guilds:
            # A new admin's first start: the link to add it is all they need next.
            app_id = self.application_id or self.user.id
            log.info("The bot is in no server yet; invite it with %s", invite_url(app_id))
        await self.record_locales(self.guilds)
        if not self._brought_up_to_date:  # once a process: a reconnection loses nothing
            self._brought_up_to_date = True
            if self.config.shard_ids is not None:
                # Moves other processes apply to this process's tables, told through the
                # database (those told while it was down, first).
                self.service.relay.start(self.from_elsewhere)
            await self.delivery.bring_up_to_date()
            # Results written while no process listened, tables not yet opened, and a round
            # whose opener was stopped before announcing it: announced now, here or told on.
            await self.service.tournaments.resume()

    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self.record_locales([guild])

    async def on_guild_available(self, guild: discord.Guild) -> None:
        if self.is_ready():  # at the start, on_ready records them all in one transaction
            await self.record_locales([guild])

    async def on_guild_update(self, before: discord.Guild, after: discord.Guild) -> None:
        if before.preferred_locale != after.preferred_locale:
            await self.record_locales([after])

    async def record_locales(self, guilds: Sequence[discord.Guild]) -> None:
        """When other processes run the other shards, the Discord locale of this process's
        servers is written to the store: another process posting in one of them (a
        tournament's next round opened there) has no gateway cache of it, and would speak
        English to a server whose managers chose no language. One process alone needs none."""
        if self.config.shard_ids is None or self.service is None:
            return
        seen = [(g.id, str(g.preferred_locale)) for g in guilds if self.owns(g.id)]
        try:
            await self.service.settings.seen_locales(seen)
        except Exception:  # a database away: the next sight of the server records it
            log.warning("could not record the Discord locale of %d server(s)", len(seen))

    async def close(self) -> None:
        """Stop gracefully (SIGTERM): take no more interactions, let those running finish,
        close the service (its last events still reach the messages), then disconnect. The
        caller closes the store after this returns. Called twice (the signal, then leaving
        ``async with``), the second call waits for the first."""
        if self._stopping is None:
            self._stopping = asyncio.ensure_future(self._stop())
        await asyncio.shield(self._stopping)

    async def _stop(self) -> None:
        self.stopping = True
        await _wait(_handlers(), SHUTDOWN_WAIT, "interaction handler")
        delivery = getattr(self, "delivery", None)
        if self._owns_service and self.service is not None:
            await self.service.close()
        if delivery is not None:
            await _wait(
                [asyncio.ensure_future(delivery.idle())], SHUTDOWN_WAIT, "the messages being sent"
            )
            self._unsubscribe()
            delivery.close()
        await super().close()
