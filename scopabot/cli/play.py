"""``scopabot play``: a whole match in the terminal against computer players, on the service.

The terminal is a front end like the bot: it opens a table through the game service, sits the
person at seat 0 and computers elsewhere, and shows the service's events. Everything is kept in
a database (a temporary one unless ``--db FILE`` is given), so a match left with ``quit`` or
Ctrl-C continues with the same ``--db FILE``. The loop reads from any line source and writes to
any stream so tests drive it like a person at the keyboard; nothing typed can crash it.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from scopabot.render import text
from scopabot.service import (
    Card,
    CardPlayed,
    ChooseCapture,
    DealScored,
    ErrorCode,
    Event,
    GameService,
    GameView,
    MatchOver,
    Move,
    Pace,
    PublicView,
    SeatView,
    ServiceError,
)

from .pictures import PictureWriter
from .play_options import add_parser as add_parser  # the subcommand's arguments
from .play_options import options_from_args

HELP = """\
Type the number of a card in your hand (1, 2, ...) or the card itself (7d, 'sette di denari',
settebello). When a card can take different cards you are asked which; you may also write the
whole move, like 9b:4c+5d. Other commands: 'table' shows the table again, 'score' the
standings, 'help' this text, 'quit' leaves the match (kept, with --db, to continue later)."""

YOU = 1  # the person at the terminal, as a user id


class Quit(Exception):
    """The person asked to leave (or the input ended)."""


def run(args: argparse.Namespace, *, stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    source = stdin or sys.stdin

    def read(prompt: str) -> str:
        return _read_line(prompt, source, out)

    if args.db is not None:
        return asyncio.run(_play(args, args.db, read, out))
    with tempfile.TemporaryDirectory(prefix="scopabot-play-") as folder:
        return asyncio.run(_play(args, Path(folder) / "play.db", read, out))


async def _play(
    args: argparse.Namespace, path: Path, read: Callable[[str], str], out: TextIO
) -> int:
    service = await GameService.open(path, computer_pause=0)
    try:
        resumed = [g for g in await service.my_games(user=YOU) if g.game_id is not None]
        if resumed and resumed[0].game_id is not None:
            game_id, seed = resumed[0].game_id, None
            print(f"Continuing the match kept in {path}.", file=out)
        else:
            seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
            try:
                game_id = await _new_match(service, args, seed)
            except ServiceError as exc:
                print(f"Cannot set up that match: {exc}", file=sys.stderr)
                return 2
        match = TerminalMatch(
            service,
            game_id,
            seed=seed,
            db=args.db,
            read=read,
            out=out,
            fresh=not resumed,
            pictures=None if args.images is None else PictureWriter(args.images),
        )
        return await match.run()
    finally:
        await service.close()


async def _new_match(service: GameService, args: argparse.Namespace, seed: int) -> int:
    table = await service.open_table(
        host=YOU,
        preset=args.preset,
        players=args.players,
        options=options_from_args(args),
        pace=Pace.untimed(),
        level=args.level,
    )
    for seat in table.open_seats:
        is_partner = table.rules.side_of(seat) == table.rules.side_of(0)
        level = (args.partner or args.level) if is_partner else args.level
        await service.add_computer(table.id, by=YOU, level=level, seat=seat)
    return (await service.start_table(table.id, by=YOU, seed=seed)).game_id


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
    """One person (seat 0) against computer players, through the service."""

    def __init__(
        self,
        service: GameService,
        game_id: int,
        *,
        seed: int | None,
        db: Path | None,
        read: Callable[[str], str],
        out: TextIO,
        fresh: bool = True,
        pictures: PictureWriter | None = None,
    ) -> None:
        self.service = service
        self.game_id = game_id
        self.seed = seed
        self.db = db
        self.read = read
        self.out = out
        self.fresh = fresh
        self.pictures = pictures
        self.events: list[Event] = []
        self.names: list[str] = []
        self.side_names: list[str] = []
        self.options: set[str] = set()
        service.subscribe(self._note)

    async def _note(self, event: Event) -> None:
        if event.game_id == self.game_id:
            self.events.append(event)

    def say(self, line: str = "") -> None:
        print(line, file=self.out)

    async def run(self) -> int:
        try:
            public = await self.service.public_view(self.game_id)
            self._name_seats(public)
            if self.fresh:
                self._intro(public)
            while True:
                await self.service.settle()
                public = await self.service.public_view(self.game_id)
                self._show_events(public)
                if public.finished:
                    self._finish(public)
                    return 0
                view = await self.service.seat_view(self.game_id, user=YOU)
                await self._turn(view)
        except (Quit, KeyboardInterrupt):
            self.say("\nMatch left.")
            if self.db is not None:
                self.say(f"It is kept: continue it with --db {self.db}.")
            if self.seed is not None:
                self.say(f"Replay these very cards with --seed {self.seed}.")
            return 0

    def _name_seats(self, public: PublicView) -> None:
        rules = public.rules
        self.names = ["You"]
        for seat in range(1, rules.players):
            level = public.seats[seat].ai_level or "?"
            role = "Partner" if rules.side_of(seat) == rules.side_of(0) else f"Bot {seat}"
            self.names.append(f"{role} ({level})")
        if rules.players == 4:
            self.side_names = ["You & Partner", "Opponents"]
        else:
            self.side_names = [self.names[s].split(" (")[0] for s in range(rules.sides)]
        self.options = {o for o in ("re_bello", "napola") if getattr(rules, o)}

    def _intro(self, public: PublicView) -> None:
        r = public.rules
        goal = (
            f"to {r.target} points"
            if r.target is not None
            else (f"{r.deals} deal" + ("s" if r.deals != 1 else ""))
        )
        kind = r.preset.value.replace("_", " ").title()
        self.say(f"{kind} for {r.players}, {goal} (seed {self.seed}).")
        self.say("Players: " + ", ".join(self.names) + ". Type 'help' for help.")
        for rnd in public.dealer_draw:
            drawn = ", ".join(f"{self.names[s]} {c}" for s, c in rnd)
            self.say(f"Draw for dealer: {drawn}")
        self._deal_header(public.deal_number, public.dealer, public.spareggio)

    def _deal_header(self, number: int, dealer: int, spareggio: int) -> None:
        extra = f" · spareggio {spareggio}" if spareggio else ""
        self.say(f"\n=== Deal {number} · dealer: {self.names[dealer]}{extra} ===")

    def _show_events(self, public: PublicView) -> None:
        events, self.events = self.events, []
        for event in events:
            if isinstance(event, CardPlayed):
                self.say(text.play_text(event.play, self.names[event.seat], you=event.seat == 0))
                if event.leftovers:
                    to = (
                        "nobody"
                        if event.leftovers_to is None
                        else self.side_names[event.leftovers_to]
                    )
                    self.say(
                        f"Left on the table ({text.cards_text(event.leftovers)}) goes to {to}."
                    )
            elif isinstance(event, DealScored):
                self.say("")
                self.say(
                    text.breakdown_text(event.deal_score, self.side_names, options=self.options)
                )
                self.say(self._standings(public, event.totals))
                if self.pictures is not None:
                    self.pictures.deal(event.deal_score, rules=public.rules, names=self.names)
                if not public.finished:
                    self._deal_header(public.deal_number, public.dealer, public.spareggio)

    def _standings(self, public: PublicView, totals: tuple[int, ...]) -> str:
        rules = public.rules
        line = text.standings_text(totals, self.side_names, target=rules.target)
        if public.finished:
            return line
        if public.spareggio:
            return f"{line} · next: spareggio {public.spareggio} of 3"
        if rules.deals is not None:
            return f"{line} · next: deal {public.deal_number} of {rules.deals}"
        return line

    def _finish(self, public: PublicView) -> None:
        if self.pictures is not None:
            self.pictures.end(public, self.names)
            self.say(f"Pictures of the match are in {self.pictures.folder}.")
        if public.outcome is not None:
            self.say(text.outcome_text(public.outcome, self.side_names))
            return
        ended = [e for e in self.events if isinstance(e, MatchOver)]
        winner = public.winner_side if not ended else ended[-1].winner_side
        who = "nobody" if winner is None else self.side_names[winner]
        self.say(f"Match over ({public.result_reason}): {who} wins.")

    def _show_turn(self, view: GameView) -> None:
        others = ", ".join(
            f"{self.names[s]}: {n}" for s, n in enumerate(view.hand_sizes) if s != view.seat
        )
        self.say(f"\n{text.table_text(view)}   [deck {view.deck_size} · cards in hand: {others}]")
        self.say(text.hand_text(view))
        if self.pictures is not None:
            self.pictures.turn(view, self.names)

    async def _turn(self, seat_view: SeatView) -> None:
        """Ask for a move until the service takes one."""
        view = seat_view.view
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
                public = await self.service.public_view(self.game_id)
                self.say(self._standings(public, public.totals))
                continue
            if not answer:
                continue
            if await self._try(answer, seat_view):
                return

    async def _try(self, answer: str, seat_view: SeatView) -> bool:
        """Play what was typed; say why not and return False when it cannot be played."""
        view = seat_view.view
        if answer.isascii() and answer.isdigit():
            number = int(answer) if len(answer) <= 3 else 0
            if not 1 <= number <= len(view.hand):
                self.say(f"Choose a card from 1 to {len(view.hand)}.")
                return False
            typed = str(view.hand[number - 1])
        else:
            typed = answer  # a card or a whole move, read by the engine
        try:
            await self.service.play(self.game_id, user=YOU, card=typed, version=seat_view.version)
        except ChooseCapture as choice:
            move = self._ask_capture(choice.card, choice.choices)
            if move is None:
                return False
            await self.service.play(self.game_id, user=YOU, card=move, version=seat_view.version)
        except ServiceError as exc:
            more = " Type 'help' for help." if exc.code is ErrorCode.NOT_A_CARD else ""
            self.say(f"{exc}.{more}")
            return False
        return True

    def _ask_capture(self, card: Card, choices: tuple[Move, ...]) -> Move | None:
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
