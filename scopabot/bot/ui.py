"""Render's screens as Discord components (Components V2), and the persistent buttons.

Every button and select is a ``DynamicItem`` whose custom_id carries its target (see
``ids``): registered once in ``setup_hook``, it answers clicks on any message ever sent,
also after a restart, with no view kept in memory per message.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import ui

from scopabot.render.screens import Action, Screen, Style

from . import ids
from .ids import Target

if TYPE_CHECKING:
    from .client import ScopaBot

STYLES = {
    Style.PRIMARY: discord.ButtonStyle.primary,
    Style.SECONDARY: discord.ButtonStyle.secondary,
    Style.SUCCESS: discord.ButtonStyle.success,
    Style.DANGER: discord.ButtonStyle.danger,
}
TEXT_MAX = 4000


class ScopaButton(ui.DynamicItem[ui.Button[Any]], template=ids.PATTERN):
    def __init__(
        self,
        target: Target,
        *,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            ui.Button(label=label, style=style, disabled=disabled, custom_id=target.custom_id())
        )
        self.target = target

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> ScopaButton:
        button = item if isinstance(item, ui.Button) else None
        return cls(
            ids.from_match(match),
            label=(button.label if button else None) or "?",
            style=button.style if button else discord.ButtonStyle.secondary,
        )

    # discord.py declares the callback generic over the client; it always passes the client
    # that runs it, this bot, which mypy cannot know: hence the override's ignore.
    async def interaction_check(self, interaction: discord.Interaction[ScopaBot], /) -> bool:  # type: ignore[override]
        return not interaction.client.ignoring(interaction)

    async def callback(self, interaction: discord.Interaction[ScopaBot]) -> None:  # type: ignore[override]
        await interaction.client.actions.on_component(interaction, self.target, None)


class ScopaSelect(ui.DynamicItem[ui.Select[Any]], template=ids.SELECT_PATTERN):
    def __init__(
        self, target: Target, *, options: list[discord.SelectOption], placeholder: str = ""
    ) -> None:
        super().__init__(
            ui.Select(
                custom_id=target.custom_id(select=True),
                options=options,
                placeholder=placeholder or None,
            )
        )
        self.target = target

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> ScopaSelect:
        options = list(item.options) if isinstance(item, ui.Select) else []
        return cls(ids.from_match(match), options=options)

    # discord.py declares the callback generic over the client; it always passes the client
    # that runs it, this bot, which mypy cannot know: hence the override's ignore.
    async def interaction_check(self, interaction: discord.Interaction[ScopaBot], /) -> bool:  # type: ignore[override]
        return not interaction.client.ignoring(interaction)

    async def callback(self, interaction: discord.Interaction[ScopaBot]) -> None:  # type: ignore[override]
        values = self.item.values
        await interaction.client.actions.on_component(
            interaction, self.target, values[0] if values else None
        )


Targeter = Callable[[Action, str], Target]


def build(screen: Screen, target: Targeter) -> tuple[ui.LayoutView, list[discord.File]]:
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
            action_row.add_item(
                ScopaButton(
                    target(button.action, button.arg),
                    label=button.label,
                    style=STYLES[button.style],
                    disabled=button.disabled,
                )
            )
        container.add_item(action_row)
    if screen.choices:
        first = screen.choices[0]
        options = [discord.SelectOption(label=c.label, value=c.arg) for c in screen.choices]
        select_row: ui.ActionRow[Any] = ui.ActionRow()
        select_row.add_item(
            ScopaSelect(
                target(first.action, ""), options=options, placeholder=screen.choices_placeholder
            )
        )
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
