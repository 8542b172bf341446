"""What the simple levels weigh: how much a card is worth taking, in points of a deal.

A deal is worth about 4 points plus the scope (carte, denari, settebello, primiera). The
weights spread those points over the cards that win them, so that a capture can be valued by
adding up its cards, and a scopa (one whole point) compares with them on the same scale.
"""

from __future__ import annotations

from typing import Final

from scopabot.engine import CARDS, RE_BELLO, SETTEBELLO, VALUE_OF, Rules, Suit

CARD_WEIGHT: Final = 0.06
DENARO_WEIGHT: Final = 0.12
SETTEBELLO_WEIGHT: Final = 1.0
SCOPA_WEIGHT: Final = 1.0
PRIMIERA_WEIGHT: Final = {7: 0.30, 6: 0.16, 1: 0.08, 5: 0.03}


def card_weights(rules: Rules) -> tuple[float, ...]:
    """The worth of taking each card index 0..39 under these rules."""
    out = []
    for c in range(40):
        value = VALUE_OF[c]
        w = CARD_WEIGHT + PRIMIERA_WEIGHT.get(value, 0.0)
        if CARDS[c].suit is Suit.DENARI:
            w += DENARO_WEIGHT
            if rules.napola and value <= 3:
                w += 0.25
        if c == SETTEBELLO:
            w += SETTEBELLO_WEIGHT
        if c == RE_BELLO and rules.re_bello:
            w += 1.0
        out.append(w)
    return tuple(out)
