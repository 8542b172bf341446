"""Commands beyond playing: server settings, leaderboards and stats, the score keeper."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .client import ScopaBot


def add(bot: ScopaBot) -> None:
    """Add the optional commands to the tree (each module adds its own)."""
