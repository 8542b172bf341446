"""Clicks on the bot's buttons and selects: each becomes one service call and one answer.

The answer edits the clicked message through the interaction (free of the REST budget) or is
an ephemeral sentence; a refusal (old version, not your turn, a forged id) changes nothing.
Slow work is deferred before Discord's 3 seconds run out.

Each kind of control is a ``DynamicItem`` class of its own (:class:`Control`), like
discord.py's ``examples/views/dynamic_counter.py``: its template names what its custom_id
holds, and its ``act`` does its work. A game's controls are here; a table's, a leaderboard's
and a score sheet's are with their features.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, ClassVar, Self, TypeVar

import discord
from discord import app_commands
from discord import ui as dui

from scopabot.render.cards import card_the
from scopabot.render.hand import capture_screen
from scopabot.render.i18n import Lang, tr
from scopabot.render.screens import Action
from scopabot.service import CardParseError, ChooseCapture, MoveOutcome, ServiceError

from . import ids, ui
from .autocomplete import GameNotFound
from .context import error_text, table_link, table_title
from .ids import Kind
from .ui import PLAIN, Controls, Look

if TYPE_CHECKING:
    from .client import ScopaBot

log = logging.getLogger(__name__)
T = TypeVar("T")
ItemT = TypeVar("ItemT", bound=dui.Item[Any], covariant=True)
DEFER_AFTER = 2.0  # seconds; Discord allows 3 for the first answer
# A played card's answer is its new hand, picture included; when the picture is not drawn
# this long after the move was accepted, the hand goes without it first (see answer_played).
ANSWER_WITHIN = 0.05  # seconds
# How often an answer shown on another process's table is brought up to the game's version
# (Actions.keep_up): each look past the first follows a move made while the answer was on its
# way, so a few are plenty; the other process shows anything later by itself.
KEEP_UP_LOOKS = 5
ANSWERING = "scopabot.answering"
# Discord takes a first answer within 3 s of the click. When it has not taken the answer to a
# played card this long after the click reached the bot (it answered 500 and discord.py
# retries for up to 25 s), no answer can reach the person any more: the move stands, and the
# hand's own message is brought up to date by the bot's REST calls instead. Past 3 s, so that
# an answer still on its way (a busy machine answers late) is never cut short.
ANSWER_LOST_AFTER = 3.5  # seconds after the click was received
LOST = "scopabot.lost"
CAPTURE_QUESTION = "a card's capture question"  # what answer_or_let_go's log names
RECEIVED = "scopabot.received"


def answering(interaction: discord.Interaction[ScopaBot]) -> asyncio.Lock:
    """Held while the interaction is being answered. A deferral sent near the deadline and
    the work's own answer would otherwise both see "not answered yet" and both go as the
    first response, and Discord refuses the second (40060)."""
    lock = interaction.extras.get(ANSWERING)
    if lock is None:
        lock = interaction.extras[ANSWERING] = asyncio.Lock()
    return lock


async def within(
    interaction: discord.Interaction[ScopaBot], work: Awaitable[T], *, update: bool
) -> T:
    """Run ``work``; if it is still busy near the deadline, acknowledge first, then wait."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
    if not done:
        async with answering(interaction):
            if not interaction.response.is_done() and not interaction.extras.get(LOST):
                if update:
                    deferral = interaction.response.defer()
                else:
                    deferral = interaction.response.defer(ephemeral=True, thinking=True)
                # discord.py retries a failed deferral for up to 25 s, but Discord takes no
                # first answer once its 3 s are over: a retry then is refused (10062). So
                # the deferral is let go with the answer (ANSWER_LOST_AFTER).
                received = interaction.extras.get(RECEIVED, time.monotonic())
                left = max(0.1, received + ANSWER_LOST_AFTER - time.monotonic())
                try:
                    await asyncio.wait_for(deferral, timeout=left)
                except (discord.HTTPException, TimeoutError):
                    # The work goes on; what it did is shown another way (answer_or_let_go).
                    log.warning("deferring interaction %s failed", interaction.id)
                    interaction.extras[LOST] = True
    return await task


