"""Deals consistent with what a seat has seen: the hidden cards dealt at random.

A seat knows its own hand, the table, every play of the deal and how many cards each other
hand and the deck hold. Everything else — which unseen card is where — is drawn uniformly,
from a generator the caller seeds, so the same view and seed give the same deals whatever
the real hidden cards are.
"""

from __future__ import annotations

import random

from scopabot.engine import GameView

from .features import card_weights
from .sim import Deal


class Sampler:
    """Builds :class:`Deal` copies of a view with the hidden cards dealt at random."""

    def __init__(self, view: GameView) -> None:
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
            weights=card_weights(rules),
        )
        self.template.left = sum(view.hand_sizes) + view.deck_size

    @property
    def is_known(self) -> bool:
        """Whether nothing is hidden (one deal is consistent with the view)."""
        return not self.hidden

    def sample(self, rng: random.Random) -> Deal:
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
        return deal
