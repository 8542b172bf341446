"""How much a search budget's choices fall short of a long search's, on fixed positions.

Prints figures; asserts nothing. Run: ``python bench/choices.py [--preset scopa]
[--reference 16000] expert:time=1.5,enough=0 expert``. About four minutes for the reference
of each game (kept in ``--cache``), then the budgets' own time.

The positions are ``bench/search.py``'s (every third decision of ``--deals`` seeded deals,
two unless told, played by ``normal``). Each is first searched long (``--reference`` sampled
deals, no time limit, a seed of its own), which values every move; then each budget chooses
in every position with three seeds, its time counted on the CPU clock (``clock=cpu`` is
added), so that other programs on the machine take its wall time but not its search. A
choice's **regret** is how many points the long search puts it below the best move. The mean
regret per decision, multiplied by a deal's decisions (about 20 for a side in scopone, 18 in
scopa), bounds what the budget loses a deal against the long search: a cheap forecast of an
arena run, which needs hours to see a tenth of a point.

``--moves FILE`` (repeatable) reads moves chosen in the same positions by ``bench/choose.py``,
which runs under any commit's code: so today's budgets are held to the search of another
commit, on the same long search's values.
"""

from __future__ import annotations

import argparse
import json
import pickle
import time
from dataclasses import replace
from pathlib import Path

from choose import SEEDS, fingerprint  # bench/choose.py
from machine import machine_line  # bench/machine.py
from search import positions  # bench/search.py

from scopabot.ai import PlayerSpec, make_player
from scopabot.engine import GameView, Move, Preset, Rules

Key = tuple[int, tuple[int, ...]]


def key(move: Move) -> Key:
    return move.card.index, tuple(sorted(c.index for c in move.capture))


def reference(views: list[GameView], deals: int, cache: Path) -> list[dict[Key, float]]:
    if cache.exists():
        kept: list[dict[Key, float]] = pickle.loads(cache.read_bytes())
        if len(kept) == len(views):
            return kept
    values = []
    for view in views:
        player = make_player("expert", seed=999, iterations=deals, time_budget=1e6, enough=0.0)
        assert hasattr(player, "evaluate")
        values.append({key(m): v for m, v in player.evaluate(view).items()})
    cache.write_bytes(pickle.dumps(values))
    return values


def chosen(
    path: Path, preset: str, views: list[GameView], refs: list[dict[Key, float]]
) -> tuple[str, list[float], list[float]]:
    """The regrets and CPU times of the moves in ``bench/choose.py``'s file, refused (exit)
    if they were chosen in other positions than these."""
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    head, rows = lines[0], lines[1:]
    if head.get("preset") != preset:
        raise SystemExit(f"{path}: moves of {head.get('preset')}, not {preset}")
    if len(rows) != len(views) * len(SEEDS):
        raise SystemExit(f"{path}: {len(rows)} moves, not {len(views) * len(SEEDS)}")
    regrets, times = [], []
    for row in rows:
        view, ref = views[row["position"]], refs[row["position"]]
        if row["fingerprint"] != fingerprint(view):
            raise SystemExit(
                f"{path}: position {row['position']} is {row['fingerprint']}, "
                f"here {fingerprint(view)}"
            )
        card, taken = row["move"]
        regrets.append(max(ref.values()) - ref[card, tuple(taken)])
        times.append(row["cpu"])
    return head["label"], regrets, times


def report(label: str, regrets: list[float], times: list[float]) -> str:
    times = sorted(times)
    n = len(times)
    return (
        f"{label}: mean regret {sum(regrets) / n:.4f} points a decision, "
        f"{sum(r > 0.05 for r in regrets)} of {n} over 0.05; CPU per decision median "
        f"{times[n // 2] * 1000:.0f} ms, p95 {times[int(0.95 * n)] * 1000:.0f} ms, "
        f"max {times[-1] * 1000:.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("budgets", nargs="*", type=PlayerSpec.parse, help="e.g. expert:time=1.5")
    parser.add_argument(
        "--moves", type=Path, action="append", default=[], help="bench/choose.py's output"
    )
    parser.add_argument("--preset", default="scopone_scientifico")
    parser.add_argument("--deals", type=int, default=2, help="seeded deals to take positions of")
    parser.add_argument("--reference", type=int, default=16000, help="sampled deals")
    parser.add_argument("--cache", type=Path, default=Path("/tmp"), help="folder")
    args = parser.parse_args()
    print(machine_line("start"))
    views = positions(Rules(preset=Preset(args.preset)), args.deals)
    cache = args.cache / f"scopabot-choices-{args.preset}-{args.deals}-{args.reference}.pickle"
    refs = reference(views, args.reference, cache)
    print(f"{args.preset}: {len(views)} positions, reference {args.reference} sampled deals")
    for spec in args.budgets:
        spec = replace(spec, cpu_clock=True)
        regrets, times = [], []
        for seed in SEEDS:
            for view, ref in zip(views, refs, strict=True):
                player = spec.make(seed)
                start = time.process_time()
                move = player.choose(view)
                times.append(time.process_time() - start)
                regrets.append(max(ref.values()) - ref[key(move)])
        print(report(str(spec), regrets, times))
    for path in args.moves:
        label, regrets, times = chosen(path, args.preset, views, refs)
        print(report(label, regrets, times))
    print(machine_line("end"))


if __name__ == "__main__":
    main()
