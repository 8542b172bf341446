"""``scopabot check``: SQLite's full integrity check of a database file, read-only.

The bot's start-up runs the quick check (every page read: 0.4 s for a 100 MB file, cached,
on a busy machine); this one also compares every index with its table and checks the foreign
keys (2 s for the same file), so it runs on demand and on each copy ``scopabot backup``
makes. Reading changes nothing in
the file: a damaged one stays as it was, for inspection.
"""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from .errors import DatabaseCorruptError, DatabaseUnreadableError, translate

_SHOWN = 5  # problems named in a refusal; SQLite lists up to 100


@dataclass(frozen=True, slots=True)
class CheckResult:
    path: Path
    bytes: int
    schema_version: int


async def check_file(path: Path | str) -> CheckResult:
    """Run the full check on ``path``; raise :class:`DatabaseCorruptError` naming the damage."""
    return await asyncio.to_thread(check_file_sync, Path(path))


def check_file_sync(path: Path) -> CheckResult:
    if not path.is_file():
        raise DatabaseUnreadableError(path, "there is no database file here")
    try:
        db = sqlite3.connect(path)  # the file exists: nothing is created
    except sqlite3.Error as exc:
        raise translate(exc, path) from exc
    try:
        db.execute("PRAGMA busy_timeout = 5000")
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        problems = integrity_problems(db)
    except sqlite3.Error as exc:
        raise translate(exc, path) from exc
    finally:
        db.close()
    if problems:
        raise DatabaseCorruptError(
            path, f"database is damaged (SQLite's integrity check: {problems})"
        )
    return CheckResult(path, path.stat().st_size, version)


def integrity_problems(db: sqlite3.Connection) -> str:
    """What ``PRAGMA integrity_check`` and ``foreign_key_check`` find, or '' when sound."""
    rows = [" ".join(str(r[0]).split()) for r in db.execute("PRAGMA integrity_check")]
    if rows == ["ok"]:
        rows = [
            f"row {r[1]} of {r[0]} points to a missing row of {r[2]}"
            for r in db.execute("PRAGMA foreign_key_check")
        ]
    shown = "; ".join(rows[:_SHOWN])
    return shown + (f"; and {len(rows) - _SHOWN} more" if len(rows) > _SHOWN else "")
