"""``scopabot arena``: two computer players over a fixed set of seeded deals, both ways.

python -m scopabot.cli.arena hard normal --preset scopone_scientifico --deals 500 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, TextIO

from scopabot.service import Preset, Rules, RulesError
from scopabot.service.arena import (
    DealResult,
    PlayerSpec,
    match_header,
    result_from_dict,
    result_to_dict,
    run_arena,
)


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
    parser.add_argument(
        "--save",
        metavar="FILE",
        help="write each deal's result to FILE as it is played (JSON lines); run again with"
        " the same FILE and the deals already in it are kept, not played again",
    )
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
    kept: list[DealResult] = []
    saved: TextIO | None = None
    if args.save:
        header = match_header(rules, args.a, args.b)
        try:
            kept = load_run(args.save, header)
            saved = open(args.save, "a", encoding="utf-8")  # noqa: SIM115 (closed below)
        except (OSError, ValueError) as exc:
            print(f"Cannot go on with {args.save}: {exc}", file=sys.stderr)
            return 2
        if saved.tell() == 0:  # a new file: the match it holds first
            saved.write(json.dumps({"match": header}) + "\n")
            saved.flush()

    def record(pair: tuple[DealResult, DealResult]) -> None:
        if saved is not None:
            for r in pair:
                saved.write(json.dumps(result_to_dict(r)) + "\n")
            saved.flush()

    try:
        report = run_arena(
            rules,
            args.a,
            args.b,
            deals=args.deals,
            first_seed=args.seed,
            jobs=max(1, args.jobs),
            target=args.target,
            progress=None if args.quiet else ProgressBar(),
            kept=kept,
            record=record,
        )
    finally:
        if saved is not None:
            saved.close()
    print(report.text())
    return 0


def load_run(path: str, header: dict[str, Any]) -> list[DealResult]:
    """The deals of a saved run of this match: none for a new or empty file. A file of
    another match, or a damaged line, is refused (``ValueError``) rather than mixed in; a
    last line cut by a killed run is cut off the file, and its deal played again."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        return []
    lines = text.splitlines(keepends=True)
    if not lines:
        return []
    if not lines[-1].endswith("\n"):
        # Killed while writing: the line is cut off, so that the next one starts clean.
        lines.pop()
        with open(path, "w", encoding="utf-8") as f:
            f.write("".join(lines))
        if not lines:
            return []
    try:
        first = json.loads(lines[0])
    except json.JSONDecodeError:
        raise ValueError("its first line does not name a match") from None
    if not isinstance(first, dict) or first.get("match") != header:
        shown = first.get("match") if isinstance(first, dict) else first
        raise ValueError(f"it holds another match ({shown})")
    games: dict[tuple[int, bool], DealResult] = {}
    for number, line in enumerate(lines[1:], 2):
        try:
            data = json.loads(line)
        except json.JSONDecodeError:
            raise ValueError(f"line {number} is damaged") from None
        if not isinstance(data, dict):
            raise ValueError(f"line {number} is not a deal's result")
        try:
            r = result_from_dict(data)
        except ValueError as exc:
            raise ValueError(f"line {number}: {exc}") from None
        games[r.seed, r.swapped] = r
    # A pair is played and written whole: a seed with one of its two games is played again.
    return [r for (seed, _), r in games.items() if (seed, not r.swapped) in games]


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
