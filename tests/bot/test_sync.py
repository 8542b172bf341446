"""``scopabot sync`` forgets the synced command definition, so the next start syncs."""

from __future__ import annotations

from pathlib import Path

import pytest

from scopabot.cli.main import main


def test_scopabot_sync_forgets_the_synced_definition(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "bot.db"
    stored = tmp_path / "bot.db.commands"  # what bot.py's sync_if_changed writes
    stored.write_text("0" * 64 + "\n")
    assert main(["sync", "--db", str(database)]) == 0
    assert not stored.exists()
    assert "next start" in capsys.readouterr().out
    assert main(["sync", "--db", str(database)]) == 0  # nothing to forget: still fine
    assert "no synced commands" in capsys.readouterr().out
