"""A new player's first games in the terminal: Ctrl-C, the capture prompt, a kept match, what
is shown when a computer leads, the hand and the running count, and the words on screen."""

from __future__ import annotations

import io
import os
import re
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from scopabot.cli.main import build_parser, main
from scopabot.cli.play import CtrlC, Quit, _read_line, run
from scopabot.engine import Card, parse_cards

CARD = r"(?:10|[1-9])[dcsb]"


class Person(io.TextIOBase):
    """Stdin that answers each prompt by looking at what the terminal printed last."""

    def __init__(self, out: io.StringIO, answer: Callable[[str, str], str]) -> None:
        self.out = out
        self.answer = answer
        self.calls = 0

    def readline(self, size: int | None = -1) -> str:
        self.calls += 1
        if self.calls > 3000:
            return ""
        screen = self.out.getvalue()
        prompt = screen.rsplit("\n", 1)[-1]
        return self.answer(prompt, screen) + "\n"


def play_with(argv: list[str], answer: Callable[[str, str], str]) -> str:
    out = io.StringIO()
    args = build_parser().parse_args(["play", *argv])
    assert run(args, stdin=Person(out, answer), out=out) == 0
    return out.getvalue()


def first_card(prompt: str, screen: str) -> str:
    return "1"


# Ctrl-C -------------------------------------------------------------------------------------------


def _read_until(proc: subprocess.Popen[bytes], marker: bytes, timeout: float = 30) -> bytes:
    assert proc.stdout is not None
    seen = b""
    end = time.monotonic() + timeout
    while marker not in seen:
        left = end - time.monotonic()
        assert left > 0, seen.decode(errors="replace")
        ready, _, _ = select.select([proc.stdout], [], [], left)
        if ready:
            chunk = os.read(proc.stdout.fileno(), 4096)
            assert chunk, seen.decode(errors="replace")
            seen += chunk
    return seen


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child is POSIX")
def test_one_ctrl_c_leaves_the_match_cleanly_and_keeps_it(tmp_path: Path) -> None:
    db = tmp_path / "kept.db"
    command = [sys.executable, "-m", "scopabot.cli.main", "play", "--seed", "4", "--db", str(db)]
    proc = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        seen = _read_until(proc, b"Your move: ")
        proc.send_signal(signal.SIGINT)  # one press, at the prompt
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    text = (seen + out).decode()
    assert proc.returncode == 0, err.decode()
    assert err.decode() == "" and "Traceback" not in text
    assert text.count("Match left.") == 1
    assert f"It is kept: continue it with --db {db}." in text
    again = subprocess.run(
        [*command[:4], "--db", str(db)], input="quit\n", capture_output=True, text=True, timeout=60
    )
    assert "Continuing the match kept in" in again.stdout, again.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="process groups are POSIX")
def test_ctrl_c_from_a_terminal_against_a_searching_computer_prints_no_traceback() -> None:
    """A terminal sends Ctrl-C to the whole process group, the search's worker processes too:
    they leave it to the match, which leaves cleanly."""
    command = [sys.executable, "-m", "scopabot.cli.main", "play", "--seed", "4", "--level", "hard"]
    proc = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own group, as a terminal's job is
    )
    assert proc.stdin is not None
    try:
        seen = b""
        for _ in range(3):  # a few moves, so the search's workers are running
            seen += _read_until(proc, b"Your move: ", timeout=60)
            proc.stdin.write(b"1\n")
            proc.stdin.flush()
        seen += _read_until(proc, b"Your move: ", timeout=60)
        assert b"(hard) plays" in seen
        time.sleep(0.3)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0
    assert "Match left." in out.decode()
    assert err.decode() == "", err.decode()[-2000:]


def test_a_ctrl_c_while_the_computers_play_leaves_at_the_next_prompt() -> None:
    keys = CtrlC()
    keys(signal.SIGINT, None)  # pressed while no prompt waited: nothing is interrupted
    out = io.StringIO()
    with pytest.raises(Quit):
        _read_line("Your move: ", io.StringIO("1\n"), out, keys)
    assert out.getvalue() == ""  # no prompt is shown: the match is left at once
    keys = CtrlC()
    keys.reading = True
    with pytest.raises(KeyboardInterrupt):  # while a prompt waits, the wait ends
        keys(signal.SIGINT, None)


