"""One deal in play, on card indices: the single implementation of what a play does.

:class:`~scopabot.engine.Game` wraps a :class:`Deal` with the record, the public plays and the
match flow; the computer players copy a deal built from a seat's view and play it out tens of
thousands of times a move. Both run this same code, so the search can never play by rules the
game does not have. That is why the class is lean (slots, ints, no history) and why its fields
are public: a playout policy reads ``hands``, ``table`` and ``code`` directly.

>>> from scopabot.engine import Card, Rules
>>> idx = lambda text: [Card.parse(t).index for t in text.split()]
>>> d = Deal.build(Rules(), hands=[idx("9b 2c"), idx("10c 2d")], felt=idx("1d 3s 4c 5d"),
...                turn=0, dealer=1)
>>> sorted(len(taken) for card, taken in d.actions() if card == Card.parse("9b").index)
[2, 3]
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Sequence
from typing import Final

from .captures import VALUE_CODE, Options, code_cache, options_for_code
from .cards import VALUE_OF
from .moves import IndexMove
from .rules import Rules
from .scoring import DealScore, deal_totals, score_deal

FELT_ORDER: Final = tuple(VALUE_OF[c] * 4 + c // 10 for c in range(40))
"""The table is kept sorted by value then suit: its order means nothing in the rules, and a
canonical order lets the capture tables (indexed by the table's value code) name positions."""
felt_key = FELT_ORDER.__getitem__


def code_of(cards: Sequence[int]) -> int:
    return sum(VALUE_CODE[c] for c in cards)


class Deal:
    """Hands, table, undealt cards, captures and scope of the deal being played."""

    __slots__ = (
        "apt",
        "captured",
        "code",
        "dealer",
        "deck",
        "discarded",
        "felt",
        "hand_size",
        "hands",
        "last",
        "left",
        "n",
        "pos",
        "rules",
        "scopa",
        "scope",
        "sides",
        "turn",
    )

    rules: Rules
    n: int
    sides: tuple[int, ...]
    apt: bool
    hand_size: int
    dealer: int
    turn: int
    hands: list[list[int]]
    felt: list[int]
    code: int
    deck: list[int]
    pos: int
    left: int
    captured: list[list[int]]
    scope: list[int]
    last: int
    scopa: bool
    discarded: list[int]

    @classmethod
    def build(
        cls,
        rules: Rules,
        *,
        hands: list[list[int]],
        felt: Sequence[int],
        turn: int,
        dealer: int,
        deck: list[int] | None = None,
        pos: int = 0,
        captured: list[list[int]] | None = None,
        scope: list[int] | None = None,
        last: int | None = None,
        discarded: list[int] | None = None,
    ) -> Deal:
        """A deal at any point. ``deck[pos:]`` are the undealt cards in dealing order (the list
        is shared, never changed); ``last`` is the seat of the last capture, if any."""
        d = object.__new__(cls)
        d.rules = rules
        d.n = rules.players
        d.sides = tuple(rules.side_of(s) for s in range(rules.players))
        d.apt = rules.asso_piglia_tutto
        d.hand_size = rules.hand_size
        d.dealer = dealer
        d.turn = turn
        d.hands = hands
        d.felt = sorted(felt, key=felt_key)
        d.code = code_of(d.felt)
        d.deck = deck if deck is not None else []
        d.pos = pos
        d.left = sum(len(h) for h in hands) + len(d.deck) - pos
        d.captured = captured if captured is not None else [[] for _ in range(rules.sides)]
        d.scope = scope if scope is not None else [0] * rules.sides
        d.last = -1 if last is None else last
        d.scopa = False
        d.discarded = discarded if discarded is not None else []
        return d

    def copy(self) -> Deal:
        d = object.__new__(Deal)
        d.rules = self.rules
        d.n = self.n
        d.sides = self.sides
        d.apt = self.apt
        d.hand_size = self.hand_size
        d.dealer = self.dealer
        d.turn = self.turn
        d.hands = [h[:] for h in self.hands]
        d.felt = self.felt[:]
        d.code = self.code
        d.deck = self.deck
        d.pos = self.pos
        d.left = self.left
        d.captured = [p[:] for p in self.captured]
        d.scope = self.scope[:]
        d.last = self.last
        d.scopa = self.scopa
        d.discarded = self.discarded[:]
        return d

    @property
    def options(self) -> Options:
        """Every capture the table allows, per played value (positions in ``table``)."""
        return code_cache(self.apt).get(self.code) or options_for_code(self.code, self.apt)

    def actions(self) -> list[IndexMove]:
        """Every legal move of the seat to play, in hand order then capture order."""
        felt = self.felt
        options = self.options
        out: list[IndexMove] = []
        for card in self.hands[self.turn]:
            caps = options[VALUE_OF[card]]
            if not caps:
                out.append((card, ()))
            elif len(caps) == 1:
                out.append((card, tuple([felt[i] for i in caps[0]])))
            else:
                for positions in caps:
                    out.append((card, tuple([felt[i] for i in positions])))
        return out

    def apply(self, card: int, taken: tuple[int, ...]) -> bool:
        """Play a legal move (unchecked); ``True`` when every card of the deal has been played.

        Sets ``scopa`` for this play. The very last play is never a scopa, nor an asso
        sweeping (asso piglia tutto) a table that held no asso. Hands are refilled when all
        are empty and cards remain; the leftovers wait for :meth:`finish`.
        """
        seat = self.turn
        hands = self.hands
        hands[seat].remove(card)
        self.left -= 1
        self.scopa = False
        felt = self.felt
        if taken:
            code = self.code
            for c in taken:
                felt.remove(c)
                code -= VALUE_CODE[c]
            self.code = code
            side = self.sides[seat]
            pile = self.captured[side]
            pile.append(card)
            pile.extend(taken)
            self.last = seat
            if (
                not felt
                and self.left
                and not (self.apt and VALUE_OF[card] == 1 and VALUE_OF[taken[0]] != 1)
            ):
                self.scopa = True
                self.scope[side] += 1
        else:
            insort(felt, card, key=felt_key)
            self.code += VALUE_CODE[card]
        seat += 1
        self.turn = seat if seat < self.n else 0
        if hands[self.turn]:
            return False
        if not self.left:
            return True
        if self.pos < len(self.deck) and not any(hands):
            self.refill()
        return False

    def refill(self) -> None:
        """Deal ``hand_size`` cards to each hand, from the dealer's right."""
        size = self.hand_size
        pos = self.pos
        deck = self.deck
        n = self.n
        for k in range(1, n + 1):
            seat = (self.dealer + k) % n
            self.hands[seat] = deck[pos : pos + size]
            pos += size
        self.pos = pos

    def finish(self) -> tuple[tuple[int, ...], int | None]:
        """Sweep the leftovers to the side of the last capture (to nobody if none was made);
        returns them and that side."""
        leftovers = tuple(self.felt)
        to: int | None = None
        if self.last >= 0:
            to = self.sides[self.last]
            self.captured[to].extend(leftovers)
        else:
            self.discarded.extend(leftovers)
        self.felt = []
        self.code = 0
        return leftovers, to

    def totals(self) -> list[int]:
        """Each side's points for the finished (and :meth:`finish`\\ ed) deal."""
        return deal_totals(self.rules, self.captured, self.scope)

    def score(self, number: int) -> DealScore:
        return score_deal(self.rules, self.captured, self.scope, deal=number)

    def playout(self, rng: random.Random) -> list[int]:
        """Play the deal to its end choosing at random (a random card, then a random capture
        among those allowed), sweep the leftovers, and return each side's points."""
        rand = rng.random
        apt = self.apt
        cached = code_cache(apt).get
        apply = self.apply
        while True:
            hand = self.hands[self.turn]
            card = hand[int(rand() * len(hand))]
            code = self.code
            caps = (cached(code) or options_for_code(code, apt))[VALUE_OF[card]]
            if not caps:
                over = apply(card, ())
            else:
                positions = caps[int(rand() * len(caps))] if len(caps) > 1 else caps[0]
                felt = self.felt
                over = apply(card, tuple([felt[i] for i in positions]))
            if over:
                self.finish()
                return self.totals()
