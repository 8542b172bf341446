"""``scopabot backup DATABASE DESTINATION``: a consistent copy, safe while the bot runs."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from scopabot.store import StoreError, backup


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "backup",
        help="copy the database safely, even while the bot is running",
        description=(
            "Copy a ScopaBot database with SQLite's backup API. The copy is consistent (the "
            "database as of one instant) and can be taken while the bot keeps playing."
        ),
    )
    parser.add_argument("database", type=Path, help="the bot's database file")
    parser.add_argument(
        "destination",
        help="the copy to write: a file, or a folder (an existing one, or a path ending in /)"
        " where a dated copy is written, so earlier backups are kept",
    )
    parser.set_defaults(run=run)
    return parser


def destination_for(database: Path, destination: str, *, now: datetime | None = None) -> Path:
    """A folder (existing, or written with a trailing slash, which is then created) gets a
    dated file name, so that ``scopabot backup scopabot.db backups/`` every night keeps each
    night's copy instead of replacing the last one."""
    target = Path(destination)
    if destination.endswith(("/", os.sep)) or target.is_dir():
        stamp = (now or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
        return target / f"{database.stem}-{stamp}{database.suffix or '.db'}"
    return target


def run(args: argparse.Namespace) -> int:
    try:
        target = destination_for(args.database, args.destination)
        # The folder is made once the source has been read: a bad source creates nothing.
        result = asyncio.run(backup(args.database, target, make_folder=True))
    except StoreError as exc:
        print(f"backup failed: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"backup failed: cannot write to {args.destination}: {exc.strerror}", file=sys.stderr)
        return 1
    print(
        f"copied {result.source} to {result.destination} "
        f"({result.bytes:,} bytes, schema version {result.schema_version})"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scopabot")
    add_parser(parser.add_subparsers(required=True))
    args = parser.parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    raise SystemExit(main())
