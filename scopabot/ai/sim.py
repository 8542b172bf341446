"""A lean copy of one deal for search: only what decides the deal's points, on card indices.

The engine's :class:`~scopabot.engine.Game` keeps a record, the plays and the match flow, and
deals the next hand when one ends; a search plays the same deal out tens of thousands of
times and needs none of that. :class:`Deal` follows the same rules (captures come from the
engine's own :func:`~scopabot.engine.capture_options`, the score from its ``score_deal``) and a
test plays it side by side with the engine to keep the two in step.
"""

from __future__ import annotations

import random
from typing import Final

from scopabot.engine import Rules, capture_options, score_deal
from scopabot.engine.captures import Options

from .features import SCOPA_WEIGHT, card_weights

VALUE: Final = tuple(c % 10 + 1 for c in range(40))
_ORDER: Final = tuple(VALUE[c] * 4 + c // 10 for c in range(40))
_order = _ORDER.__getitem__
CODE: Final = tuple(1 << (4 * VALUE[c]) for c in range(40))
"""A table's code sums its cards' ``CODE``: four bits counting each value, which is all the
capture rules look at, as one int kept up to date play by play (cheap to hash)."""
_BY_CODE: tuple[dict[int, Options], dict[int, Options]] = ({}, {})


def options_for(code: int, apt: bool) -> Options:
    """Every capture for each played value on the table with this code (positions index the
    table sorted by value then suit)."""
    cache = _BY_CODE[apt]
    found = cache.get(code)
    if found is None:
        values = tuple(v for v in range(1, 11) for _ in range((code >> (4 * v)) & 15))
        found = cache[code] = capture_options(values, apt)
    return found


Action = tuple[int, tuple[int, ...]]


class Deal:
    """The state of one deal; ``apply`` returns ``True`` when the deal is over."""

    __slots__ = (
        "apt",
        "captured",
        "code",
        "dealer",
        "deck",
        "hand_size",
        "hands",
        "last",
        "left",
        "n",
        "rules",
        "scope",
        "sides",
        "table",
        "turn",
        "weights",
    )

    rules: Rules
    n: int
    sides: tuple[int, ...]
    apt: bool
    hands: list[list[int]]
    table: list[int]
    deck: list[int]
    captured: list[list[int]]
    code: int
    scope: list[int]
    last: int
    turn: int
    dealer: int
    hand_size: int
    left: int
    weights: tuple[float, ...]

    @classmethod
    def build(
        cls,
        rules: Rules,
        *,
        hands: list[list[int]],
        table: list[int],
        deck: list[int],
        captured: list[list[int]],
        scope: list[int],
        last: int | None,
        turn: int,
        dealer: int,
        weights: tuple[float, ...] | None = None,
    ) -> Deal:
        d = object.__new__(cls)
        d.rules = rules
        d.n = rules.players
        d.sides = tuple(rules.side_of(s) for s in range(rules.players))
        d.apt = rules.asso_piglia_tutto
        d.hands = hands
        d.table = sorted(table, key=_order)
        d.code = sum(CODE[c] for c in table)
        d.deck = deck
        d.captured = captured
        d.scope = scope
        d.last = -1 if last is None else last
        d.turn = turn
        d.dealer = dealer
        d.hand_size = rules.hand_size
        d.left = sum(len(h) for h in hands) + len(deck)
        d.weights = weights if weights is not None else card_weights(rules)
        return d

    def copy(self) -> Deal:
        d = object.__new__(Deal)
        d.rules = self.rules
        d.n = self.n
        d.sides = self.sides
        d.apt = self.apt
        d.hands = [h[:] for h in self.hands]
        d.table = self.table[:]
        d.code = self.code
        d.deck = self.deck
        d.captured = [p[:] for p in self.captured]
        d.scope = self.scope[:]
        d.last = self.last
        d.turn = self.turn
        d.dealer = self.dealer
        d.hand_size = self.hand_size
        d.left = self.left
        d.weights = self.weights
        return d

    def actions(self) -> list[Action]:
        table = self.table
        options = options_for(self.code, self.apt)
        out: list[Action] = []
        for card in self.hands[self.turn]:
            caps = options[VALUE[card]]
            if not caps:
                out.append((card, ()))
            else:
                for positions in caps:
                    out.append((card, tuple([table[i] for i in positions])))
        return out

    def apply(self, card: int, taken: tuple[int, ...]) -> bool:
        seat = self.turn
        self.hands[seat].remove(card)
        self.left -= 1
        table = self.table
        if taken:
            for c in taken:
                table.remove(c)
                self.code -= CODE[c]
            pile = self.captured[self.sides[seat]]
            pile.append(card)
            pile.extend(taken)
            self.last = seat
            if (
                not table
                and self.left
                and not (self.apt and VALUE[card] == 1 and VALUE[taken[0]] != 1)
            ):
                self.scope[self.sides[seat]] += 1
        else:
            table.append(card)
            table.sort(key=_order)
            self.code += CODE[card]
        seat += 1
        self.turn = seat if seat < self.n else 0
        if self.hands[self.turn]:
            return False
        if self.left == 0:
            if self.last >= 0:
                self.captured[self.sides[self.last]].extend(table)
            self.table = []
            self.code = 0
            return True
        if self.deck and not any(self.hands):
            self._refill()
        return False

    def _refill(self) -> None:
        size = self.hand_size
        deck = self.deck
        for k in range(1, self.n + 1):
            seat = (self.dealer + k) % self.n
            self.hands[seat] = deck[:size]
            deck = deck[size:]
        self.deck = deck

    def totals(self) -> tuple[int, ...]:
        """Each side's points for the finished deal."""
        return tuple(fast_totals(self.rules, self.captured, self.scope))

    def engine_totals(self) -> tuple[int, ...]:
        """The totals as the engine scores them (tests compare the two)."""
        return score_deal(self.rules, self.captured, self.scope, deal=1).totals

    def reward(self, side: int) -> float:
        """The point difference for ``side``: its points minus the mean of the others'."""
        totals = self.totals()
        others = [t for s, t in enumerate(totals) if s != side]
        return totals[side] - sum(others) / len(others)

    def playout(self, rng: random.Random, eps: float) -> None:
        """Play to the end of the deal, each seat taking the greedy move (most valuable
        capture, no easy scopa left) except for a random move with probability ``eps``."""
        rand = rng.random
        w = self.weights
        apt = self.apt
        cache = _BY_CODE[apt]
        apply = self.apply
        while True:
            hand = self.hands[self.turn]
            table = self.table
            options = cache.get(self.code) or options_for(self.code, apt)
            if rand() < eps:
                card = hand[int(rand() * len(hand))]
                caps = options[VALUE[card]]
                if caps:
                    pos = caps[int(rand() * len(caps))] if len(caps) > 1 else caps[0]
                    taken = tuple([table[i] for i in pos])
                else:
                    taken = ()
                if apply(card, taken):
                    return
                continue
            tsum = 0
            for c in table:
                tsum += VALUE[c]
            best = -1e9
            best_card = hand[0]
            best_taken: tuple[int, ...] = ()
            ntable = len(table)
            for card in hand:
                v = VALUE[card]
                caps = options[v]
                if not caps:
                    rest = tsum + v
                    score = -0.5 * w[card]
                    if rest <= 10:
                        score -= 0.7
                    if score > best:
                        best, best_card, best_taken = score, card, ()
                    continue
                for pos in caps:
                    score = w[card]
                    rest = tsum
                    for i in pos:
                        score += w[table[i]]
                        rest -= VALUE[table[i]]
                    if len(pos) == ntable:
                        score += SCOPA_WEIGHT
                    elif rest <= 10:
                        score -= 0.7
                    if score > best:
                        best, best_card = score, card
                        best_taken = tuple([table[i] for i in pos])
            if apply(best_card, best_taken):
                return


_PRIMIERA: Final = tuple(
    {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12}.get(VALUE[c], 10) for c in range(40)
)


def _unique_max(values: list[int] | list[tuple[int, int, int]]) -> int:
    best = max(values)
    at = -1
    for i, v in enumerate(values):
        if v == best:
            if at >= 0:
                return -1
            at = i
    return at


def fast_totals(rules: Rules, captured: list[list[int]], scope: list[int]) -> list[int]:
    """The same totals as the engine's ``score_deal``, without building its records."""
    k = len(captured)
    totals = scope[:]
    cards = [len(p) for p in captured]
    w = _unique_max(cards)
    if w >= 0 and cards[w]:
        totals[w] += 1
    denari = [0] * k
    prim = [-1] * k
    sevens: list[tuple[int, int, int]] = []
    classic = rules.primiera.value == "classic"
    for side, pile in enumerate(captured):
        best = [0, 0, 0, 0]
        d = 0
        s7 = s6 = s1 = 0
        for c in pile:
            if c < 10:
                d += 1
                if c == 6 or (c == 9 and rules.re_bello):
                    totals[side] += 1
            p = _PRIMIERA[c]
            if p > best[c // 10]:
                best[c // 10] = p
            v = c % 10
            if v == 6:
                s7 += 1
            elif v == 5:
                s6 += 1
            elif v == 0:
                s1 += 1
        denari[side] = d
        if best[0] and best[1] and best[2] and best[3]:
            prim[side] = best[0] + best[1] + best[2] + best[3]
        sevens.append((s7, s6, s1))
        if rules.napola and 0 in pile and 1 in pile and 2 in pile:
            run = 3
            while run < 10 and run in pile:
                run += 1
            totals[side] += run
    w = _unique_max(denari)
    if w >= 0 and denari[w]:
        totals[w] += 1
    if classic:
        if max(prim) >= 0:
            w = _unique_max(prim)
            if w >= 0:
                totals[w] += 1
    elif max(sevens) != (0, 0, 0):
        w = _unique_max(sevens)
        if w >= 0:
            totals[w] += 1
    return totals


def informed_playout(deal: Deal, rng: random.Random, eps: float) -> None:
    """Like :meth:`Deal.playout`, but each seat looks at the next seat's hand in the sampled
    deal: it avoids leaving a sweep or the settebello only to a player who can take them.

    The seats know every hand here, as in any perfect-information playout; what this buys is
    a playout closer to how good players defend (they guess the next hand from the cards
    played), at a small cost per play.
    """
    rand = rng.random
    w = deal.weights
    apt = deal.apt
    cache = _BY_CODE[apt]
    apply = deal.apply
    hands = deal.hands
    n = deal.n
    while True:
        turn = deal.turn
        hand = hands[turn]
        table = deal.table
        options = cache.get(deal.code) or options_for(deal.code, apt)
        if rand() < eps:
            card = hand[int(rand() * len(hand))]
            caps = options[VALUE[card]]
            if caps:
                pos = caps[int(rand() * len(caps))] if len(caps) > 1 else caps[0]
                taken = tuple([table[i] for i in pos])
            else:
                taken = ()
            if apply(card, taken):
                return
            continue
        nxt = hands[turn + 1 if turn + 1 < n else 0]
        blind = not nxt
        nv = 0
        for c in nxt:
            nv |= 1 << VALUE[c]
        tsum = 0
        for c in table:
            tsum += VALUE[c]
        has_sette = SETTE in table
        best = -1e9
        best_card = hand[0]
        best_taken: tuple[int, ...] = ()
        ntable = len(table)
        for card in hand:
            v = VALUE[card]
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
                    if (has_sette or card == SETTE) and nv & 128:
                        score -= 1.0
                if score > best:
                    best, best_card, best_taken = score, card, ()
                continue
            for pos in caps:
                score = w[card]
                rest = tsum
                sette_left = has_sette
                for i in pos:
                    c = table[i]
                    score += w[c]
                    rest -= VALUE[c]
                    if c == SETTE:
                        sette_left = False
                if len(pos) == ntable:
                    score += SCOPA_WEIGHT
                elif blind:
                    if rest <= 10:
                        score -= 0.7
                else:
                    if rest <= 10 and nv >> rest & 1:
                        score -= 1.2
                    if sette_left and nv & 128:
                        score -= 1.0
                if score > best:
                    best, best_card = score, card
                    best_taken = tuple([table[i] for i in pos])
        if apply(best_card, best_taken):
            return


SETTE: Final = 6
