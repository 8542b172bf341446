"""Persistence: SQLite through aiosqlite, with migrations; all of ScopaBot's SQL lives here.

Open the store once at start-up (it migrates the file), then call the methods of its parts
(``store.games``, ``store.deadlines``, ``store.tables``, ``store.settings``, ``store.boards``,
``store.score_sheets``, ``store.tournaments``); each is one transaction, and a move is stored
with its snapshot and version bump or not at all::

    store = await Store.open("scopabot.db")
    stored = await store.games.create(Game.new(rules, seed=7), seats=[SeatHolder.human(1), ...])
    await store.games.write_move(record)  # a move the service played and prepared (MoveRecord)
    # a second write naming the same expected version gets StaleVersionError and writes
    # nothing.

The store imports only :mod:`scopabot.engine`, to serialise games: it never plays or decides
a move (the service's live games do, :mod:`scopabot.service.live`). Errors about the file
(:class:`DatabaseError` and subclasses) name the file and say what to do.
"""

from __future__ import annotations

from .backup import BackupResult, backup
from .boards import BoardStore
from .database import Database
from .deadlines import DeadlineStore
from .errors import (
    AlreadyEnteredError,
    AlreadySeatedError,
    DatabaseCorruptError,
    DatabaseError,
    DatabaseLockedError,
    DatabaseReadOnlyError,
    DatabaseTooNewError,
    DatabaseUnreadableError,
    DiskFullError,
    EmptyDatabaseError,
    GameClosedError,
    MigrationError,
    NoSuchSeatError,
    NotEnteredError,
    NotFoundError,
    NotRegisteringError,
    NotScopaBotDatabaseError,
    SeatError,
    SeatsEmptyError,
    SeatTakenError,
    StaleRatingError,
    StaleVersionError,
    StoreError,
    TableNotOpenError,
    TournamentChangedError,
    TournamentError,
)
from .game_rows import MatchEndRecord, MoveRecord, RatingWrite, ResultRow
from .games import GameStore
from .integrity import CheckResult, check_file
from .migrate import MIGRATIONS_DIR, Migration, load_migrations, migrate
from .models import (
    COMPUTER_RATING_IDS,
    GLOBAL,
    Actor,
    ActorKind,
    Alarm,
    AlarmKind,
    AppliedMove,
    Deadline,
    Entry,
    GameInfo,
    GameStatus,
    GuildSettings,
    ImportedMatch,
    MatchEnded,
    MatchPlayer,
    MatchResult,
    MoveEntry,
    NewPairing,
    Page,
    PlayerStats,
    Rating,
    RatingChange,
    RatingValue,
    Round,
    ScoreEntry,
    ScoreSheet,
    SeatHolder,
    StatsOrder,
    StoredGame,
    StoredPairing,
    Table,
    TableStatus,
    Tournament,
    TournamentStatus,
    UserGame,
    UserSettings,
    rating_id,
)
from .outbox import Listening, Notice, OutboxStore
from .score_sheets import ScoreSheetStore
from .settings import SettingsStore
from .store import Store
from .tables import TableStore
from .tournaments import TournamentStore

__all__ = [
    "COMPUTER_RATING_IDS",
    "GLOBAL",
    "MIGRATIONS_DIR",
    "Actor",
    "ActorKind",
    "Alarm",
    "AlarmKind",
    "AlreadyEnteredError",
    "AlreadySeatedError",
    "AppliedMove",
    "BackupResult",
    "BoardStore",
    "CheckResult",
    "Database",
    "DatabaseCorruptError",
    "DatabaseError",
    "DatabaseLockedError",
    "DatabaseReadOnlyError",
    "DatabaseTooNewError",
    "DatabaseUnreadableError",
    "Deadline",
    "DeadlineStore",
    "DiskFullError",
    "EmptyDatabaseError",
    "Entry",
    "GameClosedError",
    "GameInfo",
    "GameStatus",
    "GameStore",
    "GuildSettings",
    "ImportedMatch",
    "Listening",
    "MatchEndRecord",
    "MatchEnded",
    "MatchPlayer",
    "MatchResult",
    "Migration",
    "MigrationError",
    "MoveEntry",
    "MoveRecord",
    "NewPairing",
    "NoSuchSeatError",
    "NotEnteredError",
    "NotFoundError",
    "NotRegisteringError",
    "NotScopaBotDatabaseError",
    "Notice",
    "OutboxStore",
    "Page",
    "PlayerStats",
    "Rating",
    "RatingChange",
    "RatingValue",
    "RatingWrite",
    "ResultRow",
    "Round",
    "ScoreEntry",
    "ScoreSheet",
    "ScoreSheetStore",
    "SeatError",
    "SeatHolder",
    "SeatTakenError",
    "SeatsEmptyError",
    "SettingsStore",
    "StaleRatingError",
    "StaleVersionError",
    "StatsOrder",
    "Store",
    "StoreError",
    "StoredGame",
    "StoredPairing",
    "Table",
    "TableNotOpenError",
    "TableStatus",
    "TableStore",
    "Tournament",
    "TournamentChangedError",
    "TournamentError",
    "TournamentStatus",
    "TournamentStore",
    "UserGame",
    "UserSettings",
    "backup",
    "check_file",
    "load_migrations",
    "migrate",
    "rating_id",
]