async def answer_or_let_go(
    interaction: discord.Interaction[ScopaBot],
    answer: Awaitable[T],
    *,
    game_id: int,
    to: str = "a played card",
) -> T | None:
    """The answer to a card's click, or ``None`` when Discord did not take it.

    For a played card the move is stored, so no apology ("nothing changed" would be false);
    the caller's hand slot then shows the new hand by editing its message (see
    ``ANSWER_LOST_AFTER``). For the question of which capture, nothing was played: the hand
    stays as it was, to be clicked again. Either way the answer is not tried for discord.py's
    25 s, long after Discord would take it."""
    task = asyncio.ensure_future(answer)
    received = interaction.extras.get(RECEIVED, time.monotonic())
    left = max(0.1, received + ANSWER_LOST_AFTER - time.monotonic())
    done, _ = await asyncio.wait({task}, timeout=left)
    if not done and not interaction.response.is_done():
        interaction.extras[LOST] = True
        task.cancel()
        log.warning("game %s: Discord did not take the answer to %s", game_id, to)
        return None
    try:
        return await task
    except discord.HTTPException as exc:
        log.warning("game %s: the answer to %s failed (%s)", game_id, to, exc.status)
        return None


async def edit_clicked(
    interaction: discord.Interaction[ScopaBot],
    view: discord.ui.LayoutView,
    files: list[discord.File] | None = None,
) -> None:
    """Edit the clicked message; ``files`` (its pictures) replace the ones it had, None keeps
    them."""
    kwargs: dict[str, Any] = {"view": view}
    if files is not None:
        kwargs["attachments"] = files
    async with answering(interaction):
        if interaction.response.is_done():
            await interaction.edit_original_response(**kwargs)
        else:
            await interaction.response.edit_message(**kwargs)


async def say(
    interaction: discord.Interaction[ScopaBot],
    text: str | None = None,
    *,
    view: discord.ui.LayoutView | None = None,
    files: list[discord.File] | None = None,
    ephemeral: bool = True,
) -> None:
    """Answer with a new message (ephemeral unless told otherwise), first or follow-up."""
    kwargs: dict[str, Any] = {"ephemeral": ephemeral}
    if view is not None:
        kwargs["view"] = view
        if files:
            kwargs["files"] = files
    else:
        kwargs["content"] = text
    async with answering(interaction):
        if interaction.response.is_done():
            await interaction.followup.send(**kwargs)
        else:
            await interaction.response.send_message(**kwargs)


async def command_error(
    interaction: discord.Interaction[ScopaBot], error: app_commands.AppCommandError
) -> None:
    """Every command's refusal in words; an unexpected error logged, with a short apology."""
    cause = getattr(error, "original", error)
    lang = await interaction.client.langs.of_interaction(interaction)
    if isinstance(cause, ServiceError):
        await say(interaction, error_text(cause, lang))
    elif isinstance(cause, GameNotFound):
        await say(interaction, tr(cause.key, lang, **cause.params))
    elif isinstance(cause, CardParseError):
        await say(interaction, tr("err.not_a_card", lang))
    else:
        name = interaction.command.qualified_name if interaction.command else "?"
        log.error("/%s failed", name, exc_info=cause)
        await say(interaction, tr("err.unexpected", lang, game="-"))


def on_a_table(interaction: discord.Interaction[ScopaBot]) -> bool:
    """Whether the click is on a message everyone in the channel sees (a table message,
    this one or an older one): a hand is then a new ephemeral reply, never an edit of it."""
    message = interaction.message
    return message is None or (interaction.guild_id is not None and not message.flags.ephemeral)


def dm_key(interaction: discord.Interaction[ScopaBot]) -> bool:
    """Whether the clicked message is a DM (a hand message), not an ephemeral reply."""
    return interaction.guild_id is None and not (
        interaction.message is not None and interaction.message.flags.ephemeral
    )


class Control(dui.DynamicItem[ItemT], template=r"(?!)"):
    """What every control of the bot does around its own work, :meth:`act`: nothing once
    the bot is stopping; the person's language found; a refusal (a stale version, not your
    turn) said in words; an unexpected error logged, with a short apology naming ``about``
    (the game, table, board or sheet). Subclasses give their own template (this one matches
    nothing: the base is never registered)."""

    about: int = 0
    pattern: ClassVar[re.Pattern[str]]  # the class's template, compiled

    def __init_subclass__(cls, *, template: str, **kwargs: Any) -> None:
        super().__init_subclass__(template=template, **kwargs)
        cls.pattern = re.compile(template)

    # discord.py declares these generic over the client; it always passes the client that
    # runs them, this bot, which mypy cannot know: hence the overrides' ignores.
    async def interaction_check(self, interaction: discord.Interaction[ScopaBot], /) -> bool:  # type: ignore[override]
        return not interaction.client.ignoring(interaction) and ids.is_ours(self.custom_id)

    async def callback(self, interaction: discord.Interaction[ScopaBot]) -> None:  # type: ignore[override]
        interaction.extras.setdefault(RECEIVED, time.monotonic())
        lang = await interaction.client.langs.of_interaction(interaction)
        try:
            await self.act(interaction, lang)
        except ServiceError as error:
            await say(interaction, error_text(error, lang))
        except Exception:
            log.exception("unexpected error on %s (id %s)", self.custom_id, self.about)
            await say(interaction, tr("err.unexpected", lang, game=self.about))

    async def act(self, interaction: discord.Interaction[ScopaBot], lang: Lang) -> None:
        raise NotImplementedError


