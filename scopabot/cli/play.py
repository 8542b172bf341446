"""``scopabot play``: a whole match in the terminal against computer players, on the service.

The terminal is a front end like the bot: it opens a table through the game service, sits the
person at seat 0 and computers elsewhere, and shows the service's events. Everything is kept in
a database (a temporary one unless ``--db FILE`` is given), so a match left with ``quit`` or
one Ctrl-C continues with the same ``--db FILE``. The loop reads from any line source and
writes to any stream so tests drive it like a person at the keyboard; nothing typed can crash
it, and every prompt (the capture's too) takes the same commands.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import secrets
import signal
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from types import FrameType
from typing import TextIO

from scopabot.render import text
from scopabot.service import (
    Card,
    CardParseError,
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
    parse_cards,
)

from .pictures import PictureWriter
from .play_options import add_parser as add_parser  # the subcommand's arguments
from .play_options import options_from_args

HELP = """\
Cards are written value then suit: 1 to 7 by their number, 8 fante, 9 cavallo, 10 re; d denari,
c coppe, s spade, b bastoni. So 7d is the sette di denari (the settebello), 10c the re di coppe,
8s the fante di spade.
Type the number of a card in your hand (1, 2, ...) or the card itself: 7d, 'sette di denari',
'nove di spade', settebello, 'seven of coins', 'king of cups', 7♦. When a card can take
different cards you are asked which: answer with the number of the choice or the cards
(4c+5d); you may also write the whole move at once, like 9b:4c+5d.
At every prompt: 'table' shows the table again, 'score' the standings, 'help' this text,
'quit' (or Ctrl-C) leaves the match (kept, with --db, to continue later)."""

YOU = 1  # the person at the terminal, as a user id


class Quit(Exception):
    """The person asked to leave (or the input ended)."""


class CtrlC:
    """One Ctrl-C leaves the match. While a prompt waits it ends the wait at once; while the
    computers play it is noted and the next prompt leaves instead of asking. asyncio's own
    handler would only cancel the task at its next await (never, while a prompt blocks), and
    a second press would break out of the event loop with a traceback."""

    def __init__(self) -> None:
        self.reading = False
        self.pressed = False

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        self.pressed = True
        if self.reading:
            raise KeyboardInterrupt

    @contextlib.contextmanager
    def installed(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        previous = signal.signal(signal.SIGINT, self)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, previous)


def run(args: argparse.Namespace, *, stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    source = stdin or sys.stdin
    if args.target is not None and args.deals is not None:
        print(
            "Choose --target or --deals, not both: a match ends one way. No match was started.",
            file=sys.stderr,
        )
        return 2
    keys = CtrlC()

    def read(prompt: str) -> str:
        return _read_line(prompt, source, out, keys)

    with keys.installed():
        if args.db is not None:
            return asyncio.run(_play(args, args.db, read, out))
        with tempfile.TemporaryDirectory(prefix="scopabot-play-") as folder:
            return asyncio.run(_play(args, Path(folder) / "play.db", read, out))


async def _play(
    args: argparse.Namespace, path: Path, read: Callable[[str], str], out: TextIO
) -> int:
    service = await GameService.open(path, computer_pause=0)
    try:
        resumed = [g for g in await service.people.my_games(user=YOU) if g.game_id is not None]
        if resumed and resumed[0].game_id is not None:
            game_id, seed = resumed[0].game_id, None
            print(f"Continuing the match kept in {path}.", file=out)
            given = given_options(args)
            if given:
                print(
                    f"Ignored: {', '.join(given)} — a kept match goes on with its own rules "
                    "and players; give another --db file (or none) for a new match.",
                    file=out,
                )
        else:
            played = sum(
                r.stats.games for r in await service.boards.stats(YOU) if r.stats is not None
            )
            if played:
                matches = "1 match" if played == 1 else f"{played} matches"
                print(
                    f"The match kept in {path} is over ({matches} played there so far); "
                    "a new one starts.",
                    file=out,
                )
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
    table = await service.tables.open(
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
        await service.tables.add_computer(table.id, by=YOU, level=level, seat=seat)
    return (await service.tables.start(table.id, by=YOU, seed=seed)).game_id


def given_options(args: argparse.Namespace) -> list[str]:
    """The match's options typed on the command line (those not at their default), as flags."""
    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers())
    defaults = vars(parser.parse_args(["play"]))
    skip = {"db", "images"}
    return [
        "--" + name.replace("_", "-")
        for name, value in vars(args).items()
        if name in defaults and name not in skip and value != defaults[name]
    ]


