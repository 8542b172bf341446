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
_PRIMIERA_BY_INDEX: Final = tuple(PRIMIERA_POINTS[VALUE_OF[i]] for i in range(40))


def primiera_total(cards: Sequence[int]) -> int | None:
    """The classic primiera count of these cards, or ``None`` when a suit is missing."""
    best = [0, 0, 0, 0]
    for c in cards:
        p = _PRIMIERA_BY_INDEX[c]
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


def _primiera_winner(
    rules: Rules, captured: Sequence[Sequence[int]], totals: Sequence[int | None]
) -> int | None:
    if rules.primiera is PrimieraRule.SEVENS:
        keys = [
            tuple(sum(1 for c in pile if VALUE_OF[c] == v) for v in (7, 6, 1)) for pile in captured
        ]
        if max(keys) == (0, 0, 0):
            return None
        return unique_max(keys)
    eligible = [t if t is not None else -1 for t in totals]
    if max(eligible) < 0:
        return None
    return unique_max(eligible)


def score_deal(
    rules: Rules, captured: Sequence[Sequence[int]], scope: Sequence[int], *, deal: int
) -> DealScore:
    """Score one finished deal from each side's captured cards and scopa count."""
    cards = [len(p) for p in captured]
    denari = [sum(1 for c in p if c < 10) for p in captured]
    primiera = [primiera_total(p) for p in captured]
    carte_w = unique_max(cards)
    denari_w = unique_max(denari)
    primiera_w = _primiera_winner(rules, captured, primiera)
    napola_reale = None
    sides = []
    for side, pile in enumerate(captured):
        nap = napola_points(pile) if rules.napola else 0
        if rules.napola and denari[side] == 10:
            napola_reale = side
        sides.append(
            SideScore(
                side=side,
                carte=int(carte_w == side and cards[side] > 0),
                denari=int(denari_w == side and denari[side] > 0),
                settebello=int(SETTEBELLO in pile),
                primiera=int(primiera_w == side),
                scope=scope[side],
                re_bello=int(rules.re_bello and RE_BELLO in pile),
                napola=nap,
                cards=cards[side],
                denari_count=denari[side],
                primiera_total=primiera[side],
                sevens=sum(1 for c in pile if c % 10 == 6),
            )
        )
    return DealScore(deal=deal, sides=tuple(sides), napola_reale=napola_reale)
