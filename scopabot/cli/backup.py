"""``scopabot backup DATABASE DESTINATION``: a consistent copy, safe while the bot runs."""

from __future__ import annotations

import argparse
import asyncio
import sys
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
    parser.add_argument("destination", type=Path, help="the copy to write (file or folder)")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    try:
        result = asyncio.run(backup(args.database, args.destination))
    except StoreError as exc:
        print(f"backup failed: {exc}", file=sys.stderr)
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
