"""What a host or a manager asked for, checked once for every front end: the table's pace,
how a match ends, a server's default options.

The bot and the terminal pass the choices as given (``None`` for one not made); the answers
and refusals here are the same whatever asked, each a :class:`ServiceError` with its data.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from scopabot.engine import Preset, Rules, RulesError, RulesProblem
from scopabot.store import GuildSettings

from .errors import ErrorCode, ServiceError
from .views import Pace, PaceKind

LIVE_MINUTES = 2  # a live turn, when the host names no length
CORRESPONDENCE_HOURS = 24  # a correspondence turn, when the host names no length


def pace_of(kind: str | PaceKind, *, minutes: int | None = None, hours: int | None = None) -> Pace:
    """The pace a host chose: live counts minutes a turn, correspondence hours; the length
    not given is the default (2 minutes, 24 hours). PACE_UNIT when the unit does not fit the
    kind, BAD_PACE for a length out of its range or a kind that is neither."""
    try:
        chosen = PaceKind(str(kind))
    except ValueError:
        raise ServiceError(ErrorCode.BAD_PACE, f"no pace {kind!r}", pace=str(kind)) from None
    if (chosen is PaceKind.LIVE and hours is not None) or (
        chosen is PaceKind.CORRESPONDENCE and minutes is not None
    ):
        raise ServiceError(ErrorCode.PACE_UNIT, "minutes with live, hours with correspondence")
    if chosen is PaceKind.LIVE:
        return Pace.live((minutes or LIVE_MINUTES) * 60)
    if chosen is PaceKind.CORRESPONDENCE:
        return Pace.correspondence(hours or CORRESPONDENCE_HOURS)
    if minutes is not None or hours is not None:
        raise ServiceError(ErrorCode.PACE_UNIT, "an untimed table has no length of turn")
    return Pace.untimed()


@dataclass(frozen=True, slots=True)
class RuleChoices:
    """The rule options a person chose for a table or as a server's defaults, as a command
    takes them (``None``: a choice not made). The service decides what they mean: the rest
    from the server's defaults, then the rule book; a target or a number of deals, not both."""

    target: int | None = None
    deals: int | None = None
    asso_piglia_tutto: bool | None = None
    napola: bool | None = None
    re_bello: bool | None = None
    primiera: str | None = None
    tiebreak: str | None = None

    @property
    def any_made(self) -> bool:
        return any(getattr(self, f.name) is not None for f in fields(self))

    def as_options(self) -> dict[str, Any]:
        """As a rule-options mapping (the choices not made left out, unchecked)."""
        found = {f.name: getattr(self, f.name) for f in fields(self)}
        return {name: value for name, value in found.items() if value is not None}


Options = Mapping[str, Any] | RuleChoices


def chosen_options(options: Options) -> dict[str, Any]:
    """The rule options actually chosen (``None`` is a choice not made); TARGET_OR_DEALS when
    both a target and a number of deals are: a match ends one way."""
    if isinstance(options, RuleChoices):
        options = options.as_options()
    chosen = {name: value for name, value in options.items() if value is not None}
    if "target" in chosen and "deals" in chosen:
        raise ServiceError(ErrorCode.TARGET_OR_DEALS, "a target or a number of deals, not both")
    return chosen


def updated_settings(
    current: GuildSettings,
    *,
    language: str | None,
    channel: int | None,
    options: Options,
    reset: bool,
) -> GuildSettings:
    """A server's settings after a manager's choices: a target replaces a number of deals and
    back; options no table could use are refused (BAD_OPTION, TARGET_OR_DEALS)."""
    chosen = chosen_options(options)
    rules = {} if reset else dict(current.default_rules)
    if "target" in chosen:
        rules.pop("deals", None)
    if "deals" in chosen:
        rules.pop("target", None)
    rules.update(chosen)
    if rules:
        try:
            Rules.from_dict(rules)
        except RulesError as exc:
            raise bad_option(exc) from None
    return GuildSettings(
        guild_id=current.guild_id,
        language=language or current.language,
        default_rules=rules,
        game_channel_id=channel if channel else (None if reset else current.game_channel_id),
    )


def bad_option(exc: RulesError) -> ServiceError:
    return ServiceError(
        ErrorCode.BAD_OPTION,
        str(exc),
        problem=exc.code.value,
        option=exc.option,
        value="" if exc.value is None else str(exc.value),
    )


DEFAULTABLE = frozenset(Rules.__dataclass_fields__) - {"preset", "players"}
"""The options a server's defaults may set; the preset and the number of players are the
host's."""


def table_rules(
    preset: str,
    players: int | None,
    options: Mapping[str, Any],
    defaults: Mapping[str, Any] | None = None,
) -> Rules:
    """The rules of a table (an ordinary one or a tournament's matches): the server's default
    options, then the host's chosen ones (``chosen_options``; a target given drops a default
    number of deals, and the other way round). BAD_OPTION for what no table can use."""
    data: dict[str, Any] = {k: v for k, v in (defaults or {}).items() if k in DEFAULTABLE}
    data.update(options)
    if options.get("deals") is not None and "target" not in options:
        data.pop("target", None)
    if options.get("target") is not None and "deals" not in options:
        data.pop("deals", None)
    data["preset"] = preset
    data["players"] = players or (2 if str(preset) == Preset.SCOPA.value else 4)
    try:
        return Rules.from_dict(data)
    except RulesError as exc:
        raise bad_option(exc) from None
    except (TypeError, ValueError) as exc:  # a value of the wrong type (stored defaults)
        raise ServiceError(
            ErrorCode.BAD_OPTION, str(exc), problem=RulesProblem.BAD_CHOICE.value
        ) from None
