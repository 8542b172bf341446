"""Deals consistent with what a seat has seen, the hidden cards placed where the other seats'
plays say they probably are.

A seat knows its own hand, the table, every play of the deal and how many cards each other
hand and the deck hold. Which unseen card is where is drawn at random, but not uniformly: a
player who laid a 4 where a 7 would have taken the settebello very likely holds no 7, and a
player who laid a card without capturing often holds its twin (the scopone signal).

**Reading the plays** (:func:`evidence`). Another seat is modelled as choosing among its
cards by a plain score — what the card takes (cards weighed as in :mod:`.features`, a sweep a
point), what it leaves within reach of a sweep, the settebello left or given — with noise.
For each of its plays since its hand was dealt, every card it might still hold gets the factor
σ(β·(score of the play − best score of that card then)): a card it would clearly have
preferred makes the play unlikely, a worse card changes nothing. A lay also weighs a twin of
the laid card up (``SIGNAL``). The factors multiply into one weight per (seat, card).

The constants were fitted by the log loss of where the hidden cards really were, in games
between ``normal`` and ``hard``; ``bench/inference.py`` measures it, and ``docs/ai.md`` keeps
the figures.

**Drawing** (:class:`Sampler`). The weights do not factor into independent hands (each hand
has a fixed size), so the sampler runs a Metropolis chain over placements: it swaps two
cards between two places and keeps the swap with the ratio of their weights. Each sample
continues the chain by a few swaps per hidden card. The chain's randomness comes from the
caller's generator, so the same view and seed give the same deals whatever the real hidden
cards are.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Final

from scopabot.engine import SETTEBELLO, VALUE_OF, Deal, GameView, capture_options

from .features import SCOPA_WEIGHT, card_weights

BETA: Final = 2.5
"""How sharply a player prefers a better-scoring card (the softmax's inverse temperature)."""
SIGNAL: Final = 0.4
"""The log-weight a lay adds to the twins of the laid card."""
REACHABLE: Final = 0.3
"""The cost of leaving a table of 10 or less (a sweep for one card) in the players' score."""
SETTEBELLO_LEFT: Final = 0.5
"""The cost of laying or leaving the settebello where the next player may take it."""
LAY_COST: Final = 0.5
"""A laid card is given away at this share of its weight."""
BURN_IN: Final = 10
SWAPS: Final = 2
"""Swaps per hidden card before the first sample and between samples."""


def _option_score(
    w: Sequence[float], felt: Sequence[int], tsum: int, card: int, taken: Sequence[int]
) -> float:
    """The plain score a player is assumed to give a play."""
    if not taken:
        score = -LAY_COST * w[card]
        if tsum + VALUE_OF[card] <= 10:
            score -= REACHABLE
        if card == SETTEBELLO or SETTEBELLO in felt:
            score -= SETTEBELLO_LEFT
        return score
    score = w[card] + sum(w[c] for c in taken)
    if len(taken) == len(felt):
        return score + SCOPA_WEIGHT
    if tsum - sum(VALUE_OF[c] for c in taken) <= 10:
        score -= REACHABLE
    if SETTEBELLO in felt and SETTEBELLO not in taken:
        score -= SETTEBELLO_LEFT
    return score


def _best_scores(w: Sequence[float], felt: list[int], tsum: int, apt: bool) -> list[float]:
    """The best plain score of playing each card 0..39 on ``table`` (its values sum to
    ``tsum``)."""
    options = capture_options(tuple(VALUE_OF[c] for c in felt), apt)
    out = [0.0] * 40
    for card in range(40):
        caps = options[VALUE_OF[card]]
        if not caps:
            out[card] = _option_score(w, felt, tsum, card, ())
        else:
            out[card] = max(
                _option_score(w, felt, tsum, card, [felt[i] for i in pos]) for pos in caps
            )
    return out


def _log_sigmoid(x: float) -> float:
    return -math.log1p(math.exp(-x)) if x > 0 else x - math.log1p(math.exp(x))


def evidence(view: GameView) -> dict[int, list[float]]:
    """For every other seat, the log-weight of it holding each card index, read from its plays
    since its hand was dealt (in scopone: the whole deal; in scopa: this round of three)."""
    rules = view.rules
    plays = view.plays
    out = {s: [0.0] * 40 for s in range(rules.players) if s != view.seat}
    per_round = rules.players * rules.hand_size
    start = (len(plays) // per_round) * per_round if rules.redeals else 0
    if start == len(plays):
        return out
    w = card_weights(rules)
    # The table before each play, rebuilt backwards from the table now.
    felt = [c.index for c in view.felt]
    before: list[list[int]] = [[] for _ in plays]
    for i in range(len(plays) - 1, start - 1, -1):
        p = plays[i]
        if p.capture:
            felt = felt + [c.index for c in p.capture]
        else:
            felt = [c for c in felt if c != p.card.index]
        before[i] = felt
    for i in range(start, len(plays)):
        p = plays[i]
        if p.seat == view.seat:
            continue
        felt = before[i]
        tsum = sum(VALUE_OF[c] for c in felt)
        played = _option_score(w, felt, tsum, p.card.index, [c.index for c in p.capture])
        best = _best_scores(w, felt, tsum, rules.asso_piglia_tutto)
        weights = out[p.seat]
        for card in range(40):
            weights[card] += _log_sigmoid(BETA * (played - best[card]))
        if not p.capture:
            for card in range(p.card.value - 1, 40, 10):
                weights[card] += SIGNAL
    return out


class Sampler:
    """Builds :class:`Deal` copies of a view with the hidden cards placed at random, the
    other seats' plays read as evidence (``infer``) or not (uniform deals)."""

    def __init__(self, view: GameView, *, infer: bool = True) -> None:
        rules = view.rules
        self.hidden = sorted(c.index for c in view.unseen_cards())
        self.others = [s for s in range(rules.players) if s != view.seat]
        sizes = [view.hand_sizes[s] for s in self.others]
        if sum(sizes) + view.deck_size > len(self.hidden):
            raise ValueError("the view's counts do not match its unseen cards")
        # The places a hidden card can be: each other hand, the deck, and — in a position
        # set up by hand that leaves cards out of the deal — nowhere.
        self.sizes = [*sizes, view.deck_size, len(self.hidden) - sum(sizes) - view.deck_size]
        hands: list[list[int]] = [[] for _ in range(rules.players)]
        hands[view.seat] = [c.index for c in view.hand]
        self.template = Deal.build(
            rules,
            hands=hands,
            felt=[c.index for c in view.felt],
            deck=[],
            captured=[[c.index for c in view.captured_cards(s)] for s in range(rules.sides)],
            scope=list(view.scope),
            last=view.last_capturer,
            turn=view.turn,
            dealer=view.dealer,
        )
        self.template.left = sum(view.hand_sizes) + view.deck_size
        flat = [0.0] * 40
        read = evidence(view) if infer else {}
        self.weights = [read.get(s, flat) for s in self.others] + [flat, flat]
        self.infer = any(any(row) for row in self.weights)
        self._places: list[list[int]] | None = None

    @property
    def is_one_deal(self) -> bool:
        """Whether only one deal is consistent with the view: the hidden cards all have one
        place (one other hand, as in two-player scopa once the deck is empty) and there is no
        order of the deck to draw, so every sample would be the same deal."""
        deck = self.sizes[len(self.others)]
        return sum(1 for size in self.sizes if size) <= 1 and deck <= 1

    def sample(self, rng: random.Random) -> Deal:
        """A deal consistent with the view, drawn as the module docstring says."""
        if not self.infer:
            places = self._uniform(rng)
        elif self._places is None:
            places = self._places = self._uniform(rng)
            self._mix(rng, BURN_IN * len(self.hidden))
        else:
            places = self._places
            self._mix(rng, SWAPS * len(self.hidden))
        deal = self.template.copy()
        for seat, cards in zip(self.others, places, strict=False):
            deal.hands[seat] = cards[:]
        deal.deck = places[len(self.others)][:]
        if len(deal.deck) > 1:
            # The chain keeps no order within the deck, so the refills are shuffled here.
            rng.shuffle(deal.deck)
        deal.pos = 0
        return deal

    def _uniform(self, rng: random.Random) -> list[list[int]]:
        order = self.hidden[:]
        rand = rng.random
        for i in range(len(order) - 1, 0, -1):
            j = int(rand() * (i + 1))
            order[i], order[j] = order[j], order[i]
        places = []
        pos = 0
        for size in self.sizes:
            places.append(order[pos : pos + size])
            pos += size
        return places

    def _mix(self, rng: random.Random, steps: int) -> None:
        """Metropolis swaps between two places, kept with the ratio of their weights."""
        assert self._places is not None
        places = self._places
        weights = self.weights
        filled = [p for p in range(len(places)) if places[p]]
        if len(filled) < 2:
            return
        rand = rng.random
        count = len(filled)
        for _ in range(steps):
            a = filled[int(rand() * count)]
            b = filled[int(rand() * count)]
            if a == b:
                continue
            pa, pb = places[a], places[b]
            i = int(rand() * len(pa))
            j = int(rand() * len(pb))
            ca, cb = pa[i], pb[j]
            wa, wb = weights[a], weights[b]
            gain = wa[cb] + wb[ca] - wa[ca] - wb[cb]
            if gain >= 0 or rand() < math.exp(gain):
                pa[i], pb[j] = cb, ca
