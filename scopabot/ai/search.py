"""Search levels ``hard`` and ``expert`` (in progress)."""

from __future__ import annotations

from scopabot.engine import GameView, Move

from .base import Level


class SearchPlayer:
    """Placeholder until the search lands."""

    def __init__(self, level: Level, *, seed: int) -> None:
        self.level = level
        self.seed = seed

    @classmethod
    def for_level(
        cls,
        level: Level,
        *,
        seed: int,
        iterations: int | None = None,
        time_budget: float | None = None,
    ) -> SearchPlayer:
        return cls(level, seed=seed)

    def choose(self, view: GameView) -> Move:
        raise NotImplementedError("hard and expert are not written yet")
