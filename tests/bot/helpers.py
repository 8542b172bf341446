"""Running the real ``bot.py`` against the stand-in, and reading what players see.

``BotProcess`` starts ``bot.py`` as a child process (the entry point people run), waits until
it is connected with its commands registered, and can be killed and started again on the
same database. The readers below find the table message, a player's hand in their DM and
the cards on its buttons, as a person would by looking.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scopabot.bot.actions import CAPTURE_QUESTION
from scopabot.render.i18n import Lang, tr
from tests.standin import Actor, DiscordStandIn, Message, World, default_world

REPO_ROOT = Path(__file__).resolve().parents[2]


def it(key: str, **params: Any) -> str:
    """A control's Italian label from the catalog of words (the test server speaks Italian):
    tests find buttons by it, so a change of wording is made once, in the catalog."""
    return tr(key, Lang.IT, **params)


START, JOIN, CANCEL, ADD_COMPUTER = (
    it("btn.start"),
    it("btn.join"),
    it("btn.cancel"),
    it("btn.add_computer"),
)
MY_HAND, REMATCH, TAKE_BACK = it("btn.my_hand"), it("btn.rematch"), it("btn.take_back")
OTHER_POINTS, UNDO, END = it("btn.custom_points"), it("btn.undo"), it("btn.end")
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
PLAY_ID = re.compile(r"^sb\|g\|(\d+)\|(\d+)\|p\|(\w+)$")

CARD_NAME = re.compile(
    r"\b(?:Asso|Ace|[2-7]|Fante|Jack|Cavallo|Knight|Re|King) (?:di|of) "
    r"(?:denari|coppe|spade|bastoni|coins|cups|swords|clubs)\b"
)


def world_with_threads() -> World:
    """The default world, the bot holding a role that may open threads (as invited)."""
    world = default_world()
    guild = next(iter(world.guilds.values()))
    role = world.add_role(
        guild, "ScopaBot", permissions=CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS
    )
    world.add_member(guild, world.bot, roles=[role])
    return world


def world_of_two_shards() -> tuple[World, int, int]:
    """The world of :func:`world_with_threads` (its server "Osteria") plus the server
    "Bettola" with #banco, where alice, bob and carol are too and the bot may open threads,
    in the other shard of two; returns the world and the two servers' shards."""
    world = world_with_threads()
    osteria = next(iter(world.guilds.values()))
    osteria_shard = (osteria.id >> 22) % 2
    alice = world.user_named("alice")
    bettola = world.add_guild("Bettola", owner=alice, shard=(1 - osteria_shard, 2))
    for name in ("bob", "carol"):
        world.add_member(bettola, world.user_named(name))
    world.add_text_channel(bettola, "banco")
    role = world.add_role(
        bettola, "ScopaBot", permissions=CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS
    )
    world.add_member(bettola, world.bot, roles=[role])
    return world, osteria_shard, 1 - osteria_shard


