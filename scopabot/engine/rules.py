"""The rules a table is created with: the preset (game kind) and every named option.

Options are typed (``StrEnum``) rather than loose strings so that a typo in a host's settings
fails when the table is created, not in the middle of a deal. ``Rules.to_dict`` / ``from_dict``
round-trip so the store and the bot can keep them as JSON.

>>> r = Rules(preset=Preset.SCOPONE_SCIENTIFICO)
>>> (r.players, r.hand_size, r.felt_size, r.sides, r.target)
(4, 10, 0, 2, 11)
>>> Rules.from_dict(r.to_dict()) == r
True
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any, TypeVar

E = TypeVar("E", bound=StrEnum)


class Preset(StrEnum):
    SCOPA = "scopa"
    SCOPONE_SCIENTIFICO = "scopone_scientifico"
    SCOPONE_CLASSICO = "scopone_classico"


class PrimieraRule(StrEnum):
    CLASSIC = "classic"
    SEVENS = "sevens"


class Tiebreak(StrEnum):
    EXTRA_DEAL = "extra_deal"
    KO = "ko"


class FirstDealer(StrEnum):
    RANDOM = "random"
    DRAW = "draw"


class RulesProblem(StrEnum):
    """Which rule of the options a refused combination breaks (see :class:`RulesError`)."""

    PLAYERS = "players"  # scopa is 2, 3 or 4 players
    PAIRS = "pairs"  # scopone is 4 players in two pairs
    DEALS = "deals"  # deals out of 1..MAX_DEALS
    TARGET = "target"  # target out of 1..MAX_TARGET
    NO_END = "no_end"  # neither a target nor a number of deals
    UNKNOWN_OPTION = "unknown_option"
    BAD_CHOICE = "bad_choice"  # a value that is not one of an option's choices


class RulesError(ValueError):
    """A combination of options that no table can be played with.

    The message is English, for logs and the terminal; ``code`` names the broken rule,
    ``option`` the option at fault and ``value`` what was given, so a front end writes the
    refusal in its reader's language without reading the message."""

    def __init__(
        self, message: str, *, code: RulesProblem, option: str = "", value: object = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.option = option
        self.value = value


TARGET_CHOICES = (11, 16, 21, 31)
"""The targets offered first; any value in 1..101 is accepted."""

MAX_TARGET = 101
MAX_DEALS = 100
KO_SPAREGGI = 3


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything a host chooses when creating a table.

    ``target`` and ``deals`` are the two ways a match ends; exactly one is used: giving
    ``deals`` switches the match to a fixed number of deals and ``target`` is then ``None``.
    """

    preset: Preset = Preset.SCOPA
    players: int = 0
    asso_piglia_tutto: bool = False
    napola: bool = False
    re_bello: bool = False
    primiera: PrimieraRule = PrimieraRule.CLASSIC
    target: int | None = 11
    deals: int | None = None
    tiebreak: Tiebreak = Tiebreak.EXTRA_DEAL
    three_kings_redeal: bool = True
    first_dealer: FirstDealer = FirstDealer.RANDOM

    def __post_init__(self) -> None:
        # Normalise enum-typed fields given as plain strings (e.g. from JSON or a CLI flag).
        object.__setattr__(self, "preset", _enum(Preset, self.preset, "preset"))
        object.__setattr__(self, "primiera", _enum(PrimieraRule, self.primiera, "primiera"))
        object.__setattr__(self, "tiebreak", _enum(Tiebreak, self.tiebreak, "tiebreak"))
        object.__setattr__(
            self, "first_dealer", _enum(FirstDealer, self.first_dealer, "first_dealer")
        )
        if self.players == 0:
            object.__setattr__(self, "players", 2 if self.preset is Preset.SCOPA else 4)
        if self.preset is Preset.SCOPA:
            if self.players not in (2, 3, 4):
                raise RulesError(
                    f"scopa is played by 2, 3 or 4 players, not {self.players}",
                    code=RulesProblem.PLAYERS,
                    option="players",
                    value=self.players,
                )
        elif self.players != 4:
            raise RulesError(
                f"{self.preset} is played by 4 players in two pairs",
                code=RulesProblem.PAIRS,
                option="players",
                value=self.players,
            )
        if self.deals is not None:
            if not 1 <= self.deals <= MAX_DEALS:
                raise RulesError(
                    f"the number of deals must be 1..{MAX_DEALS}, not {self.deals}",
                    code=RulesProblem.DEALS,
                    option="deals",
                    value=self.deals,
                )
            object.__setattr__(self, "target", None)
        elif self.target is None:
            raise RulesError(
                "a match needs a target score or a number of deals", code=RulesProblem.NO_END
            )
        elif not 1 <= self.target <= MAX_TARGET:
            raise RulesError(
                f"the target must be 1..{MAX_TARGET}, not {self.target}",
                code=RulesProblem.TARGET,
                option="target",
                value=self.target,
            )

    @property
    def sides(self) -> int:
        """Sides that score: each player alone, or two pairs with four players."""
        return 2 if self.players == 4 else self.players

    def side_of(self, seat: int) -> int:
        """Partners sit opposite, so with four players seats 0 and 2 are side 0."""
        return seat % 2 if self.players == 4 else seat

    def seats_of(self, side: int) -> tuple[int, ...]:
        return tuple(s for s in range(self.players) if self.side_of(s) == side)

    @property
    def hand_size(self) -> int:
        return {Preset.SCOPA: 3, Preset.SCOPONE_SCIENTIFICO: 10, Preset.SCOPONE_CLASSICO: 9}[
            self.preset
        ]

    @property
    def felt_size(self) -> int:
        """Face-up cards at the start of a deal."""
        return 0 if self.preset is Preset.SCOPONE_SCIENTIFICO else 4

    @property
    def redeals(self) -> bool:
        """Whether hands are refilled from the deck (only scopa)."""
        return self.preset is Preset.SCOPA

    def replace(self, **changes: Any) -> Rules:
        if "deals" in changes and changes["deals"] is None and "target" not in changes:
            changes["target"] = 11
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        # Field by field rather than dataclasses.asdict (a deep copy, several times slower):
        # every stored move writes the rules into the game's snapshot.
        data: dict[str, Any] = {}
        for name in _FIELDS:
            value = getattr(self, name)
            data[name] = value.value if isinstance(value, StrEnum) else value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        known = {f for f in cls.__dataclass_fields__}
        unknown = set(data) - known
        if unknown:
            names = ", ".join(sorted(unknown))
            raise RulesError(
                f"unknown option(s): {names}",
                code=RulesProblem.UNKNOWN_OPTION,
                option=min(unknown),
                value=names,
            )
        return cls(**data)


def _enum(kind: type[E], value: object, name: str) -> E:
    if isinstance(value, kind):
        return value
    try:
        return kind(str(value).strip().lower())
    except ValueError:
        choices = ", ".join(m.value for m in kind)
        raise RulesError(
            f"{name} must be one of {choices}, not {value!r}",
            code=RulesProblem.BAD_CHOICE,
            option=name,
            value=value,
        ) from None


_FIELDS = tuple(f.name for f in fields(Rules))
