"""``scopabot play``: a whole match in the terminal against computer players.

The loop reads from any line source and writes to any stream so tests drive it like a person
at the keyboard. Nothing typed can crash it: bad input gets a sentence and a new prompt, and
end of input or Ctrl-C ends the match politely.
"""

from __future__ import annotations

import argparse
import secrets
import sys
from collections.abc import Callable
from typing import TextIO

from scopabot.render import text
from scopabot.service import (
    DEFAULT_LEVEL,
    Card,
    CardParseError,
    FirstDealer,
    Game,
    GameView,
    IllegalMoveError,
    InvalidMoveError,
    Level,
    Move,
    Play,
    Player,
    PlayResult,
    Preset,
    PrimieraRule,
    Rules,
    RulesError,
    Tiebreak,
    make_player,
)

HELP = """\
Type the number of a card in your hand (1, 2, ...) or the card itself (7d, 'sette di denari',
settebello). When a card can take different cards you are asked which; you may also write the
whole move, like 9b:4c+5d. Other commands: 'table' shows the table again, 'score' the
standings, 'help' this text, 'quit' leaves the match."""


class Quit(Exception):
    """The person asked to leave (or the input ended)."""


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


def rules_from_args(args: argparse.Namespace) -> Rules:
    players = args.players or (2 if args.preset == Preset.SCOPA.value else 4)
    kwargs: dict[str, object] = {}
    if args.deals is not None:
        kwargs["deals"] = args.deals
    elif args.target is not None:
        kwargs["target"] = args.target
    return Rules(
        preset=Preset(args.preset),
        players=players,
        asso_piglia_tutto=args.asso_piglia_tutto,
        napola=args.napola,
        re_bello=args.re_bello,
        primiera=PrimieraRule(args.primiera),
        tiebreak=Tiebreak(args.tiebreak),
        three_kings_redeal=not args.no_three_kings_redeal,
        first_dealer=FirstDealer(args.first_dealer),
        **kwargs,  # type: ignore[arg-type]
    )