def _read_line(prompt: str, source: TextIO, out: TextIO, keys: CtrlC | None = None) -> str:
    if keys is not None and keys.pressed:
        raise Quit
    out.write(prompt)
    out.flush()
    try:
        if keys is not None:
            keys.reading = True
        line = source.readline()
    except KeyboardInterrupt:
        raise Quit from None
    finally:
        if keys is not None:
            keys.reading = False
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
            public = await self.service.games.public_view(self.game_id)
            self._name_seats(public)
            if self.fresh:
                self._intro(public)
            elif not public.finished:
                self._resume(public)
            while True:
                await self.service.settle()
                public = await self.service.games.public_view(self.game_id)
                self._show_events(public)
                if public.finished:
                    self._finish(public)
                    return 0
                view = await self.service.games.seat_view(self.game_id, user=YOU)
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

    def _game_line(self, public: PublicView) -> str:
        r = public.rules
        if r.target is not None:
            goal = f"to {r.target} point" + ("s" if r.target != 1 else "")
        else:
            goal = f"{r.deals} deal" + ("s" if r.deals != 1 else "")
        kind = r.preset.value.replace("_", " ").title()
        options = [
            label
            for label, on in (
                ("asso piglia tutto", r.asso_piglia_tutto),
                ("napola", r.napola),
                ("re bello", r.re_bello),
            )
            if on
        ]
        extra = f", with {' and '.join(options)}" if options else ""
        return f"{kind} for {r.players}, {goal}{extra}"

    def _intro(self, public: PublicView) -> None:
        self.say(f"{self._game_line(public)} (seed {self.seed}).")
        self.say("Players: " + ", ".join(self.names) + ". Type 'help' for help.")
        for rnd in public.dealer_draw:
            drawn = ", ".join(f"{self.names[s]} {c}" for s, c in rnd)
            self.say(f"Draw for dealer: {drawn}")
        self._deal_header(public)

    def _resume(self, public: PublicView) -> None:
        """Where a kept match stands, as a player coming back to the table needs to hear it."""
        self.say(f"{self._game_line(public)}.")
        self.say("Players: " + ", ".join(self.names) + ". Type 'help' for help.")
        self.say(self._standings(public, public.totals, playing=True))
        extra = f" (spareggio {public.spareggio})" if public.spareggio else ""
        played = len(public.plays)
        cards = "1 card" if played == 1 else f"{played} cards"
        self.say(
            f"Deal {public.deal_number}{extra} goes on where it was: {cards} played so far, "
            f"dealer {self.names[public.dealer]}, {public.deck_size} cards in the deck."
        )

    def _deal_header(self, public: PublicView) -> None:
        extra = f" · spareggio {public.spareggio}" if public.spareggio else ""
        self.say(
            f"\n=== Deal {public.deal_number} · dealer: {self.names[public.dealer]}{extra} ==="
        )
        dealt = _dealt_table(public)
        if dealt:  # shown even when a computer plays first and takes from it
            self.say(f"Dealt on the table: {text.cards_text(dealt)}")

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
                        f"The cards left on the table ({text.cards_text(event.leftovers)})"
                        f" go to {to}."
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
                    self._deal_header(public)

    def _standings(
        self, public: PublicView, totals: tuple[int, ...], *, playing: bool = False
    ) -> str:
        """The score; after a deal's count, which deal comes next (``playing``: which deal is
        being played, for 'score' asked mid-deal)."""
        rules = public.rules
        line = text.standings_text(
            totals, self.side_names, target=None if public.finished else rules.target
        )
        if public.finished:
            return line
        when = "now" if playing else "next"
        if public.spareggio:
            return f"{line} · {when}: spareggio {public.spareggio} of 3"
        if rules.deals is not None:
            return f"{line} · {when}: deal {public.deal_number} of {rules.deals}"
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
        if any(view.captured) or any(view.scope):
            self.say(text.running_count_text(view, self.side_names))
        self.say(text.hand_text(view))
        if self.pictures is not None:
            self.pictures.turn(view, self.names)

    async def _command(self, answer: str, view: GameView) -> bool:
        """Answer a command typed at any prompt; False when ``answer`` is no command."""
        command = answer.lower()
        if command in ("quit", "exit", "q"):
            raise Quit
        if command in ("help", "?", "h"):
            self.say(HELP)
        elif command == "table":
            self._show_turn(view)
        elif command == "score":
            public = await self.service.games.public_view(self.game_id)
            self.say(self._standings(public, public.totals, playing=True))
        else:
            return False
        return True

    async def _turn(self, seat_view: SeatView) -> None:
        """Ask for a move until the service takes one."""
        # The hand in the card order of the bot's buttons; its numbers follow that order.
        seat_view = replace(
            seat_view, view=replace(seat_view.view, hand=_sorted(seat_view.view.hand))
        )
        view = seat_view.view
        self._show_turn(view)
        while True:
            answer = self.read("Your move: ")
            if not answer or await self._command(answer, view):
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
            await self.service.games.play(
                self.game_id, user=YOU, card=typed, version=seat_view.version
            )
        except ChooseCapture as choice:
            picked = await self._ask_capture(choice.card, choice.choices, view)
            if picked is None:
                return False
            if isinstance(picked, str):  # another move typed instead: play that one
                return await self._try(picked, seat_view)
            try:  # the move picked from the choices, as it is
                await self.service.games.play(
                    self.game_id, user=YOU, card=picked, version=seat_view.version
                )
            except ServiceError as exc:
                self.say(f"{exc}.")
                return False
        except ServiceError as exc:
            more = " Type 'help' for help." if exc.code is ErrorCode.NOT_A_CARD else ""
            self.say(f"{exc}.{more}")
            return False
        return True

    async def _ask_capture(
        self, card: Card, choices: tuple[Move, ...], view: GameView
    ) -> Move | str | None:
        """The capture chosen, None to go back, or a whole other move typed here instead."""
        listed = "  ".join(f"{i}) {text.capture_text(m)}" for i, m in enumerate(choices, 1))
        self.say(f"{card} can take: {listed}")
        while True:
            answer = self.read(f"Which? (1-{len(choices)}, the cards, or 'back'): ")
            if answer.lower() in ("back", "b", ""):
                return None
            if await self._command(answer, view):
                continue
            if answer.isascii() and answer.isdigit() and 1 <= int(answer[:3]) <= len(choices):
                return choices[int(answer) - 1]
            chosen = _capture_named(answer, choices)
            if chosen is not None:
                return chosen
            if ":" in answer or _is_card(answer):
                return answer  # "9b:4c+5d", or another card of the hand
            self.say(
                f"Choose 1 to {len(choices)}, or write the cards to take"
                f" ({text.capture_text(choices[0])}). Type 'help' for help."
            )


def _sorted(hand: tuple[Card, ...]) -> tuple[Card, ...]:
    return tuple(sorted(hand, key=Card.sort_key))


def _is_card(answer: str) -> bool:
    try:
        Card.parse(answer)
    except CardParseError:
        return False
    return True


def _capture_named(answer: str, choices: tuple[Move, ...]) -> Move | None:
    """The choice whose captured cards are the ones typed ("3s+6c", "sei di coppe e tre...")."""
    try:
        named = frozenset(parse_cards(answer))
    except CardParseError:
        return None
    return next((m for m in choices if m.capture == named), None)


def _dealt_table(public: PublicView) -> tuple[Card, ...]:
    """The cards first laid on the table this deal: today's table with the deal's plays undone
    (a capture gives its cards back, a card laid is lifted), in the order they lie."""
    table = list(public.table_cards)
    for play in reversed(public.plays):
        if play.capture:
            table.extend(play.capture)
        if play.card in table:
            table.remove(play.card)
    return tuple(sorted(table, key=Card.sort_key))
