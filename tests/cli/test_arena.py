"""``scopabot arena``: the command line around the service's arena, and its progress bar."""

from __future__ import annotations

import io
import json
from pathlib import Path

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


def test_a_saved_run_goes_on_where_it_stopped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "run.jsonl"
    args = ["greedy", "random", "--preset", "scopa", "--quiet", "--save", str(saved)]
    assert cli.main([*args, "--deals", "3"]) == 0
    first = capsys.readouterr().out
    lines = saved.read_text().splitlines()
    assert json.loads(lines[0])["match"]["a"] == "greedy" and len(lines) == 1 + 6
    # A run cut while writing its last line: that deal is played again, the others kept.
    saved.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:20])
    assert cli.main([*args, "--deals", "5"]) == 0
    shown = capsys.readouterr().out
    assert "after 2 seeded deals kept from before" in shown
    assert "5 seeded deals, each played both ways" in shown
    # The same five deals played in one go give the same figures.
    assert cli.main(["greedy", "random", "--preset", "scopa", "--quiet", "--deals", "5"]) == 0
    whole = capsys.readouterr().out
    assert _overall(shown) == _overall(whole) and _overall(first) != _overall(whole)
    header = json.loads(lines[0])["match"]
    kept = cli.load_run(str(saved), header)
    assert sorted((r.seed, r.swapped) for r in kept) == [
        (s, w) for s in range(1, 6) for w in (False, True)
    ]
    # Times are kept to the microsecond: a clock's last digits are noise, and a long run's
    # file stays small enough to keep beside its figures.
    for line in saved.read_text().splitlines()[1:]:
        for field in ("a_times", "b_times", "a_cpu", "b_cpu"):
            times = json.loads(line)[field]
            assert times and all(t == round(t, 6) for t in times)


def test_a_saved_run_of_another_match_or_a_damaged_one_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "run.jsonl"

    def arena(a: str, deals: int) -> int:
        return cli.main(
            [
                a,
                "random",
                "--preset",
                "scopa",
                "--quiet",
                "--deals",
                str(deals),
                "--save",
                str(saved),
            ]
        )

    assert arena("greedy", 1) == 0
    capsys.readouterr()
    before = saved.read_text()
    assert arena("normal", 1) == 2
    assert "holds another match" in capsys.readouterr().err
    assert saved.read_text() == before
    lines = before.splitlines()
    saved.write_text("\n".join([lines[0], "{not json", *lines[1:]]) + "\n")
    damaged = saved.read_text()
    assert arena("greedy", 2) == 2
    assert "line 2 is damaged" in capsys.readouterr().err
    assert saved.read_text() == damaged


def test_the_report_gives_the_time_per_move_on_both_clocks(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert (
        cli.main(["hard:iterations=5", "greedy", "--preset", "scopa", "--quiet", "--deals", "1"])
        == 0
    )
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("time per move A"))
    assert "median" in line and "p95" in line and "max" in line and "(CPU:" in line


def _overall(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("A overall"))
