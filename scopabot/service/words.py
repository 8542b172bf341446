"""The engine's names a front end speaks in: cards, moves, rules and their parse errors.

A front end reaches the game through the service only (docs/design.md, the layers), yet it must
still name what a person types and reads: a card, a move, a preset, the reason a move is
refused. These are the engine's own types, passed through unchanged, so that a front end never
imports the engine and no type exists twice.
"""

from __future__ import annotations

from scopabot.engine import (
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
    "Card",
    "CardParseError",
    "FirstDealer",
    "Game",
    "GameView",
    "IllegalMoveError",
    "InvalidMoveError",
    "Move",
    "Play",
    "PlayResult",
    "Preset",
    "PrimieraRule",
    "Rules",
    "RulesError",
    "Tiebreak",
]
