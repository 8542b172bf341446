"""Deals consistent with what a seat has seen: the hidden cards dealt at random.

A seat knows its own hand, the table, every play of the deal and how many cards each other
hand and the deck hold. Everything else — which unseen card is where — is drawn uniformly,
from a generator the caller seeds, so the same view and seed give the same deals whatever
the real hidden cards are.
"""

from __future__ import annotations

import random

from scopabot.engine import Deal, GameView

from .features import SETTEBELLO, value_of

SIGNAL_TRUST = 0.8
"""How much a lay is read as the scopone signal (a twin still in hand): a deal in which the
player holds no twin is kept with probability ``1 - SIGNAL_TRUST``."""
SETTEBELLO_TRUST = 0.9
"""A player who left the settebello on the table is read as holding no 7 then."""
MAX_TRIES = 24


def inferences(view: GameView) -> list[tuple[int, int, bool, float]]:
    """What the other seats' plays in the current round of hands tell about their cards:
    ``(seat, value, holds, trust)``.

    Only plays since the hands were last refilled count (in scopone: the whole deal). A
    card laid without capturing is read as the signal (the player still holds its twin,
    unless it has played it since); a player who let the settebello stay on the table is
    read as holding no 7 (unless the 7s it played since say otherwise).
    """
    rules = view.rules
    plays = view.plays
    per_round = rules.players * rules.hand_size
    start = (len(plays) // per_round) * per_round if rules.redeals else 0
    if rules.redeals and start == len(plays) and start:
        return []
    # The table before each play, rebuilt backwards from the table now.
    table = {c.index for c in view.table}
    before: list[set[int]] = [set()] * len(plays)
    for i in range(len(plays) - 1, start - 1, -1):
        p = plays[i]
        captured = {c.index for c in p.capture}
        table = table | captured if captured else table - {p.card.index}
        before[i] = table
    unseen_values = {value_of(c.index) for c in view.unseen_cards()}
    out: list[tuple[int, int, bool, float]] = []
    for i in range(start, len(plays)):
        p = plays[i]
        if p.seat == view.seat:
            continue
        later = {q.card.value for q in plays[i + 1 :] if q.seat == p.seat}
        v = p.card.value
        if not p.capture and v in unseen_values and v not in later:
            out.append((p.seat, v, True, SIGNAL_TRUST))
        taken = {c.index for c in p.capture}
        if SETTEBELLO in before[i] and SETTEBELLO not in taken and 7 not in later:
            out.append((p.seat, 7, False, SETTEBELLO_TRUST))
    return out


class Sampler:
    """Builds :class:`Deal` copies of a view with the hidden cards dealt at random."""

    def __init__(self, view: GameView, *, infer: bool = True) -> None:
        rules = view.rules
        self.view = view
        self.hidden = sorted(c.index for c in view.unseen_cards())
        self.others = [s for s in range(rules.players) if s != view.seat]
        self.sizes = [view.hand_sizes[s] for s in self.others]
        self.deck_size = view.deck_size
        if sum(self.sizes) + view.deck_size > len(self.hidden):
            raise ValueError("the view's counts do not match its unseen cards")
        hands: list[list[int]] = [[] for _ in range(rules.players)]
        hands[view.seat] = [c.index for c in view.hand]
        self.template = Deal.build(
            rules,
            hands=hands,
            table=[c.index for c in view.table],
            deck=[],
            captured=[[c.index for c in view.captured_cards(s)] for s in range(rules.sides)],
            scope=list(view.scope),
            last=view.last_capturer,
            turn=view.turn,
            dealer=view.dealer,
        )
        self.template.left = sum(view.hand_sizes) + view.deck_size
        self.inferences = inferences(view) if infer else []

    @property
    def is_known(self) -> bool:
        """Whether nothing is hidden (one deal is consistent with the view)."""
        return not self.hidden

    def sample(self, rng: random.Random) -> Deal:
        """A deal consistent with the view, the other seats' plays read as evidence (deals
        that contradict a reading are mostly rejected)."""
        deal = self._uniform(rng)
        if not self.inferences:
            return deal
        for _ in range(MAX_TRIES):
            keep = 1.0
            for seat, v, holds, trust in self.inferences:
                if any(value_of(c) == v for c in deal.hands[seat]) != holds:
                    keep *= 1.0 - trust
            if keep >= 1.0 or rng.random() < keep:
                return deal
            deal = self._uniform(rng)
        return deal

    def _uniform(self, rng: random.Random) -> Deal:
        order = self.hidden[:]
        rand = rng.random
        for i in range(len(order) - 1, 0, -1):
            j = int(rand() * (i + 1))
            order[i], order[j] = order[j], order[i]
        deal = self.template.copy()
        pos = 0
        for seat, size in zip(self.others, self.sizes, strict=True):
            deal.hands[seat] = order[pos : pos + size]
            pos += size
        # A position set up by hand may leave cards out of the deal (the view cannot tell
        # which): then as many unseen cards as the deck holds go to the deck, the rest nowhere.
        deal.deck = order[pos : pos + self.deck_size]
        deal.pos = 0
        return deal
