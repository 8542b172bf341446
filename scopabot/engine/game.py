"""A match of Scopa or Scopone, from the first deal to the winner.

The state works on card indices (0..39) for speed — computer players run hundreds of thousands
of playouts — and the public methods speak :class:`Card` and :class:`Move`. Legality lives in
one place (:meth:`Game.verify_move`); :meth:`Game.play` runs that same check, applies the move
and returns a frozen :class:`PlayResult` of what happened, like pokerkit's operations.

>>> g = Game.from_position(Rules(), hands=[["9c"], ["2s"]], table=["1d", "3s", "4b", "5c"],
...                        turn=0)
>>> [str(m) for m in g.legal_moves()]
['9c:4b+5c', '9c:1d+3s+5c']
>>> g.play(Move.parse("9c:4b+5c")).scopa
False
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .cards import CARDS, VALUE_OF, Card
from .deal import Action, Deal, table_key
from .moves import IllegalMoveError, IllegalReason, Move
from .record import (
    CARD_TEXT,
    RECORD_FORMAT,
    GameRecord,
    RecordError,
    cards_from_text,
    cards_to_text,
)
from .rules import KO_SPAREGGI, FirstDealer, Rules, Tiebreak
from .scoring import DealScore, unique_max
from .view import GameView, Outcome, OutcomeReason, Play

SNAPSHOT_FORMAT: Final = 1
_SEED_STRIDE: Final = 1 << 20


def shuffled_deck(rng: random.Random) -> list[int]:
    """A uniformly shuffled deck of indices (Fisher-Yates on ``rng.random()``, which is about
    five times cheaper than :meth:`random.Random.shuffle` and as deterministic)."""
    order = list(range(40))
    rand = rng.random
    for i in range(39, 0, -1):
        j = int(rand() * (i + 1))
        order[i], order[j] = order[j], order[i]
    return order


@dataclass(frozen=True, slots=True)
class PlayResult:
    """What one play did; ``deal_score`` is set when the play ended a deal."""

    seat: int
    move: Move
    scopa: bool
    deal_score: DealScore | None = None
    leftovers: tuple[Card, ...] = ()
    leftovers_to: int | None = None
    outcome: Outcome | None = None


class Game:
    """The full, secret state of one match. Show people only :meth:`view_for` of it.

    The cards of the deal in play live in a :class:`~scopabot.engine.deal.Deal` (the one
    implementation of what a play does); the game adds the match around it: the record of
    every shuffle and move, the public plays of the deal, the totals, and who wins.
    """

    __slots__ = (
        "_contenders",
        "_deal",
        "_deal_no",
        "_deal_scores",
        "_draw",
        "_first_dealer",
        "_moves",
        "_outcome",
        "_plays",
        "_queued",
        "_rules",
        "_seed",
        "_shuffles",
        "_spareggio",
        "_start",
        "_totals",
    )

    _rules: Rules
    _seed: int
    _deal: Deal
    _first_dealer: int
    _deal_no: int
    _plays: list[tuple[int, int, tuple[int, ...], bool]]
    _totals: list[int]
    _deal_scores: list[DealScore]
    _outcome: Outcome | None
    _spareggio: int
    _contenders: tuple[int, ...]
    _shuffles: list[list[int]]
    _queued: list[list[int]]
    _moves: list[Action]
    _draw: list[list[tuple[int, int]]]
    _start: dict[str, Any] | None

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
    def _begin(
        cls,
        rules: Rules,
        *,
        seed: int,
        queued: list[list[int]],
        draw: list[list[tuple[int, int]]] | None,
        first_dealer: int | None,
    ) -> Game:
        g = cls._blank(rules, seed)
        g._queued = queued
        if first_dealer is None:
            first_dealer, draw = g._choose_first_dealer()
        g._first_dealer = first_dealer
        g._draw = draw or []
        g._start_deal(first_dealer)
        return g

    @classmethod
    def _blank(cls, rules: Rules, seed: int) -> Game:
        g = object.__new__(cls)
        g._rules = rules
        g._seed = int(seed)
        g._deal = Deal.build(
            rules, hands=[[] for _ in range(rules.players)], table=(), turn=0, dealer=0
        )
        g._first_dealer = 0
        g._deal_no = 0
        g._plays = []
        g._totals = [0] * rules.sides
        g._deal_scores = []
        g._outcome = None
        g._spareggio = 0
        g._contenders = ()
        g._shuffles = []
        g._queued = []
        g._moves = []
        g._draw = []
        g._start = None
        return g

    @classmethod
    def from_position(
        cls,
        rules: Rules,
        *,
        hands: Sequence[Iterable[Card | str]],
        table: Iterable[Card | str] = (),
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
        table_cards = [_idx(c) for c in table]
        rest = [_idx(c) for c in deck]
        piles = [[_idx(c) for c in p] for p in captured] if captured else None
        if piles is not None and len(piles) != rules.sides:
            raise ValueError(f"{rules.sides} captured piles are needed")
        named = [c for h in hand_cards for c in h] + table_cards + rest
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
            table=table_cards,
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

    def _rng(self, stream: int) -> random.Random:
        return random.Random(self._seed * _SEED_STRIDE + stream)

    def _choose_first_dealer(self) -> tuple[int, list[list[tuple[int, int]]]]:
        rng = self._rng(_SEED_STRIDE - 1)
        n = self._rules.players
        if self._rules.first_dealer is FirstDealer.RANDOM:
            return rng.randrange(n), []
        rounds: list[list[tuple[int, int]]] = []
        contenders = list(range(n))
        pile: list[int] = []
        while True:
            if len(pile) < len(contenders):
                pile = list(range(40))
                rng.shuffle(pile)
            drawn = [(seat, pile.pop()) for seat in contenders]
            rounds.append(drawn)
            best = max(VALUE_OF[c] for _, c in drawn)
            contenders = [seat for seat, c in drawn if VALUE_OF[c] == best]
            if len(contenders) == 1:
                return contenders[0], rounds

    def _next_order(self) -> list[int]:
        number = len(self._shuffles)
        if number < len(self._queued):
            order = list(self._queued[number])
        else:
            order = shuffled_deck(self._rng(number))
        self._shuffles.append(order)
        return order

    # ------------------------------------------------------------------ dealing

    def _start_deal(self, dealer: int) -> None:
        rules = self._rules
        n = rules.players
        self._deal_no += 1
        size = rules.hand_size
        while True:
            order = self._next_order()
            pos = 0
            hands: list[list[int]] = [[] for _ in range(n)]
            for k in range(1, n + 1):
                hands[(dealer + k) % n] = order[pos : pos + size]
                pos += size
            table = order[pos : pos + rules.table_size]
            pos += rules.table_size
            kings = sum(1 for c in table if VALUE_OF[c] == 10)
            if not (rules.three_kings_redeal and kings >= 3):
                break
        self._deal = Deal.build(
            rules,
            hands=hands,
            table=table,
            deck=order,
            pos=pos,
            turn=(dealer + 1) % n,
            dealer=dealer,
        )
        self._plays = []

    # ------------------------------------------------------------------ fast, index-level API

    @property
    def deal(self) -> Deal:
        """The deal in play, on card indices (secret: for search on determinized copies)."""
        return self._deal

    def legal_actions(self) -> list[Action]:
        """Every legal move as card indices, in hand order then capture order."""
        if self._outcome is not None:
            return []
        return self._deal.actions()

    def apply_action(self, action: Action) -> PlayResult | None:
        """Apply a move known to be legal (from :meth:`legal_actions`), without checking it.

        Returns a result only when the play ended a deal (the rest of the time ``None``),
        which keeps playouts cheap.
        """
        deal = self._deal
        seat = deal.turn
        card, capture = action
        over = deal.apply(card, capture)
        self._plays.append((seat, card, capture, deal.scopa))
        self._moves.append(action)
        if over:
            return self._end_deal(seat, action)
        return None

    def playout(self, rng: random.Random) -> DealScore:
        """Play the current deal to its end choosing at random, and return its score.

        A uniformly random card, then a uniformly random capture among those allowed; the
        game records the deal like any other and goes on as usual (next deal, or the outcome).
        For search without the record, use :meth:`Deal.playout` on a copy of :attr:`deal`.
        """
        rand = rng.random
        deal = self._deal
        while True:
            hand = deal.hands[deal.turn]
            card = hand[int(rand() * len(hand))]
            caps = deal.options[VALUE_OF[card]]
            if caps:
                positions = caps[int(rand() * len(caps))] if len(caps) > 1 else caps[0]
                table = deal.table
                result = self.apply_action((card, tuple([table[i] for i in positions])))
            else:
                result = self.apply_action((card, ()))
            if result is not None:
                assert result.deal_score is not None
                return result.deal_score

    # ------------------------------------------------------------------ deal and match end

    def _end_deal(self, seat: int, action: Action) -> PlayResult:
        deal = self._deal
        scopa = deal.scopa
        leftovers, leftovers_to = deal.finish()
        score = deal.score(self._deal_no)
        self._deal_scores.append(score)
        for side, points in enumerate(score.totals):
            self._totals[side] += points
        last_side = None if deal.last < 0 else deal.sides[deal.last]
        self._outcome = self._decide(score, last_side)
        if self._outcome is None:
            self._start_deal((deal.dealer + 1) % self._rules.players)
        return PlayResult(
            seat=seat,
            move=_move(action),
            scopa=scopa,
            deal_score=score,
            leftovers=tuple(CARDS[c] for c in leftovers),
            leftovers_to=leftovers_to,
            outcome=self._outcome,
        )

    def _decide(self, score: DealScore, last_side: int | None) -> Outcome | None:
        rules = self._rules
        totals = self._totals

        def ends(winner: int | None, reason: OutcomeReason) -> Outcome:
            return Outcome(winner, reason, tuple(totals), self._deal_no)

        if score.napola_reale is not None:
            return ends(score.napola_reale, OutcomeReason.NAPOLA_REALE)
        if self._spareggio:
            contenders = self._contenders
            points = [score.sides[s].total for s in contenders]
            best = max(points)
            leaders = tuple(s for s, p in zip(contenders, points, strict=True) if p == best)
            if len(leaders) == 1:
                return ends(leaders[0], OutcomeReason.SPAREGGIO)
            if self._spareggio >= KO_SPAREGGI:
                rest = [s for s in leaders if s != last_side]
                if len(rest) == 1:
                    return ends(rest[0], OutcomeReason.LAST_CAPTURE_LOSES)
                return ends(None, OutcomeReason.UNDECIDED)
            self._spareggio += 1
            self._contenders = leaders
            return None
        if rules.deals is not None:
            if self._deal_no < rules.deals:
                return None
            reason = OutcomeReason.DEALS
        else:
            assert rules.target is not None
            if max(totals) < rules.target:
                return None
            reason = OutcomeReason.TARGET
        winner = unique_max(totals)
        if winner is not None:
            return ends(winner, reason)
        if rules.tiebreak is Tiebreak.KO:
            best = max(totals)
            self._spareggio = 1
            self._contenders = tuple(s for s, t in enumerate(totals) if t == best)
        return None

    # ------------------------------------------------------------------ public API

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
    def table(self) -> tuple[Card, ...]:
        return tuple(CARDS[c] for c in self._deal.table)

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
        return tuple(_move(a) for a in self.legal_actions())

    def verify_move(self, move: Move, *, seat: int | None = None) -> Action:
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
            raise IllegalMoveError(IllegalReason.NOT_IN_HAND, f"{move.card} is not in your hand")
        wanted = sorted(c.index for c in move.capture)
        choices = [(card, cap) for c, cap in deal.actions() if c == card]
        for action in choices:
            if sorted(action[1]) == wanted:
                return action
        table = set(deal.table)
        missing = [c for c in wanted if c not in table]
        if missing:
            names = ", ".join(str(CARDS[c]) for c in missing)
            raise IllegalMoveError(IllegalReason.NOT_ON_TABLE, f"{names} is not on the table")
        options = " or ".join(_capture_text(cap) for _, cap in choices)
        if not wanted:
            raise IllegalMoveError(
                IllegalReason.MUST_CAPTURE, f"{move.card} must capture: take {options}"
            )
        if any(len(cap) == 1 and VALUE_OF[cap[0]] == VALUE_OF[card] for _, cap in choices):
            raise IllegalMoveError(
                IllegalReason.MUST_TAKE_SAME_VALUE,
                f"a card of the same value is on the table: {move.card} must take {options}",
            )
        if choices[0][1]:
            raise IllegalMoveError(
                IllegalReason.WRONG_SUM, f"{move.card} cannot take that: take {options}"
            )
        raise IllegalMoveError(
            IllegalReason.WRONG_SUM, f"{move.card} captures nothing here: play it on the table"
        )

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
        result = self.apply_action(action)
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
            table=self.table,
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

    def run_to_end(self, choose: Any) -> Outcome:
        """Play the match out, asking ``choose(game)`` for each move (a test/arena helper)."""
        while self._outcome is None:
            self.play(choose(self))
        return self._outcome

    def copy(self) -> Game:
        """An independent copy (shuffles and the start position are shared, never changed)."""
        g = object.__new__(Game)
        g._rules = self._rules
        g._seed = self._seed
        g._deal = self._deal.copy()
        g._first_dealer = self._first_dealer
        g._deal_no = self._deal_no
        g._plays = list(self._plays)
        g._totals = list(self._totals)
        g._deal_scores = list(self._deal_scores)
        g._outcome = self._outcome
        g._spareggio = self._spareggio
        g._contenders = self._contenders
        g._shuffles = list(self._shuffles)
        g._queued = self._queued
        g._moves = list(self._moves)
        g._draw = self._draw
        g._start = self._start
        return g

    # ------------------------------------------------------------------ record and snapshot

    def record(self) -> GameRecord:
        """Everything needed to replay this game exactly."""
        return GameRecord(
            rules=self._rules,
            seed=self._seed,
            first_dealer=self._first_dealer,
            shuffles=tuple(tuple(CARDS[c] for c in order) for order in self._shuffles),
            moves=tuple(_move(a) for a in self._moves),
            dealer_draw=self.dealer_draw,
            start=self._start,
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

    def to_snapshot(self, *, include_record: bool = True) -> dict[str, Any]:
        """The whole state as JSON-ready data, for fast loading (with a format version)."""
        deal = self._deal
        data: dict[str, Any] = {
            "format": SNAPSHOT_FORMAT,
            "rules": self._rules.to_dict(),
            "seed": self._seed,
            "dealer": deal.dealer,
            "first_dealer": self._first_dealer,
            "turn": deal.turn,
            "deal": self._deal_no,
            "hands": [cards_to_text(h) for h in deal.hands],
            "table": cards_to_text(deal.table),
            "deck": cards_to_text(deal.deck),
            "deck_pos": deal.pos,
            "captured": [cards_to_text(p) for p in deal.captured],
            "scope": list(deal.scope),
            "discarded": cards_to_text(deal.discarded),
            "last_capturer": self.last_capturer,
            "plays": [[seat, card, list(cap), scopa] for seat, card, cap, scopa in self._plays],
            "totals": list(self._totals),
            "deal_scores": [s.to_dict() for s in self._deal_scores],
            "spareggio": self._spareggio,
            "contenders": list(self._contenders),
            "outcome": _outcome_to_dict(self._outcome),
        }
        if include_record:
            data["shuffles"] = [cards_to_text(o) for o in self._shuffles]
            data["moves"] = [_action_text(a) for a in self._moves]
            data["dealer_draw"] = [[[s, c] for s, c in rnd] for rnd in self._draw]
            data["start"] = self._start
        return data

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> Game:
        """Load a game saved with :meth:`to_snapshot`, without replaying it."""
        try:
            g = cls._from_state(data)
            g._shuffles = [cards_from_text(o) for o in data["shuffles"]]
            g._moves = [_action(Move.parse(m)) for m in data["moves"]]
            g._draw = [[(int(s), int(c)) for s, c in rnd] for rnd in data["dealer_draw"]]
            g._start = data["start"]
        except RecordError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"damaged game snapshot: {exc!r}") from exc
        return g

    @classmethod
    def _from_state(cls, data: dict[str, Any]) -> Game:
        if data.get("format") != SNAPSHOT_FORMAT:
            raise RecordError(f"unsupported snapshot format {data.get('format')!r}")
        rules = Rules.from_dict(data["rules"])
        g = cls._blank(rules, int(data["seed"]))
        g._first_dealer = int(data["first_dealer"])
        g._deal_no = int(data["deal"])
        last = data["last_capturer"]
        g._deal = Deal.build(
            rules,
            hands=[cards_from_text(h) for h in data["hands"]],
            table=cards_from_text(data["table"]),
            deck=cards_from_text(data["deck"]),
            pos=int(data["deck_pos"]),
            captured=[cards_from_text(p) for p in data["captured"]],
            scope=[int(s) for s in data["scope"]],
            last=None if last is None else int(last),
            turn=int(data["turn"]),
            dealer=int(data["dealer"]),
            discarded=cards_from_text(data["discarded"]),
        )
        g._plays = [
            (int(seat), int(card), tuple(int(c) for c in cap), bool(scopa))
            for seat, card, cap, scopa in data["plays"]
        ]
        g._totals = [int(t) for t in data["totals"]]
        g._deal_scores = [DealScore.from_dict(s) for s in data["deal_scores"]]
        g._spareggio = int(data["spareggio"])
        g._contenders = tuple(int(s) for s in data["contenders"])
        g._outcome = _outcome_from_dict(data["outcome"])
        return g


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


def _move(action: Action) -> Move:
    card, capture = action
    return Move(CARDS[card], frozenset(CARDS[c] for c in capture))


def _action(move: Move) -> Action:
    return (move.card.index, tuple(c.index for c in move.sorted_capture()))


def _action_text(action: Action) -> str:
    """``str(Move)`` of an action, without building the Move (snapshots write hundreds)."""
    card, capture = action
    if not capture:
        return CARD_TEXT[card]
    return CARD_TEXT[card] + ":" + "+".join([CARD_TEXT[c] for c in sorted(capture, key=table_key)])


def _capture_text(capture: tuple[int, ...]) -> str:
    return "+".join(str(CARDS[c]) for c in capture)


def _outcome_to_dict(outcome: Outcome | None) -> dict[str, Any] | None:
    if outcome is None:
        return None
    return {
        "winner": outcome.winner,
        "reason": outcome.reason.value,
        "totals": list(outcome.totals),
        "deals": outcome.deals,
    }


def _outcome_from_dict(data: dict[str, Any] | None) -> Outcome | None:
    if data is None:
        return None
    return Outcome(
        winner=data["winner"],
        reason=OutcomeReason(data["reason"]),
        totals=tuple(data["totals"]),
        deals=int(data["deals"]),
    )


__all__ = ["RECORD_FORMAT", "Action", "Game", "PlayResult"]
