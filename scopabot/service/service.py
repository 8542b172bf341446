"""The :class:`GameService`: the one door through which every front end plays.

The bot and the terminal call it with plain values (ids, card text, the version the person
saw) and get back frozen values and events; it decides whose turn it is, when a deadline
passes and what a timeout does, and keeps everything in the store, so a restart loses nothing.

It is a small root that owns named parts, each with its own surface and file:
``service.tables`` (:mod:`.tables`: open, join, arrange, start, rematch),
``service.games`` (:mod:`.games`: play, resign, take a seat back, what a person sees),
``service.deadlines`` (:mod:`.scheduler`), ``service.people`` (:mod:`.people`),
``service.settings`` (:mod:`.settings`), ``service.boards`` (:mod:`.ratings`),
``service.score_sheets`` (:mod:`.score_keeping`), ``service.tournaments``
(:mod:`.tournaments`) and ``service.relay`` (:mod:`.relay`: several processes on one
database). The parts share one :class:`~.core.Core` (store, clock, events, live games),
handed to each, and get the other parts they use passed in.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scopabot.store import Store

from .clock import Clock, SystemClock
from .core import Core
from .events import EventHub, Handler
from .games import Games
from .live import RatingPolicy
from .people import People
from .ratings import Boards, RatingsPolicy
from .relay import Relay
from .scheduler import LEASE_PERIOD, Deadlines
from .score_keeping import ScoreKeeping
from .settings import Settings
from .tables import Tables
from .thinking import PoolThinker, Thinker
from .tournaments import Tournaments

log = logging.getLogger(__name__)

DEFAULT_COMPUTER_PAUSE = 0.8  # seconds between computer plays, so people can follow


class GameService:
    """Tables, seats, turns, deadlines and computer seats on top of a :class:`Store`."""

    tables: Tables
    games: Games
    deadlines: Deadlines
    people: People
    settings: Settings
    boards: Boards
    score_sheets: ScoreKeeping
    tournaments: Tournaments
    relay: Relay

    def __init__(
        self,
        store: Store,
        *,
        clock: Clock,
        thinker: Thinker,
        computer_pause: float,
        lease_period: float = LEASE_PERIOD,
    ) -> None:
        """The parts, built and wired; :meth:`start` is what makes one that runs."""
        self._core = core = Core(store, clock)
        self.games = Games(core, thinker=thinker, computer_pause=computer_pause)
        self.tables = Tables(core, self.games)
        self.deadlines = Deadlines(core, self.games, lease_period=lease_period)
        self.people = People(store)
        self.settings = Settings(store)
        self.boards = Boards(store)
        self.score_sheets = ScoreKeeping(store)
        self.relay = Relay(core)  # before the tournaments, which tell it their news
        self.tournaments = Tournaments(self)
        self.deadlines.add_source(self.tournaments)
        self._unattach: Callable[[], None] = lambda: None
        self._owns_store = False

    @property
    def store(self) -> Store:
        return self._core.store

    @property
    def clock(self) -> Clock:
        return self._core.clock

    @property
    def hub(self) -> EventHub:
        return self._core.hub

    @property
    def thinker(self) -> Thinker:
        return self.games.thinker

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
        lease_period: float = LEASE_PERIOD,
        resume_tournaments: bool = True,
    ) -> GameService:
        """Start on an open store: re-arm every deadline (one that passed while the process
        was down is handled at once, in order) and let computer seats in turn play.

        ``thinker`` None: hard/expert think in a process pool (one worker per core), made at
        the first search; the other levels inline. ``rating_policy`` None: the live games'
        policy if they have one, else the OpenSkill policy of :mod:`.ratings` (``rate=False``:
        none, as in tests of other things). ``lease_period``: how long the scheduler's lease
        lasts unless renewed (:mod:`.scheduler`: one scheduler among processes sharing the
        database; short in tests of its takeover). ``resume_tournaments`` False: the front
        end calls ``tournaments.resume()`` itself once it hears the service's events and
        knows which servers it shows (a round its opener was stopped before announcing is
        announced then, to a front end that shows it or tells it on).
        """
        self = cls(
            store,
            clock=clock or SystemClock(),
            thinker=thinker or PoolThinker(),
            computer_pause=computer_pause,
            lease_period=lease_period,
        )
        live = self._core.live
        if rate and live.rating_policy is None:
            live.rating_policy = rating_policy or RatingsPolicy()
        self._unattach = self.clock.attach(self.deadlines)
        await self.deadlines.forget_the_dead()  # a restart resumes at once, not a lease later
        await self.games.resume()
        if resume_tournaments:
            await self.tournaments.resume()
        self.deadlines.start()
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

    async def close(self) -> None:
        """Stop the scheduler and computer seats, deliver queued events, close the pool.
        The store stays open when it was given to :meth:`start` (it belongs to the caller)."""
        self._core.closing = True
        self._unattach()
        await self.relay.stop()
        await self.deadlines.stop()
        await self.games.stop()
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
        await self.deadlines.settle()
        await self.hub.drain()


__all__ = ["DEFAULT_COMPUTER_PAUSE", "GameService"]