# A game's controls -----------------------------------------------------------------------
# ``sb|g|<game>|<version>|<action>|<arg>``: the version is the game's the person saw, so a
# click on an old hand or table is refused (the service compares it).

GAME = Kind.GAME


def _game(action: Action, arg: str = "", *, select: bool = False) -> str:
    return ids.template(GAME, action, id="game", number="version", arg=arg, select=select)


class GameControl(Control[ItemT], template=r"(?!)"):
    def __init__(self, item: ItemT, game_id: int, version: int) -> None:
        super().__init__(item)
        self.game_id = self.about = game_id
        self.version = version


class PlayCard(GameControl[dui.Button[Any]], template=_game(Action.PLAY, r"(?P<card>[^|]{1,60})")):
    """A card of a hand, played (or, when it can take in more than one way, the choice)."""

    def __init__(self, game_id: int, version: int, card: str, look: Look = PLAIN) -> None:
        custom_id = ids.custom_id(GAME, game_id, version, Action.PLAY, card)
        super().__init__(look.button(custom_id), game_id, version)
        self.card = card

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: dui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["game"]), int(match["version"]), match["card"], Look.of(item))

    async def act(self, interaction: discord.Interaction[ScopaBot], lang: Lang) -> None:
        actions = interaction.client.actions
        work = actions.play(interaction, self.game_id, self.version, self.card, lang)
        await within(interaction, work, update=True)


class PickCapture(
    GameControl[dui.Button[Any]], template=_game(Action.CAPTURE, r"(?P<move>[^|]{1,60})")
):
    """One of the captures a card can make, as its whole move ("7d:3c+4s")."""

    def __init__(self, game_id: int, version: int, move: str, look: Look = PLAIN) -> None:
        custom_id = ids.custom_id(GAME, game_id, version, Action.CAPTURE, move)
        super().__init__(look.button(custom_id), game_id, version)
        self.move = move

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: dui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["game"]), int(match["version"]), match["move"], Look.of(item))

    async def act(self, interaction: discord.Interaction[ScopaBot], lang: Lang) -> None:
        actions = interaction.client.actions
        work = actions.play(interaction, self.game_id, self.version, self.move, lang)
        await within(interaction, work, update=True)


class CaptureChoice(GameControl[dui.Select[Any]], template=_game(Action.CAPTURE, select=True)):
    """The captures as a list, when they are too many for buttons; the value is the move."""

    def __init__(
        self,
        game_id: int,
        version: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str = "",
    ) -> None:
        custom_id = ids.custom_id(GAME, game_id, version, Action.CAPTURE, select=True)
        select: dui.Select[Any] = dui.Select(
            custom_id=custom_id, options=options or [], placeholder=placeholder or None
        )
        super().__init__(select, game_id, version)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: dui.Item[Any], match: re.Match[str], /
    ) -> Self:
        options = list(item.options) if isinstance(item, dui.Select) else []
        return cls(int(match["game"]), int(match["version"]), options)

    async def act(self, interaction: discord.Interaction[ScopaBot], lang: Lang) -> None:
        values = self.item.values
        given = values[0] if values else ""  # Discord sends one; none is refused as no card
        actions = interaction.client.actions
        work = actions.play(interaction, self.game_id, self.version, given, lang)
        await within(interaction, work, update=True)


class GameButton(GameControl[dui.Button[Any]], template=r"(?!)"):
    """A game's button that carries only the game and the version it was drawn at (its
    :attr:`action` says which); the base is never registered."""

    action: ClassVar[Action]

    def __init__(self, game_id: int, version: int, look: Look = PLAIN) -> None:
        custom_id = ids.custom_id(GAME, game_id, version, self.action)
        super().__init__(look.button(custom_id), game_id, version)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: dui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["game"]), int(match["version"]), Look.of(item))


