"""Nothing lost: a real writer process is SIGKILLed at random moments, again and again."""

from __future__ import annotations

import itertools
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .helpers import check_database, game_rows

KILLS = 22
ROOT = Path(__file__).resolve().parents[2]


def start_writer(path: Path, seed: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.store.crash_writer", str(path), str(seed)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def wait_ready(proc: subprocess.Popen[str]) -> None:
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if line.strip() != "ready":
        proc.kill()
        _, err = proc.communicate()
        raise AssertionError(f"writer did not start: {line!r} {err}")


@pytest.mark.slow
async def test_sigkill_never_leaves_a_half_move(db_path: Path) -> None:
    rng = random.Random(20250101)
    seen: dict[int, int] = {}
    total_moves = []
    for round_no in range(KILLS):
        proc = start_writer(db_path, round_no)
        wait_ready(proc)
        time.sleep(rng.uniform(0.0, 0.35))  # a random moment in the middle of writing
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        assert proc.returncode == -signal.SIGKILL
        counts = await check_database(db_path)
        for game_id, count in seen.items():
            assert counts[game_id] >= count, f"game {game_id} lost moves after kill {round_no}"
        seen = counts
        total_moves.append(sum(counts.values()))
    # The writer really wrote between kills (the test would prove nothing otherwise).
    assert total_moves[-1] > total_moves[0] + KILLS * 10
    assert sum(1 for a, b in itertools.pairwise(total_moves) if b > a) >= KILLS // 2
    assert all(v == m + 1 == r + 1 for v, m, r in game_rows(db_path).values())
