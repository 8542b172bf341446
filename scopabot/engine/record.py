"""What is kept of a game so it can be replayed exactly: rules, deck orders, moves.

Like a poker hand history, the record holds only what happened (every shuffle, in order, and
every move); replaying it through the rules gives back the identical game. The record is
JSON-ready with a format version so that stored games outlive changes to the code.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from .cards import CARDS, Card
from .moves import Move
from .rules import Rules

RECORD_FORMAT: Final = 1


class RecordError(ValueError):
    """A stored record or snapshot that cannot be read (wrong version, damaged data)."""


CARD_TEXT: Final = tuple(str(Card.from_index(i)) for i in range(40))


def cards_to_text(cards: list[int] | tuple[int, ...]) -> str:
    return " ".join([CARD_TEXT[c] for c in cards])


def cards_from_text(text: str) -> list[int]:
    return [Card.parse(t).index for t in text.split()]


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A whole game as data: enough to rebuild every state it went through.

    ``shuffles`` lists every deck order used, in order, including those thrown back by the
    three-kings rule; ``dealer_draw`` lists the rounds of the draw for first dealer (each a
    tuple of (seat, card)), empty when the dealer was picked at random. ``start`` is set only
    for games built from an explicit position (puzzles, tests): the snapshot they began from.
    """

    rules: Rules
    seed: int
    first_dealer: int
    shuffles: tuple[tuple[Card, ...], ...]
    moves: tuple[Move, ...]
    dealer_draw: tuple[tuple[tuple[int, Card], ...], ...] = ()
    start: dict[str, Any] | None = field(default=None, compare=True)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "first_dealer": self.first_dealer,
            "dealer_draw": [[[seat, str(card)] for seat, card in rnd] for rnd in self.dealer_draw],
            "shuffles": [" ".join(str(c) for c in order) for order in self.shuffles],
            "moves": [str(m) for m in self.moves],
            "start": self.start,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameRecord:
        if data.get("format") != RECORD_FORMAT:
            raise RecordError(f"unsupported game record format {data.get('format')!r}")
        try:
            return cls._read(
                data,
                shuffles=[[Card.parse(t) for t in order.split()] for order in data["shuffles"]],
                moves=data["moves"],
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"damaged game record: {exc}") from exc

    @classmethod
    def from_parts(
        cls,
        *,
        rules: dict[str, Any],
        seed: int,
        first_dealer: int,
        dealer_draw: Sequence[Sequence[Sequence[Any]]],
        start: dict[str, Any] | None,
        shuffles: Iterable[Sequence[int]],
        moves: Iterable[str],
    ) -> GameRecord:
        """A record from the parts a database keeps apart: the fields of :meth:`to_dict` as
        it gave them (a header row), each deck order as its card indices (``bytes`` will do:
        ``bytes(c.index for c in order)``, one row per deal) and each move in notation (one row
        per move). See :meth:`Game.restore <scopabot.engine.Game.restore>` for an example."""
        try:
            parts: dict[str, Any] = {
                "rules": rules,
                "seed": seed,
                "first_dealer": first_dealer,
                "dealer_draw": dealer_draw,
                "start": start,
            }
            return cls._read(
                parts, shuffles=[[CARDS[i] for i in order] for order in shuffles], moves=moves
            )
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise RecordError(f"damaged game record: {exc}") from exc

    @classmethod
    def _read(
        cls,
        data: dict[str, Any],
        *,
        shuffles: Iterable[Iterable[Card]],
        moves: Iterable[str],
    ) -> GameRecord:
        return cls(
            rules=Rules.from_dict(data["rules"]),
            seed=int(data["seed"]),
            first_dealer=int(data["first_dealer"]),
            dealer_draw=tuple(
                tuple((int(seat), Card.parse(card)) for seat, card in rnd)
                for rnd in data.get("dealer_draw", ())
            ),
            shuffles=tuple(tuple(order) for order in shuffles),
            moves=tuple(Move.parse(m) for m in moves),
            start=data.get("start"),
        )