# The capture prompt -------------------------------------------------------------------------------


def test_help_table_score_and_the_cards_work_at_the_capture_prompt() -> None:
    asked: list[str] = []

    def person(prompt: str, screen: str) -> str:
        if prompt.startswith("Which?"):
            asked.append(prompt)
            script = ["help", "table", "score"]
            if len(asked) <= len(script):
                return script[len(asked) - 1]
            listed = screen.rsplit("can take:", 1)[-1].split("\n", 1)[0]
            offered = re.findall(r"\d\) ([0-9dcsb+]+)", listed)
            return offered[-1]  # the last choice, written as its cards
        if len(asked) > 3:
            return "quit"
        return str(1 + len(re.findall("Your move: ", screen)) % 3)

    for seed in range(60):
        asked.clear()
        text = play_with(["--seed", str(seed), "--level", "random", "--deals", "1"], person)
        if len(asked) > 3:
            break
    else:
        raise AssertionError("no capture choice in 60 matches")
    after = text.split("can take:", 1)[1]
    assert "Choose 1 to" not in after
    assert "Cards are written value then suit" in after  # help
    assert "Table: " in after and "Score [" in after  # table, score
    taken = re.findall(rf"You play ({CARD}) and take ([0-9dcsb+]+)\.", after)
    assert taken, after[:2000]


def test_a_whole_move_typed_at_the_capture_prompt_is_played() -> None:
    state: dict[str, str] = {}

    def person(prompt: str, screen: str) -> str:
        if prompt.startswith("Which?") and "move" not in state:
            line = screen.rsplit("\n", 2)[-2]
            card, _, listed = line.partition(" can take: ")
            first = re.findall(r"\d\) ([0-9dcsb+]+)", listed)[0]
            state["move"] = f"{card}:{first}"
            return state["move"]
        if "move" in state:
            return "quit"
        return str(1 + len(re.findall("Your move: ", screen)) % 3)

    for seed in range(60):
        state.clear()
        text = play_with(["--seed", str(seed), "--level", "random", "--deals", "1"], person)
        if "move" in state:
            break
    else:
        raise AssertionError("no capture choice in 60 matches")
    card, capture = state["move"].split(":")
    assert f"You play {card} and take {capture}." in text


# A kept match, options, finished matches ----------------------------------------------------------


def test_a_kept_match_says_which_options_it_ignores_and_where_it_stands(tmp_path: Path) -> None:
    db = tmp_path / "kept.db"
    first = io.StringIO()
    args = build_parser().parse_args(
        ["play", "--seed", "6", "--deals", "2", "--re-bello", "--db", str(db)]
    )
    run(args, stdin=io.StringIO("1\n1\nquit\n"), out=first)
    args = build_parser().parse_args(
        ["play", "--db", str(db), "--preset", "scopone_scientifico", "--level", "hard"]
    )
    second = io.StringIO()
    run(args, stdin=io.StringIO("quit\n"), out=second)
    text = second.getvalue()
    assert "Continuing the match kept in" in text
    assert "Ignored: --preset, --level — a kept match goes on with its own rules" in text
    assert "Scopa for 2, 2 deals, with re bello." in text
    assert "Score [fixed number of deals]: You 0 · Bot 1 0 · now: deal 1 of 2" in text
    assert re.search(r"Deal 1 goes on where it was: \d+ cards played so far, dealer ", text)


def test_a_finished_kept_match_says_a_new_one_starts(tmp_path: Path) -> None:
    db = tmp_path / "done.db"
    args = build_parser().parse_args(["play", "--seed", "6", "--deals", "1", "--db", str(db)])
    run(args, stdin=io.StringIO("1\n" * 400), out=io.StringIO())
    again = io.StringIO()
    run(build_parser().parse_args(["play", "--db", str(db)]), stdin=io.StringIO(""), out=again)
    assert f"The match kept in {db} is over (1 match played there so far); a new one starts." in (
        again.getvalue()
    )


