"""The service's refusals: one exception type with a code a front end turns into a sentence.

Every refusal is raised before anything changes, so a front end can always answer "nothing
happened, because ..." in the person's language from ``code`` and ``params`` alone.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from scopabot.engine import Card, Move


class ErrorCode(StrEnum):
    UNKNOWN_GAME = "unknown_game"
    UNKNOWN_TABLE = "unknown_table"
    NOT_SEATED = "not_seated"
    NOT_YOUR_TURN = "not_your_turn"
    STALE_VERSION = "stale_version"
    # params: reason (engine IllegalReason), card, missing (cards named but not on the
    # table), options (the captures allowed), all in card notation ("7d")
    ILLEGAL_MOVE = "illegal_move"
    NOT_A_CARD = "not_a_card"  # params: text
    CHOOSE_CAPTURE = "choose_capture"
    TABLE_FULL = "table_full"
    SEAT_TAKEN = "seat_taken"
    ALREADY_SEATED = "already_seated"
    NOT_HOST = "not_host"
    TABLE_NOT_OPEN = "table_not_open"
    SEATS_EMPTY = "seats_empty"
    GAME_OVER = "game_over"
    GAME_STARTED = "game_started"  # abandon after the first move
    BAD_OPTION = "bad_option"  # params: problem (engine RulesProblem), option, value
    BAD_PACE = "bad_pace"  # params: message
    BAD_LEVEL = "bad_level"  # params: level
    BAD_SEAT = "bad_seat"  # params: seat
    BAD_SIDE = "bad_side"  # params: side
    SIDE_FULL = "side_full"  # params: side
    HOST_CANNOT_LEAVE = "host_cannot_leave"
    NOT_AWAY = "not_away"  # taking back a seat no computer holds
    TARGET_OR_DEALS = "target_or_deals"  # a match ends at a target or after deals, not both
    PACE_UNIT = "pace_unit"  # minutes with live, hours with correspondence
    REMATCH_PLAYERS_ONLY = "rematch_players_only"  # a rematch asked by someone who did not play


class ServiceError(Exception):
    """A refused request; nothing was changed. ``params`` fill the translated sentence."""

    def __init__(self, code: StrEnum, message: str = "", /, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(message or code.value)


class ChooseCapture(ServiceError):
    """The card can take different cards and the move named none: ask which, nothing changed."""

    def __init__(self, card: Card, choices: tuple[Move, ...]) -> None:
        self.card = card
        self.choices = choices
        super().__init__(
            ErrorCode.CHOOSE_CAPTURE,
            f"{card} can take " + " or ".join(str(m) for m in choices),
            card=str(card),
            choices=[str(m) for m in choices],
        )
