"""The rules of Scopa and Scopone, pure: no I/O, no asyncio, no Discord, deterministic from a seed.

Everything else in ScopaBot stands on this package and it imports nothing of the project.

Cards and moves are written as in the rule book (``7d`` is the settebello; a move is the card
played, then ``:`` and the cards it takes)::

    >>> from scopabot.engine import Card, Game, Move, Rules, Preset
    >>> Card.parse("settebello")
    Card(value=7, suit=<Suit.DENARI: 'd'>)

Build any position from explicit cards, list its legal moves (each capture choice apart), and
play one. With 1, 3, 4 and 5 on the felt a cavallo takes 1+3+5 or 4+5::

    >>> g = Game.from_position(Rules(), hands=[["9c", "2b"], ["10s", "6s"]],
    ...                        felt=["1d", "3s", "4b", "5c"], turn=0)
    >>> [str(m) for m in g.legal_moves()]
    ['9c:4b+5c', '9c:1d+3s+5c', '2b']
    >>> g.play("9c")
    Traceback (most recent call last):
    ...
    scopabot.engine.moves.IllegalMoveError: 9c must capture: take 4b+5c or 1d+3s+5c
    >>> result = g.play("9c:4b+5c")
    >>> [str(c) for c in g.felt], result.scopa
    (['1d', '3s'], False)

A seat sees the game only through its view, which has no field for other hands or the deck::

    >>> v = g.view_for(1)
    >>> [str(c) for c in v.hand], v.hand_sizes, v.deck_size
    (['10s', '6s'], (1, 2), 0)

A whole match is deterministic from its seed, and its record replays to the same state::

    >>> import random
    >>> game = Game.new(Rules(preset=Preset.SCOPONE_SCIENTIFICO), seed=42)
    >>> rng = random.Random(0)
    >>> while not game.is_over:
    ...     _ = game.play(rng.choice(game.legal_moves()))
    >>> outcome = game.outcome()
    >>> outcome.winner in (0, 1) and max(outcome.totals) >= 11
    True
    >>> Game.replay(game.record()).to_snapshot() == game.to_snapshot()
    True
    >>> sum(s.total for s in game.deal_scores[0].sides) == sum(game.deal_scores[0].totals)
    True

A store keeps the record's parts and the snapshot, and gets the game back with
:meth:`Game.restore` (:meth:`GameRecord.from_parts` reads the parts).

The hot paths (computer players' search) work on card indices: :class:`Deal`, :data:`IndexMove`
and the per-index tables below are the only definitions of them, for every package to import::

    >>> seven = Card.parse("7d").index
    >>> seven == SETTEBELLO, VALUE_OF[seven], SUIT_OF[seven] == DENARI_SUIT, PRIMIERA_OF[seven]
    (True, 7, True, 21)
    >>> h = Game.from_position(Rules(), hands=[["9c", "2b"], ["10s"]], felt=["4b", "5c"])
    >>> h.legal_index_moves() == [index_move_of(m) for m in h.legal_moves()]
    True
"""

from __future__ import annotations

from .captures import Options, capture_options, code_cache, options_for_code
from .cards import (
    CARDS,
    DENARI_SUIT,
    FILLER_WORDS,
    RE_BELLO,
    SETTEBELLO,
    SPOKEN_SUITS,
    SPOKEN_VALUES,
    SUIT_OF,
    SUITS,
    VALUE_NAMES,
    VALUE_OF,
    Card,
    CardParseError,
    Suit,
    format_cards,
    parse_cards,
)
from .deal import FELT_ORDER, Deal, felt_key
from .game import Game
from .match import PlayResult, shuffled_deck
from .moves import (
    AmbiguousMoveError,
    IllegalMoveError,
    IllegalReason,
    IndexMove,
    InvalidMoveError,
    Move,
    index_move_of,
    move_of,
)
from .record import GameRecord, RecordError
from .rules import (
    MAX_DEALS,
    MAX_TARGET,
    TARGET_CHOICES,
    FirstDealer,
    Preset,
    PrimieraRule,
    Rules,
    RulesError,
    RulesProblem,
    Tiebreak,
)
from .scoring import (
    PRIMIERA_OF,
    PRIMIERA_POINTS,
    DealScore,
    SideScore,
    deal_totals,
    primiera_total,
    score_deal,
    target_winner,
)
from .view import GameView, Outcome, OutcomeReason, Play

__all__ = [
    "CARDS",
    "DENARI_SUIT",
    "FELT_ORDER",
    "FILLER_WORDS",
    "MAX_DEALS",
    "MAX_TARGET",
    "PRIMIERA_OF",
    "PRIMIERA_POINTS",
    "RE_BELLO",
    "SETTEBELLO",
    "SPOKEN_SUITS",
    "SPOKEN_VALUES",
    "SUITS",
    "SUIT_OF",
    "TARGET_CHOICES",
    "VALUE_NAMES",
    "VALUE_OF",
    "AmbiguousMoveError",
    "Card",
    "CardParseError",
    "Deal",
    "DealScore",
    "FirstDealer",
    "Game",
    "GameRecord",
    "GameView",
    "IllegalMoveError",
    "IllegalReason",
    "IndexMove",
    "InvalidMoveError",
    "Move",
    "Options",
    "Outcome",
    "OutcomeReason",
    "Play",
    "PlayResult",
    "Preset",
    "PrimieraRule",
    "RecordError",
    "Rules",
    "RulesError",
    "RulesProblem",
    "SideScore",
    "Suit",
    "Tiebreak",
    "capture_options",
    "code_cache",
    "deal_totals",
    "felt_key",
    "format_cards",
    "index_move_of",
    "move_of",
    "named_move",
    "options_for_code",
    "parse_cards",
    "primiera_total",
    "score_deal",
    "shuffled_deck",
    "target_winner",
]
