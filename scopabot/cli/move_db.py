"""``scopabot move-db --from scopabot.db --to postgresql://…``: a server's whole history, from
the SQLite file into a new PostgreSQL database."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path
from typing import Any

from scopabot.service.admin import StoreError, move_database


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "move-db",
        help="copy the SQLite database into a new PostgreSQL database (the file is kept)",
        description=(
            "Copy everything in a ScopaBot SQLite file (games with every move, tables, "
            "results, ratings, statistics, score sheets, settings, tournaments) into an empty "
            "PostgreSQL database, in one transaction, and compare every table's count. The "
            "file is opened read-only and left as it was. Stop the bot first; then set "
            "SCOPABOT_DATABASE_URL to the new database and start it again."
        ),
    )
    parser.add_argument(
        "--from",
        dest="source",
        type=Path,
        default=Path(os.environ.get("SCOPABOT_DB") or "scopabot.db"),
        help="the SQLite file (default: $SCOPABOT_DB or scopabot.db)",
    )
    parser.add_argument(
        "--to",
        dest="target",
        default=os.environ.get("SCOPABOT_DATABASE_URL"),
        help="the PostgreSQL database, postgresql://user:password@host:5432/name "
        "(default: $SCOPABOT_DATABASE_URL)",
    )
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    target = (args.target or "").strip()
    if not target.lower().startswith(("postgresql://", "postgres://")):
        print(
            "move-db needs --to postgresql://user:password@host:5432/database (or "
            "SCOPABOT_DATABASE_URL set to it)",
            file=sys.stderr,
        )
        return 2
    try:
        result = asyncio.run(move_database(args.source, target))
    except StoreError as exc:
        print(f"move-db failed: {exc}", file=sys.stderr)
        return 1
    for table, count in sorted(result.counts.items()):
        print(f"  {table:<24} {count:>9,}")
    print(
        f"{result.rows:,} rows copied from {result.source} to {result.target} and counted in "
        f"both (schema version {result.schema_version}); {result.source} is unchanged. Set "
        "SCOPABOT_DATABASE_URL to the new database and start the bot."
    )
    return 0