def test_target_and_deals_together_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--target", "21", "--deals", "3"]) == 2
    captured = capsys.readouterr()
    assert "Choose --target or --deals, not both" in captured.err
    assert captured.out == ""


# What the table shows -----------------------------------------------------------------------------


def test_the_cards_dealt_on_the_table_are_shown_when_a_computer_leads() -> None:
    for seed in range(40):
        text = play_with(["--seed", str(seed), "--deals", "1"], lambda p, s: "quit")
        if "dealer: You ===" in text:
            break
    else:
        raise AssertionError("You never dealt in 40 seeds")
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("=== Deal 1"))
    dealt = lines[at + 1]
    assert dealt.startswith("Dealt on the table: ")
    table = set(re.findall(CARD, dealt))
    assert len(table) == 4
    led = rf"Bot 1 \(normal\) plays ({CARD})(?: and takes ([0-9dcsb+]+))?\."
    bot = re.match(led, lines[at + 2])
    assert bot, lines[at + 2]
    if bot.group(2):
        taken = {str(c) for c in parse_cards(bot.group(2))}
        assert taken <= table  # what the computer took was on the dealt table
        table -= taken
    else:
        table.add(bot.group(1))
    now = next(line for line in lines[at:] if line.startswith("Table: "))
    assert set(re.findall(CARD, now.split("[")[0])) == table


def test_the_hand_is_sorted_and_re_bello_named_only_when_it_scores() -> None:
    seen_10d = {True: False, False: False}
    for seed in range(30):
        for re_bello in (True, False):
            argv = ["--seed", str(seed), "--deals", "1", "--level", "greedy"]
            text = play_with(argv + (["--re-bello"] if re_bello else []), first_card)
            for line in text.splitlines():
                if not line.startswith("Your hand: "):
                    continue
                cards = [Card.parse(c) for c in re.findall(rf"\) ({CARD})", line)]
                assert cards == sorted(cards, key=Card.sort_key), line
                if "10d" in line:
                    seen_10d[re_bello] = True
                    assert ("10d (re bello)" in line) is re_bello, line
        if all(seen_10d.values()):
            return
    raise AssertionError(f"10d never in hand: {seen_10d}")


def test_a_running_count_of_the_deal_is_shown_once_something_is_taken() -> None:
    text = play_with(["--seed", "5", "--deals", "1", "--level", "greedy"], first_card)
    counts = [line for line in text.splitlines() if line.startswith("Taken this deal: ")]
    assert counts
    assert re.fullmatch(
        r"Taken this deal: You \d+ cards?, (1 denaro|\d+ denari), (1 scopa|\d+ scope)"
        r"(, the settebello)? · Bot 1 \d+ cards?, (1 denaro|\d+ denari), (1 scopa|\d+ scope)"
        r"(, the settebello)?",
        counts[-1],
    ), counts[-1]


# Words --------------------------------------------------------------------------------------------


def test_the_words_on_screen_read_as_english() -> None:
    text = play_with(["--seed", "5", "--level", "greedy"], first_card)
    assert "(needs 0)" not in text and "(needs -" not in text
    final = [line for line in text.splitlines() if line.startswith("Score [")][-1]
    assert "needs" not in final  # the match is over: nobody needs anything
    assert "1 denari," not in text and " goes to " not in text
    won = re.search(r"^Match won by .*\((\d+) – (\d+)\)\.$", text, re.M)
    assert won and int(won[1]) >= int(won[2]), text[-300:]  # the winner's points first
    one = play_with(["--seed", "3", "--deals", "1"], lambda p, s: "quit")
    assert "Scopa for 2, 1 deal (seed 3)." in one
    assert "1 deals" not in one


def test_the_terminal_pictures_say_your_turn(tmp_path: Path) -> None:
    folder = tmp_path / "pictures"
    play_with(["--seed", "5", "--deals", "1", "--images", str(folder)], first_card)
    alt = (folder / "001-table.txt").read_text(encoding="utf-8")
    assert "your turn" in alt
    assert not any("You's" in p.read_text(encoding="utf-8") for p in folder.glob("*.txt"))
