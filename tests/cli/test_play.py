"""The terminal game, driven like a person at the keyboard."""

from __future__ import annotations

import io
import subprocess
import sys
from itertools import chain, repeat
from pathlib import Path

from scopabot.cli.main import build_parser, main
from scopabot.cli.play import run


def play(argv: list[str], lines: list[str] | None = None, *, then: str = "1") -> str:
    """Run ``scopabot play`` with typed lines, answering ``then`` for ever after them."""
    args = build_parser().parse_args(["play", *argv])
    typed = "\n".join(chain(lines or [], repeat(then, 3000))) + "\n"
    out = io.StringIO()
    assert run(args, stdin=io.StringIO(typed), out=out) == 0
    return out.getvalue()


def test_a_whole_match_reaches_its_winner_with_breakdowns() -> None:
    text = play(["--seed", "5", "--level", "greedy"])
    assert "=== Deal 1" in text and "Carte" in text and "Primiera" in text
    assert "Score [to 11]" in text and "needs" in text
    assert text.rstrip().splitlines()[-1].startswith("Match won by")


def test_bad_input_gets_a_sentence_and_a_new_prompt() -> None:
    text = play(["--seed", "5", "--deals", "1"], ["foo", "0", "9", "7x", "9z:1d", "", "help"])
    assert "'foo' is not a card" in text
    assert "Choose a card from 1 to 3." in text
    assert "'7x' is not a card" in text
    assert "Type the number of a card" in text
    assert "Traceback" not in text
    assert "Match won by" in text or "undecided" in text


def test_a_card_not_in_hand_and_an_illegal_capture_are_refused() -> None:
    text = play(["--seed", "5", "--deals", "1"], ["10b:10s", "settebello"])
    assert "is not in your hand" in text or "is not on the table" in text


def test_several_captures_are_offered_as_a_choice() -> None:
    for seed in range(40):
        text = play(["--seed", str(seed), "--deals", "1", "--level", "random"], then="1")
        if "can take: 1)" in text:
            assert "Which? (1-" in text
            return
    raise AssertionError("no capture choice was offered in 40 matches")


def test_end_of_input_and_quit_leave_politely() -> None:
    out = io.StringIO()
    args = build_parser().parse_args(["play", "--seed", "9"])
    assert run(args, stdin=io.StringIO(""), out=out) == 0
    assert "Match left" in out.getvalue() and "--seed 9" in out.getvalue()
    assert "Match left" in play(["--seed", "9"], ["quit"])


def test_every_preset_and_option_can_be_played() -> None:
    for argv in (
        ["--players", "3", "--asso-piglia-tutto"],
        ["--players", "4", "--partner", "greedy", "--napola", "--re-bello"],
        ["--preset", "scopone_scientifico", "--primiera", "sevens", "--tiebreak", "ko"],
        ["--preset", "scopone_classico", "--first-dealer", "draw", "--no-three-kings-redeal"],
    ):
        text = play(["--seed", "2", "--deals", "1", "--level", "greedy", *argv])
        assert "Match won by" in text or "undecided" in text, argv
    assert "Draw for dealer" in play(["--seed", "2", "--first-dealer", "draw"], ["quit"])


def test_bad_options_are_refused_with_a_message(capsys: object) -> None:
    assert main(["play", "--target", "500"]) == 2
    err = capsys.readouterr().err  # type: ignore[attr-defined]
    assert "target must be 1..101" in err


def test_the_console_script_runs_in_a_real_process() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "scopabot.cli.main", "play", "--seed", "4", "--deals", "1"],
        input="nonsense\n" + "1\n" * 400,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "'nonsense' is not a card" in proc.stdout
    assert "Traceback" not in proc.stdout + proc.stderr


def test_odd_input_never_breaks_the_prompt() -> None:
    long_line = "9" * 5000
    text = play(["--seed", "3", "--deals", "1"], ["²", long_line, ":", "x" * 500, "٣"])
    assert "Traceback" not in text
    assert "name the card you play before ':'" in text
    assert "'xxxxxxxxxxxxxxxxxxxxx...' is not a card" in text
    errors = [line for line in text.splitlines() if "is not a card" in line]
    assert errors and all(len(line) < 250 for line in errors)


def test_fixed_deals_say_which_deal_comes_next() -> None:
    text = play(["--seed", "3", "--deals", "2"])
    assert "next: deal 2 of 2" in text
    assert "Scopa for 2, 2 deals" in text


def test_a_match_kept_in_a_database_continues_where_it_was_left(tmp_path: Path) -> None:
    db = tmp_path / "match.db"
    first = play(["--seed", "6", "--deals", "1", "--db", str(db)], ["1", "1", "quit"])
    assert "Match left" in first and f"continue it with --db {db}" in first
    played_first = first.count("You play")
    assert played_first == 2
    second = play(["--db", str(db), "--seed", "99"])  # the kept match, not a new one
    assert "Continuing the match kept in" in second and "(seed" not in second
    assert "=== Deal 1" not in second  # the deal goes on; nothing is dealt again
    assert "Match won by" in second or "undecided" in second
    # Every card of the deal was played once across the two runs (a scopa deal has 36 plays
    # from hands, 18 of them yours in a two-player match).
    assert played_first + second.count("You play") == 18
    third = play(["--db", str(db), "--seed", "6", "--deals", "1"], ["quit"])
    assert "Continuing" not in third and "(seed 6)" in third  # the finished match is over


def test_images_writes_every_picture_of_the_match_with_its_alt_text(tmp_path: Path) -> None:
    folder = tmp_path / "pictures"
    text = play(["--seed", "5", "--deals", "1", "--images", str(folder)])
    assert f"Pictures of the match are in {folder}." in text
    names = sorted(p.name for p in folder.iterdir())
    assert "001-table.png" in names and "001-hand.png" in names
    assert any(n.endswith("-deal-1.png") for n in names)
    assert names[-2:] == [n for n in names if "standings" in n]
    for png in folder.glob("*.png"):
        assert png.read_bytes().startswith(b"\x89PNG")
        alt = png.with_suffix(".txt").read_text(encoding="utf-8")
        assert alt.strip()
    # The first hand's alt text names, in order, the cards the terminal showed as the hand.
    hand_alt = (folder / "001-hand.txt").read_text(encoding="utf-8")
    # (sorted by value then suit, as the bot's buttons are: issue #20 asked for sorted hands)
    assert hand_alt.startswith("Your hand: 1: 2 of clubs; 2: 3 of coins; 3: 4 of coins")
    assert "Your hand: 1) 2b  2) 3d  3) 4d" in text
