"""The ``normal`` level (in progress)."""

from __future__ import annotations

from .simple import GreedyPlayer


class NormalPlayer(GreedyPlayer):
    """Placeholder until the traditional strategy lands."""
