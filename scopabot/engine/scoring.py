"""Scoring a deal: carte, denari, settebello, primiera, scope, re bello and napola.

Every "most" is a unique maximum: a tie at the top means nobody takes the point, which is the
same rule as "21 of 40 cards" with two sides and the rule for three players.

>>> from scopabot.engine.cards import parse_cards
>>> primiera_total([c.index for c in parse_cards("7d 7c 6s 1b")])
76
>>> primiera_total([c.index for c in parse_cards("7d 7c 6s")]) is None   # no bastoni
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from .cards import RE_BELLO, SETTEBELLO, SUIT_OF, VALUE_OF

# Indices 0..9 are the denari (see cards.py), so ``c < 10`` tests for a denaro.
from .rules import PrimieraRule, Rules

PRIMIERA_POINTS: Final = {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 8: 10, 9: 10, 10: 10}
"""What each value (1..10) counts in the classic primiera: the best card of each suit counts."""
PRIMIERA_OF: Final = tuple(PRIMIERA_POINTS[VALUE_OF[i]] for i in range(40))
"""The same points per card index, for the hot paths."""


def primiera_total(cards: Sequence[int]) -> int | None:
    """The classic primiera count of these cards, or ``None`` when a suit is missing."""
    best = [0, 0, 0, 0]
    for c in cards:
        p = PRIMIERA_OF[c]
        s = SUIT_OF[c]
        if p > best[s]:
            best[s] = p
    if 0 in best:
        return None
    return best[0] + best[1] + best[2] + best[3]


def napola_points(cards: Sequence[int]) -> int:
    """3 for asso, due and tre of denari, plus one per further consecutive denaro."""
    held = set(cards)
    if not {0, 1, 2} <= held:
        return 0
    run = 3
    while run < 10 and run in held:
        run += 1
    return run


@dataclass(frozen=True, slots=True)
class SideScore:
    """One side's points for one deal, with the counts they come from."""

    side: int
    carte: int
    denari: int
    settebello: int
    primiera: int
    scope: int
    re_bello: int
    napola: int
    cards: int
    denari_count: int
    primiera_total: int | None
    sevens: int

    @property
    def total(self) -> int:
        return (
            self.carte
            + self.denari
            + self.settebello
            + self.primiera
            + self.scope
            + self.re_bello
            + self.napola
        )

    def to_dict(self) -> dict[str, Any]:
        # Written out rather than dataclasses.asdict, which deep-copies and is ~10x slower:
        # every stored move serialises the deal scores of the match so far.
        return {
            "side": self.side,
            "carte": self.carte,
            "denari": self.denari,
            "settebello": self.settebello,
            "primiera": self.primiera,
            "scope": self.scope,
            "re_bello": self.re_bello,
            "napola": self.napola,
            "cards": self.cards,
            "denari_count": self.denari_count,
            "primiera_total": self.primiera_total,
            "sevens": self.sevens,
            "total": self.total,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SideScore:
        fields = {k: v for k, v in data.items() if k != "total"}
        return cls(**fields)


@dataclass(frozen=True, slots=True)
class DealScore:
    """The breakdown of one deal for every side; ``napola_reale`` names a side that took all
    ten denari (which wins the match at once when the napola option is on)."""

    deal: int
    sides: tuple[SideScore, ...]
    napola_reale: int | None = None

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(s.total for s in self.sides)

    def to_dict(self) -> dict[str, Any]:
        return {
            "deal": self.deal,
            "sides": [s.to_dict() for s in self.sides],
            "napola_reale": self.napola_reale,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DealScore:
        return cls(
            deal=data["deal"],
            sides=tuple(SideScore.from_dict(s) for s in data["sides"]),
            napola_reale=data.get("napola_reale"),
        )


def unique_max(values: Sequence[Any]) -> int | None:
    """The index of the single largest value, or ``None`` on a tie at the top."""
    best = max(values)
    winners = [i for i, v in enumerate(values) if v == best]
    return winners[0] if len(winners) == 1 else None


def target_winner(totals: Sequence[int], target: int) -> int | None:
    """The side that has won a match to ``target`` with these totals, or ``None`` to play on.

    The one statement of the target rule (docs/rulebook.md): nobody wins before some side
    reaches the target; then the highest total wins alone, and a tie at the top means another
    deal. The match applies it after each deal, and the score keeper for real cards to its
    totals.

    >>> target_winner([11, 7], 11), target_winner([12, 12], 11), target_winner([9, 10], 11)
    (0, None, None)
    """
    return None if max(totals) < target else unique_max(totals)


class _Count:
    """What one side's pile is worth, counted in one pass (shared by both scorers below)."""

    __slots__ = ("cards", "denari", "napola", "primiera", "re_bello", "settebello", "sevens")

    def __init__(self, pile: Sequence[int], rules: Rules) -> None:
        best = [0, 0, 0, 0]
        denari = s7 = s6 = s1 = 0
        for c in pile:
            if c < 10:
                denari += 1
            p = PRIMIERA_OF[c]
            suit = c // 10
            if p > best[suit]:
                best[suit] = p
            v = c % 10
            if v == 6:
                s7 += 1
            elif v == 5:
                s6 += 1
            elif v == 0:
                s1 += 1
        self.cards = len(pile)
        self.denari = denari
        self.primiera: int | None = (
            best[0] + best[1] + best[2] + best[3]
            if best[0] and best[1] and best[2] and best[3]
            else None
        )
        self.sevens = (s7, s6, s1)
        self.settebello = SETTEBELLO in pile
        self.re_bello = rules.re_bello and RE_BELLO in pile
        self.napola = napola_points(pile) if rules.napola else 0


def _winners(rules: Rules, counts: Sequence[_Count]) -> tuple[int | None, int | None, int | None]:
    """Who takes carte, denari and primiera (``None``: nobody)."""
    carte = unique_max([c.cards for c in counts])
    if carte is not None and not counts[carte].cards:
        carte = None
    denari = unique_max([c.denari for c in counts])
    if denari is not None and not counts[denari].denari:
        denari = None
    primiera: int | None
    if rules.primiera is PrimieraRule.SEVENS:
        keys = [c.sevens for c in counts]
        primiera = None if max(keys) == (0, 0, 0) else unique_max(keys)
    else:
        totals = [-1 if c.primiera is None else c.primiera for c in counts]
        primiera = None if max(totals) < 0 else unique_max(totals)
    return carte, denari, primiera


def deal_totals(rules: Rules, captured: Sequence[Sequence[int]], scope: Sequence[int]) -> list[int]:
    """Each side's points for a finished deal, as :func:`score_deal` counts them, without
    building the breakdown (the computer players' search scores thousands of deals a move)."""
    counts = [_Count(pile, rules) for pile in captured]
    totals = list(scope)
    for side, c in enumerate(counts):
        totals[side] += c.settebello + c.re_bello + c.napola
    for winner in _winners(rules, counts):
        if winner is not None:
            totals[winner] += 1
    return totals


def score_deal(
    rules: Rules, captured: Sequence[Sequence[int]], scope: Sequence[int], *, deal: int
) -> DealScore:
    """Score one finished deal from each side's captured cards and scopa count."""
    counts = [_Count(pile, rules) for pile in captured]
    carte_w, denari_w, primiera_w = _winners(rules, counts)
    napola_reale = None
    sides = []
    for side, c in enumerate(counts):
        if rules.napola and c.denari == 10:
            napola_reale = side
        sides.append(
            SideScore(
                side=side,
                carte=int(carte_w == side),
                denari=int(denari_w == side),
                settebello=int(c.settebello),
                primiera=int(primiera_w == side),
                scope=scope[side],
                re_bello=int(c.re_bello),
                napola=c.napola,
                cards=c.cards,
                denari_count=c.denari,
                primiera_total=c.primiera,
                sevens=c.sevens[0],
            )
        )
    return DealScore(deal=deal, sides=tuple(sides), napola_reale=napola_reale)
