"""``scopabot arena``: two computer players over a fixed set of seeded deals, both ways.

python -m scopabot.cli.arena hard normal --preset scopone_scientifico --deals 500 --jobs 2
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from scopabot.ai.arena import PlayerSpec, ProgressBar, run_arena
from scopabot.engine import Preset, Rules, RulesError


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``arena`` on a main parser's subparsers."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "arena",
        help="play two computer levels against each other and print the statistics",
        description=(
            "Play A against B over seeded deals, each deal played again with the seats "
            "(pairs) swapped. A player is a level, optionally with budgets: "
            "'hard', 'expert:iterations=800,time=1.5'."
        ),
    )
    fill_parser(parser)
    return parser


def fill_parser(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("a", type=_player, help="first player (A), e.g. hard")
    parser.add_argument("b", type=_player, help="second player (B), e.g. normal")
    parser.add_argument(
        "--preset", default=Preset.SCOPONE_SCIENTIFICO.value, choices=[p.value for p in Preset]
    )
    parser.add_argument("--players", type=int, default=0, help="2, 3 or 4 (scopa only)")
    parser.add_argument("--asso-piglia-tutto", action="store_true")
    parser.add_argument("--napola", action="store_true")
    parser.add_argument("--re-bello", action="store_true")
    parser.add_argument(
        "--deals", type=int, default=100, help="seeded deals, each played both ways"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the first deal")
    parser.add_argument("--target", type=int, default=11, help="target of the matches counted")
    parser.add_argument("--jobs", type=int, default=1, help="processes (2 uses both cores)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


def _player(text: str) -> PlayerSpec:
    """A player written on the command line; argparse shows this error's text to the user."""
    try:
        return PlayerSpec.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{text!r}: {exc}") from None


def run(args: argparse.Namespace) -> int:
    try:
        rules = Rules(
            preset=Preset(args.preset),
            players=args.players,
            asso_piglia_tutto=args.asso_piglia_tutto,
            napola=args.napola,
            re_bello=args.re_bello,
        )
    except RulesError as exc:
        print(f"Cannot set up that game: {exc}", file=sys.stderr)
        return 2
    report = run_arena(
        rules,
        args.a,
        args.b,
        deals=args.deals,
        first_seed=args.seed,
        jobs=max(1, args.jobs),
        target=args.target,
        progress=None if args.quiet else ProgressBar(),
    )
    print(report.text())
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scopabot arena")
    fill_parser(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
