"""Computer players for a front end that runs its own match loop.

The terminal play drives a whole match itself until it runs on the game service; it seats
computer players through here rather than importing :mod:`scopabot.ai`, and a front end that
offers a choice of level names the levels from here too.
"""

from __future__ import annotations

from scopabot.ai import DEFAULT_LEVEL, Level, Player, make_player

__all__ = ["DEFAULT_LEVEL", "Level", "Player", "make_player"]
