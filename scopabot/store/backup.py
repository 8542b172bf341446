"""``scopabot backup``: a consistent copy of a live database, made with SQLite's backup API.

The copy is read inside one read transaction of its own connection, so the bot keeps writing
(WAL lets readers and the writer proceed together) and the copy is the database as of one
instant. It is written to a temporary file, checked in full (SQLite's integrity check), then
renamed into place: a crash or a full disk never leaves a half copy under the destination name.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from .errors import DatabaseCorruptError, DatabaseUnreadableError, StoreError, translate
from .integrity import integrity_problems


@dataclass(frozen=True, slots=True)
class BackupResult:
    source: Path
    destination: Path
    bytes: int
    schema_version: int


async def backup(
    source: Path | str, destination: Path | str, *, make_folder: bool = False
) -> BackupResult:
    """Copy the database at ``source`` to ``destination`` (replaced if it exists).

    ``make_folder`` creates the destination's folder, but only once the source has been read:
    a missing or damaged source creates nothing at the destination.
    """
    return await asyncio.to_thread(
        backup_sync, Path(source), Path(destination), make_folder=make_folder
    )


def backup_sync(source: Path, destination: Path, *, make_folder: bool = False) -> BackupResult:
    if not source.is_file():
        raise DatabaseUnreadableError(source, "there is no database file here")
    if destination.is_dir():
        destination = destination / source.name
    temp = destination.with_name(f".{destination.name}.{os.getpid()}.partial")
    try:
        src = sqlite3.connect(source)  # the file exists: nothing is created
    except sqlite3.Error as exc:
        raise translate(exc, source) from exc
    try:
        try:
            src.execute("PRAGMA busy_timeout = 5000")
            version = int(src.execute("PRAGMA user_version").fetchone()[0])
            # Reading the schema finds a damaged source (a truncated file reads as version 0)
            # before anything exists at the destination.
            src.execute("SELECT count(*) FROM sqlite_schema").fetchone()
        except sqlite3.Error as exc:
            raise _source_error(exc, source, destination) from exc
        if make_folder:
            destination.parent.mkdir(parents=True, exist_ok=True)
        try:
            dest = sqlite3.connect(temp)
        except sqlite3.Error as exc:
            raise translate(exc, destination) from exc
        try:
            try:
                # pages=-1: the whole database in one step, i.e. one consistent read.
                src.backup(dest, pages=-1)
            except sqlite3.Error as exc:
                if "disk is full" in str(exc):
                    raise translate(exc, destination) from exc
                raise _source_error(exc, source, destination) from exc
            try:
                dest.execute("PRAGMA journal_mode = DELETE")
                # The full check (indexes against their tables, foreign keys), on the copy:
                # the live database is not read twice.
                check = integrity_problems(dest)
            except sqlite3.Error as exc:
                # The copy holds the source's pages: damage in it is the source's.
                raise _source_error(exc, source, destination) from exc
            if check:
                raise DatabaseCorruptError(
                    source, f"the copy fails its check ({check})", _no_copy(source, destination)
                )
        finally:
            dest.close()
        os.replace(temp, destination)
        _fsync_dir(destination.parent)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    finally:
        src.close()
    return BackupResult(source, destination, destination.stat().st_size, version)


def _source_error(exc: sqlite3.Error, source: Path, destination: Path) -> StoreError:
    """The error for the source; a damaged source says that no copy was made and what to do.

    The temporary copy is removed before the error reaches anyone, so only the source and the
    destination the user named are ever in the message.
    """
    error = translate(exc, source)
    if isinstance(error, DatabaseCorruptError):
        return DatabaseCorruptError(source, error.problem, _no_copy(source, destination))
    return error


def _no_copy(source: Path, destination: Path) -> str:
    return (
        f"no copy was made and nothing was written to {destination}; keep {source} for "
        "inspection and, if the bot uses it, stop the bot and restore the latest good copy "
        "made earlier with `scopabot backup`"
    )


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
