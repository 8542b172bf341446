"""The search levels' own copy of a deal, built for speed: card sets as 40-bit masks.

The search plays tens of thousands of simulated plays a move, and in Python the cost of a
play is the objects it makes and the loops it runs. Here a hand, the table and each side's
pile are one ``int`` each (bit ``c`` set for card index ``c``), so a play is a few bit
operations and allocates nothing; the captures a table allows are looked up by the table's
mask in a table filled from the engine's own capture rule (:func:`~scopabot.engine.
capture_options`) the first time that table is met; and a finished deal is scored from
counts taken off the masks (``int.bit_count`` and per-suit lookups) rather than by walking
the piles.

The engine's :class:`~scopabot.engine.Deal` stays the one statement of the rules: a state
here is always built from one (:meth:`State.of`), and ``tests/ai/test_core.py`` plays random
deals through both, for every preset and option, and finds no difference in any legal-move
list, capture, scopa or score.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from itertools import combinations, islice, permutations, product
from math import comb
from operator import itemgetter
from typing import Any, Final

from scopabot.engine import (
    PRIMIERA_POINTS,
    RE_BELLO,
    SETTEBELLO,
    VALUE_OF,
    Deal,
    PrimieraRule,
    Rules,
    Tiebreak,
)

from .features import SCOPA_WEIGHT, card_weights

DENARI: Final = (1 << 10) - 1
"""The denari are card indices 0..9: the low ten bits of a mask."""
ACES: Final = sum(1 << c for c in range(40) if VALUE_OF[c] == 1)
SEVENS: Final = sum(1 << c for c in range(40) if VALUE_OF[c] == 7)
SIXES: Final = sum(1 << c for c in range(40) if VALUE_OF[c] == 6)
SETTEBELLO_BIT: Final = 1 << SETTEBELLO
RE_BELLO_BIT: Final = 1 << RE_BELLO
_VALUE_SEVEN: Final = 1 << 6
"""In a mask folded to values (:func:`values_of`), bit ``v - 1`` stands for value ``v``."""

PRIMIERA_OF_SUIT: Final = tuple(
    max((PRIMIERA_POINTS[v + 1] for v in range(10) if chunk >> v & 1), default=0)
    for chunk in range(1024)
)
"""The best primiera card of one suit, indexed by that suit's ten bits (0: no card of it)."""
_ALL_SUITS: Final = 4 * 64
_PRIMIERA_HELD: Final = tuple(p + 64 if p else 0 for p in PRIMIERA_OF_SUIT)
"""The best primiera card of a suit plus 64 for holding the suit, so that a sum of the four
suits is at least :data:`_ALL_SUITS` exactly when every suit is held (the primiera is then
that sum less it; three suits make at most 255)."""
_PRIMIERA_REST: Final = tuple(_PRIMIERA_HELD[chunk ^ DENARI] for chunk in range(1024))
"""The same for the cards of a suit that a chunk does not hold."""
_ALL_CARDS: Final = (1 << 40) - 1
_CODE_OF_SUIT: Final = tuple(
    sum(1 << (4 * (v + 1)) for v in range(10) if chunk >> v & 1) for chunk in range(1024)
)
"""The code (:data:`VALUE_CODE`) of the cards of one suit, by that suit's ten bits."""
NAPOLA_OF: Final = tuple(
    0 if chunk & 7 != 7 else next((r for r in range(3, 10) if not chunk >> r & 1), 10)
    for chunk in range(1024)
)
"""Napola points, indexed by the ten bits of the denari held: asso, due and tre of denari
make 3, and every further consecutive denaro one more."""

VALUE_CODE: Final = tuple(1 << (4 * VALUE_OF[c]) for c in range(40))
"""A table's *code*, as the engine keeps it: four bits counting the cards of each value."""
OF_VALUE: Final = tuple(sum(1 << c for c in range(40) if VALUE_OF[c] == v) for v in range(11))
"""The four cards of each value 1..10, as a mask."""
_CACHE_LIMIT: Final = 100_000
_GREEDY_LIMIT: Final = 40_000
"""About 1.5 KB a table: some 60 MB for a worker that has searched for a long time."""

_SEVERAL: Final = 1 << 40
"""In a row of :meth:`Core.row`, the "cards taken" of a card with several captures: no card
of a table, so that taking them off the table leaves nothing."""
_ROWS_LIMIT: Final = 100_000


Recipe = tuple[int, int, tuple[tuple[int, int], ...]]
"""One way to take cards of a table by sum, by values: the mask of the values taken whole,
the change to the table's code, and the values of which only some cards are taken (value,
how many: each choice of those cards is a different capture)."""

_SAME_VALUE: Final = 0
_BY_SUM: Final = 1
_LISTED: Final = 2
Several = tuple[int, tuple[int, ...], tuple[int, ...], tuple[Recipe, ...]]
"""The choices of a card with several captures of a table's code, in the random playout
(:meth:`Core.row`), in the order :func:`captures` lists them: :data:`_SAME_VALUE`, one of
the table's cards of its value (the mask of the four, the code's number after); or
:data:`_BY_SUM`, the captures by sum, each taking every card of the values it names (their
masks, as in a row, and the code's number after each); or :data:`_LISTED`, captures by sum
of which some take only some of the cards of a value (where each recipe's captures end in
the list, the code's number after each, the recipes: only the drawn one is spelled out,
:func:`expand`). A capture is drawn with the same random number as from the list."""


def values_of(mask: int) -> int:
    """The values present in a set of cards, as bits: bit ``v - 1`` for value ``v``."""
    return (mask | mask >> 10 | mask >> 20 | mask >> 30) & DENARI


