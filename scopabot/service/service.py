"""The :class:`GameService`: the one door through which every front end plays.

The bot and the terminal call it with plain values (ids, card text, the version the person
saw) and get back frozen values and events; it decides whose turn it is, when a deadline
passes and what a timeout does, and keeps everything in the store, so a restart loses nothing.
The parts: tables and seats (:mod:`.tables`), turns and computer seats (:mod:`.turns`), what
people may see (:mod:`.visibility`), deadlines (:mod:`.scheduler`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any

from scopabot.store import GLOBAL, GuildSettings, Page, Store

from .clock import Clock, SystemClock
from .deal_ends import DealEnd, last_deal_end
from .events import Handler
from .live import LiveGames, RatingPolicy
from .options import updated_settings
from .ratings import BoardRow, Boards, PlayerRecord, RatingsPolicy
from .scheduler import SchedulerMixin
from .score_keeping import ScoreKeeping
from .thinking import PoolThinker, Thinker
from .tournaments import Tournaments

log = logging.getLogger(__name__)

DEFAULT_COMPUTER_PAUSE = 0.8  # seconds between computer plays, so people can follow
STALE_WINDOW = timedelta(minutes=10)  # see games_changed_before_stop


class GameService(SchedulerMixin):
    """Tables, seats, turns, deadlines and computer seats on top of a :class:`Store`."""

    _unattach: Callable[[], None]
    _owns_store = False
    tournaments: Tournaments  # round robin, Swiss and knock-out tournaments (:mod:`.tournaments`)

    @classmethod
    async def start(
        cls,
        store: Store,
        *,
        clock: Clock | None = None,
        thinker: Thinker | None = None,
        computer_pause: float = DEFAULT_COMPUTER_PAUSE,
        rating_policy: RatingPolicy | None = None,
        rate: bool = True,
    ) -> GameService:
        """Start on an open store: re-arm every deadline (one that passed while the process
        was down is handled at once, in order) and let computer seats in turn play.

        ``thinker`` None: hard/expert think in a process pool (one worker per core), made at
        the first search; the other levels inline. ``rating_policy`` None: the live games'
        policy if they have one, else the OpenSkill policy of :mod:`.ratings` (``rate=False``:
        none, as in tests of other things).
        """
        self = cls()
        games = LiveGames.of(store)
        if rate and games.rating_policy is None:
            games.rating_policy = rating_policy or RatingsPolicy()
        self._init_core(store, clock or SystemClock(), thinker or PoolThinker(), computer_pause)
        self._init_scheduler()
        self.tournaments = Tournaments(self)
        self.add_due_source(self.tournaments)
        self._unattach = self.clock.attach(self)
        await self._resume()
        await self.tournaments.resume()
        self._start_scheduler()
        return self

    @classmethod
    async def open(cls, path: Path | str, **options: Any) -> GameService:
        """Open (creating and migrating) the database at ``path`` and start on it; the
        service then owns the store and closes it in :meth:`close`. ``options`` as
        :meth:`start`."""
        store = await Store.open(path)
        try:
            self = await cls.start(store, **options)
        except BaseException:
            await store.close()
            raise
        self._owns_store = True
        return self

    async def _resume(self) -> None:
        """Computer seats in turn play on, as if the process had never stopped."""
        for info in await self.store.games.playing():
            if any(not s.is_human for s in info.seats) or info.away:
                self._drive(info.id)

    async def games_changed_before_stop(
        self, *, window: timedelta = STALE_WINDOW
    ) -> list[tuple[int, int]]:
        """(table, game) of the games in play changed within ``window`` of the last change
        to any of them: those whose messages may not show their last moves, as the process
        stopped (or was killed) before delivering them. A message is brought up to date
        within seconds of a change (its retries give up after about half a minute), so a
        game changed long before the stop shows its position already."""
        infos = [i for i in await self.store.games.playing() if i.table_id is not None]
        if not infos:
            return []
        latest = max(i.updated_at for i in infos)
        return [
            (i.table_id, i.id)
            for i in infos
            if i.table_id is not None and i.updated_at >= latest - window
        ]

    async def close(self) -> None:
        """Stop the scheduler and computer seats, deliver queued events, close the pool.
        The store stays open when it was given to :meth:`start` (it belongs to the caller)."""
        self._closing = True
        self._unattach()
        await self._stop_scheduler()
        drivers = list(self._drivers.values())
        for task in drivers:
            task.cancel()
        await asyncio.gather(*drivers, return_exceptions=True)
        await self.hub.close()
        await self.thinker.close()
        if self._owns_store:
            await self.store.close()

    def subscribe(self, handler: Handler) -> Callable[[], None]:
        """Every later event goes to ``handler`` (through its own queue); returns the
        function that unsubscribes."""
        return self.hub.subscribe(handler)

    async def settle(self) -> None:
        """Wait until no computer seat is in turn, no timeout is running and every event is
        delivered (for tests and the terminal)."""
        await self._settle_tasks()
        await self.hub.drain()

    # ------------------------------------------------------------------ front-end memory

    async def set_seat_message(
        self, game_id: int, seat: int, *, channel_id: int | None, message_id: int | None
    ) -> None:
        """Remember a seat's private hand message (a DM) to edit it in place."""
        await self._context(game_id)
        await self.store.games.set_seat_message(
            game_id, seat, channel_id=channel_id, message_id=message_id
        )

    async def seat_messages(self, game_id: int) -> dict[int, tuple[int, int]]:
        """``{seat: (channel_id, message_id)}`` of the hand messages remembered."""
        return await self.store.games.seat_messages(game_id)

    async def set_dm_refused(
        self, game_id: int, seat: int, *, at: int | None, noted: bool = False
    ) -> None:
        """Remember that a seat's DMs refused its hand at the turn begun at version ``at``
        (``None``: they took it again); ``noted`` once the table was told."""
        await self._context(game_id)
        await self.store.games.set_dm_refused(game_id, seat, at=at, noted=noted)

    async def dms_refused(self, game_id: int) -> dict[int, tuple[int | None, bool]]:
        """``{seat: (version of the last refused try or None, table told)}`` of a game."""
        return await self.store.games.dms_refused(game_id)

    async def set_deal_post(
        self, game_id: int, deal: int, *, channel_id: int, message_id: int
    ) -> None:
        """Remember where deal ``deal``'s count was posted (so it is posted once)."""
        await self._context(game_id)
        await self.store.games.set_deal_post(
            game_id, deal, channel_id=channel_id, message_id=message_id
        )

    async def deal_post(self, game_id: int, deal: int) -> tuple[int, int] | None:
        """``(channel_id, message_id)`` of deal ``deal``'s count, if it was posted."""
        return await self.store.games.deal_post(game_id, deal)

    async def last_deal_end(self, game_id: int) -> DealEnd | None:
        """The last finished deal's plays as they were announced, played again from the
        game's stored moves (what a front end showed of it, after a restart too)."""
        ctx = await self._context(game_id)
        return last_deal_end(ctx.game.record())

    async def set_language(self, user: int, language: str | None) -> None:
        await self.store.settings.set_language(user, language)

    async def language(self, user: int) -> str | None:
        """The person's chosen language (``None``: they never chose; use their client's)."""
        return (await self.store.settings.user(user)).language

    async def set_notify(self, user: int, *, on: bool) -> None:
        await self.store.settings.set_notify(user, on)

    async def notify(self, user: int) -> bool:
        """Whether the person wants a DM when it is their turn (on by default)."""
        return (await self.store.settings.user(user)).notify

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        return await self.store.settings.guild(guild_id)

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        await self.store.settings.save_guild(settings)

    async def change_guild_settings(
        self,
        guild_id: int,
        *,
        language: str | None = None,
        channel: int | None = None,
        options: Mapping[str, Any] | None = None,
        reset: bool = False,
    ) -> GuildSettings:
        """A manager's choices applied and saved (see :func:`.options.updated_settings`)."""
        current = await self.store.settings.guild(guild_id)
        changed = updated_settings(
            current, language=language, channel=channel, options=options or {}, reset=reset
        )
        await self.store.settings.save_guild(changed)
        return changed

    # ------------------------------------------------------------------ ratings, score sheets

    @property
    def score_sheets(self) -> ScoreKeeping:
        """The score keeper for games played with real cards (:mod:`.score_keeping`)."""
        return ScoreKeeping(self.store)

    @property
    def boards(self) -> Boards:
        """Leaderboards and players' records (:mod:`.ratings`)."""
        return Boards(self.store)

    async def leaderboard(self, **kwargs: Any) -> Page[BoardRow]:
        """A page of a leaderboard (see :meth:`.ratings.Boards.leaderboard`)."""
        return await self.boards.leaderboard(**kwargs)

    async def stats(self, user: int, *, board: int = GLOBAL) -> list[PlayerRecord]:
        """A player's record per game kind (see :meth:`.ratings.Boards.stats`)."""
        return await self.boards.stats(user, board=board)


__all__ = ["DEFAULT_COMPUTER_PAUSE", "GameService"]
