"""What happened, for the front ends, each event saying who may see it.

A front end subscribes with an async handler and receives every event; it shows an event only
to its :class:`Audience`: everyone at or watching the table, one seat (a hand), or the host.
Each subscriber has its own queue and task (:class:`EventHub`), so a slow or failing handler
delays only itself and never a move; its errors are logged and the next event still comes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from scopabot.engine import Card, DealScore, Move, Outcome, Play
from scopabot.store import ActorKind

from .views import PublicView, SeatView, TableInfo

log = logging.getLogger(__name__)


class AudienceKind(StrEnum):
    TABLE = "table"
    SEAT = "seat"
    HOST = "host"


@dataclass(frozen=True, slots=True)
class Audience:
    kind: AudienceKind
    seat_number: int | None = None

    @classmethod
    def table(cls) -> Audience:
        return cls(AudienceKind.TABLE)

    @classmethod
    def seat(cls, number: int) -> Audience:
        return cls(AudienceKind.SEAT, number)

    @classmethod
    def host(cls) -> Audience:
        return cls(AudienceKind.HOST)


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    table_id: int | None
    game_id: int | None
    audience: Audience = field(default_factory=Audience.table)


@dataclass(frozen=True, slots=True, kw_only=True)
class TableOpened(Event):
    table: TableInfo


@dataclass(frozen=True, slots=True, kw_only=True)
class TableChanged(Event):
    """Someone joined, left, was added, moved, or a seat was handed over or taken back."""

    table: TableInfo


@dataclass(frozen=True, slots=True, kw_only=True)
class TableStarted(Event):
    table: TableInfo
    version: int


@dataclass(frozen=True, slots=True, kw_only=True)
class TableCancelled(Event):
    table: TableInfo
    reason: str  # cancelled (before the start) or abandoned (after it, before the first move)


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnStarted(Event):
    seat: int
    user_id: int | None  # the person to notify; None for a computer seat
    deadline: datetime | None
    version: int


class TimeoutAction(StrEnum):
    COMPUTER_PLAYED = "computer_played"
    FORFEIT = "forfeit"


@dataclass(frozen=True, slots=True, kw_only=True)
class CardPlayed(Event):
    seat: int
    play: Play
    actor: ActorKind  # user, computer (a computer seat or a handed-over one), timeout
    user_id: int | None
    version: int
    leftovers: tuple[Card, ...] = ()  # cards left on the table at the end of a deal
    leftovers_to: int | None = None  # the side that takes them
    # The public view after the move (no hand in it), so a front end shows the table without
    # asking again; None for a game without a table.
    public: PublicView | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class HandChanged(Event):
    """Sent to one seat only: the cards in that seat's hand now, and (with a table) the seat's
    whole view at that version, for its hand message."""

    seat: int
    hand: tuple[Card, ...]
    version: int
    view: SeatView | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class DealScored(Event):
    deal_score: DealScore
    totals: tuple[int, ...]
    version: int


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchOver(Event):
    """The match ended: by the rules (``outcome``), or by resign or forfeit of a side.

    ``rating_changes`` are on the game's board (its server, or global outside one): the
    leaderboard score before (``None`` for a first match) and after, for each rated player
    (computer levels have negative ids: :func:`scopabot.store.rating_id`).
    """

    winner_side: int | None
    reason: str
    totals: tuple[int, ...]
    outcome: Outcome | None
    version: int
    losing_side: int | None = None  # who resigned or forfeited
    rating_changes: dict[int, tuple[float | None, float]] = field(default_factory=dict)
    global_rating_changes: dict[int, tuple[float | None, float]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class ReminderDue(Event):
    seat: int
    user_id: int | None
    deadline: datetime
    version: int


@dataclass(frozen=True, slots=True, kw_only=True)
class TimeoutApplied(Event):
    seat: int
    user_id: int | None
    what: TimeoutAction
    handed_to_computer: bool  # this was the seat's third timeout in a row
    version: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatTakenBack(Event):
    """A person whose seat was handed to a computer played again and has it back."""

    seat: int
    user_id: int
    version: int


@dataclass(frozen=True, slots=True)
class MoveOutcome:
    """What a person's move (or resignation) did: the new version and the events it caused.

    ``view`` is the mover's seat view at that version, made from the game just written, so a
    front end can answer the click at once without reading the game back (None after a
    resignation); ``move`` the move played, as the engine resolved what the person gave."""

    version: int
    events: tuple[Event, ...]
    view: SeatView | None = None
    move: Move | None = None


Handler = Callable[[Event], Awaitable[None]]


class EventHub:
    """Fans events out to subscribers, each through its own unbounded queue and task.

    Publishing only puts events in queues (never awaits), so a move is never held up by a
    front end; a handler that raises is logged and gets the next event all the same.
    """

    def __init__(self) -> None:
        self._subscribers: dict[int, _Subscriber] = {}
        self._next = 0

    def subscribe(self, handler: Handler) -> Callable[[], None]:
        """Deliver every later event to ``handler``; returns the function that unsubscribes."""
        key = self._next
        self._next += 1
        subscriber = _Subscriber(handler)
        self._subscribers[key] = subscriber

        def unsubscribe() -> None:
            found = self._subscribers.pop(key, None)
            if found is not None:
                found.stop()

        return unsubscribe

    def publish(self, events: list[Event]) -> None:
        """Queue events for every subscriber; never waits, never raises."""
        if not events:
            return
        for subscriber in self._subscribers.values():
            subscriber.put(events)

    async def drain(self) -> None:
        """Wait until every subscriber has handled everything published so far."""
        for subscriber in list(self._subscribers.values()):
            await subscriber.queue.join()

    async def close(self) -> None:
        """Deliver what is queued, then stop every subscriber's task."""
        await self.drain()
        for subscriber in self._subscribers.values():
            subscriber.stop()
        tasks = [s.task for s in self._subscribers.values()]
        self._subscribers.clear()
        await asyncio.gather(*tasks, return_exceptions=True)


class _Subscriber:
    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.queue: asyncio.Queue[Event | None] = asyncio.Queue()
        self.task = asyncio.create_task(self._run())

    def put(self, events: list[Event]) -> None:
        for event in events:
            self.queue.put_nowait(event)

    def stop(self) -> None:
        self.queue.put_nowait(None)

    async def _run(self) -> None:
        while True:
            event = await self.queue.get()
            try:
                if event is None:
                    return
                await self.handler(event)
            except Exception:
                log.exception("event handler %r failed on %r", self.handler, event)
            finally:
                self.queue.task_done()
