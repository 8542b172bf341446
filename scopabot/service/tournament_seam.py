"""The seam between tournaments and the rest of the service, all of it in one place.

:class:`TournamentHost` is everything :class:`~.tournaments.Tournaments` uses of the service:
its public calls to open, fill, deal and cancel tables and to resign; its event hub; the
scheduler's wake-up for a new round deadline; and, for a match decided at a round's deadline,
the internals :func:`end_game` and :func:`call_off` use (they do what ``resign`` and
``abandon`` do, for a whole side and with the tournament's reason). A redesign of the service
re-attaches tournaments by giving these, and nothing else.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, Protocol

from scopabot.engine import Game
from scopabot.store import GameClosedError, MatchEnded, StaleVersionError, Store

from .clock import Clock
from .core import GameContext
from .events import Event, EventHub, Handler, MatchOver, MoveOutcome, TableCancelled
from .live import LiveGames
from .views import Pace, PublicView, SeatView, TableInfo, TimeoutRule


class TournamentHost(Protocol):
    """What tournaments need of the service: the whole seam, typed. The public calls open,
    fill, deal and cancel tables; the underscored ones end a match at a round's deadline
    (:func:`end_game`, :func:`call_off`) and wake the scheduler for a new round deadline."""

    store: Store
    clock: Clock
    games: LiveGames
    hub: EventHub

    def subscribe(self, handler: Handler) -> Callable[[], None]: ...

    async def open_table(
        self,
        *,
        host: int,
        guild_id: int | None = None,
        channel_id: int | None = None,
        preset: str = "scopa",
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        pace: Pace | None = None,
        on_timeout: TimeoutRule | str = TimeoutRule.COMPUTER,
        level: str = "normal",
        computers: int = 0,
        seat_host: bool = True,
    ) -> TableInfo: ...

    async def table(self, table_id: int) -> TableInfo: ...

    async def add_computer(
        self, table_id: int, *, by: int, level: str | None = None, seat: int | None = None
    ) -> TableInfo: ...

    async def join(self, table_id: int, *, user: int, side: int | None = None) -> TableInfo: ...

    async def start_table(
        self, table_id: int, *, by: int, seed: int | None = None
    ) -> SeatView | PublicView: ...

    async def cancel_table(self, table_id: int, *, by: int) -> TableInfo: ...

    async def resign(self, game_id: int, *, user: int) -> MoveOutcome: ...

    def _deadline_set(self, when: datetime) -> None: ...

    async def _context(self, game_id: int) -> GameContext: ...

    def _game_lock(self, game_id: int) -> asyncio.Lock: ...

    def _emit(self, events: list[Event]) -> None: ...

    def _ended(
        self, ctx: GameContext, game: Game, ended: MatchEnded, reason: str, losing: int
    ) -> MatchOver: ...

    def _forget_game(self, game_id: int) -> None: ...


async def end_game(service: TournamentHost, game_id: int, *, losing_side: int, reason: str) -> None:
    """End a match now with ``losing_side`` losing (as ``resign`` does, for a whole side and
    with the tournament's reason): the result, statistics and ratings written, MatchOver
    published. A match already over is left as it is."""
    ctx = await service._context(game_id)
    if ctx.finished:
        return
    async with service._game_lock(game_id):
        for _ in range(5):  # the live game's owner ends it (a move may be written meanwhile)
            game, version = ctx.game, ctx.version
            if game.is_over:
                return
            try:
                ended = await service.games.end_match(
                    game_id,
                    version,
                    losing_side=losing_side,
                    reason=reason,
                    at=service.clock.now(),
                )
                break
            except StaleVersionError:
                continue
            except GameClosedError:
                return
        else:
            return
    service._emit([service._ended(ctx, game, ended, reason, losing_side)])
    service._forget_game(game_id)


async def call_off(service: TournamentHost, game_id: int) -> None:
    """Call a match off with no result (as ``abandon`` does, whatever was played by the
    clock): nobody at it played a card, so nobody wins and nothing is rated."""
    ctx = await service._context(game_id)
    if ctx.finished:
        return
    async with service._game_lock(game_id):
        if ctx.game.is_over:
            return
        try:
            await service.store.games.abandon(game_id, ctx.version)
        except StaleVersionError:
            return
    service._forget_game(game_id)
    if ctx.table is not None:
        table = await service.table(ctx.table.id)
        service._emit(
            [TableCancelled(table_id=table.id, game_id=game_id, table=table, reason="abandoned")]
        )


__all__ = ["TournamentHost", "call_off", "end_game"]
