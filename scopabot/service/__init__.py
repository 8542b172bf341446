"""The application between the front ends and the rest: engine, computer players and store.

The front ends (``bot``, ``cli``) import this package and :mod:`scopabot.render` only. For
now it holds the arena (:mod:`.arena`), the administrator's tools (:mod:`.admin`), computer
players for the terminal's own match loop (:mod:`.players`) and the engine's names a front
end speaks in (:mod:`.words`), re-exported here.
"""

from __future__ import annotations

from .players import DEFAULT_LEVEL, Level, Player, make_player
from .words import (
    Card,
    CardParseError,
    FirstDealer,
    Game,
    GameView,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Play,
    PlayResult,
    Preset,
    PrimieraRule,
    Rules,
    RulesError,
    Tiebreak,
)

__all__ = [
    "DEFAULT_LEVEL",
    "Card",
    "CardParseError",
    "FirstDealer",
    "Game",
    "GameView",
    "IllegalMoveError",
    "InvalidMoveError",
    "Level",
    "Move",
    "Play",
    "PlayResult",
    "Player",
    "Preset",
    "PrimieraRule",
    "Rules",
    "RulesError",
    "Tiebreak",
    "make_player",
]
