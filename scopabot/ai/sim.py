"""Playouts on the engine's own :class:`~scopabot.engine.Deal`: the reference for the search.

The search levels play their sampled deals on :mod:`.core` (card sets as masks), which is
checked against the engine's ``Deal`` play by play (``tests/ai/test_core.py``). This module
keeps the greedy playout and the valuing of a finished deal written on the ``Deal`` itself,
the plainest statement of what a playout does, for the tests that hold the search to it.
"""

from __future__ import annotations

import random
from typing import Final

from scopabot.engine import SETTEBELLO, VALUE_OF, Deal, code_cache, options_for_code

from .features import SCOPA_WEIGHT

_SEVENS_BIT: Final = 1 << 7


def reward(deal: Deal, side: int) -> float:
    """The point difference for ``side`` in a finished deal: its points minus the mean of
    the others' (with two sides, simply the difference)."""
    totals = deal.totals()
    others = [t for s, t in enumerate(totals) if s != side]
    return totals[side] - sum(others) / len(others)


def settle(deal: Deal, side: int) -> float:
    """Sweep the leftovers of a deal whose last card was just played, and value it."""
    deal.finish()
    return reward(deal, side)


def playout(
    deal: Deal,
    rng: random.Random,
    eps: float,
    weights: tuple[float, ...],
    *,
    informed: bool,
) -> None:
    """Play to the end of the deal (leftovers swept), each seat taking the greedy move except
    for a random move with probability ``eps``.

    Greedy: the most valuable capture (cards weighed by ``weights``, a scopa one point), and
    no table of 10 or less left behind. ``informed`` seats look at the next seat's hand in
    the sampled deal instead: they avoid leaving a sweep or the settebello only to a player
    who can take them. Every seat knows every hand here, as in any perfect-information
    playout; informing the greedy rule makes the playout defend the way good players do
    (they guess the next hand from the cards played), at a small cost per play.
    """
    rand = rng.random
    w = weights
    apt = deal.apt
    cached = code_cache(apt).get
    apply = deal.apply
    hands = deal.hands
    n = deal.n
    while True:
        turn = deal.turn
        hand = hands[turn]
        felt = deal.felt
        code = deal.code
        options = cached(code) or options_for_code(code, apt)
        if rand() < eps:
            card = hand[int(rand() * len(hand))]
            caps = options[VALUE_OF[card]]
            if caps:
                pos = caps[int(rand() * len(caps))] if len(caps) > 1 else caps[0]
                taken = tuple([felt[i] for i in pos])
            else:
                taken = ()
            if apply(card, taken):
                deal.finish()
                return
            continue
        nxt = hands[turn + 1 if turn + 1 < n else 0] if informed else ()
        blind = not nxt
        nv = 0
        for c in nxt:
            nv |= 1 << VALUE_OF[c]
        tsum = 0
        for c in felt:
            tsum += VALUE_OF[c]
        has_sette = SETTEBELLO in felt
        best = -1e9
        best_card = hand[0]
        best_taken: tuple[int, ...] = ()
        nfelt = len(felt)
        for card in hand:
            v = VALUE_OF[card]
            caps = options[v]
            if not caps:
                rest = tsum + v
                score = -0.5 * w[card]
                if blind:
                    if rest <= 10:
                        score -= 0.7
                else:
                    if rest <= 10 and nv >> rest & 1:
                        score -= 1.2
                    if (has_sette or card == SETTEBELLO) and nv & _SEVENS_BIT:
                        score -= 1.0
                if score > best:
                    best, best_card, best_taken = score, card, ()
                continue
            for pos in caps:
                score = w[card]
                rest = tsum
                sette_left = has_sette
                for i in pos:
                    c = felt[i]
                    score += w[c]
                    rest -= VALUE_OF[c]
                    if c == SETTEBELLO:
                        sette_left = False
                if len(pos) == nfelt:
                    score += SCOPA_WEIGHT
                elif blind:
                    if rest <= 10:
                        score -= 0.7
                else:
                    if rest <= 10 and nv >> rest & 1:
                        score -= 1.2
                    if sette_left and nv & _SEVENS_BIT:
                        score -= 1.0
                if score > best:
                    best, best_card = score, card
                    best_taken = tuple([felt[i] for i in pos])
        if apply(best_card, best_taken):
            deal.finish()
            return
