"""What every part of the service shares: the store, the clock, the events, the live games.

Each game in play has one owner, its :class:`~.live.LiveGame` (the engine game, version,
seats, table, deadline), kept by :class:`~.live.LiveGames`, which plays and writes every move;
views are made from it without asking the database again. The parts of the service
(:mod:`.tables`, :mod:`.games`, :mod:`.scheduler`, ...) are each given one :class:`Core`:
plain shared state, not a base class.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime

from scopabot.store import (
    NotFoundError,
    Store,
    TableStatus,
)

from .clock import Clock
from .errors import ErrorCode, ServiceError
from .events import Event, EventHub
from .live import LiveGame, LiveGames
from .live import table_info as table_info  # where the parts and the tests look for it
from .views import TableInfo

log = logging.getLogger(__name__)


GameContext = LiveGame  # what the service's parts call a game they work on


class Wakeup:
    """The scheduler's bell: it sleeps until its next alarm, and a move that writes an
    earlier deadline rings it (the parts that write deadlines hold this, not the scheduler)."""

    def __init__(self) -> None:
        self.event = asyncio.Event()
        self.sleeping_until: datetime | None = None

    def deadline_set(self, when: datetime) -> None:
        """A deadline was written: wake the scheduler if it sleeps past it."""
        if self.sleeping_until is None or when < self.sleeping_until:
            self.event.set()


class Core:
    """The state the parts of :class:`~.service.GameService` share: one per service."""

    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock
        self.hub = EventHub()
        self.live = LiveGames.of(store)
        self.wakeup = Wakeup()
        self.closing = False
        self._table_games: dict[int, int] = {}  # table id -> its game with a live copy here
        self._game_locks: dict[int, asyncio.Lock] = {}

    def emit(self, events: list[Event]) -> None:
        self.hub.publish(events)

    def now(self) -> datetime:
        return self.clock.now()

    def lock(self, game_id: int) -> asyncio.Lock:
        """The game's lock: one move, timeout or resignation of it at a time here."""
        lock = self._game_locks.get(game_id)
        if lock is None:
            lock = self._game_locks[game_id] = asyncio.Lock()
        return lock

    async def context(self, game_id: int) -> LiveGame:
        """The live game (read once, then kept): UNKNOWN_GAME if there is no such game."""
        try:
            live = await self.live.get(game_id)
        except NotFoundError:
            raise ServiceError(
                ErrorCode.UNKNOWN_GAME, f"no game {game_id}", game_id=game_id
            ) from None
        if live.table is not None and not live.finished:
            self._table_games[live.table.id] = game_id
        return await self.live.current(live)

    def adopted(self, table_id: int, game_id: int) -> None:
        """A table's game just started here: its table is kept with the live game."""
        self._table_games[table_id] = game_id

    def forget(self, game_id: int) -> None:
        """A finished game needs no live copy or lock any more (read again if asked about)."""
        live = self.live.forget(game_id)
        table_id = None if live is None else live.table_id
        if table_id is not None and self._table_games.get(table_id) == game_id:
            del self._table_games[table_id]
        self._game_locks.pop(game_id, None)

    def kept_table(self, table_id: int) -> TableInfo | None:
        """A table whose match is being played here, as this service keeps it: during a
        match only this service changes the table (where its message is, the version), so
        the front ends' many reads of it (every message refresh) need not go to the store."""
        game_id = self._table_games.get(table_id)
        live = None if game_id is None else self.live.kept(game_id)
        if live is None or live.finished or live.table is None or live.table.id != table_id:
            return None
        return live.table

    async def table(self, table_id: int) -> TableInfo:
        """The table (as kept, during its match): UNKNOWN_TABLE if there is no such table."""
        kept = self.kept_table(table_id)
        if kept is not None:
            return kept
        try:
            return table_info(await self.store.tables.get(table_id))
        except NotFoundError:
            raise ServiceError(
                ErrorCode.UNKNOWN_TABLE, f"no table {table_id}", table_id=table_id
            ) from None


def must_be_open(table: TableInfo) -> None:
    if table.status is not TableStatus.OPEN:
        raise ServiceError(
            ErrorCode.TABLE_NOT_OPEN,
            f"table {table.id} is {table.status}",
            table_id=table.id,
            status=table.status.value,
        )


def must_be_host(table: TableInfo, user: int) -> None:
    if table.host != user:
        raise ServiceError(ErrorCode.NOT_HOST, "only the host may do that", table_id=table.id)