class ShowHand(GameButton, template=_game(Action.HAND)):
    """The table's "My hand" (an ephemeral hand), or "Back" from a choice of captures."""

    action = Action.HAND

    async def act(self, interaction: discord.Interaction[ScopaBot], lang: Lang) -> None:
        # Its picture may be slow (a worker just started after a restart, a loaded machine):
        # acknowledged before Discord's 3 s, as a new ephemeral from a table, an edit else.
        work = interaction.client.actions.show_hand(interaction, self.game_id, lang)
        await within(interaction, work, update=not on_a_table(interaction))


class TakeSeatBack(GameButton, template=_game(Action.TAKE_BACK)):
    """On a hand a computer plays for its person: the seat back."""

    action = Action.TAKE_BACK

    async def act(self, interaction: discord.Interaction[ScopaBot], lang: Lang) -> None:
        work = interaction.client.actions.take_back(interaction, self.game_id, lang)
        await within(interaction, work, update=True)


class Rematch(GameButton, template=_game(Action.REMATCH)):
    """On a finished match's table: a new table for the same players."""

    action = Action.REMATCH

    async def act(self, interaction: discord.Interaction[ScopaBot], lang: Lang) -> None:
        await interaction.client.invitations.rematch(interaction, self.game_id, lang)


GAME_CONTROLS = (PlayCard, PickCapture, CaptureChoice, ShowHand, TakeSeatBack, Rematch)


def game_controls(game_id: int, version: int) -> Controls:
    """A game's buttons as the version ``version`` of it shows them."""

    def button(action: Action, arg: str, look: Look) -> dui.Item[Any]:
        if action is Action.PLAY:
            return PlayCard(game_id, version, arg, look)
        if action is Action.CAPTURE:
            return PickCapture(game_id, version, arg, look)
        if action is Action.HAND:
            return ShowHand(game_id, version, look)
        if action is Action.TAKE_BACK:
            return TakeSeatBack(game_id, version, look)
        if action is Action.REMATCH:
            return Rematch(game_id, version, look)
        raise ValueError(f"no control of a game does {action!r}")

    def select(options: list[discord.SelectOption], placeholder: str) -> dui.Item[Any]:
        return CaptureChoice(game_id, version, options, placeholder)

    return Controls(button, select)


