"""What can go wrong with the database, said so that whoever runs the bot knows what to do.

Every error about the file names the file and the next step; none of them is raised after
changing anything (a failed write is rolled back whole).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

_BUSY, _LOCKED, _CORRUPT, _FULL, _CANTOPEN, _NOTADB = 5, 6, 11, 13, 14, 26
_PERM, _READONLY, _IOERR, _AUTH = 3, 8, 10, 23


class StoreError(Exception):
    """Anything the store refuses or cannot do."""


class DatabaseError(StoreError):
    """The database file cannot be used; the message names it and says what to do."""

    advice = "see the log for details; the file was not changed by this failed operation"

    def __init__(self, path: Path | str, problem: str, advice: str | None = None) -> None:
        # A PostgreSQL database is named by its URL (password hidden), which a Path would
        # spoil ("postgresql://" has two slashes).
        self.path = Path(path)
        self.where = path if isinstance(path, str) and "://" in path else str(self.path)
        self.problem = problem
        self.advice = advice or type(self).advice
        super().__init__(f"{self.where}: {problem} — {self.advice}")


RESTORE = (
    "restore the latest copy made with `scopabot backup`: stop the bot, move this file (and "
    "its -wal and -shm files, if any) aside, copy the backup to this path and start the bot"
)


class DatabaseCorruptError(DatabaseError):
    advice = (
        "the file is damaged or is not a ScopaBot database; ScopaBot leaves it untouched: keep "
        "it for inspection and " + RESTORE
    )


class EmptyDatabaseError(DatabaseError):
    """A 0-byte file where the bot's database was expected: a failed copy or restore, a
    truncating editor, a volume mounted empty. Starting on it would silently begin a new,
    empty database and every game and rating would seem gone."""

    advice = (
        "ScopaBot leaves it untouched and does not start a new database over it; if the "
        "database was lost, " + RESTORE + "; if this is a new installation, delete the empty "
        "file and start the bot again (it then makes a new database there)"
    )


class DatabaseTooNewError(DatabaseError):
    advice = (
        "it was written by a newer ScopaBot: upgrade ScopaBot, or point it at a backup made "
        "for this version; the file was left untouched"
    )


class NotScopaBotDatabaseError(DatabaseError):
    advice = (
        "it holds another program's tables, so ScopaBot will not add its own to them; point "
        "ScopaBot at a new path (an empty database is made there) or at its own database; "
        "the file was left untouched"
    )


class DatabaseLockedError(DatabaseError):
    advice = (
        "another program holds the database (a second bot, a sqlite3 shell in a transaction?); "
        "close it and try again"
    )


class ConflictError(DatabaseLockedError):
    """PostgreSQL refused a transaction for another process's at the same time (a
    serialization failure, a deadlock): nothing of it was written, and the same transaction
    run again normally goes through (:mod:`.conflicts`)."""

    advice = "nothing was written; try again"


class DiskFullError(DatabaseError):
    advice = (
        "the disk (or the configured size limit) is full; free some space and try again — "
        "the write was rolled back, nothing was half-saved"
    )


class DatabaseUnreadableError(DatabaseError):
    advice = (
        "check that the path is a file (not a folder), that its folder exists and that the "
        "bot's user may read and write both"
    )


class DatabaseReadOnlyError(DatabaseUnreadableError):
    advice = (
        "the bot may read the file but not write it, so no move could be saved; give the "
        "bot's user write permission on the file and its folder (or mount the volume "
        "read-write) and start it again; the file was not changed"
    )


class DatabaseUnreachableError(DatabaseError):
    """The PostgreSQL server cannot be reached or refuses us."""

    advice = (
        "check SCOPABOT_DATABASE_URL (host, port, user, password, database name), that the "
        "PostgreSQL server is running and that it lets this user connect; nothing was written"
    )


class MigrationError(DatabaseError):
    advice = "the migration was rolled back and the schema is unchanged; fix the migration file"


class NotFoundError(StoreError):
    """No row with that id (game, table, sheet)."""


class SeatError(StoreError):
    """A seat change the table's rules refuse; nothing was written."""

    def __init__(self, table_id: int, message: str, seat: int | None = None) -> None:
        self.table_id = table_id
        self.seat = seat
        super().__init__(message)


