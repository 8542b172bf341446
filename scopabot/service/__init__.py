"""The game service: tables, seats, turns, deadlines and computer seats, for every front end.

Async, no Discord: the bot and the terminal call :class:`GameService` with plain values and
render the frozen values and events it returns. It stands on :mod:`scopabot.engine` (the
rules), :mod:`scopabot.ai` (computer players) and :mod:`scopabot.store` (everything kept).
Front ends import only this package and :mod:`scopabot.render`, so the engine's names they need
to read and write cards and options are re-exported here; the arena (:mod:`.arena`) and the
administrator's tools (:mod:`.admin`) are the service's too.
"""

from __future__ import annotations

from scopabot.ai import DEFAULT_LEVEL, Level
from scopabot.engine import (
    TARGET_CHOICES,
    Card,
    CardParseError,
    DealScore,
    FirstDealer,
    Game,
    GameView,
    IllegalMoveError,
    IllegalReason,
    InvalidMoveError,
    Move,
    Outcome,
    OutcomeReason,
    Play,
    PlayResult,
    Preset,
    PrimieraRule,
    Rules,
    RulesError,
    SideScore,
    Suit,
    Tiebreak,
    format_cards,
    parse_cards,
)
from scopabot.store import GLOBAL, ActorKind, GuildSettings, SeatHolder, TableStatus

from .clock import Clock, FakeClock, SystemClock
from .deal_ends import DealEnd
from .errors import ChooseCapture, ErrorCode, ServiceError
from .events import (
    Audience,
    AudienceKind,
    CardPlayed,
    DealScored,
    Event,
    HandChanged,
    Handler,
    MatchOver,
    MoveOutcome,
    ReminderDue,
    SeatTakenBack,
    TableCancelled,
    TableChanged,
    TableOpened,
    TableStarted,
    TimeoutAction,
    TimeoutApplied,
    TurnStarted,
)
from .games import NoteKind, TableNote
from .options import RuleChoices, chosen_options, pace_of, updated_settings
from .players import Player, make_player
from .service import DEFAULT_COMPUTER_PAUSE, GameService
from .thinking import InlineThinker, PoolThinker, Thinker
from .views import (
    HAND_OVER_AFTER,
    MyGame,
    Pace,
    PaceKind,
    PublicView,
    Rematch,
    SeatView,
    TableInfo,
    TimeoutRule,
)

__all__ = [
    "DEFAULT_COMPUTER_PAUSE",
    "DEFAULT_LEVEL",
    "GLOBAL",
    "HAND_OVER_AFTER",
    "TARGET_CHOICES",
    "ActorKind",
    "Audience",
    "AudienceKind",
    "Card",
    "CardParseError",
    "CardPlayed",
    "ChooseCapture",
    "Clock",
    "DealEnd",
    "DealScore",
    "DealScored",
    "ErrorCode",
    "Event",
    "FakeClock",
    "FirstDealer",
    "Game",
    "GameService",
    "GameView",
    "GuildSettings",
    "HandChanged",
    "Handler",
    "IllegalMoveError",
    "IllegalReason",
    "InlineThinker",
    "InvalidMoveError",
    "Level",
    "MatchOver",
    "Move",
    "MoveOutcome",
    "MyGame",
    "NoteKind",
    "Outcome",
    "OutcomeReason",
    "Pace",
    "PaceKind",
    "Play",
    "PlayResult",
    "Player",
    "PoolThinker",
    "Preset",
    "PrimieraRule",
    "PublicView",
    "Rematch",
    "ReminderDue",
    "RuleChoices",
    "Rules",
    "RulesError",
    "SeatHolder",
    "SeatTakenBack",
    "SeatView",
    "ServiceError",
    "SideScore",
    "Suit",
    "SystemClock",
    "TableCancelled",
    "TableChanged",
    "TableInfo",
    "TableNote",
    "TableOpened",
    "TableStarted",
    "TableStatus",
    "Thinker",
    "Tiebreak",
    "TimeoutAction",
    "TimeoutApplied",
    "TimeoutRule",
    "TurnStarted",
    "chosen_options",
    "format_cards",
    "make_player",
    "pace_of",
    "parse_cards",
    "updated_settings",
]
