"""Building a computer player: a level's name, optionally with budgets, into a player.

Each level is built from a seed (and, for the search levels, an iteration and a time budget),
and the same seed with the same budget gives the same move. This module imports every player;
the players import only :mod:`.base`, so the imports run one way.

>>> from scopabot.engine import Game, Rules
>>> game = Game.new(Rules(), seed=3)
>>> player = make_player(Level.GREEDY, seed=1)
>>> player.choose(game.view_for(game.turn)) in game.legal_moves()
True
>>> str(PlayerSpec.parse("Expert: iterations=800, time=1.5"))
'expert:iterations=800,time=1.5'
"""

from __future__ import annotations

from dataclasses import dataclass

from .base import Level, Player
from .heuristic import NormalPlayer
from .search import SearchPlayer
from .simple import GreedyPlayer, RandomPlayer


def parse_level(text: str) -> Level:
    """A level as a person writes it (any case, spaces around)."""
    return Level(text.strip().lower())


def make_player(
    level: Level | str,
    *,
    seed: int,
    iterations: int | None = None,
    time_budget: float | None = None,
    infer: bool = True,
    informed: bool | None = None,
    cpu_clock: bool = False,
    enough: float | None = None,
) -> Player:
    """A computer player of ``level``; the budgets (and ``infer``, reading the other seats'
    plays as evidence of their cards) only matter to ``hard`` and ``expert``."""
    level = parse_level(str(level))
    if level is Level.RANDOM:
        return RandomPlayer(seed=seed)
    if level is Level.GREEDY:
        return GreedyPlayer(seed=seed)
    if level is Level.NORMAL:
        return NormalPlayer(seed=seed)
    return SearchPlayer.for_level(
        level,
        seed=seed,
        iterations=iterations,
        time_budget=time_budget,
        infer=infer,
        informed=informed,
        cpu_clock=cpu_clock,
        enough=enough,
    )


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    """A level with optional budgets, written ``hard`` or ``hard:iterations=80,time=0.3``."""

    level: Level
    iterations: int | None = None
    time_budget: float | None = None
    infer: bool = True
    informed: bool | None = None
    cpu_clock: bool = False
    enough: float | None = None

    @classmethod
    def parse(cls, text: str) -> PlayerSpec:
        name, _, opts = text.partition(":")
        level = parse_level(name)
        iterations: int | None = None
        time_budget: float | None = None
        infer = True
        informed: bool | None = None
        cpu_clock = False
        enough: float | None = None
        for part in filter(None, (p.strip() for p in opts.split(","))):
            key, sep, value = part.partition("=")
            if not sep:
                raise ValueError(f"{part!r}: write options as key=value")
            if key in ("iterations", "it", "i"):
                iterations = int(value)
                if iterations < 1:
                    raise ValueError("iterations must be 1 or more")
            elif key in ("time", "t"):
                time_budget = float(value)
                if not time_budget > 0:
                    raise ValueError("time must be more than 0 seconds")
            elif key == "infer":
                infer = value.lower() not in ("0", "no", "false", "off")
            elif key == "playout":
                if value not in ("greedy", "informed"):
                    raise ValueError("playout is greedy or informed")
                informed = value == "informed"
            elif key == "clock":
                if value not in ("wall", "cpu"):
                    raise ValueError("clock is wall or cpu")
                cpu_clock = value == "cpu"
            elif key == "enough":
                enough = float(value)
                if not enough >= 0:
                    raise ValueError("enough is 0 (search to the budget) or more points")
            else:
                raise ValueError(
                    f"unknown player option {key!r}"
                    " (iterations, time, infer, playout, clock, enough)"
                )
        return cls(level, iterations, time_budget, infer, informed, cpu_clock, enough)

    def __str__(self) -> str:
        opts = []
        if self.iterations is not None:
            opts.append(f"iterations={self.iterations}")
        if self.time_budget is not None:
            opts.append(f"time={self.time_budget:g}")
        if not self.infer:
            opts.append("infer=no")
        if self.informed is not None:
            opts.append(f"playout={'informed' if self.informed else 'greedy'}")
        if self.cpu_clock:
            opts.append("clock=cpu")
        if self.enough is not None:
            opts.append(f"enough={self.enough:g}")
        return f"{self.level}:{','.join(opts)}" if opts else str(self.level)

    def make(self, seed: int) -> Player:
        return make_player(
            self.level,
            seed=seed,
            iterations=self.iterations,
            time_budget=self.time_budget,
            infer=self.infer,
            informed=self.informed,
            cpu_clock=self.cpu_clock,
            enough=self.enough,
        )