def cards_of(mask: int) -> list[int]:
    """The card indices of a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def code_of(mask: int) -> int:
    code = 0
    while mask:
        low = mask & -mask
        code += VALUE_CODE[low.bit_length() - 1]
        mask ^= low
    return code


Row = tuple[float, ...]
Greedy = tuple[
    int, tuple[bool, ...], Row, Row, Row, tuple[int, ...], tuple[int, ...], tuple[int, ...]
]
"""A table for the playouts' greedy rule, by played value 0..10 (0 unused): its code, whether
the value captures, the worth of its best play beside the card's own (with no next hand in
view; with one; with one that holds a seven), the values whose presence in the next hand
makes the play leave a sweep (as bits), and the best capture (and the best when a seven is
feared). See :meth:`Core.greedy_entry`."""
Step = tuple[int, int]
"""What a card does to a table in the random playout: see :meth:`Core.row`."""
Getter = Callable[[Sequence[int]], tuple[int, ...]]
"""Picks cards off a sequence of them (a deck, hands given in turn), in a new order."""
Progress = tuple[tuple[Getter, ...] | None, Getter, tuple[int, ...]]
"""A round in progress, as :meth:`Core.in_progress` plays it."""
Entry = tuple[int, tuple[tuple[Recipe, ...], ...]]
"""What a table of one code allows: the sum of its values, and for each played value 0..10 (0
unused) that has no card of its value on the felt, the recipes of its captures."""


class Core:
    """What the search needs to know of one set of rules, and its table of captures.

    The captures are looked up by the table's *code* (how many cards of each value it holds,
    which is all the capture rule looks at): a few thousand codes cover almost every table
    met, where masks would be counted in hundreds of thousands. A recipe turns into the
    cards taken with one ``&`` on the felt's mask, since it takes every card of the values
    it names; only when a table holds two cards of a value and a sum takes one of them are
    the choices spelled out (:func:`expand`)."""

    __slots__ = (
        "alternate",
        "apt",
        "code_ids",
        "codes",
        "greedy",
        "hand_size",
        "later",
        "lay_feared",
        "lay_worth",
        "n",
        "napola",
        "next_seat",
        "progress",
        "re_bello",
        "recipes",
        "round_cards",
        "round_seats",
        "rounds",
        "rows",
        "rules",
        "sevens",
        "several",
        "side_of",
        "sides",
        "suit_weights",
        "weights",
    )

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.n = rules.players
        self.sides = rules.sides
        self.side_of = tuple(rules.side_of(s) for s in range(rules.players))
        self.next_seat = tuple((s + 1) % rules.players for s in range(rules.players))
        # Two sides whose seats play in turn (two players, or two teams of two).
        self.alternate = self.sides == 2 and all(
            self.side_of[s] != self.side_of[self.next_seat[s]] for s in range(self.n)
        )
        self.apt = rules.asso_piglia_tutto
        self.hand_size = rules.hand_size
        self.napola = rules.napola
        self.re_bello = rules.re_bello
        self.sevens = rules.primiera is PrimieraRule.SEVENS
        self.weights = w = card_weights(rules)
        self.suit_weights = tuple(
            tuple(
                sum(w[suit * 10 + v] for v in range(10) if chunk >> v & 1) for chunk in range(1024)
            )
            for suit in range(4)
        )
        self.recipes: dict[int, Entry] = {}
        self.codes: list[int] = []
        self.code_ids: dict[int, int] = {}
        self.rows: list[tuple[Step, ...] | None] = []
        self.several: list[Several] = []
        self.greedy: dict[int, Greedy] = {}
        self.round_cards = rules.players * rules.hand_size
        self.rounds: dict[int, tuple[Getter, ...]] = {}
        self.progress: dict[tuple[int, ...], Progress] = {}
        self.later: dict[tuple[int, int], tuple[tuple[Getter, ...], ...]] = {}
        # The seat of each play of a whole round, by dealer: from the dealer's right.
        self.round_seats = tuple(
            tuple((dealer + 1 + i) % self.n for _ in range(self.hand_size) for i in range(self.n))
            for dealer in range(self.n)
        )
        # A laid card gives away half its worth; the settebello laid where the next hand
        # holds a seven costs a point more.
        self.lay_worth = tuple(-0.5 * x for x in w)
        self.lay_feared = tuple(
            x - (1.0 if c == SETTEBELLO else 0.0) for c, x in enumerate(self.lay_worth)
        )

    def entry(self, code: int) -> Entry:
        """The recipes of a table's code, looked up (and worked out the first time)."""
        return self.recipes.get(code) or self.compute(code)

    def compute(self, code: int) -> Entry:
        """Work out a code's recipes: the capture rule of the engine's
        :func:`~scopabot.engine.capture_options`, by values rather than by cards (every
        choice of how many cards of each value, summing to at most 10), so that a table of
        a dozen cards costs a few hundred choices rather than its 4,096 subsets."""
        if len(self.recipes) >= _CACHE_LIMIT:
            self.recipes.clear()
        counts = [code >> (4 * v) & 15 for v in range(11)]
        # (sum, cards, change to the code, values taken whole, values taken in part, and the
        # first table positions it takes, by which the engine would list it first)
        subsets: list[tuple[int, int, int, int, tuple[tuple[int, int], ...], tuple[int, ...]]]
        subsets = [(0, 0, 0, 0, (), ())]
        start = 0
        whole_table = 0
        for u in range(1, 11):
            k = counts[u]
            if not k:
                continue
            whole_table |= OF_VALUE[u]
            grown = []
            for total, cards, delta, whole, partial, first in subsets:
                grown.append((total, cards, delta, whole, partial, first))
                for t in range(1, k + 1):
                    s = total + t * u
                    if s > 10:
                        break
                    grown.append(
                        (
                            s,
                            cards + t,
                            delta + (t << (4 * u)),
                            whole | OF_VALUE[u] if t == k else whole,
                            partial if t == k else (*partial, (u, t)),
                            first + tuple(range(start, start + t)),
                        )
                    )
            subsets = grown
            start += k
        by_sum: list[list[tuple[int, tuple[int, ...], Recipe]]] = [[] for _ in range(11)]
        for total, cards, delta, whole, partial, first in subsets:
            if cards >= 2:
                by_sum[total].append((cards, first, (whole, delta, partial)))
        per_value: list[tuple[Recipe, ...]] = [()]
        for v in range(1, 11):
            if counts[v]:
                per_value.append(())  # taken card by card: see captures()
            elif v == 1 and self.apt and code:
                per_value.append(((whole_table, code, ()),))  # asso piglia tutto
            else:
                per_value.append(tuple(r for _, _, r in sorted(by_sum[v])))
        found = self.recipes[code] = (sum(v * counts[v] for v in range(11)), tuple(per_value))
        return found

    def round_orders(self, pos: int) -> tuple[Getter, ...]:
        """Every order of play of the round dealt from ``pos`` of a deck: one getter per
        choice of an order for each hand, which picks the round's cards off the deck in the
        order they are played (the first hand dealt, the dealer's right, plays first).

        A scopa round has (3!)^players of them, 36 to 1,296: a random one is a uniformly
        random play of the round (only scopa's three-card hands are ever refilled)."""
        found = self.rounds.get(pos)
        if found is None:
            size, n = self.hand_size, self.n
            per_hand = list(permutations(range(size)))
            found = self.rounds[pos] = tuple(
                itemgetter(*[pos + i * size + choice[i][k] for k in range(size) for i in range(n)])
                for choice in product(per_hand, repeat=n)
            )
        return found

    def later_rounds(self, pos: int, end: int) -> tuple[tuple[Getter, ...], ...]:
        """The orders of play (:meth:`round_orders`) of each round still to be dealt from
        ``pos`` of a deck of ``end`` cards."""
        found = self.later[pos, end] = tuple(
            self.round_orders(at) for at in range(pos, end, self.round_cards)
        )
        return found

    def code_id(self, code: int) -> int:
        """The number of a table's code in the random playout's rows (:meth:`row`)."""
        found = self.code_ids.get(code)
        if found is None:
            found = self.code_ids[code] = len(self.codes)
            self.codes.append(code)
            self.rows.append(None)
        return found

    def row(self, number: int) -> tuple[Step, ...]:
        """What each card does to a table of the code numbered ``number`` in the random
        playout, worked out the first time it is met: (cards taken, the code's number
        after the play), the card being put on the table first. A card laid takes none
        (0); a card with one capture takes every card of the values it names, its own
        value's included (a mask of their cards, picked off the table with one ``&``); a
        card with several takes :data:`_SEVERAL`, which picks none, and the number of its
        choices (:data:`Several`) in :attr:`several`. The codes are numbered so that a play
        follows a row rather than working out the next code and hashing it."""
        code = self.codes[number]
        counts = [code >> (4 * v) & 15 for v in range(11)]
        recipes = self.entry(code)[1]
        code_id = self.code_id
        several = self.several
        by_value: list[Step] = [(0, 0)]
        for v in range(1, 11):
            if counts[v] == 1:
                by_value.append((OF_VALUE[v], code_id(code - (1 << (4 * v)))))
            elif counts[v]:
                by_value.append((_SEVERAL, len(several)))
                unit = 1 << (4 * v)
                several.append((_SAME_VALUE, (OF_VALUE[v],), (code_id(code - unit),), ()))
            elif not recipes[v]:
                by_value.append((0, code_id(code + (1 << (4 * v)))))
            elif len(recipes[v]) == 1 and not recipes[v][0][2]:
                whole, delta, _ = recipes[v][0]
                by_value.append((whole | OF_VALUE[v], code_id(code - delta)))
            else:
                by_value.append((_SEVERAL, len(several)))
                nexts = tuple(code_id(code - delta) for _, delta, _ in recipes[v])
                if any(partial for _, _, partial in recipes[v]):
                    # How many captures each recipe makes on any table of this code, added
                    # up: a random number below the total falls in one recipe's range.
                    ends = []
                    total = 0
                    for _, _, partial in recipes[v]:
                        made = 1
                        for u, j in partial:
                            made *= comb(counts[u], j)
                        total += made
                        ends.append(total)
                    several.append((_LISTED, tuple(ends), nexts, recipes[v]))
                else:
                    masks = tuple(whole | OF_VALUE[v] for whole, _, _ in recipes[v])
                    several.append((_BY_SUM, masks, nexts, ()))
        found = self.rows[number] = tuple(by_value[VALUE_OF[c]] for c in range(40))
        return found

    def in_progress(self, turn: int, sizes: Sequence[int]) -> Progress:
        """How the round in progress is played, ``sizes`` being the hands' sizes by seat:
        whether it is a whole round of scopa (then one of :meth:`round_orders` plays it,
        the hands given in turn from the seat to play as the round's part of a deck), the
        getter that puts the hands' cards, each hand shuffled and given in that turn, in
        the order they are played, and the seat of each play. Each seat plays one card in
        turn until a seat to play has none (the hands of a round differ by at most one
        card, the larger first)."""
        n = self.n
        key = (turn, *sizes)
        known = self.progress.get(key)
        if known is not None:
            return known
        held = [sizes[(turn + i) % n] for i in range(n)]
        starts = [sum(held[:i]) for i in range(n)]
        used = [0] * n
        indices = []
        seats = []
        i = 0
        while used[i] < held[i]:
            indices.append(starts[i] + used[i])
            seats.append((turn + i) % n)
            used[i] += 1
            i = (i + 1) % n
        whole = self.rules.redeals and all(k == self.hand_size for k in held)
        found: Progress = (
            self.round_orders(0) if whole else None,
            _getter(indices),
            tuple(seats),
        )
        self.progress[key] = found
        return found

    def greedy_entry(self, felt: int) -> Greedy:
        """What the playouts' greedy rule needs of a table, worked out the first time it is
        met. A search meets a thousand or so new tables a move, so this is kept cheap: each
        capture is a recipe's ``&`` on the felt (see :func:`captures`).

        The rule scores a play as the worth of the cards taken (the card played counted by
        the caller), a point more for a sweep; a laid card as half its worth given away. A
        play that leaves a table of 10 or less costs 0.7 when the next hand is not looked
        at, and 1.2 when the next hand holds the card to sweep it; one that leaves the
        settebello to a next hand holding a seven costs a point.
        """
        greedy = self.greedy
        if len(greedy) >= _GREEDY_LIMIT:
            # The oldest half goes: the tables of the deals searched lately stay.
            for key in list(islice(greedy, len(greedy) // 2)):
                del greedy[key]
        code = (
            _CODE_OF_SUIT[felt & DENARI]
            + _CODE_OF_SUIT[felt >> 10 & DENARI]
            + _CODE_OF_SUIT[felt >> 20 & DENARI]
            + _CODE_OF_SUIT[felt >> 30]
        )
        tsum, recipes = self.recipes.get(code) or self.compute(code)
        # The worth of a set of cards is weight() written out (the same sums, in the same
        # order): this runs for every new table a search meets.
        w0, w1, w2, w3 = self.suit_weights
        sette = felt & SETTEBELLO_BIT
        # By value, (captures, blind, plain, feared, risk, take, take_feared): see Greedy.
        rows: list[tuple[bool, float, float, float, int, int, int]] = [
            (False, 0.0, 0.0, 0.0, 0, 0, 0)
        ]
        append = rows.append
        for v in range(1, 11):
            same = felt & OF_VALUE[v]
            caps: list[int] = []
            if same:
                while same:
                    low = same & -same
                    caps.append(low)
                    same ^= low
            else:
                for recipe in recipes[v]:
                    if recipe[2]:
                        caps.extend(expand(felt, recipe))
                    else:
                        caps.append(felt & recipe[0])
            if not caps:
                rest = tsum + v
                if rest <= 10:
                    append((False, -0.7, 0.0, -1.0 if sette else 0.0, 1 << (rest - 1), 0, 0))
                else:
                    append((False, 0.0, 0.0, -1.0 if sette else 0.0, 0, 0, 0))
                continue
            if felt in caps:
                # A sweep outweighs any other capture of the same card (it takes more).
                worth = (
                    w0[felt & DENARI] + w1[felt >> 10 & DENARI] + w2[felt >> 20 & DENARI]
                ) + w3[felt >> 30]
                worth += SCOPA_WEIGHT
                append((True, worth, worth, worth, 0, felt, felt))
                continue
            best = best_feared = caps[0]
            best_worth = best_feared_worth = -1e9
            for m in caps:
                worth = (w0[m & DENARI] + w1[m >> 10 & DENARI] + w2[m >> 20 & DENARI]) + w3[m >> 30]
                if worth > best_worth:
                    best, best_worth = m, worth
                if sette and not m & sette:
                    worth -= 1.0
                if worth > best_feared_worth:
                    best_feared, best_feared_worth = m, worth
            rest = tsum - v
            if rest <= 10:
                append(
                    (
                        True,
                        best_worth - 0.7,
                        best_worth,
                        best_feared_worth,
                        1 << (rest - 1),
                        best,
                        best_feared,
                    )
                )
            else:
                append((True, best_worth, best_worth, best_feared_worth, 0, best, best_feared))
        captures_, blind, plain, feared, risk, take, take_feared = zip(*rows, strict=True)
        found = greedy[felt] = (
            code,
            captures_,
            blind,
            plain,
            feared,
            risk,
            take,
            take_feared,
        )
        return found

    def weight(self, mask: int) -> float:
        """The worth of taking these cards (as :mod:`.features` weighs them)."""
        sw = self.suit_weights
        return (
            sw[0][mask & DENARI]
            + sw[1][mask >> 10 & DENARI]
            + sw[2][mask >> 20 & DENARI]
            + sw[3][mask >> 30]
        )

    def totals(self, piles: Sequence[int], scope: Sequence[int]) -> list[int]:
        """Each side's points for a finished deal whose captured cards are ``piles``, as the
        engine's ``deal_totals`` counts them."""
        if len(piles) == 2 and not self.sevens:
            return self._two_sides(piles[0], piles[1], scope)
        totals = list(scope)
        # Each of these points goes to a unique maximum, and nobody takes it with nothing:
        # the best so far and its side (-1 while tied).
        most_cards = most_denari = best_primiera = 0
        cards_to = denari_to = primiera_to = -1
        napola = self.napola
        re_bello = self.re_bello
        sevens = self.sevens
        held = _PRIMIERA_HELD
        for side, m in enumerate(piles):
            k = m.bit_count()
            if k > most_cards:
                most_cards, cards_to = k, side
            elif k == most_cards:
                cards_to = -1
            d = m & DENARI
            k = d.bit_count()
            if k > most_denari:
                most_denari, denari_to = k, side
            elif k == most_denari:
                denari_to = -1
            if sevens:
                k = (
                    (m & SEVENS).bit_count() * 100
                    + (m & SIXES).bit_count() * 10
                    + (m & ACES).bit_count()
                )
            else:
                k = held[d] + held[m >> 10 & DENARI] + held[m >> 20 & DENARI] + held[m >> 30]
                if k < _ALL_SUITS:
                    k = 0
            if k > best_primiera:
                best_primiera, primiera_to = k, side
            elif k == best_primiera:
                primiera_to = -1
            if m & SETTEBELLO_BIT:
                totals[side] += 1
            if re_bello and m & RE_BELLO_BIT:
                totals[side] += 1
            if napola:
                totals[side] += NAPOLA_OF[d]
        if cards_to >= 0:
            totals[cards_to] += 1
        if denari_to >= 0:
            totals[denari_to] += 1
        if primiera_to >= 0:
            totals[primiera_to] += 1
        return totals

    def _two_sides(self, a: int, b: int, scope: Sequence[int]) -> list[int]:
        # The same count as below for the usual case, without a list per count; when every
        # card has been taken (the end of almost every deal) the second side's counts are
        # what the first's leave, read off the same four suits.
        ta, tb = scope
        d0 = a & DENARI
        d1 = a >> 10 & DENARI
        d2 = a >> 20 & DENARI
        d3 = a >> 30
        held = _PRIMIERA_HELD
        pa = held[d0] + held[d1] + held[d2] + held[d3]
        if a ^ b == _ALL_CARDS:
            rest = _PRIMIERA_REST
            pb = rest[d0] + rest[d1] + rest[d2] + rest[d3]
            na = a.bit_count()
            if na != 20:
                if na > 20:
                    ta += 1
                else:
                    tb += 1
            ca = d0.bit_count()
            if ca != 5:
                if ca > 5:
                    ta += 1
                else:
                    tb += 1
            db = d0 ^ DENARI
        else:
            pb = held[b & DENARI] + held[b >> 10 & DENARI] + held[b >> 20 & DENARI] + held[b >> 30]
            na, nb = a.bit_count(), b.bit_count()
            if na != nb:
                if na > nb:
                    ta += 1
                else:
                    tb += 1
            db = b & DENARI
            ca, cb = d0.bit_count(), db.bit_count()
            if ca != cb:
                if ca > cb:
                    ta += 1
                else:
                    tb += 1
        # A side missing a suit has no primiera (its sum is below _ALL_SUITS).
        if pa != pb and (pa >= _ALL_SUITS or pb >= _ALL_SUITS):
            if pa > pb:
                ta += 1
            else:
                tb += 1
        if a & SETTEBELLO_BIT:
            ta += 1
        elif b & SETTEBELLO_BIT:
            tb += 1
        if self.re_bello:
            if a & RE_BELLO_BIT:
                ta += 1
            elif b & RE_BELLO_BIT:
                tb += 1
        if self.napola:
            ta += NAPOLA_OF[d0]
            tb += NAPOLA_OF[db]
        return [ta, tb]

    def reward(self, piles: Sequence[int], scope: Sequence[int], side: int) -> float:
        """The point difference for ``side``: its points minus the mean of the others'."""
        totals = self.totals(piles, scope)
        if len(totals) == 2:
            return float(totals[side] - totals[1 - side])
        mine = totals[side]
        return mine - (sum(totals) - mine) / (len(totals) - 1)


def core_for(rules: Rules) -> Core:
    """One :class:`Core` per set of rules of play, kept for the process: its tables warm up
    over the deals a worker searches, whatever the match's length."""
    return _core_for(rules.replace(target=11, deals=None, tiebreak=Tiebreak.EXTRA_DEAL))


@lru_cache(maxsize=64)
def _core_for(rules: Rules) -> Core:
    return Core(rules)


def expand(felt: int, recipe: Recipe) -> list[int]:
    """Every capture of one recipe on this table: the values taken whole, and each choice
    of the cards of the values taken in part."""
    whole, _, partial = recipe
    choices = [felt & whole]
    for u, j in partial:
        cards = cards_of(felt & OF_VALUE[u])
        choices = [m | mask_of(combo) for m in choices for combo in combinations(cards, j)]
    return choices


def captures(core: Core, felt: int, code: int, value: int) -> list[tuple[int, int]]:
    """Every capture a card of ``value`` may make, as (mask of the cards taken, change to the
    table's code); none when it can only be laid."""
    same = felt & OF_VALUE[value]
    out: list[tuple[int, int]] = []
    if same:
        unit = 1 << (4 * value)
        while same:
            low = same & -same
            out.append((low, unit))
            same ^= low
        return out
    for recipe in (core.recipes.get(code) or core.compute(code))[1][value]:
        if recipe[2]:
            delta = recipe[1]
            out.extend([(m, delta) for m in expand(felt, recipe)])
        else:
            out.append((felt & recipe[0], recipe[1]))
    return out


class State:
    """A deal in play for the search: what :class:`~scopabot.engine.Deal` holds, with the
    table and the piles as masks and each hand as a list of card indices in no order (the
    rules never look at the order; a list is the quickest to draw from and to walk)."""

    __slots__ = (
        "code",
        "dealer",
        "deck",
        "felt",
        "hands",
        "last",
        "left",
        "piles",
        "pos",
        "scopa",
        "scope",
        "turn",
    )

    def __init__(
        self,
        hands: list[list[int]],
        felt: int,
        code: int,
        turn: int,
        left: int,
        piles: list[int],
        scope: list[int],
        last: int,
        deck: tuple[int, ...],
        pos: int,
        dealer: int,
    ) -> None:
        self.hands = hands
        self.felt = felt
        self.code = code
        self.turn = turn
        self.left = left
        self.piles = piles
        self.scope = scope
        self.last = last
        self.deck = deck
        self.pos = pos
        self.dealer = dealer
        self.scopa = False

    @classmethod
    def of(cls, deal: Deal) -> State:
        """The same position as an engine deal (the undealt cards in the same order)."""
        felt = mask_of(deal.felt)
        return cls(
            [h[:] for h in deal.hands],
            felt,
            code_of(felt),
            deal.turn,
            deal.left,
            [mask_of(p) for p in deal.captured],
            deal.scope[:],
            deal.last,
            tuple(deal.deck[deal.pos :]),
            0,
            deal.dealer,
        )

    def copy(self) -> State:
        # Made field by field rather than through __init__: the search copies a sampled
        # deal for every move it tries, and a call with eleven arguments costs twice this.
        s = _new(State)
        s.hands = [*map(_copy_list, self.hands)]
        s.felt = self.felt
        s.code = self.code
        s.turn = self.turn
        s.left = self.left
        s.piles = self.piles[:]
        s.scope = self.scope[:]
        s.last = self.last
        s.deck = self.deck
        s.pos = self.pos
        s.dealer = self.dealer
        s.scopa = self.scopa
        return s


_new: Final = object.__new__
_copy_list: Final = list.copy


def actions(core: Core, s: State) -> list[tuple[int, int]]:
    """Every legal move of the seat to play, as (card index, mask of the cards taken)."""
    out: list[tuple[int, int]] = []
    for card in s.hands[s.turn]:
        caps = captures(core, s.felt, s.code, VALUE_OF[card])
        if caps:
            out.extend((card, m) for m, _ in caps)
        else:
            out.append((card, 0))
    return out


def apply(core: Core, s: State, card: int, taken: int) -> bool:
    """Play a legal move (unchecked), as ``Deal.apply`` does; ``True`` when every card of
    the deal has been played (the leftovers wait for :func:`finish`)."""
    seat = s.turn
    bit = 1 << card
    hands = s.hands
    hands[seat].remove(card)
    s.left -= 1
    s.scopa = False
    if taken:
        s.felt ^= taken
        s.code -= code_of(taken)
        side = core.side_of[seat]
        s.piles[side] |= taken | bit
        s.last = seat
        if not s.felt and s.left and not (core.apt and VALUE_OF[card] == 1 and not taken & ACES):
            s.scopa = True
            s.scope[side] += 1
    else:
        s.felt |= bit
        s.code += VALUE_CODE[card]
    seat = core.next_seat[seat]
    s.turn = seat
    if hands[seat]:
        return False
    if not s.left:
        return True
    if s.pos < len(s.deck) and not any(hands):
        refill(core, s)
    return False


def refill(core: Core, s: State) -> None:
    """Deal ``hand_size`` cards to each hand, from the dealer's right."""
    size = core.hand_size
    pos = s.pos
    seat = core.next_seat[s.dealer]
    for _ in range(core.n):
        s.hands[seat] = list(s.deck[pos : pos + size])
        pos += size
        seat = core.next_seat[seat]
    s.pos = pos


def finish(core: Core, s: State) -> None:
    """Sweep the leftovers to the side of the last capture (to nobody if none was made)."""
    if s.last >= 0:
        s.piles[core.side_of[s.last]] |= s.felt
    s.felt = 0
    s.code = 0


_BIT: Final = tuple(1 << c for c in range(40))
_SAME: Final = tuple(OF_VALUE[VALUE_OF[c]] for c in range(40))
"""The four cards of each card's value, by card index."""
_VALUE_BIT: Final = tuple(1 << (VALUE_OF[c] - 1) for c in range(40))


def playout_reward(
    core: Core,
    s: State,
    side: int,
    stream: Sequence[float],
    eps: float,
    informed: bool,
) -> float:
    """Play ``s`` to the end of the deal (leftovers swept) and value it for ``side``.

    Each seat takes the greedy move except for a random move with probability ``eps``; the
    randomness is read from ``stream`` in turn (and again from its start if it runs out), so
    that every move searched from one sampled deal meets the same luck (common random
    numbers) without a generator made per playout.

    Greedy: the most valuable capture (cards weighed as in :mod:`.features`, a sweep one
    point), and no table of 10 or less left behind. ``informed`` seats look at the next
    seat's hand in the sampled deal instead: they avoid leaving a sweep or the settebello
    only to a player who can take them. Every seat knows every hand here, as in any
    perfect-information playout; informing the greedy rule makes the playout defend the way
    good players do (they guess the next hand from the cards played).

    The play is written out in this one loop, on local names (a call per play would cost
    more than the play itself); what a table allows is looked up by its mask
    (:meth:`Core.greedy_entry`).
    """
    hands = s.hands
    felt = s.felt
    seat = s.turn
    left = s.left
    piles = s.piles
    scope = s.scope
    last = s.last
    deck = s.deck
    pos = s.pos
    entries = core.greedy
    compute = core.greedy_entry
    recipes = core.recipes
    same_of = _SAME
    lay_worth = core.lay_worth
    lay_feared = core.lay_feared
    side_of = core.side_of
    next_seat = core.next_seat
    apt = core.apt
    w = core.weights
    size = core.hand_size
    n = core.n
    value = VALUE_OF
    bits = _BIT
    # Each hand's values as bits, kept up to date play by play, for the next seat's threats.
    held = [0] * n
    if informed:
        for h in range(n):
            m = 0
            for c in hands[h]:
                m |= bits[c]
            held[h] = m
    at = 0
    count = len(stream)
    while True:
        hand = hands[seat]
        code, capturing, blind, plain, feared, risk, take, take_feared = entries.get(
            felt
        ) or compute(felt)
        r = stream[at]
        at = at + 1 if at + 1 < count else 0
        if r < eps:
            # A random card, then a random capture among those it allows.
            card = hand[int(r / eps * len(hand))]
            v = value[card]
            taken = 0
            if capturing[v]:
                r = stream[at]
                at = at + 1 if at + 1 < count else 0
                same = felt & same_of[card]
                if same:
                    for _ in range(int(r * same.bit_count())):
                        same &= same - 1
                    taken = same & -same
                else:
                    rec = (recipes.get(code) or core.compute(code))[1][v]
                    recipe = rec[int(r * len(rec))]
                    if recipe[2]:
                        choices = expand(felt, recipe)
                        taken = choices[int(r * len(choices))]
                    else:
                        taken = felt & recipe[0]
        else:
            nxt = held[next_seat[seat]]
            nv = (nxt | nxt >> 10 | nxt >> 20 | nxt >> 30) & DENARI
            if not nv:
                worth, laid = blind, lay_worth
            elif nv & _VALUE_SEVEN:
                worth, laid = feared, lay_feared
            else:
                worth, laid = plain, lay_worth
            best = -1e9
            card = hand[0]
            for c in hand:
                v = value[c]
                score = (w[c] if capturing[v] else laid[c]) + worth[v]
                if nv & risk[v]:
                    score -= 1.2
                if score > best:
                    best, card = score, c
            v = value[card]
            taken = (take_feared if worth is feared else take)[v]
        # The play itself, as apply() makes it.
        hand.remove(card)
        left -= 1
        if informed:
            held[seat] ^= bits[card]
        if taken:
            felt ^= taken
            sd = side_of[seat]
            piles[sd] |= taken | bits[card]
            last = seat
            if not felt and left and not (apt and value[card] == 1 and not taken & ACES):
                scope[sd] += 1
        else:
            felt |= bits[card]
        seat = next_seat[seat]
        if hands[seat]:
            continue
        if not left:
            break
        if pos < len(deck) and not any(hands):
            to = next_seat[s.dealer]
            for _ in range(n):
                dealt = list(deck[pos : pos + size])
                hands[to] = dealt
                if informed:
                    m = 0
                    for c in dealt:
                        m |= bits[c]
                    held[to] = m
                pos += size
                to = next_seat[to]
    if last >= 0:
        piles[side_of[last]] |= felt
    s.felt = s.code = s.left = 0
    s.turn = seat
    s.last = last
    s.pos = pos
    return core.reward(piles, scope, side)


def _getter(indices: Sequence[int]) -> Callable[[Sequence[int]], tuple[int, ...]]:
    """``itemgetter`` that always gives a tuple (it gives the item itself for one index)."""
    if len(indices) >= 2:
        return itemgetter(*indices)
    if indices:
        only = indices[0]
        return lambda cards: (cards[only],)
    return lambda cards: ()


def _shuffle_stages(k: int) -> tuple[tuple[Callable[[Sequence[int]], tuple[int, ...]], ...], ...]:
    """Getters that put ``k`` cards in a uniformly random order, one getter drawn from each
    stage in turn (each order of the ``k`` cards is made by exactly one choice of a getter
    at each stage): up to six cards, one of their orders; seven to nine, which three cards
    come first and in what order (the rest after them as they were), then an order of the
    rest; ten, which half comes first (all the ways to choose it), then an order of that
    half and one of the other, each getter giving its half only (the shuffled hand is the
    two halves one after the other). Each stage costs a random number and a getter, and a
    getter about 10 ns a card it gives, so the hands of 7 to 9 cards take two stages rather
    than three, and ten cards give 20 cards in three stages rather than 30; ten cards in
    two stages would need a stage of 5,040 getters, whose memory measured slower."""
    if k < 2:
        return ()
    if k <= 6:
        return (tuple(_getter(p) for p in permutations(range(k))),)
    if k < 10:
        leading = tuple(
            _getter([*first, *(i for i in range(k) if i not in first)])
            for first in permutations(range(k), 3)
        )
        rest = tuple(_getter([*range(3), *p]) for p in permutations(range(3, k)))
        return (leading, rest)
    h = k // 2
    halves = tuple(
        _getter([*first, *(i for i in range(k) if i not in first)])
        for first in combinations(range(k), h)
    )
    front = tuple(_getter(p) for p in permutations(range(h)))
    back = tuple(_getter(p) for p in permutations(range(h, k)))
    return (halves, front, back)


SHUFFLES: Final = tuple(_shuffle_stages(k) for k in range(11))
"""By hand size (at most the ten cards of scopone), the stages of :func:`shuffled`."""
_SHUFFLE_PLANS: Final[tuple[tuple[Any, ...], ...]] = tuple(
    tuple(x for stage in stages for x in (stage, len(stage))) for stages in SHUFFLES
)
"""The same, each stage followed by its size, as :func:`random_playout` reads them (a
``len`` a stage costs as much as a sixth of a stage)."""


def shuffled(hand: Sequence[int], bits: Callable[[int], int]) -> tuple[int, ...]:
    """The cards of ``hand`` in a uniformly random order (``bits``: a ``getrandbits``), a
    getter looked up by a random number at each of at most three stages, in turn.
    :func:`random_playout` makes the same draws, written out."""
    if len(hand) >= len(SHUFFLES):
        rest = list(hand)
        return tuple(rest.pop(bits(24) % len(rest)) for _ in range(len(hand)))
    stages = SHUFFLES[len(hand)]
    if len(stages) == 3:
        halves, front, back = stages
        first = halves[bits(24) % len(halves)](hand)
        half = front[bits(24) % len(front)](first)
        return half + back[bits(24) % len(back)](first)
    cards = tuple(hand)
    for stage in stages:
        cards = stage[bits(24) % len(stage)](cards)
    return cards


def random_playout(core: Core, s: State, bits: Callable[[int], int]) -> list[int]:
    """Play ``s`` to its end choosing at random (a random card, then a random capture among
    those allowed), sweep the leftovers and return each side's points: what
    ``Deal.playout`` does, here for the benchmark's measure of the core. ``bits`` is a
    generator's ``getrandbits``.

    A random card at each play is the same as each hand played in a random order, so the
    plays of a round are drawn before it starts: each round dealt as one of the rounds'
    orders of play looked up by a single random number (:meth:`Core.round_orders`), the
    cards taken straight from the deck; the round in progress the same way when it is
    whole, otherwise as each hand :func:`shuffled`, then taken in turn
    (:meth:`Core.in_progress`). The plays are then
    one ``for`` loop with no hand to keep; what each card does to the table is looked up by
    the number of the table's code and the card (:meth:`Core.row`), and gives the number
    of the code after the play: no code is worked out or hashed in the loop. Two sides that
    play in turn go by pairs of plays, so that the loop looks up no seat.
    """
    hands = s.hands
    n = core.n
    next_seat = core.next_seat
    turn = s.turn
    pattern = core.progress.get((turn, *map(len, hands))) or core.in_progress(
        turn, [*map(len, hands)]
    )
    whole, getter, seats = pattern
    cards: list[int] = []
    seat = turn
    plans = _SHUFFLE_PLANS
    if whole:
        for _ in range(n):
            cards += hands[seat]
            seat = next_seat[seat]
        order = whole[bits(24) % len(whole)](cards)
    else:
        # shuffled(), written out: a call a hand costs what one of its stages does.
        for _ in range(n):
            hand = hands[seat]
            plan = plans[len(hand)]
            stages = len(plan)
            if stages == 4:
                leading, leadings, rest, rests = plan
                first = leading[bits(24) % leadings](hand)
                cards += rest[bits(24) % rests](first)
            elif stages == 6:
                halves, halvings, front, fronts, back, backs = plan
                first = halves[bits(24) % halvings](hand)
                cards += front[bits(24) % fronts](first)
                cards += back[bits(24) % backs](first)
            elif stages:
                orders, count = plan
                cards += orders[bits(24) % count](hand)
            else:
                cards += hand
            seat = next_seat[seat]
        order = getter(cards)
    deck = s.deck
    pos = s.pos
    end = len(deck)
    felt = s.felt
    if len(core.codes) >= _ROWS_LIMIT:
        # Between playouts only: a number held by a playout must stay valid until it ends.
        core.codes.clear()
        core.code_ids.clear()
        core.rows.clear()
        core.several.clear()
    number = core.code_id(s.code)
    rows = core.rows
    row = core.row
    several = core.several
    apt = core.apt
    value = VALUE_OF
    bit_of = _BIT
    last = s.last
    seat = (turn - 1) % n
    round_seats = core.round_seats[s.dealer]
    later = core.later.get((pos, end)) or core.later_rounds(pos, end)
    dealt = 0
    more = len(later)
    piles = s.piles
    scope = s.scope
    side_of = core.side_of
    if core.alternate and not len(order) & 1 and side_of[turn] == side_of[round_seats[0]]:
        # Two sides playing in turn, each round of an even number of plays, each starting
        # with the same side: the plays go by pairs, the first side's card then the
        # other's, so that no seat is looked up and each side's cards taken are a local
        # name (a seat's lookup and its pile's cost a tenth of the playout).
        ours = theirs = ours_scope = their_scope = 0
        last_card = -1
        while True:
            plays = iter(order)
            for card, reply in zip(plays, plays):  # noqa: B905 (an even length)
                felt |= bit_of[card]
                try:
                    taken, number = rows[number][card]  # type: ignore[index]
                except TypeError:  # the row not yet worked out
                    taken, number = row(number)[card]
                if taken:
                    taken &= felt
                    if not taken:
                        taken, number = _drawn(several[number], felt, card, bits)
                    felt ^= taken
                    ours |= taken
                    last_card = card
                    # Never the deal's last card: that is a reply.
                    if not felt and not (
                        apt and value[card] == 1 and not (taken ^ bit_of[card]) & ACES
                    ):
                        ours_scope += 1
                felt |= bit_of[reply]
                try:
                    taken, number = rows[number][reply]  # type: ignore[index]
                except TypeError:
                    taken, number = row(number)[reply]
                if taken:
                    taken &= felt
                    if not taken:
                        taken, number = _drawn(several[number], felt, reply, bits)
                    felt ^= taken
                    theirs |= taken
                    last_card = reply
                    if (
                        not felt
                        and (dealt < more or reply != order[-1])
                        and not (apt and value[reply] == 1 and not (taken ^ bit_of[reply]) & ACES)
                    ):
                        their_scope += 1
            if dealt == more:
                break
            rounds = later[dealt]
            dealt += 1
            order = rounds[bits(24) % len(rounds)](deck)
        opening = side_of[turn]
        piles[opening] |= ours
        piles[1 - opening] |= theirs
        scope[opening] += ours_scope
        scope[1 - opening] += their_scope
        if last_card >= 0:
            last = _seat_of(core, s, last_card)
        seat = round_seats[-1] if more else seats[-1]
    else:
        # The captures and scope by seat, joined into sides at the end.
        taken_by = [0] * n
        scope_by = [0] * n
        while True:
            for seat, card in zip(seats, order):  # noqa: B905 (one length: a keyword costs)
                # The card goes to the table first: a capture then takes it with the cards
                # it takes (its row's mask names its own value, none of which is on the
                # table).
                felt |= bit_of[card]
                try:
                    taken, number = rows[number][card]  # type: ignore[index]
                except TypeError:  # the row not yet worked out
                    taken, number = row(number)[card]
                if not taken:
                    continue
                taken &= felt
                if not taken:
                    taken, number = _drawn(several[number], felt, card, bits)
                felt ^= taken
                taken_by[seat] |= taken
                last = seat
                # A sweep is a scopa unless made with the deal's last card (the last of the
                # last round), or by an asso taking a table with no asso (asso piglia tutto).
                if (
                    not felt
                    and (dealt < more or card != order[-1])
                    and not (apt and value[card] == 1 and not (taken ^ bit_of[card]) & ACES)
                ):
                    scope_by[seat] += 1
            if dealt == more:
                break
            # The next round: the cards dealt, in one of its orders of play.
            rounds = later[dealt]
            dealt += 1
            order = rounds[bits(24) % len(rounds)](deck)
            seats = round_seats
        for h in range(n):
            if taken_by[h]:
                sd = side_of[h]
                piles[sd] |= taken_by[h]
                scope[sd] += scope_by[h]
    if last >= 0:
        piles[side_of[last]] |= felt
    for hand in hands:
        hand.clear()
    s.felt = s.code = s.left = 0
    s.turn = next_seat[seat]
    s.last = last
    s.pos = pos + more * core.round_cards
    return core.totals(piles, scope)


def _drawn(choices: Several, felt: int, card: int, bits: Callable[[int], int]) -> tuple[int, int]:
    """A capture drawn at random among a card's several (:data:`Several`), the card being on
    the table ``felt`` already: the cards taken (the card's own included) and the number of
    the table's code after it. The same draw, by the same random number, as from the list
    :func:`captures` makes."""
    kind, masks, numbers, listed = choices
    played = _BIT[card]
    if kind == _BY_SUM:
        i = bits(24) % len(masks)
        return felt & masks[i], numbers[i]
    if kind == _SAME_VALUE:
        same = (felt ^ played) & masks[0]
        for _ in range(bits(24) % same.bit_count()):
            same &= same - 1
        return same & -same | played, numbers[0]
    i = bits(24) % masks[-1]
    r = 0
    while i >= masks[r]:
        r += 1
    recipe = listed[r]
    if not recipe[2]:
        return felt & recipe[0] | played, numbers[r]
    return expand(felt, recipe)[i - masks[r - 1] if r else i] | played, numbers[r]


def _seat_of(core: Core, s: State, card: int) -> int:
    """The seat that plays ``card`` of a state about to be played out: the one holding it,
    or the one it is dealt to (from the dealer's right, a hand's cards at a time)."""
    for seat, hand in enumerate(s.hands):
        if card in hand:
            return seat
    at = s.deck.index(card, s.pos) - s.pos
    return (s.dealer + 1 + at // core.hand_size) % core.n


def exact_value(core: Core, s: State, side: int) -> float:
    """The exact point difference for ``side`` with every hand known and no card left to
    deal, the other sides playing against it (alpha-beta; ``s`` is left as it was)."""
    hands = [mask_of(h) for h in s.hands]
    piles = s.piles[:]
    scope = s.scope[:]
    return _exact(
        core, hands, s.felt, s.code, piles, scope, s.last, s.turn, s.left, side, -1e9, 1e9
    )


def _exact(
    core: Core,
    hands: list[int],
    felt: int,
    code: int,
    piles: list[int],
    scope: list[int],
    last: int,
    seat: int,
    left: int,
    side: int,
    alpha: float,
    beta: float,
) -> float:
    # Each play is made on the shared lists and taken back after its subtree: nothing is
    # copied per node.
    sd = core.side_of[seat]
    maximizing = sd == side
    hand = hands[seat]
    nxt = core.next_seat[seat]
    apt = core.apt
    best = -1e9 if maximizing else 1e9
    moves: list[tuple[int, int, int]] = []
    lays: list[tuple[int, int, int]] = []
    for card in cards_of(hand):
        caps = captures(core, felt, code, VALUE_OF[card])
        if caps:
            moves.extend((card, m, d) for m, d in caps)
        else:
            lays.append((card, 0, 0))
    # Captures first, the larger first (they cut the search soonest), then lays.
    moves.sort(key=_larger_first)
    moves.extend(lays)
    for card, m, d in moves:
        b = 1 << card
        hands[seat] = hand ^ b
        scopa = False
        pile = piles[sd]
        if m:
            after = felt ^ m
            after_code = code - d
            piles[sd] = pile | m | b
            taker = seat
            if not after and left > 1 and not (apt and VALUE_OF[card] == 1 and not m & ACES):
                scopa = True
                scope[sd] += 1
        else:
            after = felt | b
            after_code = code + VALUE_CODE[card]
            taker = last
        if left == 1:
            # The deal's last card: the leftovers go to the last capture's side.
            if taker >= 0:
                ts = core.side_of[taker]
                kept = piles[ts]
                piles[ts] = kept | after
                value = core.reward(piles, scope, side)
                piles[ts] = kept
            else:
                value = core.reward(piles, scope, side)
        else:
            value = _exact(
                core,
                hands,
                after,
                after_code,
                piles,
                scope,
                taker,
                nxt,
                left - 1,
                side,
                alpha,
                beta,
            )
        piles[sd] = pile
        if scopa:
            scope[sd] -= 1
        if maximizing:
            if value > best:
                best = value
                if best > alpha:
                    alpha = best
        elif value < best:
            best = value
            if best < beta:
                beta = best
        if alpha >= beta:
            break
    hands[seat] = hand
    return best


def _larger_first(move: tuple[int, int, int]) -> int:
    return -move[1].bit_count()