@dataclass
class BotProcess:
    standin: DiscordStandIn
    database: Path
    env: dict[str, str] = field(default_factory=dict)
    args: list[str] = field(default_factory=list)  # bot.py's command line, e.g. --shards 0
    process: asyncio.subprocess.Process | None = None
    lines: list[str] = field(default_factory=list)
    _reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        readies = self.standin.gateway.readies
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            str(REPO_ROOT / "bot.py"),
            *self.args,
            cwd=REPO_ROOT,
            env={
                **os.environ,
                **self.standin.env(),
                "SCOPABOT_DB": str(self.database),
                "SCOPABOT_COMPUTER_PAUSE": "0",
                "LOG_LEVEL": "INFO",
                **self.env,
            },
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        self._reader = asyncio.create_task(self._read())
        try:
            await self.standin.wait_for(
                lambda: (
                    (
                        self.standin.gateway.readies > readies
                        and any("Ready as" in line for line in self.lines[-50:])
                    )
                    or self.process is None
                    or self.process.returncode is not None
                ),
                timeout=30,
            )
        except TimeoutError:
            raise AssertionError("bot.py did not get ready:\n" + self.output()) from None
        assert self.process.returncode is None, self.output()
        assert self.standin.world.commands, "bot.py registered no commands"

    async def _read(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        async for line in self.process.stdout:
            self.lines.append(line.decode(errors="replace").rstrip())

    def output(self) -> str:
        return "\n".join(self.lines[-200:])

    async def kill(self) -> None:
        """SIGKILL: no goodbye, nothing flushed, as a crash or a power cut of the host."""
        assert self.process is not None
        self.process.kill()
        await self.process.wait()
        if self._reader is not None:
            await self._reader
        self.lines.append("---- killed ----")

    async def stop(self) -> int:
        assert self.process is not None
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(self.process.wait(), timeout=15)
        if self._reader is not None:
            await self._reader
        return code

    def errors(self) -> list[str]:
        return [line for line in self.lines if " ERROR " in line or "Traceback" in line]


# Reading what people see ------------------------------------------------------------------


def hand_message(standin: DiscordStandIn, actor: Actor) -> Message | None:
    """The player's hand in their DM (the newest message with card buttons)."""
    found = [
        m
        for m in standin.dm_timeline(actor.user)
        if play_buttons(m) or "mano" in m.text() or "hand" in m.text()
    ]
    return found[-1] if found else None


def play_buttons(message: Message) -> list[dict[str, Any]]:
    return [b for b in message.buttons() if PLAY_ID.match(str(b.get("custom_id", "")))]


def live_cards(message: Message) -> list[dict[str, Any]]:
    return [b for b in play_buttons(message) if not b.get("disabled")]


def card_labels(message: Message) -> list[str]:
    return [str(b["label"]) for b in play_buttons(message)]


def thread_named(standin: DiscordStandIn, prefix: str) -> Any:
    for channel in standin.world.channels.values():
        if channel.is_thread and (channel.name or "").startswith(prefix):
            return channel
    return None


def table_messages(standin: DiscordStandIn, channel: Any) -> list[Message]:
    """Bot messages with a "My hand" or "Rematch" button: table messages."""
    labels = {tr(k, lang) for k in ("btn.my_hand", "btn.rematch") for lang in Lang}
    return [
        m
        for m in standin.world.channel_messages(channel.id)
        if any(b.get("label") in labels for b in m.buttons())
    ]


def unanswered(standin: DiscordStandIn) -> list[Any]:
    return [it for it in standin.interactions.by_id.values() if it.response is None or it.failed]


FINISHED_DEAL = r"primiera|fine della smazzata|end of deal"


def held(label: str) -> re.Pattern[str]:
    """A card in hand, as the privacy guard should look for it: anywhere but after the word
    "primiera" or a finished deal's title in a string. Between two deals the breakdown
    picture names the finished deal's primiera cards in its alt text ("carte della primiera
    7 di denari, …") and the deal's end its last plays ("Fine della smazzata 2", then the
    plays): public history, while the next deal's cards, the same forty, are already in hand.
    In any case: a sentence names a card mid-sentence in lower case ("gioca il fante di denari")
    where its button says "Fante di denari"."""
    return re.compile(rf"^(?:(?!(?i:{FINISHED_DEAL}))[\s\S])*?(?i:{re.escape(label)})")


def secret(label: str) -> re.Pattern[str]:
    """A card's label as a secret, in any case (see :func:`held`)."""
    return re.compile(re.escape(label), re.IGNORECASE)


def secrets_of(labels: Iterable[str]) -> list[str]:
    return [label for label in labels if CARD_NAME.fullmatch(label)]


OVER_LABELS = {tr("btn.rematch", lang) for lang in Lang}
CAPTURE_ID = re.compile(r"^sb\|g\|\d+\|\d+\|c\|")


def is_over(message: Message) -> bool:
    return any(b.get("label") in OVER_LABELS for b in message.buttons())


async def start_against_computer(standin: DiscordStandIn, actor: Actor, **options: Any) -> Any:
    """``/scopa new`` with one computer seat and the given options, started at once by
    ``actor``; returns the table's thread."""
    invitation = (await actor.slash("scopa new", computers=1, **options)).message
    assert invitation is not None
    await actor.click(invitation, START)
    return await standin.wait_for(lambda: thread_named(standin, "Scopa"), timeout=5)


async def next_turn(
    standin: DiscordStandIn, thread: Any, actors: list[Actor], *, timeout: float = 15
) -> tuple[Actor, Message] | None:
    """Wait until one of ``actors`` may play (live buttons in their DM hand), or the end."""

    def ready() -> Any:
        tables = table_messages(standin, thread)
        if tables and is_over(tables[-1]):
            return ("over", None)
        for actor in actors:
            hand = hand_message(standin, actor)
            if hand is not None and live_cards(hand):
                return (actor, hand)
        return None

    who, hand = await standin.wait_for(ready, timeout=timeout)
    return None if who == "over" else (who, hand)


async def fresh_turn(
    standin: DiscordStandIn, thread: Any, actors: list[Actor], *, timeout: float = 15
) -> tuple[Actor, Message] | None:
    """As :func:`next_turn`, the turn as the bot shows it now: a hand with live cards drawn
    at the version the table shows (None: the match is over). Right after a restart, a hand
    DM the killed bot drew a move earlier (its owner's move, or a timeout played just before
    the kill) may still look live; a click on it is answered as stale, not played."""

    def ready() -> Any:
        tables = table_messages(standin, thread)
        if tables and is_over(tables[-1]):
            return ("over", None)
        shown = version_on(tables[-1]) if tables else None
        for actor in actors:
            hand = hand_message(standin, actor)
            if hand is not None and live_cards(hand) and version_on(hand) == shown:
                return (actor, hand)
        return None

    who, hand = await standin.wait_for(ready, timeout=timeout)
    return None if who == "over" else (who, hand)


def version_on(message: Message) -> int | None:
    """The game version a message was drawn at, read off its game buttons' custom_ids
    (``sb|g|<game>|<version>|…``); None when it has none."""
    versions = {
        int(str(b["custom_id"]).split("|")[3])
        for b in message.buttons()
        if str(b.get("custom_id", "")).startswith("sb|g|")
    }
    return max(versions) if versions else None


async def table_caught_up(standin: DiscordStandIn, thread: Any, hand: Message) -> Message:
    """Wait until the table message shows the game at the version ``hand`` was drawn at.

    The hand's buttons go live as soon as the service says it is the person's turn; the
    table's edit for the move before may still be on its way. A test that changes the world
    under the table (a moderator deleting its thread) waits for this, so that it acts between
    two moves, as it means to, and not while the bot's edit is in flight."""
    version = version_on(hand)
    assert version is not None, hand.text()

    def caught_up() -> Message | None:
        for table in table_messages(standin, thread):
            if version_on(table) == version:
                return table
        return None

    return await standin.wait_for(caught_up, timeout=10)


CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"
LET_GO = "Discord did not take the answer to {to}"  # scopabot/bot/actions.py
# The other way the bot gives an answer up: every try refused before it was let go (a 500
# whose retries ran out within Discord's 3 s, on a quick machine or a late answer).
GAVE_UP = "the answer to {to} failed"
PLAYED = "a played card"
ASKED = CAPTURE_QUESTION  # the card asked which capture: nothing was played


def answers_let_go(bot: BotProcess, to: str | None = None) -> int:
    """How many answers to a card's click (a played card, or the question of which capture;
    ``to`` one of them only) the bot has let go so far, or given up after its tries failed
    (its log says)."""
    kinds = [to] if to is not None else [PLAYED, ASKED]
    return sum(
        any(LET_GO.format(to=k) in line or GAVE_UP.format(to=k) in line for k in kinds)
        for line in bot.lines
    )


async def answer_given_up(
    standin: DiscordStandIn, bot: BotProcess, interaction_id: int, *, before: int
) -> list[Any]:
    """Wait until the bot has let one more answer go than ``before`` and no attempt to
    answer ``interaction_id`` is still being handled; return those attempts."""

    def attempts() -> list[Any]:
        return [
            r for r in standin.requests if r.route == CALLBACK and str(interaction_id) in r.path
        ]

    await standin.wait_for(
        lambda: answers_let_go(bot) > before and all(r.status for r in attempts()), timeout=15
    )
    return attempts()


async def play_from(
    standin: DiscordStandIn, actor: Actor, hand: Message, *, pick: int = 0, choose: int = 0
) -> tuple[str, bool]:
    """Click a card of ``hand`` (the ``pick``-th live one); if asked, take choice ``choose``.

    The rest of the hand is registered as the player's secret first. Returns the card's
    label and whether a capture had to be chosen."""
    cards = live_cards(hand)
    button = cards[pick % len(cards)]
    label = str(button["label"])
    standin.privacy.set_secrets(actor.user, [held(c) for c in card_labels(hand) if c != label])
    result = await actor.click(hand, str(button["custom_id"]))
    assert not result.failed and result.message is not None
    asked = [b for b in result.message.buttons() if CAPTURE_ID.match(str(b.get("custom_id")))]
    if asked:
        chosen = await actor.click(result.message, str(asked[choose % len(asked)]["custom_id"]))
        assert not chosen.failed
    return label, bool(asked)


def counted_requests(standin: DiscordStandIn, since: int = 0) -> list[Any]:
    """Requests that count against the bot's REST budget (not interaction answers)."""
    return [
        r
        for r in standin.requests[since:]
        if not r.path.startswith("/interactions/") and not r.path.startswith("/webhooks/")
    ]
