"""``/score``: the score keeper for games played with real cards.

``/score start`` posts a sheet with +1/+2/+3 buttons per side, "Other points…", Undo and
End. A button's custom_id carries the sheet and how many entries the person saw, so a double
click or an old message adds nothing. "Other points…" opens a form (a modal) asking the side,
the points and a note; the form is not kept in memory: its submission is read from its
custom_id and fields alone, like a button's click, so it works across a restart too.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, Self

import discord
from discord import app_commands
from discord import ui as dui
from discord.app_commands import locale_str as _

from scopabot.render.boards import sheet_screen
from scopabot.render.i18n import Lang, tr
from scopabot.render.names import typed_text
from scopabot.render.screens import Action
from scopabot.service import ServiceError
from scopabot.service.score_keeping import MAX_NOTE, MAX_POINTS, ScoreKeeping, Standings

from . import ids, ui
from .actions import Control, edit_clicked, say
from .context import error_text
from .ids import Kind
from .ui import PLAIN, Controls, Look

if TYPE_CHECKING:
    from .client import ScopaBot

log = logging.getLogger(__name__)

SIDE, POINTS, NOTE = "side", "points", "note"
_POINTS = re.compile(r"-?[0-9]{1,6}")
_SIDE = re.compile(r"[0-9]")


# A sheet's controls ---------------------------------------------------------------------
# ``sb|k|<sheet>|<entries>|<action>|<arg>``: how many entries the person saw, so that a double
# click or an old message adds nothing.

SHEET = Kind.SHEET


def _sheet(action: Action, arg: str = "") -> str:
    return ids.template(SHEET, action, id="sheet", number="entries", arg=arg)


OTHER_POINTS = _sheet(Action.SCORE)  # its form's custom_id too


class SheetControl(Control[dui.Button[Any]], template=r"(?!)"):
    action = Action.UNDO  # each kind its own

    def __init__(self, sheet_id: int, entries: int, look: Look = PLAIN, arg: str = "") -> None:
        custom_id = ids.custom_id(SHEET, sheet_id, entries, self.action, arg)
        super().__init__(look.button(custom_id))
        self.sheet_id = self.about = sheet_id
        self.entries = entries

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: dui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["sheet"]), int(match["entries"]), Look.of(item))

    async def act(self, interaction: discord.Interaction[ScopaBot], lang: Lang) -> None:
        bot = interaction.client
        public = await bot.langs.of_place(interaction)
        keeping = bot.sheets.keeping
        now = await keeping.standings(self.sheet_id)
        if len(now.entries) != self.entries:
            await say(interaction, tr("err.stale_version", lang))
            return
        changed = await self.change(interaction, keeping, now, lang)
        if changed is not None:
            await edit_clicked(interaction, sheet_view(changed, public))

    async def change(
        self,
        interaction: discord.Interaction[ScopaBot],
        keeping: ScoreKeeping,
        now: Standings,
        lang: Lang,
    ) -> Standings | None:
        """The sheet after the click (None: nothing to show on it now)."""
        raise NotImplementedError


class SheetPoints(
    SheetControl, template=_sheet(Action.SCORE, r"(?P<side>[0-9])\.(?P<points>[0-9]{1,6})")
):
    """A side's "+1", "+2" or "+3"."""

    action = Action.SCORE

    def __init__(
        self, sheet_id: int, entries: int, look: Look = PLAIN, *, side: int, points: int
    ) -> None:
        super().__init__(sheet_id, entries, look, f"{side}.{points}")
        self.side, self.points = side, points

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: dui.Item[Any], match: re.Match[str], /
    ) -> Self:
        sheet, entries = int(match["sheet"]), int(match["entries"])
        side, points = int(match["side"]), int(match["points"])
        return cls(sheet, entries, Look.of(item), side=side, points=points)

    async def change(
        self,
        interaction: discord.Interaction[ScopaBot],
        keeping: ScoreKeeping,
        now: Standings,
        lang: Lang,
    ) -> Standings | None:
        user = interaction.user.id
        return await keeping.add(self.sheet_id, side=self.side, points=self.points, by=user)


