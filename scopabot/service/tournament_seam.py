"""The seam between tournaments and the rest of the service, all of it in one place.

:class:`TournamentHost` is everything :class:`~.tournaments.Tournaments` uses of the service:
its tables part (to open, fill, deal and cancel tables), its games part (to resign, and to
end or call off a match at a round's deadline, for a whole side and with the tournament's
reason), its event hub, the scheduler's wake-up for a new round deadline, and the relay
between processes (a round reached in a process that does not show its server is told to
the one that does). A redesign of
the service re-attaches tournaments by giving these, and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from scopabot.store import Store

from .clock import Clock
from .events import EventHub, Handler

if TYPE_CHECKING:
    from .games import Games
    from .relay import Relay
    from .scheduler import Deadlines
    from .tables import Tables


class TournamentHost(Protocol):
    """What tournaments need of the service: the whole seam, typed."""

    @property
    def store(self) -> Store: ...

    @property
    def clock(self) -> Clock: ...

    @property
    def hub(self) -> EventHub: ...

    tables: Tables
    games: Games
    deadlines: Deadlines
    relay: Relay

    def subscribe(self, handler: Handler) -> Callable[[], None]: ...


async def end_game(service: TournamentHost, game_id: int, *, losing_side: int, reason: str) -> None:
    """End a match now with ``losing_side`` losing (see :meth:`.games.Games.end`)."""
    await service.games.end(game_id, losing_side=losing_side, reason=reason)


async def call_off(service: TournamentHost, game_id: int) -> None:
    """Call a match off with no result (see :meth:`.games.Games.call_off`)."""
    await service.games.call_off(game_id)


__all__ = ["TournamentHost", "call_off", "end_game"]
