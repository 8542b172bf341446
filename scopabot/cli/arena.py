"""``scopabot arena``: two computer players over a fixed set of seeded deals, both ways.

python -m scopabot.cli.arena hard normal --preset scopone_scientifico --deals 500 --jobs 2
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, TextIO

from scopabot.service import Preset, Rules, RulesError
from scopabot.service.arena import PlayerSpec, run_arena


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


class ProgressBar:
    """A one-line progress bar on stderr (tqdm-like, without the dependency), fed by the
    arena's ``progress(done, total)`` callback."""

    def __init__(self, stream: TextIO | None = None, width: int = 30) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.start = time.perf_counter()
        self.shown = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        if done < total and now - self.shown < 0.5:
            return
        self.shown = now
        filled = self.width * done // max(total, 1)
        elapsed = time.perf_counter() - self.start
        eta = elapsed / done * (total - done) if done else 0.0
        bar = "#" * filled + "-" * (self.width - filled)
        self.stream.write(
            f"\r[{bar}] {done}/{total} deals  {elapsed:.0f}s elapsed, ~{eta:.0f}s left "
        )
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scopabot arena")
    fill_parser(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
