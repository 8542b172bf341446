"""Small builders so tests read like positions written on paper."""

from __future__ import annotations

from scopabot.engine import Card, Game, Rules, SideScore, parse_cards


def cards(text: str) -> list[Card]:
    return list(parse_cards(text))


def position(
    rules: Rules | None = None,
    *,
    hands: list[str],
    felt: str = "",
    deck: str = "",
    captured: list[str] | None = None,
    **kwargs: object,
) -> Game:
    """A game at the position written in notation: one string of cards per hand."""
    rules = rules or Rules(players=len(hands))
    return Game.from_position(
        rules,
        hands=[cards(h) for h in hands],
        felt=cards(felt),
        deck=cards(deck),
        captured=[cards(p) for p in captured] if captured is not None else None,
        **kwargs,  # type: ignore[arg-type]
    )


def names(items: object) -> list[str]:
    return [str(x) for x in items]  # type: ignore[attr-defined]


def breakdown(side: SideScore) -> tuple[int, ...]:
    """Every line of a side's deal breakdown, which must add up to its total."""
    return (
        side.carte,
        side.denari,
        side.settebello,
        side.primiera,
        side.scope,
        side.re_bello,
        side.napola,
    )
