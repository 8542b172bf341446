"""What every computer player is: something that picks a move from a seat's view.

A player never receives the game itself, only :class:`~scopabot.engine.GameView`, so it cannot
look at hidden cards even by mistake. The players' modules import this one; the factory that
builds them (:mod:`.factory`) imports them, so nothing here may import a player.
"""

from __future__ import annotations

import zlib
from enum import StrEnum
from typing import Protocol, runtime_checkable

from scopabot.engine import GameView, Move


class Level(StrEnum):
    """The computer players' levels, weakest first; ``normal`` is the default."""

    RANDOM = "random"
    GREEDY = "greedy"
    NORMAL = "normal"
    HARD = "hard"
    EXPERT = "expert"


DEFAULT_LEVEL = Level.NORMAL


@runtime_checkable
class Player(Protocol):
    """A computer player: it chooses a legal move for the seat whose view it is given."""

    @property
    def level(self) -> Level: ...

    def choose(self, view: GameView) -> Move: ...


class NotYourTurnError(ValueError):
    """A player was asked to move from a view where its seat has no legal move."""


def legal_or_raise(view: GameView) -> tuple[Move, ...]:
    moves = view.legal_moves()
    if not moves:
        raise NotYourTurnError(f"seat {view.seat} has no move to make (turn: seat {view.turn})")
    return moves


def view_key(view: GameView) -> int:
    """A stable number for everything public in a view, used to seed a decision.

    Deriving a move's randomness from the seed and what the seat sees (rather than from a
    generator advanced call after call) makes a choice reproducible on its own: the same seat
    in the same situation with the same seed always plays the same card.
    """
    parts = [
        str(view.seat),
        str(view.deal_number),
        " ".join(str(c) for c in view.hand),
        " ".join(str(c) for c in view.felt),
        " ".join(f"{p.seat}{p.move}" for p in view.plays),
        str(view.hand_sizes),
        str(view.deck_size),
    ]
    return zlib.crc32("|".join(parts).encode())