class Actions:
    def __init__(self, bot: ScopaBot) -> None:
        self.bot = bot
        self.service = bot.service

    async def on_unmatched(self, interaction: discord.Interaction[ScopaBot]) -> None:
        """A component whose custom_id is not ours or not on the message: a forgery."""
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if ids.is_ours(custom_id) and ui.custom_id_on(interaction.message, custom_id):
            return  # a real button: its DynamicItem answers
        lang = await self.bot.langs.of_interaction(interaction)
        log.info("refused a forged or unknown custom_id %r from %s", custom_id, interaction.user.id)
        await say(interaction, tr("err.forged", lang))

    async def play(
        self,
        interaction: discord.Interaction[ScopaBot],
        game_id: int,
        version: int,
        given: str,
        lang: Lang,
    ) -> None:
        user_id = interaction.user.id
        table = await self.service.tables.of_game(game_id)
        seat = table.seat_of(user_id)
        slot = None
        if dm_key(interaction) and seat is not None and table.id is not None:
            slot = self.bot.delivery.hand(table.id, game_id, seat)
            slot.pause()
        shown = None
        try:
            try:
                outcome = await self.service.games.play(
                    game_id, user=user_id, card=given, version=version
                )
            except ChooseCapture as choice:
                screen = capture_screen(
                    choice.card, choice.choices, lang, title=table_title(table, lang)
                )
                view, files = ui.build(screen, game_controls(game_id, version))
                await answer_or_let_go(
                    interaction,
                    edit_clicked(interaction, view, files),
                    game_id=game_id,
                    to=CAPTURE_QUESTION,
                )
                return
            assert outcome.move is not None
            note = tr("played", lang, card=card_the(outcome.move.card, lang))
            link = table_link(table) if slot is not None else None
            shown = await answer_or_let_go(
                interaction,
                self.answer_played(interaction, game_id, outcome, lang, link, note),
                game_id=game_id,
            )
        finally:
            if slot is not None:
                slot.resume(shown=shown)

    async def take_back(
        self, interaction: discord.Interaction[ScopaBot], game_id: int, lang: Lang
    ) -> None:
        """The hand message's "Take my seat back": the hand again, the person's own."""
        table = await self.service.tables.of_game(game_id)
        seat = table.seat_of(interaction.user.id)
        slot = None
        if dm_key(interaction) and seat is not None and table.id is not None:
            slot = self.bot.delivery.hand(table.id, game_id, seat)
            slot.pause()
        shown = None
        try:
            outcome = await self.service.games.take_seat_back(game_id, user=interaction.user.id)
            link = table_link(table) if slot is not None else None
            note = tr("took_back", lang)
            shown = await self.answer_played(interaction, game_id, outcome, lang, link, note)
        finally:
            if slot is not None:
                slot.resume(shown=shown)

    async def answer_played(
        self,
        interaction: discord.Interaction[ScopaBot],
        game_id: int,
        outcome: MoveOutcome,
        lang: Lang,
        link: str | None,
        note: str,
    ) -> int:
        """Show the new hand on the clicked message; returns the version shown.

        Made from the move's outcome (nothing read back from the store). The hand's picture is
        drawn off the event loop and, under load, may wait behind others: if it is not ready
        soon, the click is answered at once with the hand's text and buttons, and the message
        edited again, through the interaction, when the picture is drawn."""
        delivery = self.bot.delivery
        user_id = interaction.user.id
        seat_view = outcome.view or await self.service.games.seat_view(game_id, user=user_id)
        drawing = asyncio.ensure_future(
            delivery.hand_view(game_id, user_id, lang, link=link, note=note, seat_view=seat_view)
        )
        done, _ = await asyncio.wait({drawing}, timeout=ANSWER_WITHIN)
        if not done:
            quick, _, _ = await delivery.hand_view(
                game_id, user_id, lang, link=link, note=note, seat_view=seat_view, pictures=False
            )
            await edit_clicked(interaction, quick, [])  # the old hand's picture goes
        # Another process may have moved the game while the picture was drawn (and the
        # table's process shown the newer hand already): then shown as it is now instead.
        view, files, version = await delivery.hand_as_now(
            game_id, user_id, lang, await drawing, link=link, note=note
        )
        await edit_clicked(interaction, view, files)
        if not self.bot.owns(seat_view.table.guild_id):
            version = await self.keep_up(interaction, game_id, version, lang, link)
        return version

    async def keep_up(
        self,
        interaction: discord.Interaction[ScopaBot],
        game_id: int,
        shown: int,
        lang: Lang,
        link: str | None,
    ) -> int:
        """The hand just shown through the interaction, brought up to the game's version.

        Another process shows this table (shards.py) and edits this very hand for what follows
        the move (a computer's reply, the person's next turn), by its own request: that edit
        may land before this answer's, which would then leave the hand a move behind with its
        buttons dead. So, once the answer has landed, the game's stored version is read again
        and, while it is past what was shown, the hand is shown again through the interaction.
        A move made after the last look is shown by the other process with a request sent
        after it, and so landing after this answer's last edit."""
        user_id = interaction.user.id
        for _ in range(KEEP_UP_LOOKS):
            seat_view = await self.service.games.seat_view(game_id, user=user_id)
            if seat_view.version <= shown:
                break
            view, files, shown = await self.bot.delivery.hand_view(
                game_id, user_id, lang, link=link, seat_view=seat_view
            )
            try:
                await edit_clicked(interaction, view, files)
            except discord.HTTPException as exc:  # the other process's edit stands
                log.warning("game %s: the hand could not be brought up (%s)", game_id, exc.status)
                break
        return shown

    async def show_hand(
        self, interaction: discord.Interaction[ScopaBot], game_id: int, lang: Lang
    ) -> None:
        """From the table message: an ephemeral hand; from a hand or a question: back to it."""
        table = await self.service.tables.of_game(game_id)
        link = table_link(table) if dm_key(interaction) else None
        view, files, _ = await self.bot.delivery.hand_view(
            game_id, interaction.user.id, lang, link=link
        )
        if on_a_table(interaction):
            await say(interaction, view=view, files=files)
            self.bot.delivery.asked_for_hand(game_id, interaction.user.id)  # DMs open now?
        else:
            await edit_clicked(interaction, view, files)
