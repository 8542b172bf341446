"""The ``scopabot`` command: terminal play, the computer players' arena, admin tools."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Subcommands live in their own modules, each with ``add_parser`` and ``run``; a module that is
# not there (yet) simply does not offer its subcommand.
SUBCOMMANDS = ("play", "arena", "backup", "check", "sync", "move-db")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scopabot", description="Scopa and Scopone: play, test computer players, admin."
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        try:
            module = importlib.import_module(f"scopabot.cli.{name.replace('-', '_')}")
        except ModuleNotFoundError as exc:
            if exc.name != f"scopabot.cli.{name.replace('-', '_')}":
                raise
            continue
        module.add_parser(subparsers)
        subparsers.choices[name].set_defaults(handler=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    result = args.handler(args)
    return int(result or 0)


if __name__ == "__main__":
    sys.exit(main())
