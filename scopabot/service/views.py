"""The values handed to front ends: a table, a seat's view, the public view, "my games".

All frozen. A :class:`PublicView` is built from a seat's view with the hand dropped, and has no
field that could hold one, so a message for everyone cannot carry a hidden card by mistake.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from scopabot.engine import Card, DealScore, GameView, Move, Outcome, Play, Rules
from scopabot.store import SeatHolder, TableStatus

from .errors import ErrorCode, ServiceError

LIVE_MIN, LIVE_MAX = 30, 15 * 60  # seconds a turn
CORRESPONDENCE_MIN, CORRESPONDENCE_MAX = 3600, 7 * 24 * 3600
LIVE_REMINDER = 30  # seconds before the deadline


class PaceKind(StrEnum):
    LIVE = "live"
    CORRESPONDENCE = "correspondence"
    UNTIMED = "untimed"  # no deadline: the terminal, or a table with only computers to wait for


class TimeoutRule(StrEnum):
    """What happens when a seat's time runs out."""

    COMPUTER = "computer"  # a computer player of the table's level plays the turn
    FORFEIT = "forfeit"  # the absent side loses the match


HAND_OVER_AFTER = 3
"""Timeouts in a row after which the seat is handed to a computer for the rest of the match."""


@dataclass(frozen=True, slots=True)
class Pace:
    """How long a turn may take, and when to remind the person in turn.

    ``reminders`` are seconds before the deadline, largest first. Build with :meth:`live`,
    :meth:`correspondence` or :meth:`untimed`, which check the limits.
    """

    kind: PaceKind
    seconds: int | None
    reminders: tuple[int, ...] = ()

    @classmethod
    def live(cls, seconds: int = 120, *, reminder: bool = True) -> Pace:
        if not LIVE_MIN <= seconds <= LIVE_MAX:
            raise ServiceError(
                ErrorCode.BAD_PACE,
                f"a live turn lasts {LIVE_MIN} s to {LIVE_MAX // 60} min, not {seconds} s",
                seconds=seconds,
            )
        return cls(PaceKind.LIVE, seconds, (LIVE_REMINDER,) if reminder else ())

    @classmethod
    def correspondence(
        cls, hours: float = 24, *, hour_before: bool = True, quarter_before: bool = True
    ) -> Pace:
        seconds = round(hours * 3600)
        if not CORRESPONDENCE_MIN <= seconds <= CORRESPONDENCE_MAX:
            raise ServiceError(
                ErrorCode.BAD_PACE,
                f"a correspondence turn lasts 1 hour to 7 days, not {hours} h",
                hours=hours,
            )
        marks = set()
        if quarter_before:
            marks.add(seconds // 4)
        if hour_before and seconds > 3600:
            marks.add(3600)
        return cls(PaceKind.CORRESPONDENCE, seconds, tuple(sorted(marks, reverse=True)))

    @classmethod
    def untimed(cls) -> Pace:
        return cls(PaceKind.UNTIMED, None)

    def deadline(self, start: datetime) -> datetime | None:
        return None if self.seconds is None else start + timedelta(seconds=self.seconds)

    def next_reminder(self, deadline: datetime | None, now: datetime) -> datetime | None:
        """The first reminder still to come before ``deadline`` (``None``: no more)."""
        if deadline is None:
            return None
        for before in self.reminders:
            at = deadline - timedelta(seconds=before)
            if at > now:
                return at
        return None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "seconds": self.seconds, "reminders": list(self.reminders)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Pace:
        return cls(PaceKind(data["kind"]), data.get("seconds"), tuple(data.get("reminders", ())))


@dataclass(frozen=True, slots=True)
class TableInfo:
    """A table as front ends show it: before, during and after its match."""

    id: int
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    message_id: int | None
    host: int
    rules: Rules
    status: TableStatus
    pace: Pace
    on_timeout: TimeoutRule
    level: str
    seats: dict[int, SeatHolder]
    game_id: int | None = None
    version: int | None = None  # the game's version, once started

    @property
    def sides(self) -> dict[int, tuple[int, ...]]:
        """The seats of each side (partners sit opposite with four players)."""
        return {side: self.rules.seats_of(side) for side in range(self.rules.sides)}

    @property
    def open_seats(self) -> tuple[int, ...]:
        return tuple(s for s in range(self.rules.players) if s not in self.seats)

    @property
    def is_full(self) -> bool:
        return not self.open_seats

    def seat_of(self, user_id: int) -> int | None:
        for seat, holder in self.seats.items():
            if holder.user_id == user_id:
                return seat
        return None


@dataclass(frozen=True, slots=True)
class Rematch:
    """The table of a finished match's rematch; ``opened`` False when an earlier click (or
    another process) had opened it already, and this one only points to it."""

    table: TableInfo
    opened: bool


@dataclass(frozen=True, slots=True)
class PublicView:
    """What everyone at or watching the table may see: no hand, not even the player's own."""

    game_id: int
    table: TableInfo
    version: int
    rules: Rules
    turn: int
    dealer: int
    deal_number: int
    felt: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    deck_size: int
    captured_counts: tuple[int, ...]
    scope: tuple[int, ...]
    plays: tuple[Play, ...]
    totals: tuple[int, ...]
    deal_scores: tuple[DealScore, ...]
    last_deal_score: DealScore | None
    outcome: Outcome | None
    spareggio: int
    dealer_draw: tuple[tuple[tuple[int, Card], ...], ...]
    deadline: datetime | None
    seats: dict[int, SeatHolder]
    away: frozenset[int]  # seats handed to a computer after repeated timeouts
    finished: bool
    result_reason: str | None  # target, deals, resign, forfeit, abandoned... once finished
    winner_side: int | None

    @classmethod
    def from_view(
        cls,
        view: GameView,
        *,
        game_id: int,
        table: TableInfo,
        version: int,
        deadline: datetime | None,
        seats: dict[int, SeatHolder],
        away: frozenset[int] = frozenset(),
        finished: bool = False,
        result_reason: str | None = None,
        winner_side: int | None = None,
    ) -> PublicView:
        """Copy the public fields of a seat's view; the hand and legal moves stay behind."""
        outcome = view.outcome
        return cls(
            game_id=game_id,
            table=table,
            version=version,
            rules=view.rules,
            turn=view.turn,
            dealer=view.dealer,
            deal_number=view.deal_number,
            felt=view.felt,
            hand_sizes=view.hand_sizes,
            deck_size=view.deck_size,
            captured_counts=view.captured_counts,
            scope=view.scope,
            plays=view.plays,
            totals=view.totals,
            deal_scores=view.deal_scores,
            last_deal_score=view.deal_scores[-1] if view.deal_scores else None,
            outcome=outcome,
            spareggio=view.spareggio,
            dealer_draw=view.dealer_draw,
            deadline=deadline,
            seats=seats,
            away=away,
            finished=finished or outcome is not None,
            result_reason=result_reason or (outcome.reason.value if outcome else None),
            winner_side=winner_side if outcome is None else outcome.winner,
        )


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one person at the table may see: their hand, the public game, their choices."""

    game_id: int
    table: TableInfo
    seat: int
    version: int
    view: GameView
    public: PublicView
    deadline: datetime | None
    seats: dict[int, SeatHolder]
    choices: dict[Card, tuple[Move, ...]] = field(default_factory=dict)

    @property
    def your_turn(self) -> bool:
        return not self.public.finished and self.view.is_my_turn

    @property
    def hand(self) -> tuple[Card, ...]:
        return self.view.hand


@dataclass(frozen=True, slots=True)
class MyGame:
    """One table a person sits at, for "my games" (waiting for them first)."""

    table_id: int
    game_id: int | None  # None while the table is still gathering
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    rules: Rules
    status: TableStatus
    seat: int
    turn: int | None
    deadline: datetime | None
    waiting_for_you: bool
    version: int | None
