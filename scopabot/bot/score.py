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
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from scopabot.render.boards import sheet_screen
from scopabot.render.i18n import Lang, tr
from scopabot.render.names import typed_text
from scopabot.render.screens import Action
from scopabot.service import ServiceError
from scopabot.service.score_keeping import MAX_NOTE, MAX_POINTS, ScoreKeeping, Standings

from . import ids, ui
from .actions import edit_clicked, say
from .context import error_text
from .ids import Target

if TYPE_CHECKING:
    from .client import ScopaBot

log = logging.getLogger(__name__)

SIDE, POINTS, NOTE = "side", "points", "note"
_POINTS = re.compile(r"-?[0-9]{1,6}")
_SIDE = re.compile(r"[0-9]")


def sheet_target(standings: Standings, action: Action, arg: str) -> Target:
    return Target("k", standings.sheet_id, len(standings.entries), action, arg)


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
    return ui.build(screen, lambda action, arg: sheet_target(standings, action, arg))[0]


def points_form(standings: Standings, lang: Lang) -> discord.ui.Modal:
    """The form of "Other points…": which side, how many points, and why (optional)."""
    form = discord.ui.Modal(
        title=tr("sheet.form_title", lang)[:45],
        custom_id=sheet_target(standings, Action.SCORE, "").custom_id(),
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

    async def on_click(
        self, interaction: discord.Interaction[ScopaBot], target: Target, lang: Lang
    ) -> None:
        public = await self.bot.langs.of_place(interaction)
        now = await self.keeping.standings(target.id)
        if len(now.entries) != target.version:
            await say(interaction, tr("err.stale_version", lang))
            return
        user = interaction.user.id
        if target.action is Action.SCORE and not target.arg:
            await interaction.response.send_modal(points_form(now, lang))
            return
        if target.action is Action.SCORE:
            side, _, points = target.arg.partition(".")
            now = await self.keeping.add(target.id, side=int(side), points=int(points), by=user)
        elif target.action is Action.UNDO:
            now = await self.keeping.undo(target.id, by=user)
        elif target.action is Action.END:
            now = await self.keeping.close(target.id, by=user)
        await edit_clicked(interaction, sheet_view(now, public))

    async def on_interaction(self, interaction: discord.Interaction[ScopaBot]) -> None:
        """Every interaction passes here; only a submitted points form is ours to answer."""
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        if self.bot.ignoring(interaction):
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        target = ids.parse(custom_id)
        lang = await self.bot.langs.of_interaction(interaction)
        if target is None or target.kind != "k" or target.action is not Action.SCORE:
            # The bot's only forms are score sheets' (none is kept in memory): anything else
            # is forged or from an older version. Answered, so nobody sees "failed".
            log.info("refused a form with an unknown custom_id %r", custom_id)
            await say(interaction, tr("err.unknown_form", lang))
            return
        try:
            await self.on_form(interaction, target, form_fields(list(data.get("components", []))))
        except ServiceError as error:
            await say(interaction, error_text(error, lang))
        except Exception:
            log.exception("unexpected error on the form %s", custom_id)
            await say(interaction, tr("err.unexpected", lang, game="-"))

    async def on_form(
        self, interaction: discord.Interaction[ScopaBot], target: Target, fields: dict[str, Any]
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
            target.id, side=int(chosen[0]), points=points, by=interaction.user.id, note=note
        )
        public = await self.bot.langs.of_place(interaction)
        view = sheet_view(now, public)
        if interaction.message is not None:
            await edit_clicked(interaction, view)
        else:
            await say(interaction, view=view, ephemeral=False)


def add(bot: ScopaBot) -> None:
    sheets = Sheets(bot)
    bot.sheets = sheets
    bot.add_listener(sheets.on_interaction, "on_interaction")
    group = app_commands.Group(
        name=_("score"), description=_("Keep the score of a game played with real cards")
    )

    @group.command(name=_("start"), description=_("Start a score sheet"))
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

    bot.tree.add_command(group)
    return None
