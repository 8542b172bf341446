"""``scopabot check DATABASE``: SQLite's full integrity check, safe while the bot runs."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from scopabot.cli.backup import database_file
from scopabot.service.admin import StoreError, check_database


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "check",
        help="check a database for damage (read-only, safe while the bot runs)",
        description=(
            "Run SQLite's full integrity check (every page, every index against its table, "
            "the foreign keys) on a ScopaBot database. Nothing in the file is changed. The "
            "bot runs the quicker page check by itself at each start, and `scopabot backup` "
            "runs this one on each copy it makes."
        ),
    )
    parser.add_argument("database", type=database_file, help="the bot's database file")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    try:
        result = asyncio.run(check_database(args.database))
    except StoreError as exc:
        print(f"check failed: {exc}", file=sys.stderr)
        return 1
    print(
        f"{result.path} is sound ({result.bytes:,} bytes, schema version {result.schema_version})"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scopabot")
    add_parser(parser.add_subparsers(required=True))
    args = parser.parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    raise SystemExit(main())
