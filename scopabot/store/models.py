"""The rows the store hands out: frozen dataclasses with typed fields, never sqlite rows."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Generic, TypeVar

from scopabot.engine import Game, PlayResult, Rules

T = TypeVar("T")


def now() -> datetime:
    return datetime.now(UTC)


def to_ms(moment: datetime) -> int:
    """Times are kept as integer milliseconds since the epoch, UTC."""
    if moment.tzinfo is None:
        raise ValueError("give an aware datetime (e.g. datetime.now(UTC))")
    return int(moment.timestamp() * 1000)


def from_ms(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, UTC)


def opt_ms(moment: datetime | None) -> int | None:
    return None if moment is None else to_ms(moment)


def opt_dt(ms: int | None) -> datetime | None:
    return None if ms is None else from_ms(ms)


GLOBAL = 0
"""The ``guild_id`` of ratings and statistics across all servers."""


class TableStatus(StrEnum):
    OPEN = "open"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class GameStatus(StrEnum):
    PLAYING = "playing"
    FINISHED = "finished"
    ABANDONED = "abandoned"


class ActorKind(StrEnum):
    USER = "user"
    COMPUTER = "computer"
    TIMEOUT = "timeout"
    SYSTEM = "system"


class StatsOrder(StrEnum):
    WINS = "wins"
    GAMES = "games"
    SCOPE = "scope"


@dataclass(frozen=True, slots=True)
class Actor:
    """Who made a move: a Discord user, a computer player, the turn timer, or the system."""

    kind: ActorKind
    user_id: int | None = None

    @classmethod
    def user(cls, user_id: int) -> Actor:
        return cls(ActorKind.USER, user_id)

    @classmethod
    def computer(cls) -> Actor:
        return cls(ActorKind.COMPUTER)

    @classmethod
    def timeout(cls) -> Actor:
        return cls(ActorKind.TIMEOUT)


@dataclass(frozen=True, slots=True)
class SeatHolder:
    """Who sits in a seat: a Discord user, or a computer player of some level."""

    user_id: int | None = None
    ai_level: str | None = None

    def __post_init__(self) -> None:
        if (self.user_id is None) == (self.ai_level is None):
            raise ValueError("a seat holds either a user or a computer level")

    @classmethod
    def human(cls, user_id: int) -> SeatHolder:
        return cls(user_id=user_id)

    @classmethod
    def computer(cls, level: str) -> SeatHolder:
        return cls(ai_level=level)

    @property
    def is_human(self) -> bool:
        return self.user_id is not None


COMPUTER_RATING_IDS: dict[str, int] = {
    "random": -1,
    "greedy": -2,
    "normal": -3,
    "hard": -4,
    "expert": -5,
}
"""The pseudo user id each computer level is rated under: below every Discord id, never taken.
(The store may not import :mod:`scopabot.ai`; a service test checks every level is here.)"""


def rating_id(holder: SeatHolder) -> int | None:
    """Whose rating a seat holder plays for: the person's id, or their level's pseudo id."""
    if holder.user_id is not None:
        return holder.user_id
    return COMPUTER_RATING_IDS.get(holder.ai_level or "")


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's choices; ``language`` is ``None`` until a manager picks one (public messages
    then follow the server's Discord locale), so "never set" is never mistaken for Italian."""

    guild_id: int
    language: str | None = None
    default_rules: dict[str, Any] = field(default_factory=dict)
    game_channel_id: int | None = None


@dataclass(frozen=True, slots=True)
class Table:
    id: int
    guild_id: int | None
    host_id: int
    rules: Rules
    status: TableStatus
    channel_id: int | None
    thread_id: int | None
    message_id: int | None
    seats: dict[int, SeatHolder]
    created_at: datetime
    updated_at: datetime
    pace: dict[str, Any] = field(default_factory=dict)  # the service's Pace, as JSON data
    on_timeout: str = "computer"
    level: str = "normal"
    game_id: int | None = None  # the table's game, once started
    game_version: int | None = None


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A game's row without its state: enough to list, route and time games."""

    id: int
    table_id: int | None
    guild_id: int | None
    rules: Rules
    status: GameStatus
    version: int
    move_count: int
    seats: tuple[SeatHolder, ...]
    deadline_at: datetime | None
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    remind_at: datetime | None = None
    timeouts: tuple[int, ...] = ()  # per seat, in a row
    away: frozenset[int] = frozenset()  # seats handed to a computer after repeated timeouts


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game as loaded: its id, the version to name when writing, and the engine state."""

    id: int
    version: int
    game: Game


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One rated player's leaderboard numbers on one board, before and after a match."""

    board: int
    rating_id: int
    before: Rating | None  # None: their first rated match in this category on this board
    after: RatingValue


@dataclass(frozen=True, slots=True)
class AppliedMove:
    """What a move did once written (the service's ``LiveGames.apply_move``): the new version
    and the engine's result, and, when the move ended the match, its stored result and the
    rating changes written with it."""

    game_id: int
    version: int
    result: PlayResult
    game: Game
    match: MatchResult | None = None
    rating_changes: tuple[RatingChange, ...] = ()
    away: frozenset[int] = frozenset()  # seats handed to a computer after this move
    seat_timeouts: int = 0  # the mover's timeouts in a row after this move
    took_back: bool = False  # the mover's seat was handed to a computer and they played
    deadline: datetime | None = None  # the deadline written for the next turn
    remind_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class MoveEntry:
    ply: int
    seat: int
    move: str
    actor: Actor
    at: datetime


