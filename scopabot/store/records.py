"""The rows the game service's additions hand out: alarms, people's settings, their games."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from scopabot.engine import Rules

from .models import MatchResult, RatingChange


@dataclass(frozen=True, slots=True)
class MatchEnded:
    """What :meth:`Store.end_match` did (a resignation or a forfeit)."""

    game_id: int
    version: int
    match: MatchResult | None  # None when nobody at the table is rated (computers only)
    rating_changes: tuple[RatingChange, ...] = ()


class AlarmKind(StrEnum):
    DEADLINE = "deadline"
    REMINDER = "reminder"


@dataclass(frozen=True, slots=True)
class Alarm:
    """A turn's deadline or reminder that the scheduler must act on."""

    game_id: int
    version: int
    kind: AlarmKind
    due_at: datetime
    deadline_at: datetime | None


@dataclass(frozen=True, slots=True)
class UserSettings:
    user_id: int
    language: str | None = None
    notify: bool = True


@dataclass(frozen=True, slots=True)
class UserGame:
    """A game being played where this user has a seat: enough for "my games"."""

    game_id: int
    table_id: int | None
    guild_id: int | None
    seat: int
    version: int
    turn: int
    deadline_at: datetime | None
    rules: Rules
