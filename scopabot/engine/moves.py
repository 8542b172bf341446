"""A move: the card played and the felt cards it takes, written ``9c:1d+3s+5b``.

The capture is part of the move because the player chooses it: with 1, 3, 4 and 5 on the felt
a cavallo may take 1+3+5 or 4+5, and a front end offers both.

>>> m = Move.parse("9c:5b+1d+3s")
>>> str(m)
'9c:1d+3s+5b'
>>> Move.parse(str(m)) == m
True
>>> str(Move.parse("7d"))
'7d'

The hot paths (the game's own loop and the computer players' search) work on an
:data:`IndexMove` instead, the same move on card indices; :func:`index_move_of` and :func:`move_of`
convert between the two:

>>> index_move_of(Move.parse("9c:5b+1d"))
(18, (0, 34))
>>> str(move_of((18, (0, 34))))
'9c:1d+5b'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .cards import CARDS, Card, CardParseError, format_cards, parse_cards

IndexMove = tuple[int, tuple[int, ...]]
"""A move on card indices: (played card, captured cards), the captures in felt order (by
value, then suit). It is what :meth:`Game.legal_actions <scopabot.engine.Game.legal_actions>`
and :meth:`Deal.actions <scopabot.engine.Deal.actions>` list and what search plays."""


class InvalidMoveError(ValueError):
    """The text is not a move (bad notation), as opposed to a move the rules forbid."""


class IllegalReason(StrEnum):
    """Why the rules refuse a move; front ends translate these into sentences."""

    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    NOT_IN_HAND = "not_in_hand"
    MUST_CAPTURE = "must_capture"
    MUST_TAKE_SAME_VALUE = "must_take_same_value"
    NOT_ON_FELT = "not_on_table"
    WRONG_SUM = "wrong_sum"


class IllegalMoveError(ValueError):
    """A well-formed move that the rules do not allow here; ``reason`` says which rule.

    The message is English for logs and the terminal; a front end writes its own sentence
    from the data: ``card`` played, ``missing`` (the named captures not on the felt) and
    ``options`` (the captures the card may make instead; none when it can only be laid)."""

    def __init__(
        self,
        reason: IllegalReason,
        message: str,
        *,
        card: Card | None = None,
        missing: tuple[Card, ...] = (),
        options: tuple[tuple[Card, ...], ...] = (),
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.card = card
        self.missing = missing
        self.options = options


class AmbiguousMoveError(ValueError):
    """The card was named without a capture and it can take different cards here: the
    ``choices`` are the legal moves it could mean (python-chess's ``AmbiguousMoveError``)."""

    def __init__(self, card: Card, choices: tuple[Move, ...]) -> None:
        super().__init__(f"{card} can take " + " or ".join(str(m) for m in choices))
        self.card = card
        self.choices = choices


def named_move(played: str | Card | Move, capture: str | None = None) -> Move | Card:
    """What a person named, read once: a whole :class:`Move`, or a :class:`Card` alone when no
    capture was named (the position decides what it takes). ``played`` is a card in any
    notation (``7d``, ``sette di denari``) or a whole move (``7d:3c+4s``); ``capture`` the
    cards taken (``3c+4s``, ``3c 4s``) or the whole move again, of the same card. Raises
    :class:`InvalidMoveError` for anything else.

    >>> str(named_move("settebello", "3c+4s")), str(named_move("7d:4s+3c"))
    ('7d:3c+4s', '7d:3c+4s')
    >>> named_move("7d", "7d:3c+4s") == named_move(" 7D ", "3c, 4s")
    True
    >>> named_move("sette di denari")
    Card(value=7, suit=<Suit.DENARI: 'd'>)
    """
    if isinstance(played, Move | Card):
        named: Move | Card = played
    else:
        text = played.strip()
        if not text:
            raise InvalidMoveError("name the card you play, like 7d")
        try:
            named = Move.parse(text) if ":" in text else Card.parse(text)
        except CardParseError as exc:
            raise InvalidMoveError(str(exc)) from None
    taken = (capture or "").strip()
    if not taken:
        return named
    if isinstance(named, Move):
        raise InvalidMoveError(f"{str(named)!r} names its capture already")
    if ":" in taken:
        whole = Move.parse(taken)
        if whole.card != named:
            raise InvalidMoveError(f"{taken!r} is a move of the {whole.card}, not of the {named}")
        return whole
    return Move.parse(f"{named}:{taken}")


@dataclass(frozen=True, slots=True)
class Move:
    card: Card
    capture: frozenset[Card] = frozenset()

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read ``CARD`` or ``CARD:CAPTURED+CAPTURED``; Italian card names work too."""
        played, sep, taken = text.partition(":")
        if sep and not played.strip():
            raise InvalidMoveError("name the card you play before ':', like 9c:4b+5c")
        try:
            card = Card.parse(played)
            capture = frozenset(parse_cards(taken)) if sep else frozenset()
        except CardParseError as exc:
            raise InvalidMoveError(str(exc)) from None
        if sep and not capture:
            raise InvalidMoveError(f"{text!r}: name the captured cards after ':'")
        if card in capture:
            raise InvalidMoveError(f"{text!r}: a card cannot capture itself")
        return cls(card, capture)

    @property
    def is_capture(self) -> bool:
        return bool(self.capture)

    def sorted_capture(self) -> tuple[Card, ...]:
        return tuple(sorted(self.capture, key=Card.sort_key))

    def __str__(self) -> str:
        if not self.capture:
            return str(self.card)
        return f"{self.card}:{format_cards(self.capture)}"


def index_move_of(move: Move) -> IndexMove:
    """The move on card indices, its captures in felt order (as the game lists them)."""
    return (move.card.index, tuple(c.index for c in move.sorted_capture()))


def move_of(action: IndexMove) -> Move:
    """The move an :data:`IndexMove` stands for."""
    card, capture = action
    return Move(CARDS[card], frozenset(CARDS[c] for c in capture))
