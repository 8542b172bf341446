"""Computer players for Scopa and Scopone; they see only what their seat may see.

Levels, weakest first: ``random`` (tests), ``greedy`` (one play ahead), ``normal`` (the
traditional strategy, with the scopone signal), ``hard`` and ``expert`` (search over the hidden
cards). Build one with :func:`make_player` and ask it ``choose(view)``.
"""

from __future__ import annotations

from .base import DEFAULT_LEVEL, Level, NotYourTurnError, Player
from .factory import PlayerSpec, make_player, parse_level

__all__ = [
    "DEFAULT_LEVEL",
    "Level",
    "NotYourTurnError",
    "Player",
    "PlayerSpec",
    "make_player",
    "parse_level",
]
