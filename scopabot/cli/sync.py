"""``scopabot sync``: have the bot register its slash commands with Discord again.

The bot syncs its commands at start-up only when their definition changed, remembering the
last one synced in ``<database>.commands``. This command forgets it, so the next start syncs
whatever happens (use it after a manual change in the Developer Portal, or when Discord shows
stale commands); ``python bot.py --sync`` syncs at once and exits.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

SUFFIX = ".commands"  # the same file scopabot/bot/sync.py keeps next to the database


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "sync",
        help="register the slash commands with Discord at the bot's next start",
        description=__doc__.splitlines()[2] if __doc__ else None,
    )
    parser.add_argument(
        "--db",
        default=os.environ.get("SCOPABOT_DB") or "scopabot.db",
        help="the bot's database (default: $SCOPABOT_DB or scopabot.db)",
    )
    return parser


def run(args: argparse.Namespace) -> int:
    stored = Path(str(args.db) + SUFFIX)
    existed = stored.exists()
    stored.unlink(missing_ok=True)
    what = "forgot the last synced commands" if existed else "no synced commands remembered"
    print(
        f"{stored}: {what}. The bot syncs its commands at its next start; "
        "restart it, or run `python bot.py --sync` to sync now."
    )
    return 0
