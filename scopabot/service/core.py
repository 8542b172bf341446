"""What every part of the service shares: the store, the clock, the events, the live games.

Each game in play has one owner, its :class:`~.live.LiveGame` (the engine game, version,
seats, table, deadline), kept by :class:`~.live.LiveGames`, which plays and writes every move;
views are made from it without asking the database again.
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
from .thinking import Thinker
from .views import HAND_OVER_AFTER, TableInfo

log = logging.getLogger(__name__)


GameContext = LiveGame  # what the service's parts call a game they work on


class ServiceCore:
    """The state every mixin of :class:`~.service.GameService` works on."""

    store: Store
    clock: Clock
    thinker: Thinker
    computer_pause: float
    hand_over_after: int
    hub: EventHub
    games: LiveGames
    _table_games: dict[int, int]  # table id -> the game played there with a context here
    _drivers: dict[int, asyncio.Task[None]]
    _game_locks: dict[int, asyncio.Lock]
    _closing: bool

    def _init_core(
        self, store: Store, clock: Clock, thinker: Thinker, computer_pause: float
    ) -> None:
        self.store = store
        self.clock = clock
        self.thinker = thinker
        self.computer_pause = computer_pause
        self.hand_over_after = HAND_OVER_AFTER
        self.hub = EventHub()
        self.games = LiveGames.of(store)
        self._table_games = {}
        self._drivers = {}
        self._game_locks = {}
        self._closing = False

    def _emit(self, events: list[Event]) -> None:
        self.hub.publish(events)

    def _now(self) -> datetime:
        return self.clock.now()

    def _game_lock(self, game_id: int) -> asyncio.Lock:
        lock = self._game_locks.get(game_id)
        if lock is None:
            lock = self._game_locks[game_id] = asyncio.Lock()
        return lock

    async def _context(self, game_id: int) -> LiveGame:
        """The live game (read once, then kept): UNKNOWN_GAME if there is no such game."""
        try:
            live = await self.games.get(game_id)
        except NotFoundError:
            raise ServiceError(
                ErrorCode.UNKNOWN_GAME, f"no game {game_id}", game_id=game_id
            ) from None
        if live.table is not None:
            self._table_games[live.table.id] = game_id
        return live

    def _forget_game(self, game_id: int) -> None:
        """A finished game needs no live copy or lock any more (read again if asked about)."""
        live = self.games.forget(game_id)
        table_id = None if live is None else live.table_id
        if table_id is not None and self._table_games.get(table_id) == game_id:
            del self._table_games[table_id]
        self._game_locks.pop(game_id, None)

    def _kept_table(self, table_id: int) -> TableInfo | None:
        """A table whose match is being played here, as this service keeps it: during a
        match only this service changes the table (where its message is, the version), so
        the front ends' many reads of it (every message refresh) need not go to the store."""
        game_id = self._table_games.get(table_id)
        live = None if game_id is None else self.games.kept(game_id)
        if live is None or live.finished or live.table is None or live.table.id != table_id:
            return None
        return live.table

    async def _table(self, table_id: int) -> TableInfo:
        kept = self._kept_table(table_id)
        if kept is not None:
            return kept
        try:
            return table_info(await self.store.tables.get(table_id))
        except NotFoundError:
            raise ServiceError(
                ErrorCode.UNKNOWN_TABLE, f"no table {table_id}", table_id=table_id
            ) from None

    def _plays_on(self) -> bool:
        return not self._closing


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
