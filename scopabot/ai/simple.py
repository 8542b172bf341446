"""The two simplest levels: ``random`` (for tests) and ``greedy``.

``greedy`` looks one play ahead only: it takes the capture worth most (cards weighted as in
:mod:`.features`, a scopa worth a point) and, among what is left, avoids leaving a table of 10
or less that the next player could sweep, and above all the settebello: a point handed to
whoever holds a 7 costs more than the chance of a scopa.
"""

from __future__ import annotations

import random

from scopabot.engine import SETTEBELLO, GameView, Move, Rules

from .base import Level, legal_or_raise, view_key
from .features import SCOPA_WEIGHT, card_weights

EASY_SCOPA_PENALTY = 0.7
SETTEBELLO_LEFT_PENALTY = 1.0
"""More than :data:`EASY_SCOPA_PENALTY`: any 7 takes the settebello, only the right card sweeps."""


def is_last_play(view: GameView) -> bool:
    """Whether the seat to play holds the very last card of the deal (never a scopa)."""
    return view.deck_size == 0 and sum(view.hand_sizes) == 1


def move_gain(move: Move, view: GameView, weights: tuple[float, ...]) -> float:
    """What the move takes, in points: its cards, and the scopa if it sweeps the table."""
    if not move.capture:
        return -0.5 * weights[move.card.index]
    gain = weights[move.card.index] + sum(weights[c.index] for c in move.capture)
    if len(move.capture) == len(view.felt) and not is_last_play(view):
        apt_sweep = view.rules.asso_piglia_tutto and move.card.value == 1
        if not (apt_sweep and all(c.value != 1 for c in move.capture)):
            gain += SCOPA_WEIGHT
    return gain


def felt_after(move: Move, view: GameView) -> list[int]:
    """The values left on the felt after ``move``."""
    if move.capture:
        return [c.value for c in view.felt if c not in move.capture]
    return [c.value for c in view.felt] + [move.card.value]


def leaves_settebello(move: Move, view: GameView) -> bool:
    """Whether the settebello is on the felt after ``move``."""
    on_felt = any(c.index == SETTEBELLO for c in view.felt)
    if move.capture:
        return on_felt and all(c.index != SETTEBELLO for c in move.capture)
    return on_felt or move.card.index == SETTEBELLO


class RandomPlayer:
    """Plays a uniformly random legal move (seeded by its seed and what it sees)."""

    level = Level.RANDOM

    def __init__(self, *, seed: int) -> None:
        self.seed = seed

    def choose(self, view: GameView) -> Move:
        moves = legal_or_raise(view)
        rng = random.Random(self.seed * 1_000_003 + view_key(view))
        return moves[int(rng.random() * len(moves))]


class GreedyPlayer:
    """Takes the most valuable capture; otherwise lays the cheapest card that leaves neither the
    settebello nor an easy scopa (a table of 10 or less)."""

    level = Level.GREEDY

    def __init__(self, *, seed: int) -> None:
        self.seed = seed
        self._weights: dict[Rules, tuple[float, ...]] = {}

    def choose(self, view: GameView) -> Move:
        moves = legal_or_raise(view)
        weights = self._weights.get(view.rules)
        if weights is None:
            weights = self._weights[view.rules] = card_weights(view.rules)
        rng = random.Random(self.seed * 1_000_003 + view_key(view))
        best: list[Move] = []
        best_score = float("-inf")
        for move in moves:
            score = move_gain(move, view, weights)
            rest = felt_after(move, view)
            if rest and not is_last_play(view):
                if sum(rest) <= 10:
                    score -= EASY_SCOPA_PENALTY
                if leaves_settebello(move, view):
                    score -= SETTEBELLO_LEFT_PENALTY
            if score > best_score + 1e-9:
                best, best_score = [move], score
            elif score > best_score - 1e-9:
                best.append(move)
        return best[int(rng.random() * len(best))]
