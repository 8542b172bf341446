"""``scopabot backup DATABASE DESTINATION``: a consistent copy, safe while the bot runs."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

from scopabot.service.admin import StoreError, backup_database


def database_file(text: str) -> Path:
    """The SQLite file ``backup`` and ``check`` work on; a PostgreSQL URL is refused with what
    to use instead (they would otherwise look for a file named after it)."""
    if text.strip().lower().startswith(("postgresql://", "postgres://")):
        raise argparse.ArgumentTypeError(
            "this is for the SQLite file; back up and check a PostgreSQL database with "
            "PostgreSQL's own tools (pg_dump, pg_amcheck)"
        )
    return Path(text)


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "backup",
        help="copy the database safely, even while the bot is running",
        description=(
            "Copy a ScopaBot database with SQLite's backup API. The copy is consistent (the "
            "database as of one instant) and can be taken while the bot keeps playing."
        ),
    )
    parser.add_argument("database", type=database_file, help="the bot's database file")
    parser.add_argument(
        "destination",
        help="the copy to write: a file, or a folder (an existing one, or a path ending in /)"
        " where a dated copy is written, so earlier backups are kept",
    )
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    try:
        result = asyncio.run(backup_database(args.database, args.destination))
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