@dataclass(frozen=True, slots=True)
class Deadline:
    game_id: int
    version: int
    due_at: datetime


@dataclass(frozen=True, slots=True)
class MatchPlayer:
    seat: int
    side: int
    seat_holder: SeatHolder
    won: bool


@dataclass(frozen=True, slots=True)
class MatchResult:
    id: int
    game_id: int | None
    guild_id: int | None
    category: str
    winner_side: int | None
    reason: str
    totals: tuple[int, ...]
    deals: int
    finished_at: datetime
    players: tuple[MatchPlayer, ...]
    losing_side: int | None = None  # the side that resigned or forfeited


@dataclass(frozen=True, slots=True)
class RatingValue:
    """The numbers a rating policy returns; ``score`` is what leaderboards sort by."""

    mu: float
    sigma: float
    score: float


@dataclass(frozen=True, slots=True)
class Rating:
    guild_id: int
    category: str
    user_id: int
    mu: float
    sigma: float
    score: float
    games: int
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class PlayerStats:
    guild_id: int
    category: str
    user_id: int
    games: int
    wins: int
    deals: int
    scope: int
    settebelli: int
    primiere: int
    points: int
    updated_at: datetime

    @property
    def points_per_deal(self) -> float:
        return self.points / self.deals if self.deals else 0.0


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    """One page of a leaderboard; pass ``after`` back to get the next (keyset paging)."""

    rows: tuple[T, ...]
    after: tuple[float, int] | None


@dataclass(frozen=True, slots=True)
class ImportedMatch:
    """A finished match from elsewhere (another bot, a score sheet) for the leaderboards."""

    guild_id: int | None
    category: str
    seats: tuple[SeatHolder, ...]
    sides: tuple[int, ...]
    winner_side: int | None
    totals: tuple[int, ...]
    deals: int
    finished_at: datetime
    reason: str = "imported"


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    id: int
    guild_id: int | None
    channel_id: int | None
    owner_id: int
    title: str
    sides: tuple[str, ...]
    target: int | None
    closed: bool
    totals: tuple[int, ...]
    created_at: datetime
    updated_at: datetime
    members: tuple[tuple[int, ...], ...] = ()  # the people of each side (none: names only)

    @property
    def leader(self) -> int | None:
        """The side at or past the target with the most points, alone; else ``None``."""
        if self.target is None or max(self.totals) < self.target:
            return None
        best = max(self.totals)
        top = [i for i, t in enumerate(self.totals) if t == best]
        return top[0] if len(top) == 1 else None


@dataclass(frozen=True, slots=True)
class ScoreEntry:
    sheet_id: int
    seq: int
    side: int
    points: int
    note: str
    by_user: int | None
    at: datetime
    undone_at: datetime | None


@dataclass(frozen=True, slots=True)
class MatchEnded:
    """What a match ended early did once written (the service's ``LiveGames.end_match``: a
    resignation or a forfeit)."""

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


# ---------------------------------------------------------------------- tournaments


class TournamentStatus(StrEnum):
    REGISTERING = "registering"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class Tournament:
    id: int
    guild_id: int | None
    channel_id: int | None
    organiser_id: int
    name: str
    format: str
    preset: str
    players: int
    options: dict[str, Any]
    pace: dict[str, Any]
    on_timeout: str
    level: str
    round_seconds: int
    rounds: int | None
    groups: int | None
    qualifiers: int | None
    seeding: str
    seed: int
    computers: bool  # computer players fill a Swiss bye and a withdrawn entry's place
    status: TournamentStatus
    round: int
    round_deadline: datetime | None
    bracket: int | None
    knockout_from: int | None
    winner_entry: int | None
    standings: list[dict[str, Any]] | None
    version: int
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None


@dataclass(frozen=True, slots=True)
class Entry:
    """An entry: one person, or a pair (``partner_id``); ``seed`` and ``group_no`` from the
    start on."""

    id: int
    tournament_id: int
    user_id: int
    partner_id: int | None
    seed: int | None
    group_no: int | None
    joined_at: datetime
    withdrawn_at: datetime | None

    @property
    def people(self) -> tuple[int, ...]:
        return (self.user_id,) if self.partner_id is None else (self.user_id, self.partner_id)


@dataclass(frozen=True, slots=True)
class NewPairing:
    """A pairing to store with its round; ``outcome`` set for one decided at once (a bye, a
    rest, a walkover)."""

    slot: int
    entry_a: int
    entry_b: int | None
    group_no: int | None = None
    outcome: str | None = None
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class StoredPairing:
    id: int
    tournament_id: int
    round: int
    slot: int
    group_no: int | None
    entry_a: int
    entry_b: int | None
    table_id: int | None
    outcome: str | None
    points_a: int
    points_b: int
    reason: str | None
    decided_at: datetime | None


@dataclass(frozen=True, slots=True)
class Round:
    tournament_id: int
    round: int
    stage: str
    started_at: datetime
    deadline_at: datetime
    finished_at: datetime | None
