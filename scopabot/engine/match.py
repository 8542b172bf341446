"""The match on card indices: its state, the dealing, and how deals and the match end.

:class:`IndexMatch` is the machinery under the public :class:`~scopabot.engine.Game`: it works on
card indices (0..39) for speed, because computer players run hundreds of thousands of
playouts, and it holds the whole secret state. The cards of the deal in play live in a
:class:`~scopabot.engine.deal.Deal` (the one implementation of what a play does); the match
adds what goes round it: the record of every shuffle and move, the public plays of the deal,
the totals, the tie-breaks and who wins.

>>> from scopabot.engine import Game, Rules
>>> g = Game.new(Rules(), seed=5)
>>> while g.play_index_move(g.legal_index_moves()[0]) is None:
...     pass
>>> g.deal_number, len(g.deal_scores)
(2, 1)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Final, Self

from .cards import CARDS, VALUE_OF, Card
from .deal import Deal
from .moves import IndexMove, Move, move_of
from .rules import KO_SPAREGGI, FirstDealer, Rules, Tiebreak
from .scoring import DealScore, target_winner, unique_max
from .view import Outcome, OutcomeReason

_SEED_STRIDE: Final = 1 << 20


def shuffled_deck(rng: random.Random) -> list[int]:
    """A uniformly shuffled deck of indices (Fisher-Yates on ``rng.random()``, which is about
    five times cheaper than :meth:`random.Random.shuffle` and as deterministic)."""
    order = list(range(40))
    rand = rng.random
    for i in range(39, 0, -1):
        j = int(rand() * (i + 1))
        order[i], order[j] = order[j], order[i]
    return order


@dataclass(frozen=True, slots=True)
class PlayResult:
    """What one play did; ``deal_score`` is set when the play ended a deal."""

    seat: int
    move: Move
    scopa: bool
    deal_score: DealScore | None = None
    leftovers: tuple[Card, ...] = ()
    leftovers_to: int | None = None
    outcome: Outcome | None = None


class IndexMatch:
    """The full, secret state of one match, and every change to it, on card indices."""

    __slots__ = (
        "_contenders",
        "_deal",
        "_deal_no",
        "_deal_scores",
        "_draw",
        "_first_dealer",
        "_moves",
        "_outcome",
        "_plays",
        "_queued",
        "_rules",
        "_seed",
        "_shuffles",
        "_spareggio",
        "_start",
        "_totals",
    )

    _rules: Rules
    _seed: int
    _deal: Deal
    _first_dealer: int
    _deal_no: int
    _plays: list[tuple[int, int, tuple[int, ...], bool]]
    _totals: list[int]
    _deal_scores: list[DealScore]
    _outcome: Outcome | None
    _spareggio: int
    _contenders: tuple[int, ...]
    _shuffles: list[list[int]]
    _queued: list[list[int]]
    _moves: list[IndexMove]
    _draw: list[list[tuple[int, int]]]
    _start: dict[str, Any] | None

    # ------------------------------------------------------------------ creation

    @classmethod
    def _begin(
        cls,
        rules: Rules,
        *,
        seed: int,
        queued: list[list[int]],
        draw: list[list[tuple[int, int]]] | None,
        first_dealer: int | None,
    ) -> Self:
        g = cls._blank(rules, seed)
        g._queued = queued
        if first_dealer is None:
            first_dealer, draw = g._choose_first_dealer()
        g._first_dealer = first_dealer
        g._draw = draw or []
        g._start_deal(first_dealer)
        return g

    @classmethod
    def _blank(cls, rules: Rules, seed: int) -> Self:
        g = object.__new__(cls)
        g._rules = rules
        g._seed = int(seed)
        g._deal = Deal.build(
            rules, hands=[[] for _ in range(rules.players)], felt=(), turn=0, dealer=0
        )
        g._first_dealer = 0
        g._deal_no = 0
        g._plays = []
        g._totals = [0] * rules.sides
        g._deal_scores = []
        g._outcome = None
        g._spareggio = 0
        g._contenders = ()
        g._shuffles = []
        g._queued = []
        g._moves = []
        g._draw = []
        g._start = None
        return g

    def _rng(self, stream: int) -> random.Random:
        return random.Random(self._seed * _SEED_STRIDE + stream)

    def _choose_first_dealer(self) -> tuple[int, list[list[tuple[int, int]]]]:
        rng = self._rng(_SEED_STRIDE - 1)
        n = self._rules.players
        if self._rules.first_dealer is FirstDealer.RANDOM:
            return rng.randrange(n), []
        rounds: list[list[tuple[int, int]]] = []
        contenders = list(range(n))
        pile: list[int] = []
        while True:
            if len(pile) < len(contenders):
                pile = list(range(40))
                rng.shuffle(pile)
            drawn = [(seat, pile.pop()) for seat in contenders]
            rounds.append(drawn)
            best = max(VALUE_OF[c] for _, c in drawn)
            contenders = [seat for seat, c in drawn if VALUE_OF[c] == best]
            if len(contenders) == 1:
                return contenders[0], rounds

    def _next_order(self) -> list[int]:
        number = len(self._shuffles)
        if number < len(self._queued):
            order = list(self._queued[number])
        else:
            order = shuffled_deck(self._rng(number))
        self._shuffles.append(order)
        return order

    # ------------------------------------------------------------------ dealing

    def _start_deal(self, dealer: int) -> None:
        rules = self._rules
        n = rules.players
        self._deal_no += 1
        size = rules.hand_size
        while True:
            order = self._next_order()
            pos = 0
            hands: list[list[int]] = [[] for _ in range(n)]
            for k in range(1, n + 1):
                hands[(dealer + k) % n] = order[pos : pos + size]
                pos += size
            felt = order[pos : pos + rules.felt_size]
            pos += rules.felt_size
            kings = sum(1 for c in felt if VALUE_OF[c] == 10)
            if not (rules.three_kings_redeal and kings >= 3):
                break
        self._deal = Deal.build(
            rules,
            hands=hands,
            felt=felt,
            deck=order,
            pos=pos,
            turn=(dealer + 1) % n,
            dealer=dealer,
        )
        self._plays = []

    # ------------------------------------------------------------------ fast, index-level API

    @property
    def deal(self) -> Deal:
        """The deal in play, on card indices (secret: for search on determinized copies)."""
        return self._deal

    def legal_index_moves(self) -> list[IndexMove]:
        """Every legal move as card indices, in hand order then capture order."""
        if self._outcome is not None:
            return []
        return self._deal.actions()

    def play_index_move(self, action: IndexMove) -> PlayResult | None:
        """Apply a move known to be legal (from :meth:`legal_index_moves`), without checking it.

        Returns a result only when the play ended a deal (the rest of the time ``None``),
        which keeps playouts cheap.
        """
        deal = self._deal
        seat = deal.turn
        card, capture = action
        over = deal.apply(card, capture)
        self._plays.append((seat, card, capture, deal.scopa))
        self._moves.append(action)
        if over:
            return self._end_deal(seat, action)
        return None

    def playout(self, rng: random.Random) -> DealScore:
        """Play the current deal to its end choosing at random, and return its score.

        A uniformly random card, then a uniformly random capture among those allowed; the
        game records the deal like any other and goes on as usual (next deal, or the outcome).
        For search without the record, use :meth:`Deal.playout` on a copy of :attr:`deal`.
        """
        rand = rng.random
        deal = self._deal
        while True:
            hand = deal.hands[deal.turn]
            card = hand[int(rand() * len(hand))]
            caps = deal.options[VALUE_OF[card]]
            if caps:
                positions = caps[int(rand() * len(caps))] if len(caps) > 1 else caps[0]
                felt = deal.felt
                result = self.play_index_move((card, tuple([felt[i] for i in positions])))
            else:
                result = self.play_index_move((card, ()))
            if result is not None:
                assert result.deal_score is not None
                return result.deal_score

    # ------------------------------------------------------------------ deal and match end

    def _end_deal(self, seat: int, action: IndexMove) -> PlayResult:
        deal = self._deal
        scopa = deal.scopa
        leftovers, leftovers_to = deal.finish()
        score = deal.score(self._deal_no)
        self._deal_scores.append(score)
        for side, points in enumerate(score.totals):
            self._totals[side] += points
        last_side = None if deal.last < 0 else deal.sides[deal.last]
        self._outcome = self._decide(score, last_side)
        if self._outcome is None:
            self._start_deal((deal.dealer + 1) % self._rules.players)
        return PlayResult(
            seat=seat,
            move=move_of(action),
            scopa=scopa,
            deal_score=score,
            leftovers=tuple(CARDS[c] for c in leftovers),
            leftovers_to=leftovers_to,
            outcome=self._outcome,
        )

    def _decide(self, score: DealScore, last_side: int | None) -> Outcome | None:
        rules = self._rules
        totals = self._totals

        def ends(winner: int | None, reason: OutcomeReason) -> Outcome:
            return Outcome(winner, reason, tuple(totals), self._deal_no)

        if score.napola_reale is not None:
            return ends(score.napola_reale, OutcomeReason.NAPOLA_REALE)
        if self._spareggio:
            contenders = self._contenders
            points = [score.sides[s].total for s in contenders]
            best = max(points)
            leaders = tuple(s for s, p in zip(contenders, points, strict=True) if p == best)
            if len(leaders) == 1:
                return ends(leaders[0], OutcomeReason.SPAREGGIO)
            if self._spareggio >= KO_SPAREGGI:
                rest = [s for s in leaders if s != last_side]
                if len(rest) == 1:
                    return ends(rest[0], OutcomeReason.LAST_CAPTURE_LOSES)
                return ends(None, OutcomeReason.UNDECIDED)
            self._spareggio += 1
            self._contenders = leaders
            return None
        if rules.deals is not None:
            if self._deal_no < rules.deals:
                return None
            reason = OutcomeReason.DEALS
            winner = unique_max(totals)
        else:
            assert rules.target is not None
            if max(totals) < rules.target:
                return None
            reason = OutcomeReason.TARGET
            winner = target_winner(totals, rules.target)
        if winner is not None:
            return ends(winner, reason)
        if rules.tiebreak is Tiebreak.KO:
            best = max(totals)
            self._spareggio = 1
            self._contenders = tuple(s for s, t in enumerate(totals) if t == best)
        return None

    def copy(self) -> Self:
        """An independent copy (shuffles and the start position are shared, never changed)."""
        g = object.__new__(type(self))
        g._rules = self._rules
        g._seed = self._seed
        g._deal = self._deal.copy()
        g._first_dealer = self._first_dealer
        g._deal_no = self._deal_no
        g._plays = list(self._plays)
        g._totals = list(self._totals)
        g._deal_scores = list(self._deal_scores)
        g._outcome = self._outcome
        g._spareggio = self._spareggio
        g._contenders = self._contenders
        g._shuffles = list(self._shuffles)
        g._queued = self._queued
        g._moves = list(self._moves)
        g._draw = self._draw
        g._start = self._start
        return g
