"""Render's screens as Discord components (Components V2), and the persistent buttons.

Every button and select is a ``DynamicItem``, one class per kind of control (each feature
declares its own), whose custom_id carries what it acts on (see ``ids``): registered once in
``setup_hook``, it answers clicks on any message ever sent, also after a restart, with no
view kept in memory per message.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord import ui

from scopabot.render.screens import Action, Screen, Style

STYLES = {
    Style.PRIMARY: discord.ButtonStyle.primary,
    Style.SECONDARY: discord.ButtonStyle.secondary,
    Style.SUCCESS: discord.ButtonStyle.success,
    Style.DANGER: discord.ButtonStyle.danger,
}
TEXT_MAX = 4000


@dataclass(frozen=True, slots=True)
class Look:
    """How a button looks (its label, style, whether it is greyed out), apart from what it
    does, which is its class and custom_id."""

    label: str = "?"
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    disabled: bool = False

    def button(self, custom_id: str) -> ui.Button[Any]:
        return ui.Button(
            label=self.label, style=self.style, disabled=self.disabled, custom_id=custom_id
        )

    @classmethod
    def of(cls, item: ui.Item[Any]) -> Look:
        """The look of a clicked button, as Discord sent it back."""
        if isinstance(item, ui.Button):
            return cls(item.label or "?", item.style)
        return cls()


PLAIN = Look()


@dataclass(frozen=True, slots=True)
class Controls:
    """What a screen's buttons (and its one select, if any) become for one game, table,
    board or sheet: a ``DynamicItem`` of the right class for each action."""

    button: Callable[[Action, str, Look], ui.Item[Any]]
    select: Callable[[list[discord.SelectOption], str], ui.Item[Any]] | None = None


def _no_button(action: Action, arg: str, look: Look) -> ui.Item[Any]:
    raise AssertionError(f"a screen without controls has a button ({action!r})")


NO_CONTROLS = Controls(_no_button)  # a screen to read (stats, a deal's count): no buttons


def build(screen: Screen, controls: Controls) -> tuple[ui.LayoutView, list[discord.File]]:
    """A Components V2 message: one container with the text, the pictures and the buttons.

    Each picture is its own one-item gallery (full width, not squeezed side by side), shown
    from the file attached beside it (``attachment://``); the files go with the same request,
    and an edit passes them as ``attachments`` so they replace the old ones."""
    view = ui.LayoutView(timeout=None)
    container: ui.Container[Any] = ui.Container(
        accent_colour=discord.Colour(screen.accent) if screen.accent is not None else None
    )
    for block in screen.blocks:
        container.add_item(ui.TextDisplay(block[:TEXT_MAX]))
    files = [
        discord.File(io.BytesIO(p.data), p.filename, description=p.description)
        for p in screen.pictures
    ]
    for picture in screen.pictures:
        container.add_item(
            ui.MediaGallery(
                discord.MediaGalleryItem(
                    f"attachment://{picture.filename}", description=picture.description
                )
            )
        )
    for row in screen.rows:
        action_row: ui.ActionRow[Any] = ui.ActionRow()
        for button in row:
            look = Look(button.label, STYLES[button.style], button.disabled)
            action_row.add_item(controls.button(button.action, button.arg, look))
        container.add_item(action_row)
    if screen.choices:
        assert controls.select is not None, "choices on a screen with no select"
        options = [discord.SelectOption(label=c.label, value=c.arg) for c in screen.choices]
        select_row: ui.ActionRow[Any] = ui.ActionRow()
        select_row.add_item(controls.select(options, screen.choices_placeholder))
        container.add_item(select_row)
    view.add_item(container)
    return view, files


def custom_id_on(message: discord.Message | None, custom_id: str) -> bool:
    """Whether ``custom_id`` is really on ``message`` (a click names one that is not: forged)."""
    if message is None:
        return False

    def walk(components: list[Any]) -> bool:
        for component in components:
            if getattr(component, "custom_id", None) == custom_id:
                return True
            for attr in ("children", "components"):
                if walk(list(getattr(component, attr, None) or [])):
                    return True
            accessory = getattr(component, "accessory", None)
            if accessory is not None and walk([accessory]):
                return True
        return False

    return walk(list(message.components))
