"""``scopabot arena``: the command line around the service's arena, and its progress bar."""

from __future__ import annotations

import io

import pytest

from scopabot.cli import arena as cli


def test_progress_bar_and_cli(capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    bar = cli.ProgressBar(out)
    bar(1, 2)
    bar(2, 2)
    assert "2/2" in out.getvalue()
    assert cli.main(["greedy", "random", "--preset", "scopa", "--deals", "2", "--quiet"]) == 0
    shown = capsys.readouterr()
    assert "A = greedy" in shown.out and not shown.err
    # Without --quiet the arena's progress reaches the bar, on stderr.
    assert cli.main(["greedy", "random", "--preset", "scopa", "--deals", "2"]) == 0
    assert "2/2 deals" in capsys.readouterr().err


def test_the_arena_command_refuses_bad_players_and_games_with_a_message(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["hard:iterations=0", "normal", "--deals", "1"])
    assert exit_info.value.code == 2
    assert "iterations must be 1 or more" in capsys.readouterr().err
    assert cli.main(["normal", "greedy", "--preset", "scopone_scientifico", "--players", "2"]) == 2
    assert "4 players in two pairs" in capsys.readouterr().err
