"""Persistence: SQLite through aiosqlite, with migrations; all of ScopaBot's SQL lives here.

Open the store once at start-up (it migrates the file), then call its methods; each is one
transaction, and a move is stored with its snapshot and version bump or not at all::

    store = await Store.open("scopabot.db")
    stored = await store.create_game(Game.new(rules, seed=7), seats=[SeatHolder.human(1), ...])
    applied = await store.apply_move(stored.id, stored.version, "7d", by=Actor.user(1))
    # applied.version is the version to name next; a second click naming stored.version
    # gets StaleVersionError and writes nothing.

The store imports only :mod:`scopabot.engine`, to serialise games. Errors about the file
(:class:`DatabaseError` and subclasses) name the file and say what to do.
"""

from __future__ import annotations

from .backup import BackupResult, backup
from .errors import (
    DatabaseCorruptError,
    DatabaseError,
    DatabaseLockedError,
    DatabaseTooNewError,
    DatabaseUnreadableError,
    DiskFullError,
    GameClosedError,
    MigrationError,
    NotFoundError,
    NotScopaBotDatabaseError,
    StaleVersionError,
    StoreError,
)
from .migrate import MIGRATIONS_DIR, Migration, load_migrations, migrate
from .models import (
    GLOBAL,
    Actor,
    ActorKind,
    AppliedMove,
    Deadline,
    GameInfo,
    GameStatus,
    GuildSettings,
    ImportedMatch,
    MatchPlayer,
    MatchResult,
    MoveEntry,
    Page,
    PlayerStats,
    Rating,
    RatingPolicy,
    RatingValue,
    ScoreEntry,
    ScoreSheet,
    SeatHolder,
    StatsOrder,
    StoredGame,
    Table,
    TableStatus,
)
from .store import Store

__all__ = [
    "GLOBAL",
    "MIGRATIONS_DIR",
    "Actor",
    "ActorKind",
    "AppliedMove",
    "BackupResult",
    "DatabaseCorruptError",
    "DatabaseError",
    "DatabaseLockedError",
    "DatabaseTooNewError",
    "DatabaseUnreadableError",
    "Deadline",
    "DiskFullError",
    "GameClosedError",
    "GameInfo",
    "GameStatus",
    "GuildSettings",
    "ImportedMatch",
    "MatchPlayer",
    "MatchResult",
    "Migration",
    "MigrationError",
    "MoveEntry",
    "NotFoundError",
    "NotScopaBotDatabaseError",
    "Page",
    "PlayerStats",
    "Rating",
    "RatingPolicy",
    "RatingValue",
    "ScoreEntry",
    "ScoreSheet",
    "SeatHolder",
    "StaleVersionError",
    "StatsOrder",
    "Store",
    "StoreError",
    "StoredGame",
    "Table",
    "TableStatus",
    "backup",
    "load_migrations",
    "migrate",
]
