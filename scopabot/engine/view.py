"""What one seat may see of a game, and the public record of each play.

Computer players and every message sent to a person are built from a :class:`GameView`, never
from the game itself: the view simply has no field for other hands or the deck order, so a
leak would have to be written on purpose.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from .cards import CARDS, Card
from .moves import Move
from .rules import Rules
from .scoring import DealScore


class OutcomeReason(StrEnum):
    TARGET = "target"
    DEALS = "deals"
    NAPOLA_REALE = "napola_reale"
    SPAREGGIO = "spareggio"
    LAST_CAPTURE_LOSES = "last_capture_loses"
    UNDECIDED = "undecided"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a match ended; ``winner`` is a side (``None`` only when nobody could be named)."""

    winner: int | None
    reason: OutcomeReason
    totals: tuple[int, ...]
    deals: int


@dataclass(frozen=True, slots=True)
class Play:
    """One card played in the current deal, as every player saw it happen."""

    seat: int
    card: Card
    capture: tuple[Card, ...]
    scopa: bool

    @property
    def move(self) -> Move:
        return Move(self.card, frozenset(self.capture))


@dataclass(frozen=True, slots=True)
class GameView:
    """A seat's window on the game: its own hand and everything public, nothing more."""

    rules: Rules
    seat: int
    turn: int
    dealer: int
    deal_number: int
    hand: tuple[Card, ...]
    felt: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    deck_size: int
    captured_counts: tuple[int, ...]
    scope: tuple[int, ...]
    plays: tuple[Play, ...]
    totals: tuple[int, ...]
    deal_scores: tuple[DealScore, ...]
    last_capturer: int | None
    outcome: Outcome | None
    spareggio: int
    dealer_draw: tuple[tuple[tuple[int, Card], ...], ...] = ()
    captured: tuple[tuple[Card, ...], ...] = ()
    """Each side's captures this deal: taken face up, so everyone at the table saw them."""
    out_of_play: tuple[Card, ...] = ()
    """Cards known to be out of this deal (a position set up without them)."""
    legal: tuple[Move, ...] = field(default=(), repr=False)
    """The moves this seat may make now, computed when the view was taken (a plain tuple:
    a view must hold nothing that reaches back into the game)."""

    @property
    def side(self) -> int:
        return self.rules.side_of(self.seat)

    @property
    def is_my_turn(self) -> bool:
        return self.outcome is None and self.turn == self.seat

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def legal_moves(self) -> tuple[Move, ...]:
        """The moves this seat may make now (empty when it is not its turn)."""
        return self.legal

    def next_hand_size(self, seat: int) -> int:
        """How many cards ``seat`` will hold when it next plays this deal (0: it will not).

        Its hand now, unless that is empty while the deck is not: in scopa every hand is dealt
        ``hand_size`` cards again once all are empty (the deck always holds whole re-deals),
        so a player judging what the next seat can answer need not know that.
        """
        held = self.hand_sizes[seat]
        return self.rules.hand_size if not held and self.deck_size else held

    def captured_cards(self, side: int) -> tuple[Card, ...]:
        """Cards taken by a side this deal, as anyone watching the plays could list them."""
        return self.captured[side]

    def unseen_cards(self) -> tuple[Card, ...]:
        """Cards this seat has not seen this deal: exactly those in other hands or the deck."""
        seen = {c.index for c in self.hand} | {c.index for c in self.felt}
        seen.update(c.index for pile in self.captured for c in pile)
        seen.update(c.index for c in self.out_of_play)
        return tuple(c for c in CARDS if c.index not in seen)
