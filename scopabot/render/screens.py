"""What a message shows, as plain values: blocks of text and rows of buttons.

Render decides what is said and which buttons exist; the bot turns a ``Screen`` into
Discord's layout components and gives each button its custom_id (the game, the version the
person saw, the action and its argument). Keeping Discord out of here lets the same screens be
checked in plain tests and later reused by other front ends.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Style(StrEnum):
    PRIMARY = "primary"
    SECONDARY = "secondary"
    SUCCESS = "success"
    DANGER = "danger"


class Action(StrEnum):
    """What a button does; one letter, since it travels in a 100-character custom_id."""

    PLAY = "p"  # arg: a card, "7d"
    CAPTURE = "c"  # arg: a whole move, "7d:3c+4s"
    HAND = "h"  # show my hand (ephemeral)
    REMATCH = "r"
    JOIN = "j"  # arg: side ("" for any)
    LEAVE = "l"
    ADD_COMPUTER = "a"
    START = "s"
    CANCEL = "x"
    PAGE = "n"  # arg: page number (leaderboards)
    SCORE = "k"  # arg: "side.points" on a score sheet
    UNDO = "u"
    END = "e"
    TAKE_BACK = "b"  # take my seat back from the computer that holds it


@dataclass(frozen=True, slots=True)
class Button:
    label: str
    action: Action
    arg: str = ""
    style: Style = Style.SECONDARY
    disabled: bool = False


@dataclass(frozen=True, slots=True)
class Choice:
    """An option of a select menu, used when buttons do not fit."""

    label: str
    action: Action
    arg: str


@dataclass(frozen=True, slots=True)
class Picture:
    """A picture to attach, with its alt text (read aloud by screen readers).

    ``filename`` travels to every reader with the picture, so it never names a card
    ("hand.png", "table-12-34.png")."""

    filename: str
    data: bytes
    description: str


@dataclass(frozen=True, slots=True)
class Screen:
    """One message: text blocks (markdown), pictures, button rows and an optional select."""

    blocks: tuple[str, ...]
    rows: tuple[tuple[Button, ...], ...] = ()
    choices: tuple[Choice, ...] = ()
    choices_placeholder: str = ""
    pictures: tuple[Picture, ...] = ()
    accent: int | None = None
    extra: dict[str, str] = field(default_factory=dict)

    def text(self) -> str:
        return "\n".join(self.blocks)


def rows_of(buttons: list[Button], width: int = 5) -> tuple[tuple[Button, ...], ...]:
    """Buttons laid out five to a row, as Discord allows."""
    return tuple(tuple(buttons[i : i + width]) for i in range(0, len(buttons), width))


GREEN, BLUE, GREY, RED, GOLD = 0x2E7D32, 0x1565C0, 0x607D8B, 0xC62828, 0xF9A825
