"""The arguments of ``scopabot play``: the rule book's options, the computer levels, the
database that keeps the match and the folder for its pictures."""

from __future__ import annotations

import argparse
from pathlib import Path

from scopabot.service import DEFAULT_LEVEL, FirstDealer, Level, Preset, PrimieraRule, Tiebreak


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("play", help="play a match in the terminal against computer players")
    p.add_argument("--preset", choices=[x.value for x in Preset], default=Preset.SCOPA.value)
    p.add_argument("--players", type=int, choices=[2, 3, 4], help="scopa only; default 2")
    p.add_argument(
        "--level",
        choices=[x.value for x in Level],
        default=DEFAULT_LEVEL.value,
        help="level of the computer opponents (default %(default)s)",
    )
    p.add_argument("--partner", choices=[x.value for x in Level], help="level of your partner")
    p.add_argument("--target", type=int, help="points to win (default 11; 1..101)")
    p.add_argument("--deals", type=int, help="play a fixed number of deals instead of a target")
    p.add_argument("--asso-piglia-tutto", action="store_true", help="an asso takes the table")
    p.add_argument("--napola", action="store_true", help="score the napola")
    p.add_argument("--re-bello", action="store_true", help="the re di denari is worth a point")
    p.add_argument("--primiera", choices=[x.value for x in PrimieraRule], default="classic")
    p.add_argument("--tiebreak", choices=[x.value for x in Tiebreak], default="extra_deal")
    p.add_argument(
        "--no-three-kings-redeal",
        action="store_true",
        help="keep a first table with three or more re",
    )
    p.add_argument("--first-dealer", choices=[x.value for x in FirstDealer], default="random")
    p.add_argument("--seed", type=int, help="the same seed deals the same cards")
    p.add_argument(
        "--db",
        type=Path,
        help="keep the match in this database file; run again with it to continue",
    )
    p.add_argument(
        "--images",
        type=Path,
        metavar="DIR",
        help="also write the pictures of the table, your hand and the scores into DIR",
    )


def options_from_args(args: argparse.Namespace) -> dict[str, object]:
    options: dict[str, object] = {
        "asso_piglia_tutto": args.asso_piglia_tutto,
        "napola": args.napola,
        "re_bello": args.re_bello,
        "primiera": args.primiera,
        "tiebreak": args.tiebreak,
        "three_kings_redeal": not args.no_three_kings_redeal,
        "first_dealer": args.first_dealer,
    }
    if args.deals is not None:
        options["deals"] = args.deals
    elif args.target is not None:
        options["target"] = args.target
    return options
