"""The moves a search level chooses in ``bench/search.py``'s positions, under any commit's code.

Writes JSON lines; asserts nothing. ``bench/choices.py --moves FILE`` then reads them and
prints their regret against its long search. Run with another commit's ``scopabot`` first on
``PYTHONPATH``, to hold today's search to the one of that commit::

    git worktree add --detach /tmp/old 31222e8
    PYTHONPATH=/tmp/old python bench/choose.py expert --out old.jsonl
    python bench/choices.py --moves old.jsonl expert

So it uses only what every commit since the search levels has: ``make_player(level,
seed=...)``, ``Game.new``, ``view_for``, ``legal_moves``, ``play``. A commit's level is taken
with its own budget. Its time is counted on the CPU clock for any commit, by reading
``time.perf_counter`` as ``time.process_time`` in this process (older searches know no other
clock), so that other programs on the machine take its wall time but not its search. Each
position is written with a fingerprint of what the seat sees, so ``choices.py`` refuses moves
chosen in other positions (another commit's deals or ``normal`` may differ).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import time
from pathlib import Path

from machine import machine_line  # bench/machine.py
from search import positions  # bench/search.py

import scopabot
from scopabot.ai import make_player
from scopabot.engine import GameView, Preset, Rules

SEEDS = (1, 2, 3)
"""The seeds each position is chosen with: ``choices.py`` uses the same three."""


def fingerprint(view: GameView) -> str:
    """What the seat sees, in words every commit's view can give (the cards face up were
    ``table`` before they were ``felt``)."""
    felt = getattr(view, "felt", None)
    if felt is None:
        felt = view.table  # type: ignore[attr-defined]
    cards = sorted(c.index for c in view.hand)
    return (
        f"seat {view.seat} hand {cards} felt {sorted(c.index for c in felt)} "
        f"hands {list(view.hand_sizes)} deck {view.deck_size}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("level", help="a level with this commit's budget, e.g. expert")
    parser.add_argument("--preset", default="scopone_scientifico")
    parser.add_argument("--deals", type=int, default=2, help="seeded deals to take positions of")
    parser.add_argument("--out", type=Path, required=True, help="JSON lines")
    args = parser.parse_args()
    print(machine_line("start"))
    code = Path(scopabot.__file__).resolve().parents[1]
    try:
        commit = subprocess.run(
            ["git", "-C", str(code), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):  # a copy of the code, not a checkout
        commit = str(code)
    time.perf_counter = time.process_time  # every commit's search reads this clock
    views = positions(Rules(preset=Preset(args.preset)), args.deals)
    label = f"{args.level} at {commit}"
    with args.out.open("w") as out:
        out.write(json.dumps({"label": label, "preset": args.preset, "deals": args.deals}) + "\n")
        for i, view in enumerate(views):
            for seed in SEEDS:
                player = make_player(args.level, seed=seed)
                start = time.process_time()
                move = player.choose(view)
                cpu = time.process_time() - start
                line = {
                    "position": i,
                    "seed": seed,
                    "fingerprint": fingerprint(view),
                    "move": [move.card.index, sorted(c.index for c in move.capture)],
                    "cpu": cpu,
                }
                out.write(json.dumps(line) + "\n")
                out.flush()
    print(f"{label}: {len(views)} {args.preset} positions, {len(SEEDS)} seeds, in {args.out}")
    print(machine_line("end"))


if __name__ == "__main__":
    main()