def run(args: argparse.Namespace, *, stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    try:
        rules = rules_from_args(args)
    except RulesError as exc:
        print(f"Cannot set up that match: {exc}", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    source = stdin or sys.stdin
    match = TerminalMatch(
        rules,
        seed=seed,
        level=Level(args.level),
        partner=Level(args.partner) if args.partner else None,
        read=lambda prompt: _read_line(prompt, source, out),
        out=out,
    )
    return match.run()


def _read_line(prompt: str, source: TextIO, out: TextIO) -> str:
    out.write(prompt)
    out.flush()
    line = source.readline()
    if not line:
        raise Quit
    if source is not sys.stdin:
        out.write(line if line.endswith("\n") else line + "\n")
    return line.strip()


class TerminalMatch:
    """One person (seat 0) against computer players, talking through ``read`` and ``out``."""

    def __init__(
        self,
        rules: Rules,
        *,
        seed: int,
        level: Level,
        partner: Level | None,
        read: Callable[[str], str],
        out: TextIO,
    ) -> None:
        self.rules = rules
        self.seed = seed
        self.game = Game.new(rules, seed=seed)
        self.read = read
        self.out = out
        self.players: dict[int, Player] = {}
        self.names = ["You"]
        for seat in range(1, rules.players):
            is_partner = rules.side_of(seat) == rules.side_of(0)
            seat_level = (partner or level) if is_partner else level
            self.players[seat] = make_player(seat_level, seed=seed * 10 + seat)
            role = "Partner" if is_partner else f"Bot {seat}"
            self.names.append(f"{role} ({seat_level.value})")
        if rules.sides == 2 and rules.players == 4:
            self.side_names = ["You & Partner", "Opponents"]
        else:
            self.side_names = [self.names[s].split(" (")[0] for s in range(rules.sides)]
        self.options = {o for o in ("re_bello", "napola") if getattr(rules, o)}

    def say(self, line: str = "") -> None:
        print(line, file=self.out)

    def run(self) -> int:
        try:
            self._intro()
            while not self.game.is_over:
                if self.game.turn == 0:
                    result = self.game.play(self._ask_move(), seat=0)
                    self._report(result, 0)
                else:
                    seat = self.game.turn
                    move = self.players[seat].choose(self.game.view_for(seat))
                    self._report(self.game.play(move, seat=seat), seat)
        except (Quit, KeyboardInterrupt):
            self.say(f"\nMatch left. Replay these very cards with --seed {self.seed}.")
            return 0
        outcome = self.game.outcome()
        assert outcome is not None
        self.say(text.outcome_text(outcome, self.side_names))
        return 0

    def _intro(self) -> None:
        r = self.rules
        if r.target is not None:
            goal = f"to {r.target} points"
        else:
            goal = f"{r.deals} deal" + ("s" if r.deals != 1 else "")
        kind = r.preset.value.replace("_", " ").title()
        self.say(f"{kind} for {r.players}, {goal} (seed {self.seed}).")
        self.say("Players: " + ", ".join(self.names) + ". Type 'help' for help.")
        for rnd in self.game.dealer_draw:
            drawn = ", ".join(f"{self.names[s]} {c}" for s, c in rnd)
            self.say(f"Draw for dealer: {drawn}")
        self._deal_header()

    def _deal_header(self) -> None:
        g = self.game
        extra = f" · spareggio {g.spareggio}" if g.spareggio else ""
        self.say(f"\n=== Deal {g.deal_number} · dealer: {self.names[g.dealer]}{extra} ===")
        if g.table and g.turn != 0:  # when you lead, your turn shows the table
            self.say(text.table_text(g.view_for(0)))

    def _report(self, result: PlayResult, seat: int) -> None:
        play = Play(seat, result.move.card, result.move.sorted_capture(), result.scopa)
        self.say(text.play_text(play, self.names[seat], you=seat == 0))
        if result.deal_score is not None:
            if result.leftovers:
                to = (
                    "nobody"
                    if result.leftovers_to is None
                    else self.side_names[result.leftovers_to]
                )
                self.say(f"Left on the table ({text.cards_text(result.leftovers)}) goes to {to}.")
            self.say("")
            self.say(text.breakdown_text(result.deal_score, self.side_names, options=self.options))
            self.say(self._standings())
            if not self.game.is_over:
                self._deal_header()

    def _standings(self) -> str:
        g = self.game
        line = text.standings_text(g.totals, self.side_names, target=self.rules.target)
        if g.is_over:
            return line
        if g.spareggio:
            return f"{line} · next: spareggio {g.spareggio} of 3"
        if self.rules.deals is not None:
            return f"{line} · next: deal {g.deal_number} of {self.rules.deals}"
        return line

    def _show_turn(self, view: GameView) -> None:
        others = ", ".join(
            f"{self.names[s]}: {n}" for s, n in enumerate(view.hand_sizes) if s != view.seat
        )
        self.say(f"\n{text.table_text(view)}   [deck {view.deck_size} · cards in hand: {others}]")
        self.say(text.hand_text(view))

    def _ask_move(self) -> Move:
        view = self.game.view_for(0)
        self._show_turn(view)
        while True:
            answer = self.read("Your move: ")
            command = answer.lower()
            if command in ("quit", "exit", "q"):
                raise Quit
            if command in ("help", "?", "h"):
                self.say(HELP)
                continue
            if command == "table":
                self._show_turn(view)
                continue
            if command == "score":
                self.say(self._standings())
                continue
            if not answer:
                continue
            move = self._understand(answer, view)
            if move is not None:
                return move

    def _understand(self, answer: str, view: GameView) -> Move | None:
        """Turn what was typed into a legal move, or say why not and return ``None``."""
        legal = view.legal_moves()
        if answer.isascii() and answer.isdigit():
            number = int(answer) if len(answer) <= 3 else 0
            if not 1 <= number <= len(view.hand):
                self.say(f"Choose a card from 1 to {len(view.hand)}.")
                return None
            card = view.hand[number - 1]
        elif ":" in answer:
            try:
                move = Move.parse(answer)
                self.game.verify_move(move, seat=0)
            except (InvalidMoveError, IllegalMoveError) as exc:
                self.say(f"{exc}.")
                return None
            return move
        else:
            try:
                card = Card.parse(answer)
            except CardParseError as exc:
                self.say(f"{exc}. Type 'help' for help.")
                return None
        choices = [m for m in legal if m.card == card]
        if not choices:
            self.say(f"{card} is not in your hand.")
            return None
        if len(choices) == 1:
            return choices[0]
        return self._ask_capture(card, choices)

    def _ask_capture(self, card: Card, choices: list[Move]) -> Move | None:
        listed = "  ".join(f"{i}) {text.capture_text(m)}" for i, m in enumerate(choices, 1))
        self.say(f"{card} can take: {listed}")
        while True:
            answer = self.read(f"Which? (1-{len(choices)}, or 'back'): ")
            if answer.lower() in ("back", "b", ""):
                return None
            if answer.lower() in ("quit", "exit", "q"):
                raise Quit
            if answer.isascii() and answer.isdigit() and 1 <= int(answer[:3]) <= len(choices):
                return choices[int(answer) - 1]
            self.say(f"Choose 1 to {len(choices)}.")