class SeatTakenError(SeatError):
    """Someone already sits in that seat."""


class AlreadySeatedError(SeatError):
    """One seat per person per table."""


class NoSuchSeatError(SeatError):
    """The table has no seat with that number."""


class TableNotOpenError(SeatError):
    """The table started, finished or was cancelled: its seats no longer change."""


class SeatsEmptyError(SeatError):
    """A game starts only when every seat is taken."""


class StaleVersionError(StoreError):
    """The game moved on since the caller looked at it: a second click, or another player."""

    def __init__(self, game_id: int, expected: int, actual: int | None) -> None:
        self.game_id = game_id
        self.expected = expected
        self.actual = actual
        super().__init__(f"game {game_id} is at version {actual}, not {expected}")


class StaleRatingError(StoreError):
    """A rating moved (another match ended) since it was read to compute this match's
    change: nothing was written; read it again and compute anew."""

    def __init__(self, board: int, category: str, rating_id: int) -> None:
        self.board = board
        self.category = category
        self.rating_id = rating_id
        super().__init__(f"the {category} rating of {rating_id} on board {board} moved meanwhile")


class GameClosedError(StoreError):
    """The game is no longer being played (abandoned or finished): no move is taken."""

    def __init__(self, game_id: int, status: str) -> None:
        self.game_id = game_id
        self.status = status
        super().__init__(f"game {game_id} is {status}: it takes no more moves")


def translate(exc: sqlite3.Error, path: Path | str) -> StoreError:
    """The :class:`StoreError` for an error from sqlite3, naming ``path``."""
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    text = str(exc)
    if primary in (_CORRUPT, _NOTADB) or "malformed" in text or "not a database" in text:
        return DatabaseCorruptError(path, f"database is damaged ({text})")
    if primary == _FULL or "database or disk is full" in text:
        return DiskFullError(path, f"cannot write ({text})")
    if primary in (_BUSY, _LOCKED) or "locked" in text:
        return DatabaseLockedError(path, f"database is locked ({text})")
    if primary == _READONLY or "readonly database" in text:
        return DatabaseReadOnlyError(path, f"the file is read-only ({text})")
    if primary in (_CANTOPEN, _PERM, _READONLY, _AUTH, _IOERR) or "unable to open" in text:
        return DatabaseUnreadableError(path, f"cannot read or write the file ({text})")
    return StoreError(f"{path}: {type(exc).__name__}: {text}")


class TournamentError(StoreError):
    """A change the tournament's state does not allow; nothing was written."""

    def __init__(self, tournament_id: int, message: str) -> None:
        self.tournament_id = tournament_id
        super().__init__(message)


class NotRegisteringError(TournamentError):
    def __init__(self, tournament_id: int, status: str) -> None:
        self.status = status
        super().__init__(tournament_id, f"tournament {tournament_id} is {status}")


class AlreadyEnteredError(TournamentError):
    def __init__(self, tournament_id: int, user_id: int) -> None:
        self.user_id = user_id
        super().__init__(tournament_id, f"{user_id} is already entered in {tournament_id}")


class NotEnteredError(TournamentError):
    def __init__(self, tournament_id: int, user_id: int) -> None:
        self.user_id = user_id
        super().__init__(tournament_id, f"{user_id} is not entered in {tournament_id}")


class TournamentChangedError(TournamentError):
    """The tournament moved on since it was read (another process, a second click)."""

    def __init__(self, tournament_id: int, expected: int, actual: int | None) -> None:
        self.expected = expected
        self.actual = actual
        super().__init__(
            tournament_id, f"tournament {tournament_id} is at {actual}, not {expected}"
        )
