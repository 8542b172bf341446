"""A match of Scopa or Scopone, from the first deal to the winner: the public API.

The public methods speak :class:`Card` and :class:`Move`; the machinery under them works on
card indices (:mod:`.match`) and knows how to be saved (:mod:`.saving`). Legality lives in one
place (:meth:`Game.verify_move`); :meth:`Game.play` runs that same check, applies the move and
returns a frozen :class:`PlayResult` of what happened, like pokerkit's operations.

>>> g = Game.from_position(Rules(), hands=[["9c"], ["2s"]], felt=["1d", "3s", "4b", "5c"],
...                        turn=0)
>>> [str(m) for m in g.legal_moves()]
['9c:4b+5c', '9c:1d+3s+5c']
>>> g.play(Move.parse("9c:4b+5c")).scopa
False
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Any

from .cards import CARDS, VALUE_OF, Card
from .deal import Deal
from .match import PlayResult
from .moves import (
    AmbiguousMoveError,
    IllegalMoveError,
    IllegalReason,
    IndexMove,
    Move,
    move_of,
    named_move,
)
from .record import GameRecord
from .rules import Rules
from .saving import SavableIndexMatch
from .scoring import DealScore
from .view import GameView, Outcome, Play


class Game(SavableIndexMatch):
    """The full, secret state of one match. Show people only :meth:`view_for` of it.

    The cards of the deal in play live in a :class:`~scopabot.engine.deal.Deal` (the one
    implementation of what a play does); the game adds the match around it (:mod:`.match`):
    the record of every shuffle and move, the public plays of the deal, the totals, and who
    wins.
    """

    __slots__ = ()

    # ------------------------------------------------------------------ creation

    @classmethod
    def new(cls, rules: Rules, *, seed: int) -> Game:
        """A new match whose every shuffle follows from ``seed``.

        >>> a, b = Game.new(Rules(), seed=7), Game.new(Rules(), seed=7)
        >>> a.to_snapshot() == b.to_snapshot()
        True
        """
        if seed < 0:
            raise ValueError(f"a seed is a whole number from 0 up, not {seed}")
        return cls._begin(rules, seed=seed, queued=[], draw=None, first_dealer=None)

    @classmethod
    def from_position(
        cls,
        rules: Rules,
        *,
        hands: Sequence[Iterable[Card | str]],
        felt: Iterable[Card | str] = (),
        deck: Iterable[Card | str] = (),
        captured: Sequence[Iterable[Card | str]] | None = None,
        scope: Sequence[int] | None = None,
        turn: int = 0,
        dealer: int | None = None,
        last_capturer: int | None = None,
        totals: Sequence[int] | None = None,
        deal_number: int = 1,
        spareggio: int = 0,
        seed: int = 0,
    ) -> Game:
        """A game at an explicit position, for tests and puzzles.

        ``deck`` lists the undealt cards in the order they will be dealt. Cards not named
        anywhere are taken to be out of this deal (as if already discarded). ``spareggio``
        (1..3) puts the deal among knock-out tie-breaks, between the sides level at the top.
        """
        if len(hands) != rules.players:
            raise ValueError(f"{rules.players} hands are needed, got {len(hands)}")
        hand_cards = [[_idx(c) for c in h] for h in hands]
        felt_cards = [_idx(c) for c in felt]
        rest = [_idx(c) for c in deck]
        piles = [[_idx(c) for c in p] for p in captured] if captured else None
        if piles is not None and len(piles) != rules.sides:
            raise ValueError(f"{rules.sides} captured piles are needed")
        named = [c for h in hand_cards for c in h] + felt_cards + rest
        named += [c for p in piles or [] for c in p]
        if len(set(named)) != len(named):
            raise ValueError("a card is named twice in the position")
        turn %= rules.players
        _check_turn_order(rules, hand_cards, turn, len(rest))
        out = [c for c in range(40) if c not in set(named)]
        g = cls._blank(rules, seed)
        g._deal = Deal.build(
            rules,
            hands=hand_cards,
            felt=felt_cards,
            deck=[*out, *rest],
            pos=len(out),
            captured=piles,
            scope=list(scope) if scope else None,
            last=last_capturer,
            turn=turn,
            dealer=(turn - 1) % rules.players if dealer is None else dealer,
            discarded=out,
        )
        g._first_dealer = g._deal.dealer
        g._totals = list(totals) if totals else [0] * rules.sides
        g._deal_no = deal_number
        if spareggio:
            best = max(g._totals)
            g._spareggio = spareggio
            g._contenders = tuple(s for s, t in enumerate(g._totals) if t == best)
        g._start = g.to_snapshot(include_record=False)
        return g

    # ------------------------------------------------------------------ what is public

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def turn(self) -> int:
        """The seat to play."""
        return self._deal.turn

    @property
    def dealer(self) -> int:
        return self._deal.dealer

    @property
    def deal_number(self) -> int:
        """1 for the first deal; spareggi count on."""
        return self._deal_no

    @property
    def spareggio(self) -> int:
        """0 in ordinary play, 1..3 during knock-out tie-break deals."""
        return self._spareggio

    @property
    def is_over(self) -> bool:
        return self._outcome is not None

    @property
    def move_count(self) -> int:
        return len(self._moves)

    @property
    def shuffle_count(self) -> int:
        """How many deck orders this game has used (the record's ``shuffles`` grows with
        each deal, and with each three-kings re-deal), so a store can save only new ones."""
        return len(self._shuffles)

    def shuffles_since(self, start: int) -> tuple[tuple[Card, ...], ...]:
        """The deck orders from number ``start`` on, in dealing order."""
        return tuple(tuple(CARDS[c] for c in order) for order in self._shuffles[start:])

    def outcome(self) -> Outcome | None:
        return self._outcome

    def hand(self, seat: int) -> tuple[Card, ...]:
        return tuple(CARDS[c] for c in self._deal.hands[seat])

    @property
    def felt(self) -> tuple[Card, ...]:
        return tuple(CARDS[c] for c in self._deal.felt)

    @property
    def deck_size(self) -> int:
        return len(self._deal.deck) - self._deal.pos

    def deck(self) -> tuple[Card, ...]:
        """The undealt cards in dealing order (secret: for tests and the record only)."""
        deal = self._deal
        return tuple(CARDS[c] for c in deal.deck[deal.pos :])

    def captured(self, side: int) -> tuple[Card, ...]:
        return tuple(CARDS[c] for c in self._deal.captured[side])

    def discarded(self) -> tuple[Card, ...]:
        """Cards out of this deal: leftovers nobody captured, or cards a position left out."""
        return tuple(CARDS[c] for c in self._deal.discarded)

    @property
    def scope(self) -> tuple[int, ...]:
        return tuple(self._deal.scope)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(self._totals)

    @property
    def deal_scores(self) -> tuple[DealScore, ...]:
        return tuple(self._deal_scores)

    @property
    def last_capturer(self) -> int | None:
        last = self._deal.last
        return None if last < 0 else last

    @property
    def first_dealer(self) -> int:
        return self._first_dealer

    @property
    def dealer_draw(self) -> tuple[tuple[tuple[int, Card], ...], ...]:
        return tuple(tuple((s, CARDS[c]) for s, c in rnd) for rnd in self._draw)

    def plays(self) -> tuple[Play, ...]:
        """The plays of the current deal, in order."""
        return tuple(
            Play(seat, CARDS[card], tuple(CARDS[c] for c in cap), scopa)
            for seat, card, cap, scopa in self._plays
        )

    def legal_moves(self) -> tuple[Move, ...]:
        """Every legal move for the seat to play, with each capture choice listed apart."""
        return tuple(move_of(a) for a in self.legal_index_moves())

    def verify_move(self, move: Move, *, seat: int | None = None) -> IndexMove:
        """Raise :class:`IllegalMoveError` saying which rule forbids ``move``; else its action."""
        if self._outcome is not None:
            raise IllegalMoveError(IllegalReason.GAME_OVER, "the match is over")
        deal = self._deal
        if seat is not None and seat != deal.turn:
            raise IllegalMoveError(
                IllegalReason.NOT_YOUR_TURN, f"it is seat {deal.turn}'s turn, not seat {seat}'s"
            )
        card = move.card.index
        if card not in deal.hands[deal.turn]:
            raise IllegalMoveError(
                IllegalReason.NOT_IN_HAND, f"{move.card} is not in your hand", card=move.card
            )
        wanted = sorted(c.index for c in move.capture)
        choices = [(card, cap) for c, cap in deal.actions() if c == card]
        for action in choices:
            if sorted(action[1]) == wanted:
                return action
        felt = set(deal.felt)
        missing = [c for c in wanted if c not in felt]
        if missing:
            names = ", ".join(str(CARDS[c]) for c in missing)
            raise IllegalMoveError(
                IllegalReason.NOT_ON_FELT,
                f"{names} is not on the table",
                card=move.card,
                missing=tuple(CARDS[c] for c in missing),
            )
        options = " or ".join(_capture_text(cap) for _, cap in choices)
        takes = tuple(tuple(CARDS[c] for c in cap) for _, cap in choices if cap)

        def refused(reason: IllegalReason, text: str) -> IllegalMoveError:
            return IllegalMoveError(reason, text, card=move.card, options=takes)

        if not wanted:
            raise refused(IllegalReason.MUST_CAPTURE, f"{move.card} must capture: take {options}")
        if any(len(cap) == 1 and VALUE_OF[cap[0]] == VALUE_OF[card] for _, cap in choices):
            raise refused(
                IllegalReason.MUST_TAKE_SAME_VALUE,
                f"a card of the same value is on the table: {move.card} must take {options}",
            )
        if choices[0][1]:
            raise refused(IllegalReason.WRONG_SUM, f"{move.card} cannot take that: take {options}")
        raise refused(
            IllegalReason.WRONG_SUM, f"{move.card} captures nothing here: play it on the table"
        )

    def resolve_move(
        self, played: str | Card | Move, capture: str | None = None, *, seat: int | None = None
    ) -> Move:
        """The one legal move meant by what a person typed or clicked (python-chess's
        ``parse_san``): ``played`` a card in any notation or a whole move, ``capture`` the cards
        it takes when named apart (see :func:`~.moves.named_move`). A card alone means its only
        legal move. Raises :class:`InvalidMoveError` (not a card or a move),
        :class:`IllegalMoveError` with its reason (game over, not ``seat``'s turn, not in hand,
        a capture the rules refuse), or :class:`AmbiguousMoveError` with the choices.

        >>> g = Game.from_position(Rules(), hands=[["9c", "2b"], ["10s"]],
        ...                        felt=["1d", "3s", "4b", "5c"], turn=0)
        >>> str(g.resolve_move("2 di bastoni")), str(g.resolve_move("9c", "5c 4b"))
        ('2b', '9c:4b+5c')
        >>> [str(m) for m in g.resolve_move_choices("9c")]
        ['9c:4b+5c', '9c:1d+3s+5c']
        """
        named = named_move(played, capture)
        if isinstance(named, Move):
            self.verify_move(named, seat=seat)
            return named
        choices = self.resolve_move_choices(named, seat=seat)
        if len(choices) > 1:
            raise AmbiguousMoveError(named, choices)
        return choices[0]

    def resolve_move_choices(
        self, card: str | Card, *, seat: int | None = None
    ) -> tuple[Move, ...]:
        """Every legal move of ``card`` here (at least one), or the :class:`IllegalMoveError`
        that says why the card cannot be played at all."""
        named = named_move(card)
        if isinstance(named, Move):
            named = named.card
        if self._outcome is not None or (seat is not None and seat != self._deal.turn):
            self.verify_move(Move(named), seat=seat)  # the end or the turn, said as it says
        choices = tuple(m for m in self.legal_moves() if m.card == named)
        if not choices:
            raise IllegalMoveError(
                IllegalReason.NOT_IN_HAND, f"{named} is not in your hand", card=named
            )
        return choices

    def is_legal(self, move: Move, *, seat: int | None = None) -> bool:
        try:
            self.verify_move(move, seat=seat)
        except IllegalMoveError:
            return False
        return True

    def play(self, move: Move | str, *, seat: int | None = None) -> PlayResult:
        """Check and apply a move for the seat to play (or for ``seat``, which must be it)."""
        if isinstance(move, str):
            move = Move.parse(move)
        action = self.verify_move(move, seat=seat)
        player = self._deal.turn
        result = self.play_index_move(action)
        if result is not None:
            return result
        return PlayResult(seat=player, move=move, scopa=self._plays[-1][3])

    def view_for(self, seat: int) -> GameView:
        """What ``seat`` may see: its hand, the table, public counts and the plays so far."""
        players = self._rules.players
        if not 0 <= seat < players:
            raise ValueError(f"no seat {seat} at a table of {players}")
        deal = self._deal
        return GameView(
            rules=self._rules,
            seat=seat,
            turn=deal.turn,
            dealer=deal.dealer,
            deal_number=self._deal_no,
            hand=self.hand(seat),
            felt=self.felt,
            hand_sizes=tuple(len(h) for h in deal.hands),
            deck_size=self.deck_size,
            captured_counts=tuple(len(p) for p in deal.captured),
            scope=self.scope,
            plays=self.plays(),
            totals=self.totals,
            deal_scores=self.deal_scores,
            last_capturer=self.last_capturer,
            outcome=self._outcome,
            spareggio=self._spareggio,
            dealer_draw=self.dealer_draw,
            legal=self.legal_moves() if seat == deal.turn else (),
            captured=tuple(self.captured(side) for side in range(self._rules.sides)),
            out_of_play=self.discarded(),
        )

    @classmethod
    def replay(cls, record: GameRecord) -> Game:
        """Rebuild a game by playing its record's moves through the rules again."""
        if record.start is not None:
            g = cls._from_state(record.start)
            g._start = record.start
            g._queued = [[c.index for c in order] for order in record.shuffles]
        else:
            g = cls._begin(
                record.rules,
                seed=record.seed,
                queued=[[c.index for c in order] for order in record.shuffles],
                draw=[[(s, c.index) for s, c in rnd] for rnd in record.dealer_draw],
                first_dealer=record.first_dealer,
            )
        for move in record.moves:
            g.play(move)
        return g

    @classmethod
    def restore(cls, record: GameRecord, *, snapshot: dict[str, Any] | None = None) -> Game:
        """The game a store kept: from the ``snapshot`` it saved after the last move (fast, no
        replay) with the record's lists beside it, or by replaying the ``record`` alone.

        A store keeps what :meth:`record` and ``to_snapshot(include_record=False)`` gave it,
        and reads the record back with :meth:`GameRecord.from_parts`; the formats are the
        engine's business.

        >>> from scopabot.engine import Game, GameRecord, Rules
        >>> g = Game.new(Rules(), seed=3)
        >>> _ = g.play(g.legal_moves()[0])
        >>> kept = g.record().to_dict()
        >>> record = GameRecord.from_parts(
        ...     rules=kept["rules"], seed=kept["seed"], first_dealer=kept["first_dealer"],
        ...     dealer_draw=kept["dealer_draw"], start=kept["start"],
        ...     shuffles=[bytes(c.index for c in order) for order in g.shuffles_since(0)],
        ...     moves=kept["moves"])
        >>> snapshot = g.to_snapshot(include_record=False)
        >>> Game.restore(record, snapshot=snapshot).to_snapshot() == g.to_snapshot()
        True
        >>> Game.restore(record).to_snapshot() == g.to_snapshot()
        True
        """
        if snapshot is None:
            return cls.replay(record)
        return cls.from_snapshot(snapshot, record=record)


def _check_turn_order(rules: Rules, hands: list[list[int]], turn: int, deck: int) -> None:
    """Refuse a position no deal can reach, which would otherwise stall: the seat to play
    must hold a card, and going round from it each hand has the same number of cards or one
    fewer (those who already played this round); undealt cards must fill whole re-deals."""
    n = rules.players
    sizes = [len(hands[(turn + k) % n]) for k in range(n)]
    if not sizes[0]:
        raise ValueError(f"seat {turn} is to play but holds no card")
    if any(b > a for a, b in itertools.pairwise(sizes)) or sizes[0] - sizes[-1] > 1:
        raise ValueError(f"hands of {sizes} cards (from seat {turn} on) cannot occur in a deal")
    if deck and (not rules.redeals or deck % (n * rules.hand_size)):
        raise ValueError(f"{deck} undealt cards do not make whole re-deals of {rules.hand_size}")


def _idx(card: Card | str) -> int:
    return (Card.parse(card) if isinstance(card, str) else card).index


def _capture_text(capture: tuple[int, ...]) -> str:
    return "+".join(str(CARDS[c]) for c in capture)


__all__ = ["Game"]