class OtherPoints(SheetControl, template=OTHER_POINTS):
    """The form "Other points…" opens, asking the side, the points and a note."""

    action = Action.SCORE

    async def change(
        self,
        interaction: discord.Interaction[ScopaBot],
        keeping: ScoreKeeping,
        now: Standings,
        lang: Lang,
    ) -> Standings | None:
        await interaction.response.send_modal(points_form(now, lang))
        return None


class UndoEntry(SheetControl, template=_sheet(Action.UNDO)):
    action = Action.UNDO

    async def change(
        self,
        interaction: discord.Interaction[ScopaBot],
        keeping: ScoreKeeping,
        now: Standings,
        lang: Lang,
    ) -> Standings | None:
        return await keeping.undo(self.sheet_id, by=interaction.user.id)


class CloseSheet(SheetControl, template=_sheet(Action.END)):
    action = Action.END

    async def change(
        self,
        interaction: discord.Interaction[ScopaBot],
        keeping: ScoreKeeping,
        now: Standings,
        lang: Lang,
    ) -> Standings | None:
        return await keeping.close(self.sheet_id, by=interaction.user.id)


SHEET_CONTROLS = (SheetPoints, OtherPoints, UndoEntry, CloseSheet)


def sheet_controls(standings: Standings) -> Controls:
    sheet_id, entries = standings.sheet_id, len(standings.entries)

    def button(action: Action, arg: str, look: Look) -> dui.Item[Any]:
        if action is Action.SCORE and arg:
            side, _, points = arg.partition(".")
            return SheetPoints(sheet_id, entries, look, side=int(side), points=int(points))
        if action is Action.SCORE:
            return OtherPoints(sheet_id, entries, look)
        if action is Action.UNDO:
            return UndoEntry(sheet_id, entries, look)
        if action is Action.END:
            return CloseSheet(sheet_id, entries, look)
        raise ValueError(f"no control of a score sheet does {action!r}")

    return Controls(button)


def sheet_view(standings: Standings, lang: Lang) -> discord.ui.LayoutView:
    last = ""
    if standings.last is not None:
        entry = standings.last
        side = typed_text(standings.sides[entry.side].name)
        key = "sheet.last_note" if entry.note else "sheet.last"
        last = tr(key, lang, points=entry.points, side=side, note=typed_text(entry.note))
    screen = sheet_screen(
        standings.title,
        [(s.name, s.points, s.needs) for s in standings.sides],
        lang,
        target=standings.target,
        winner=standings.winner,
        tied=standings.tied_at_target,
        closed=standings.closed,
        last=last,
    )
    return ui.build(screen, sheet_controls(standings))[0]


def points_form(standings: Standings, lang: Lang) -> discord.ui.Modal:
    """The form of "Other points…": which side, how many points, and why (optional)."""
    form = discord.ui.Modal(
        title=tr("sheet.form_title", lang)[:45],
        custom_id=ids.custom_id(SHEET, standings.sheet_id, len(standings.entries), Action.SCORE),
        timeout=None,
    )
    sides = [discord.SelectOption(label=s.name[:100], value=str(s.side)) for s in standings.sides]
    form.add_item(
        discord.ui.Label(
            text=tr("sheet.form_side", lang),
            component=discord.ui.Select(custom_id=SIDE, options=sides, min_values=1, max_values=1),
        )
    )
    form.add_item(
        discord.ui.Label(
            text=tr("sheet.form_points", lang),
            component=discord.ui.TextInput(
                custom_id=POINTS, min_length=1, max_length=4, placeholder="1–101"
            ),
        )
    )
    form.add_item(
        discord.ui.Label(
            text=tr("sheet.form_note", lang),
            component=discord.ui.TextInput(
                custom_id=NOTE,
                required=False,
                max_length=MAX_NOTE,
                placeholder=tr("sheet.form_note_hint", lang),
            ),
        )
    )
    form.stop()  # answered from its custom_id (``Sheets.on_form``), never from memory
    return form


def form_fields(components: list[dict[str, Any]]) -> dict[str, Any]:
    """A submitted form's values by custom_id: text inputs' text, selects' chosen values."""
    found: dict[str, Any] = {}
    for component in components:
        if component.get("type") == 18 and isinstance(component.get("component"), dict):
            found.update(form_fields([component["component"]]))
        elif component.get("type") == 1:
            found.update(form_fields(list(component.get("components") or [])))
        elif "custom_id" in component:
            found[str(component["custom_id"])] = component.get("values", component.get("value"))
    return found


