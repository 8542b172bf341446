"""Clicks on the bot's buttons and selects: each becomes one service call and one answer.

The answer edits the clicked message through the interaction (free of the REST budget) or is
an ephemeral sentence; a refusal (old version, not your turn, a forged id) changes nothing.
Slow work is deferred before Discord's 3 seconds run out.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord

from scopabot.render.cards import card_the
from scopabot.render.hand import capture_screen
from scopabot.render.i18n import Lang, tr
from scopabot.render.screens import Action
from scopabot.service import ChooseCapture, MoveOutcome, ServiceError

from . import ids, ui
from .context import error_text, table_link, table_title
from .delivery import dm_key, game_targets
from .ids import Target

# The bot is typed ``Any`` here: importing ``ScopaBot`` would make an import cycle (its
# client imports every part), and ``tests/test_layers.py`` refuses cycles.
ScopaBot = Any

log = logging.getLogger(__name__)
T = TypeVar("T")
DEFER_AFTER = 2.0  # seconds; Discord allows 3 for the first answer
# A played card's answer is its new hand, picture included; when the picture is not drawn
# this long after the move was accepted, the hand goes without it first (see answer_played).
ANSWER_WITHIN = 0.05  # seconds
ANSWERING = "scopabot.answering"
# Discord takes a first answer within 3 s of the click. When it has not taken the answer to a
# played card this long after the click reached the bot (it answered 500 and discord.py
# retries for up to 25 s), no answer can reach the person any more: the move stands, and the
# hand's own message is brought up to date by the bot's REST calls instead. Past 3 s, so that
# an answer still on its way (a busy machine answers late) is never cut short.
ANSWER_LOST_AFTER = 3.5  # seconds after the click was received
LOST = "scopabot.lost"
RECEIVED = "scopabot.received"


def answering(interaction: discord.Interaction[Any]) -> asyncio.Lock:
    """Held while the interaction is being answered. A deferral sent near the deadline and
    the work's own answer would otherwise both see "not answered yet" and both go as the
    first response, and Discord refuses the second (40060)."""
    lock = interaction.extras.get(ANSWERING)
    if lock is None:
        lock = interaction.extras[ANSWERING] = asyncio.Lock()
    return lock  # type: ignore[no-any-return]


async def within(interaction: discord.Interaction[Any], work: Awaitable[T], *, update: bool) -> T:
    """Run ``work``; if it is still busy near the deadline, acknowledge first, then wait."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
    if not done:
        async with answering(interaction):
            if not interaction.response.is_done() and not interaction.extras.get(LOST):
                try:
                    if update:
                        await interaction.response.defer()
                    else:
                        await interaction.response.defer(ephemeral=True, thinking=True)
                except discord.HTTPException:
                    # The work goes on; what it did is shown another way (answer_or_let_go).
                    log.warning("deferring interaction %s failed", interaction.id)
                    interaction.extras[LOST] = True
    return await task


async def answer_or_let_go(
    interaction: discord.Interaction[Any], answer: Awaitable[int], *, game_id: int
) -> int | None:
    """The answer to a played card, or ``None`` when Discord did not take it: the move is
    stored, so no apology ("nothing changed" would be false); the caller's hand slot then
    shows the new hand by editing its message (see ``ANSWER_LOST_AFTER``)."""
    task = asyncio.ensure_future(answer)
    received = interaction.extras.get(RECEIVED, time.monotonic())
    left = max(0.1, received + ANSWER_LOST_AFTER - time.monotonic())
    done, _ = await asyncio.wait({task}, timeout=left)
    if not done and not interaction.response.is_done():
        interaction.extras[LOST] = True
        task.cancel()
        log.warning("game %s: Discord did not take the answer to a played card", game_id)
        return None
    try:
        return await task
    except discord.HTTPException as exc:
        log.warning("game %s: the answer to a played card failed (%s)", game_id, exc.status)
        return None


async def edit_clicked(
    interaction: discord.Interaction[Any],
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
    interaction: discord.Interaction[Any],
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


class Actions:
    def __init__(self, bot: ScopaBot) -> None:
        self.bot = bot
        self.service = bot.service

    async def on_component(
        self, interaction: discord.Interaction[Any], target: Target, value: str | None
    ) -> None:
        interaction.extras.setdefault(RECEIVED, time.monotonic())
        lang = await self.bot.langs.of_interaction(interaction)
        try:
            if target.kind == "g":
                await self.game(interaction, target, value, lang)
            elif target.kind == "t":
                await self.bot.invitations.on_click(interaction, target, lang)
            elif target.kind == "b":
                await self.bot.boards.on_click(interaction, target, lang)
            elif target.kind == "k":
                await self.bot.sheets.on_click(interaction, target, lang)
        except ServiceError as error:
            await say(interaction, error_text(error, lang))
        except Exception:
            log.exception("unexpected error on %s (id %s)", target.custom_id(), target.id)
            await say(interaction, tr("err.unexpected", lang, game=target.id))

    async def on_unmatched(self, interaction: discord.Interaction[Any]) -> None:
        """A component whose custom_id is not ours or not on the message: a forgery."""
        data = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        if ids.parse(custom_id) is not None and ui.custom_id_on(interaction.message, custom_id):
            return  # a real button: its DynamicItem answers
        lang = await self.bot.langs.of_interaction(interaction)
        log.info("refused a forged or unknown custom_id %r from %s", custom_id, interaction.user.id)
        await say(interaction, tr("err.forged", lang))

    # Games ------------------------------------------------------------------------------------

    async def game(
        self,
        interaction: discord.Interaction[Any],
        target: Target,
        value: str | None,
        lang: Lang,
    ) -> None:
        game_id = target.id
        if target.action is Action.HAND:
            await self.show_hand(interaction, game_id, lang)
        elif target.action is Action.TAKE_BACK:
            await within(interaction, self.take_back(interaction, game_id, lang), update=True)
        elif target.action is Action.REMATCH:
            await self.bot.invitations.rematch(interaction, game_id, lang)
        elif target.action in (Action.PLAY, Action.CAPTURE):
            given = value if value is not None else target.arg  # a card, or a whole move
            await within(
                interaction,
                self.play(interaction, game_id, target.version, given, lang),
                update=True,
            )

    async def play(
        self,
        interaction: discord.Interaction[Any],
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
                view, files = ui.build(screen, game_targets(game_id, version))
                await edit_clicked(interaction, view, files)
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
        self, interaction: discord.Interaction[Any], game_id: int, lang: Lang
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
        interaction: discord.Interaction[Any],
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
        view, files, version = await drawing
        await edit_clicked(interaction, view, files)
        return version

    async def show_hand(
        self, interaction: discord.Interaction[Any], game_id: int, lang: Lang
    ) -> None:
        """From the table message: an ephemeral hand; from a hand or a question: back to it."""
        table = await self.service.tables.of_game(game_id)
        on_table = interaction.message is not None and interaction.message.id == table.message_id
        link = table_link(table) if dm_key(interaction) else None
        view, files, _ = await self.bot.delivery.hand_view(
            game_id, interaction.user.id, lang, link=link
        )
        if on_table or interaction.message is None:
            await say(interaction, view=view, files=files)
            self.bot.delivery.asked_for_hand(game_id, interaction.user.id)  # DMs open now?
        else:
            await edit_clicked(interaction, view, files)
