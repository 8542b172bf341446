"""Positions for the computer players' tests, built through the engine's public API."""

from __future__ import annotations

import random
from dataclasses import replace

from scopabot.ai import make_player
from scopabot.engine import Card, Game, GameView, Preset, Rules


def midgame(rules: Rules, *, seed: int, plays: int) -> Game:
    """The first deal of a match, ``plays`` moves in (played by greedy players)."""
    game = Game.new(rules.replace(deals=1), seed=seed)
    greedy = make_player("greedy", seed=0)
    for _ in range(plays):
        game.play(greedy.choose(game.view_for(game.turn)))
    return game


def reshuffled(game: Game, seat: int, rng: random.Random) -> Game:
    """The same game with the cards ``seat`` cannot see dealt differently: the deck order of
    the current deal is rebuilt with the hidden cards' places permuted, and the same moves
    are replayed. Every public fact of the view stays the same."""
    record = game.record()
    hidden = {c for c in game.view_for(seat).unseen_cards()}
    order = list(record.shuffles[-1])
    places = [i for i, c in enumerate(order) if c in hidden]
    cards = [order[i] for i in places]
    rng.shuffle(cards)
    for i, c in zip(places, cards, strict=True):
        order[i] = c
    shuffles = (*record.shuffles[:-1], tuple(order))
    return Game.replay(replace(record, shuffles=shuffles))


def hidden_of(game: Game, seat: int) -> list[tuple[Card, ...]]:
    return [game.hand(s) for s in range(game.rules.players) if s != seat] + [game.deck()]


def same_public(a: GameView, b: GameView) -> bool:
    return (a.hand, a.felt, a.plays, a.hand_sizes, a.deck_size, a.scope) == (
        b.hand,
        b.felt,
        b.plays,
        b.hand_sizes,
        b.deck_size,
        b.scope,
    )


ALL_RULES = [
    Rules(),
    Rules(players=3),
    Rules(players=4),
    Rules(preset=Preset.SCOPONE_SCIENTIFICO),
    Rules(preset=Preset.SCOPONE_CLASSICO),
    Rules(asso_piglia_tutto=True, napola=True, re_bello=True),
    Rules(preset=Preset.SCOPONE_SCIENTIFICO, asso_piglia_tutto=True, napola=True, re_bello=True),
    Rules(primiera="sevens"),  # type: ignore[arg-type]
]
"""Every preset and option the levels must handle."""
