"""``scopabot check`` and ``scopabot backup`` as an administrator runs them: the full check."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.store.damage import garbage_in_the_middle, index_out_of_step, played_database

REPO_ROOT = Path(__file__).resolve().parents[2]


def _scopabot(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scopabot.cli.main", *args],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


async def test_check_says_a_sound_database_is_sound(tmp_path: Path) -> None:
    database = tmp_path / "scopabot.db"
    await played_database(database, games=5)
    before = database.read_bytes()
    done = _scopabot("check", str(database))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"{database} is sound (") and "schema version" in done.stdout
    assert database.read_bytes() == before


async def test_check_names_damaged_pages_and_changes_nothing(tmp_path: Path) -> None:
    database = tmp_path / "scopabot.db"
    await played_database(database)
    garbage_in_the_middle(database)
    before = database.read_bytes()
    done = _scopabot("check", str(database))
    assert done.returncode == 1
    assert done.stderr.startswith(f"check failed: {database}: database is damaged")
    assert "scopabot backup" in done.stderr and "Traceback" not in done.stderr
    assert database.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scopabot.db"]


async def test_an_index_out_of_step_is_found_by_check_and_backup(tmp_path: Path) -> None:
    """Damage the start-up's quick check cannot see (it reads pages, not indexes against
    their tables): the full check finds it, and a backup of such a file is refused."""
    database = tmp_path / "scopabot.db"
    await played_database(database, games=5)
    index_out_of_step(database)
    before = database.read_bytes()
    done = _scopabot("check", str(database))
    assert done.returncode == 1
    assert "integrity check" in done.stderr and "game_seats_by_user" in done.stderr
    backups = tmp_path / "backups"
    done = _scopabot("backup", str(database), f"{backups}/")
    assert done.returncode == 1, done.stdout
    assert done.stderr.startswith(f"backup failed: {database}:")
    assert "game_seats_by_user" in done.stderr and "no copy was made" in done.stderr
    assert not backups.exists() or not any(backups.iterdir())
    assert database.read_bytes() == before
