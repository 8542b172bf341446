"""What every part of the service shares: the store, the clock, the events, the games' context.

A game's context (its seats, table, pace and timeout rule) does not change once the game has
started, so it is read once and kept; the changing part (seats handed to a computer, whether
the match ended early) is updated from what the store returns with each write. A database is
served by one service at a time (its computer seats and deadlines are driven from here too),
so the store's live copy of a game, at the version this service last wrote, is the game as
stored: views are made from it without asking the database again.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from datetime import datetime

from scopabot.engine import Game
from scopabot.store import (
    GameStatus,
    NotFoundError,
    SeatHolder,
    Store,
    Table,
    TableStatus,
)

from .clock import Clock
from .errors import ErrorCode, ServiceError
from .events import Event, EventHub
from .thinking import Thinker
from .views import HAND_OVER_AFTER, Pace, TableInfo, TimeoutRule

log = logging.getLogger(__name__)


def table_info(table: Table) -> TableInfo:
    """The front ends' view of a stored table."""
    return TableInfo(
        id=table.id,
        guild_id=table.guild_id,
        channel_id=table.channel_id,
        thread_id=table.thread_id,
        message_id=table.message_id,
        host=table.host_id,
        rules=table.rules,
        status=table.status,
        pace=Pace.from_dict(table.pace) if table.pace else Pace.untimed(),
        on_timeout=TimeoutRule(table.on_timeout),
        level=table.level,
        seats=dict(table.seats),
        game_id=table.game_id,
        version=table.game_version,
    )


@dataclass(slots=True)
class GameContext:
    """A game's seats, table and timing rules, kept while it is played."""

    game_id: int
    table: TableInfo | None
    seats: tuple[SeatHolder, ...]
    away: set[int] = field(default_factory=set)
    finished: bool = False
    timing: tuple[int, datetime | None] = (0, None)  # (version, its turn's deadline) last seen
    # While a move of this game is being written: the game as it was before it (version and
    # a copy nobody plays on), which views show until the write is done.
    writing: tuple[int, Game] | None = None

    @property
    def table_id(self) -> int | None:
        return None if self.table is None else self.table.id

    @property
    def pace(self) -> Pace:
        return Pace.untimed() if self.table is None else self.table.pace

    @property
    def on_timeout(self) -> TimeoutRule:
        return TimeoutRule.COMPUTER if self.table is None else self.table.on_timeout

    @property
    def level(self) -> str:
        return "normal" if self.table is None else self.table.level

    def seat_of(self, user_id: int) -> int | None:
        for seat, holder in enumerate(self.seats):
            if holder.user_id == user_id:
                return seat
        return None

    def computer_plays(self, seat: int) -> bool:
        """Whether a computer plays this seat now (a computer's seat, or one handed over)."""
        return not self.seats[seat].is_human or seat in self.away

    def level_of(self, seat: int) -> str:
        return self.seats[seat].ai_level or self.level

    def user_of(self, seat: int) -> int | None:
        return self.seats[seat].user_id

    def seats_map(self) -> dict[int, SeatHolder]:
        return dict(enumerate(self.seats))


class ServiceCore:
    """The state every mixin of :class:`~.service.GameService` works on."""

    store: Store
    clock: Clock
    thinker: Thinker
    computer_pause: float
    hand_over_after: int
    hub: EventHub
    _contexts: dict[int, GameContext]
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
        self._contexts = {}
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

    async def _context(self, game_id: int) -> GameContext:
        """The game's context (read once, then kept): UNKNOWN_GAME if there is no such game."""
        ctx = self._contexts.get(game_id)
        if ctx is not None:
            return ctx
        try:
            info = await self.store.game_info(game_id)
            table = None if info.table_id is None else await self.store.table(info.table_id)
        except NotFoundError:
            raise ServiceError(
                ErrorCode.UNKNOWN_GAME, f"no game {game_id}", game_id=game_id
            ) from None
        ctx = GameContext(
            game_id,
            None if table is None else table_info(table),
            info.seats,
            set(info.away),
            info.status is not GameStatus.PLAYING,
            (info.version, info.deadline_at),
        )
        ctx = self._contexts.setdefault(game_id, ctx)
        if ctx.table is not None:
            self._table_games[ctx.table.id] = game_id
        return ctx

    def _forget_game(self, game_id: int) -> None:
        """A finished game needs no context or lock any more (read again if asked about)."""
        ctx = self._contexts.pop(game_id, None)
        if ctx is not None:
            ctx.finished = True  # for whoever still holds it
            if ctx.table is not None and self._table_games.get(ctx.table.id) == game_id:
                del self._table_games[ctx.table.id]
        self._game_locks.pop(game_id, None)

    def _kept_table(self, table_id: int) -> TableInfo | None:
        """A table whose match is being played here, as this service keeps it: during a
        match only this service changes the table (where its message is, the version), so
        the front ends' many reads of it (every message refresh) need not go to the store."""
        game_id = self._table_games.get(table_id)
        ctx = None if game_id is None else self._contexts.get(game_id)
        if ctx is None or ctx.finished or ctx.table is None or ctx.table.id != table_id:
            return None
        return ctx.table

    async def _table(self, table_id: int) -> TableInfo:
        kept = self._kept_table(table_id)
        if kept is not None:
            return kept
        try:
            return table_info(await self.store.table(table_id))
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
