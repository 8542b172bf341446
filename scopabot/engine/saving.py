"""How a game is saved and read back: its record and its snapshot.

A game is kept two ways. The *record* (:class:`~scopabot.engine.record.GameRecord`: rules, seed,
every deck order and every move) is what happened, and replays to the same game. The
*snapshot* is the whole state as JSON-ready data, so that loading costs no replay. A store
keeps the snapshot without the record's lists (``include_record=False``) beside the record's
parts, and gives both back to :meth:`Game.restore <scopabot.engine.Game.restore>`; the format
numbers are written and checked here, never by the caller.

>>> from scopabot.engine import Game, Rules
>>> g = Game.new(Rules(), seed=4)
>>> _ = g.play(g.legal_moves()[0])
>>> Game.from_snapshot(g.to_snapshot()).to_snapshot() == g.to_snapshot()
True
"""

from __future__ import annotations

from typing import Any, Final, Self

from .cards import CARDS
from .deal import Deal, felt_key
from .match import IndexMatch
from .moves import IndexMove, Move, index_move_of, move_of
from .record import CARD_TEXT, GameRecord, RecordError, cards_from_text, cards_to_text
from .rules import Rules
from .scoring import DealScore
from .view import Outcome, OutcomeReason

SNAPSHOT_FORMAT: Final = 1


class SavableIndexMatch(IndexMatch):
    """A match that can be written down (record, snapshot) and read back without replaying."""

    __slots__ = ()

    def record(self) -> GameRecord:
        """Everything needed to replay this game exactly."""
        return GameRecord(
            rules=self._rules,
            seed=self._seed,
            first_dealer=self._first_dealer,
            shuffles=tuple(tuple(CARDS[c] for c in order) for order in self._shuffles),
            moves=tuple(move_of(a) for a in self._moves),
            dealer_draw=tuple(tuple((s, CARDS[c]) for s, c in rnd) for rnd in self._draw),
            start=self._start,
        )

    def to_snapshot(self, *, include_record: bool = True) -> dict[str, Any]:
        """The whole state as JSON-ready data, for fast loading (with a format version)."""
        deal = self._deal
        data: dict[str, Any] = {
            "format": SNAPSHOT_FORMAT,
            "rules": self._rules.to_dict(),
            "seed": self._seed,
            "dealer": deal.dealer,
            "first_dealer": self._first_dealer,
            "turn": deal.turn,
            "deal": self._deal_no,
            "hands": [cards_to_text(h) for h in deal.hands],
            "table": cards_to_text(deal.felt),
            "deck": cards_to_text(deal.deck),
            "deck_pos": deal.pos,
            "captured": [cards_to_text(p) for p in deal.captured],
            "scope": list(deal.scope),
            "discarded": cards_to_text(deal.discarded),
            "last_capturer": None if deal.last < 0 else deal.last,
            "plays": [[seat, card, list(cap), scopa] for seat, card, cap, scopa in self._plays],
            "totals": list(self._totals),
            "deal_scores": [s.to_dict() for s in self._deal_scores],
            "spareggio": self._spareggio,
            "contenders": list(self._contenders),
            "outcome": _outcome_to_dict(self._outcome),
        }
        if include_record:
            data["shuffles"] = [cards_to_text(o) for o in self._shuffles]
            data["moves"] = [_action_text(a) for a in self._moves]
            data["dealer_draw"] = [[[s, c] for s, c in rnd] for rnd in self._draw]
            data["start"] = self._start
        return data

    @classmethod
    def from_snapshot(cls, data: dict[str, Any], *, record: GameRecord | None = None) -> Self:
        """Load a game saved with :meth:`to_snapshot`, without replaying it.

        A snapshot saved with ``include_record=False`` needs the game's ``record`` beside it
        (its rules and seed must be the snapshot's): the record's lists are taken from there.
        """
        try:
            g = cls._from_state(data)
            if record is None:
                g._shuffles = [cards_from_text(o) for o in data["shuffles"]]
                g._moves = [index_move_of(Move.parse(m)) for m in data["moves"]]
                g._draw = [[(int(s), int(c)) for s, c in rnd] for rnd in data["dealer_draw"]]
                g._start = data["start"]
                return g
        except RecordError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"damaged game snapshot: {exc!r}") from exc
        if (g._rules, g._seed) != (record.rules, record.seed):
            raise RecordError("the snapshot and the record are not of the same game")
        g._shuffles = [[c.index for c in order] for order in record.shuffles]
        g._moves = [index_move_of(m) for m in record.moves]
        g._draw = [[(s, c.index) for s, c in rnd] for rnd in record.dealer_draw]
        g._start = record.start
        return g

    @classmethod
    def _from_state(cls, data: dict[str, Any]) -> Self:
        if data.get("format") != SNAPSHOT_FORMAT:
            raise RecordError(f"unsupported snapshot format {data.get('format')!r}")
        rules = Rules.from_dict(data["rules"])
        g = cls._blank(rules, int(data["seed"]))
        g._first_dealer = int(data["first_dealer"])
        g._deal_no = int(data["deal"])
        last = data["last_capturer"]
        g._deal = Deal.build(
            rules,
            hands=[cards_from_text(h) for h in data["hands"]],
            felt=cards_from_text(data["table"]),
            deck=cards_from_text(data["deck"]),
            pos=int(data["deck_pos"]),
            captured=[cards_from_text(p) for p in data["captured"]],
            scope=[int(s) for s in data["scope"]],
            last=None if last is None else int(last),
            turn=int(data["turn"]),
            dealer=int(data["dealer"]),
            discarded=cards_from_text(data["discarded"]),
        )
        g._plays = [
            (int(seat), int(card), tuple(int(c) for c in cap), bool(scopa))
            for seat, card, cap, scopa in data["plays"]
        ]
        g._totals = [int(t) for t in data["totals"]]
        g._deal_scores = [DealScore.from_dict(s) for s in data["deal_scores"]]
        g._spareggio = int(data["spareggio"])
        g._contenders = tuple(int(s) for s in data["contenders"])
        g._outcome = _outcome_from_dict(data["outcome"])
        return g


def _action_text(action: IndexMove) -> str:
    """``str(Move)`` of an action, without building the Move (snapshots write hundreds)."""
    card, capture = action
    if not capture:
        return CARD_TEXT[card]
    return CARD_TEXT[card] + ":" + "+".join([CARD_TEXT[c] for c in sorted(capture, key=felt_key)])


def _outcome_to_dict(outcome: Outcome | None) -> dict[str, Any] | None:
    if outcome is None:
        return None
    return {
        "winner": outcome.winner,
        "reason": outcome.reason.value,
        "totals": list(outcome.totals),
        "deals": outcome.deals,
    }


def _outcome_from_dict(data: dict[str, Any] | None) -> Outcome | None:
    if data is None:
        return None
    return Outcome(
        winner=data["winner"],
        reason=OutcomeReason(data["reason"]),
        totals=tuple(data["totals"]),
        deals=int(data["deals"]),
    )
