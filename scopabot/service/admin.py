"""The administrator's tools: what ``scopabot backup`` and ``scopabot check`` do, whichever
front end asks.

The store makes one consistent copy of a live database; the service decides where the copy
goes (a file, or a dated file in a folder so nightly copies pile up) and prepares the folder.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

from scopabot.store import BackupResult, CheckResult, StoreError, backup, check_file
from scopabot.store.transfer import TransferResult, copy_to_postgresql


def destination_for(database: Path, destination: str, *, now: datetime | None = None) -> Path:
    """A folder (existing, or written with a trailing slash, which is then created) gets a
    dated file name, so that ``scopabot backup scopabot.db backups/`` every night keeps each
    night's copy instead of replacing the last one."""
    target = Path(destination)
    if destination.endswith(("/", os.sep)) or target.is_dir():
        stamp = (now or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
        return target / f"{database.stem}-{stamp}{database.suffix or '.db'}"
    return target


async def backup_database(database: Path, destination: str) -> BackupResult:
    """Copy ``database`` to ``destination`` (see :func:`destination_for`); raises
    :class:`StoreError` for a source that is missing or not a sound database, and
    :class:`OSError` when the destination cannot be written."""
    target = destination_for(database, destination)
    # The folder is made once the source has been read: a bad source creates nothing.
    return await backup(database, target, make_folder=True)


async def check_database(database: Path) -> CheckResult:
    """SQLite's full integrity check of ``database``, read-only (safe while the bot runs);
    raises :class:`StoreError` naming the damage and how to restore the last backup."""
    return await check_file(database)


async def move_database(database: Path, url: str) -> TransferResult:
    """Copy the SQLite file ``database`` whole into the new PostgreSQL database at ``url``,
    verifying every table's count; the file is left untouched (``scopabot move-db``)."""
    return await copy_to_postgresql(database, url)


__all__ = [
    "BackupResult",
    "CheckResult",
    "StoreError",
    "TransferResult",
    "backup_database",
    "check_database",
    "destination_for",
    "move_database",
]
