"""``scopabot backup``: a consistent copy of a live database, made with SQLite's backup API.

The copy is read inside one read transaction of its own connection, so the bot keeps writing
(WAL lets readers and the writer proceed together) and the copy is the database as of one
instant. It is written to a temporary file, checked, then renamed into place: a crash or a
full disk never leaves a half copy under the destination name.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from .errors import DatabaseCorruptError, DatabaseError, DatabaseUnreadableError, translate


@dataclass(frozen=True, slots=True)
class BackupResult:
    source: Path
    destination: Path
    bytes: int
    schema_version: int


async def backup(source: Path | str, destination: Path | str) -> BackupResult:
    """Copy the database at ``source`` to ``destination`` (replaced if it exists)."""
    return await asyncio.to_thread(backup_sync, Path(source), Path(destination))


def backup_sync(source: Path, destination: Path) -> BackupResult:
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
        except sqlite3.Error as exc:
            raise translate(exc, source) from exc
        try:
            dest = sqlite3.connect(temp)
        except sqlite3.Error as exc:
            raise translate(exc, temp) from exc
        try:
            try:
                # pages=-1: the whole database in one step, i.e. one consistent read.
                src.backup(dest, pages=-1)
            except sqlite3.Error as exc:
                error = translate(exc, source)
                if isinstance(error, DatabaseError) and "disk is full" in str(exc):
                    raise translate(exc, temp) from exc
                raise error from exc
            try:
                dest.execute("PRAGMA journal_mode = DELETE")
                check = dest.execute("PRAGMA quick_check").fetchone()[0]
            except sqlite3.Error as exc:
                raise translate(exc, temp) from exc
            if check != "ok":
                raise DatabaseCorruptError(source, f"the copy fails its check ({check})")
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


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