def read_points(text: str, lang: Lang) -> tuple[int | None, str]:
    """The points written in the form, or why they cannot be (in ``lang``)."""
    cleaned = text.strip().removeprefix("+").strip()
    # ASCII digits only: str.isdigit() also takes "²" or "٣", which int() then refuses.
    if _POINTS.fullmatch(cleaned) is None:
        return None, tr("err.points_not_a_number", lang, text=" ".join(text.split())[:20])
    points = int(cleaned)
    if not 1 <= points <= MAX_POINTS:
        return None, tr("err.points_out_of_range", lang, points=points)
    return points, ""


class Sheets:
    def __init__(self, bot: ScopaBot) -> None:
        self.bot = bot
        self.keeping: ScoreKeeping = bot.service.score_sheets

    async def on_interaction(self, interaction: discord.Interaction[ScopaBot]) -> None:
        """Every interaction passes here; only a submitted points form is ours to answer."""
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        if self.bot.ignoring(interaction):
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        found = OtherPoints.pattern.fullmatch(custom_id) if ids.is_ours(custom_id) else None
        lang = await self.bot.langs.of_interaction(interaction)
        if found is None:
            # The bot's only forms are score sheets' (none is kept in memory): anything else
            # is forged or from an older version. Answered, so nobody sees "failed".
            log.info("refused a form with an unknown custom_id %r", custom_id)
            await say(interaction, tr("err.unknown_form", lang))
            return
        try:
            fields = form_fields(list(data.get("components", [])))
            await self.on_form(interaction, int(found["sheet"]), fields)
        except ServiceError as error:
            await say(interaction, error_text(error, lang))
        except Exception:
            log.exception("unexpected error on the form %s", custom_id)
            await say(interaction, tr("err.unexpected", lang, game="-"))

    async def on_form(
        self, interaction: discord.Interaction[ScopaBot], sheet_id: int, fields: dict[str, Any]
    ) -> None:
        """Write the form's points. Entries others made since it opened do not matter: an
        amount for a side is not relative to them, and one submission adds once."""
        lang = await self.bot.langs.of_interaction(interaction)
        chosen = fields.get(SIDE) or []
        if not isinstance(chosen, list) or not chosen or not _SIDE.fullmatch(str(chosen[0])):
            await say(interaction, tr("err.pick_a_side", lang))
            return
        points, problem = read_points(str(fields.get(POINTS) or ""), lang)
        if points is None:
            await say(interaction, problem)
            return
        note = str(fields.get(NOTE) or "").strip()[:MAX_NOTE]
        now = await self.keeping.add(
            sheet_id, side=int(chosen[0]), points=points, by=interaction.user.id, note=note
        )
        public = await self.bot.langs.of_place(interaction)
        view = sheet_view(now, public)
        if interaction.message is not None:
            await edit_clicked(interaction, view)
        else:
            await say(interaction, view=view, ephemeral=False)


def setup(bot: ScopaBot) -> None:
    sheets = bot.sheets = Sheets(bot)
    bot.add_listener(sheets.on_interaction, "on_interaction")
    bot.add_dynamic_items(*SHEET_CONTROLS)


score = app_commands.Group(
    name=_("score"), description=_("Keep the score of a game played with real cards")
)


@score.command(name=_("start"), description=_("Start a score sheet"))
@app_commands.rename(sides=_("sides"), target=_("target"))
@app_commands.describe(
    sides=_("Side names, separated by commas (default: Noi, Voi)"),
    target=_("Points to win (default 11)"),
)
async def start(
    interaction: discord.Interaction[ScopaBot],
    sides: str | None = None,
    target: app_commands.Range[int, 1, 101] = 11,
) -> None:
    bot = interaction.client
    sheets = interaction.client.sheets
    names = [n.strip() for n in (sides or "Noi, Voi").split(",") if n.strip()]
    standings = await sheets.keeping.open(
        owner=interaction.user.id,
        sides=names,
        target=target,
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id,
    )
    public = await bot.langs.of_place(interaction)
    await say(interaction, view=sheet_view(standings, public), ephemeral=False)
