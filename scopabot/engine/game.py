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

import random
from bisect import insort
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .captures import VALUE_CODE, code_cache, options_for_code
from .cards import CARDS, VALUE_OF, Card
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
from .scoring import DealScore, score_deal, unique_max
from .view import GameView, Outcome, OutcomeReason, Play

SNAPSHOT_FORMAT: Final = 1
Action = tuple[int, tuple[int, ...]]
"""A move on card indices: (played card, captured cards). Used by computer players' playouts."""

_SEED_STRIDE: Final = 1 << 20
_TABLE_ORDER: Final = tuple(VALUE_OF[c] * 4 + c // 10 for c in range(40))
"""The table is kept sorted by value then suit: the order is meaningless in the rules, and a
canonical order lets the capture cache recognise a table shape however it came about."""
_table_key = _TABLE_ORDER.__getitem__


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
    """The full, secret state of one match. Show people only :meth:`view_for` of it."""

    __slots__ = (
        "_apt",
        "_captured",
        "_code",
        "_contenders",
        "_deal_no",
        "_deal_scores",
        "_dealer",
        "_deck",
        "_deck_pos",
        "_discarded",
        "_draw",
        "_first_dealer",
        "_hands",
        "_last_capturer",
        "_moves",
        "_n",
        "_outcome",
        "_plays",
        "_queued",
        "_rules",
        "_scope",
        "_seed",
        "_shuffles",
        "_sides",
        "_spareggio",
        "_start",
        "_table",
        "_totals",
        "_turn",
    )

    _rules: Rules
    _apt: bool
    _n: int
    _sides: tuple[int, ...]
    _seed: int
    _dealer: int
    _first_dealer: int
    _turn: int
    _deal_no: int
    _hands: list[list[int]]
    _table: list[int]
    _code: int
    _deck: list[int]
    _deck_pos: int
    _captured: list[list[int]]
    _scope: list[int]
    _discarded: list[int]
    _last_capturer: int | None
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
        g._dealer = first_dealer
        g._start_deal()
        return g

    @classmethod
    def _blank(cls, rules: Rules, seed: int) -> Game:
        g = object.__new__(cls)
        g._rules = rules
        g._apt = rules.asso_piglia_tutto
        g._n = rules.players
        g._sides = tuple(rules.side_of(s) for s in range(rules.players))
        g._seed = int(seed)
        g._dealer = g._first_dealer = g._turn = 0
        g._deal_no = 0
        g._hands = [[] for _ in range(rules.players)]
        g._table = []
        g._code = 0
        g._deck = []
        g._deck_pos = 0
        g._captured = [[] for _ in range(rules.sides)]
        g._scope = [0] * rules.sides
        g._discarded = []
        g._last_capturer = None
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
        g = cls._blank(rules, seed)
        g._hands = [[_idx(c) for c in h] for h in hands]
        g._table = sorted((_idx(c) for c in table), key=_table_key)
        g._code = _code_of(g._table)
        rest = [_idx(c) for c in deck]
        g._captured = [[_idx(c) for c in p] for p in captured] if captured else g._captured
        if len(g._captured) != rules.sides:
            raise ValueError(f"{rules.sides} captured piles are needed")
        named = [c for h in g._hands for c in h] + g._table + rest
        named += [c for p in g._captured for c in p]
        if len(set(named)) != len(named):
            raise ValueError("a card is named twice in the position")
        g._discarded = [c for c in range(40) if c not in set(named)]
        g._deck = [*g._discarded, *rest]
        g._deck_pos = len(g._discarded)
        g._scope = list(scope) if scope else [0] * rules.sides
        g._turn = turn % rules.players
        g._dealer = (turn - 1) % rules.players if dealer is None else dealer
        g._first_dealer = g._dealer
        g._last_capturer = last_capturer
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
        if self._rules.first_dealer is FirstDealer.RANDOM:
            return rng.randrange(self._n), []
        rounds: list[list[tuple[int, int]]] = []
        contenders = list(range(self._n))
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

    def _start_deal(self) -> None:
        rules = self._rules
        n = self._n
        self._deal_no += 1
        size = rules.hand_size
        while True:
            order = self._next_order()
            pos = 0
            hands: list[list[int]] = [[] for _ in range(n)]
            for k in range(1, n + 1):
                seat = (self._dealer + k) % n
                hands[seat] = order[pos : pos + size]
                pos += size
            table = sorted(order[pos : pos + rules.table_size], key=_table_key)
            pos += rules.table_size
            kings = sum(1 for c in table if VALUE_OF[c] == 10)
            if not (rules.three_kings_redeal and kings >= 3):
                break
        self._hands = hands
        self._table = table
        self._code = _code_of(table)
        self._deck = order
        self._deck_pos = pos
        self._captured = [[] for _ in range(rules.sides)]
        self._scope = [0] * rules.sides
        self._discarded = []
        self._last_capturer = None
        self._plays = []
        self._turn = (self._dealer + 1) % n

    def _refill_hands(self) -> None:
        n = self._n
        size = self._rules.hand_size
        pos = self._deck_pos
        order = self._deck
        for k in range(1, n + 1):
            seat = (self._dealer + k) % n
            self._hands[seat] = order[pos : pos + size]
            pos += size
        self._deck_pos = pos

    # ------------------------------------------------------------------ fast, index-level API

    def legal_actions(self) -> list[Action]:
        """Every legal move as card indices, in hand order then capture order."""
        if self._outcome is not None:
            return []
        table = self._table
        options = options_for_code(self._code, self._apt)
        out: list[Action] = []
        for card in self._hands[self._turn]:
            caps = options[VALUE_OF[card]]
            if not caps:
                out.append((card, ()))
            elif len(caps) == 1:
                out.append((card, tuple([table[i] for i in caps[0]])))
            else:
                for positions in caps:
                    out.append((card, tuple([table[i] for i in positions])))
        return out

    def apply_action(self, action: Action) -> PlayResult | None:
        """Apply a move known to be legal (from :meth:`legal_actions`), without checking it.

        Returns a result only when the play ended a deal (the rest of the time ``None``),
        which keeps playouts cheap.
        """
        card, capture = action
        seat = self._turn
        hands = self._hands
        hands[seat].remove(card)
        scopa = False
        if capture:
            table = self._table
            code = self._code
            for c in capture:
                table.remove(c)
                code -= VALUE_CODE[c]
            self._code = code
            side = self._sides[seat]
            pile = self._captured[side]
            pile.append(card)
            pile.extend(capture)
            self._last_capturer = seat
            # The very last play of a deal is never a scopa, nor an asso sweeping a table
            # that held no asso.
            if (
                not table
                and (self._deck_pos < len(self._deck) or any(hands))
                and not (self._apt and VALUE_OF[card] == 1 and VALUE_OF[capture[0]] != 1)
            ):
                scopa = True
                self._scope[side] += 1
        else:
            insort(self._table, card, key=_table_key)
            self._code += VALUE_CODE[card]
        self._plays.append((seat, card, capture, scopa))
        self._moves.append(action)
        seat += 1
        self._turn = seat if seat < self._n else 0
        if hands[self._turn] or any(hands):
            return None
        if self._deck_pos < len(self._deck):
            self._refill_hands()
            return None
        return self._end_deal(self._turn - 1 if self._turn else self._n - 1, action, scopa)

    def playout(self, rng: random.Random) -> DealScore:
        """Play the current deal to its end choosing at random, and return its score.

        This is the inner loop of the computer players' search: a uniformly random card, then
        a uniformly random capture among those the rules allow for it. The match then goes
        on as usual (next deal dealt, or the outcome decided).
        """
        rand = rng.random
        apt = self._apt
        apply = self.apply_action
        cached = code_cache(apt).get
        values = VALUE_OF
        while True:
            hand = self._hands[self._turn]
            card = hand[int(rand() * len(hand))]
            table = self._table
            code = self._code
            options = cached(code) or options_for_code(code, apt)
            caps = options[values[card]]
            if not caps:
                result = apply((card, ()))
            else:
                positions = caps[int(rand() * len(caps))] if len(caps) > 1 else caps[0]
                result = apply((card, tuple([table[i] for i in positions])))
            if result is not None:
                assert result.deal_score is not None
                return result.deal_score

    # ------------------------------------------------------------------ deal and match end

    def _end_deal(self, seat: int, action: Action, scopa: bool) -> PlayResult:
        leftovers = tuple(self._table)
        leftovers_to: int | None = None
        if self._last_capturer is not None:
            leftovers_to = self._sides[self._last_capturer]
            self._captured[leftovers_to].extend(leftovers)
        else:
            self._discarded.extend(leftovers)
        self._table = []
        self._code = 0
        score = score_deal(self._rules, self._captured, self._scope, deal=self._deal_no)
        self._deal_scores.append(score)
        for side, points in enumerate(score.totals):
            self._totals[side] += points
        self._outcome = self._decide(score)
        if self._outcome is None:
            self._dealer = (self._dealer + 1) % self._n
            self._start_deal()
        return PlayResult(
            seat=seat,
            move=_move(action),
            scopa=scopa,
            deal_score=score,
            leftovers=tuple(CARDS[c] for c in leftovers),
            leftovers_to=leftovers_to,
            outcome=self._outcome,
        )

    def _decide(self, score: DealScore) -> Outcome | None:
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
                loser = None if self._last_capturer is None else self._sides[self._last_capturer]
                rest = [s for s in leaders if s != loser]
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
        return self._turn

    @property
    def dealer(self) -> int:
        return self._dealer

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
        return tuple(CARDS[c] for c in self._hands[seat])

    @property
    def table(self) -> tuple[Card, ...]:
        return tuple(CARDS[c] for c in self._table)

    @property
    def deck_size(self) -> int:
        return len(self._deck) - self._deck_pos

    def deck(self) -> tuple[Card, ...]:
        """The undealt cards in dealing order (secret: for tests and the record only)."""
        return tuple(CARDS[c] for c in self._deck[self._deck_pos :])

    def captured(self, side: int) -> tuple[Card, ...]:
        return tuple(CARDS[c] for c in self._captured[side])

    def discarded(self) -> tuple[Card, ...]:
        """Cards out of this deal: leftovers nobody captured, or cards a position left out."""
        return tuple(CARDS[c] for c in self._discarded)

    @property
    def scope(self) -> tuple[int, ...]:
        return tuple(self._scope)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(self._totals)

    @property
    def deal_scores(self) -> tuple[DealScore, ...]:
        return tuple(self._deal_scores)

    @property
    def last_capturer(self) -> int | None:
        return self._last_capturer

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
        if seat is not None and seat != self._turn:
            raise IllegalMoveError(
                IllegalReason.NOT_YOUR_TURN, f"it is seat {self._turn}'s turn, not seat {seat}'s"
            )
        card = move.card.index
        if card not in self._hands[self._turn]:
            raise IllegalMoveError(IllegalReason.NOT_IN_HAND, f"{move.card} is not in your hand")
        wanted = sorted(c.index for c in move.capture)
        choices = [(card, cap) for c, cap in self.legal_actions() if c == card]
        for action in choices:
            if sorted(action[1]) == wanted:
                return action
        table = set(self._table)
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
        player = self._turn
        result = self.apply_action(action)
        if result is not None:
            return result
        return PlayResult(seat=player, move=move, scopa=self._plays[-1][3])

    def view_for(self, seat: int) -> GameView:
        """What ``seat`` may see: its hand, the table, public counts and the plays so far."""
        if not 0 <= seat < self._n:
            raise ValueError(f"no seat {seat} at a table of {self._n}")
        return GameView(
            rules=self._rules,
            seat=seat,
            turn=self._turn,
            dealer=self._dealer,
            deal_number=self._deal_no,
            hand=self.hand(seat),
            table=self.table,
            hand_sizes=tuple(len(h) for h in self._hands),
            deck_size=self.deck_size,
            captured_counts=tuple(len(p) for p in self._captured),
            scope=self.scope,
            plays=self.plays(),
            totals=self.totals,
            deal_scores=self.deal_scores,
            last_capturer=self._last_capturer,
            outcome=self._outcome,
            spareggio=self._spareggio,
            dealer_draw=self.dealer_draw,
            _legal=self.legal_moves if seat == self._turn else None,
        )

    def run_to_end(self, choose: Any) -> Outcome:
        """Play the match out, asking ``choose(game)`` for each move (a test/arena helper)."""
        while self._outcome is None:
            self.play(choose(self))
        return self._outcome

    def copy(self) -> Game:
        """An independent copy, cheap enough for search (the record is shared, not copied)."""
        g = object.__new__(Game)
        g._rules = self._rules
        g._apt = self._apt
        g._n = self._n
        g._sides = self._sides
        g._seed = self._seed
        g._dealer = self._dealer
        g._first_dealer = self._first_dealer
        g._turn = self._turn
        g._deal_no = self._deal_no
        g._hands = [list(h) for h in self._hands]
        g._table = list(self._table)
        g._code = self._code
        g._deck = self._deck
        g._deck_pos = self._deck_pos
        g._captured = [list(p) for p in self._captured]
        g._scope = list(self._scope)
        g._discarded = list(self._discarded)
        g._last_capturer = self._last_capturer
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
        data: dict[str, Any] = {
            "format": SNAPSHOT_FORMAT,
            "rules": self._rules.to_dict(),
            "seed": self._seed,
            "dealer": self._dealer,
            "first_dealer": self._first_dealer,
            "turn": self._turn,
            "deal": self._deal_no,
            "hands": [cards_to_text(h) for h in self._hands],
            "table": cards_to_text(self._table),
            "deck": cards_to_text(self._deck),
            "deck_pos": self._deck_pos,
            "captured": [cards_to_text(p) for p in self._captured],
            "scope": list(self._scope),
            "discarded": cards_to_text(self._discarded),
            "last_capturer": self._last_capturer,
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
        g._dealer = int(data["dealer"])
        g._first_dealer = int(data["first_dealer"])
        g._turn = int(data["turn"])
        g._deal_no = int(data["deal"])
        g._hands = [cards_from_text(h) for h in data["hands"]]
        g._table = sorted(cards_from_text(data["table"]), key=_table_key)
        g._code = _code_of(g._table)
        g._deck = cards_from_text(data["deck"])
        g._deck_pos = int(data["deck_pos"])
        g._captured = [cards_from_text(p) for p in data["captured"]]
        g._scope = [int(s) for s in data["scope"]]
        g._discarded = cards_from_text(data["discarded"])
        g._last_capturer = data["last_capturer"]
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


def _code_of(table: list[int]) -> int:
    return sum(VALUE_CODE[c] for c in table)


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
    return CARD_TEXT[card] + ":" + "+".join([CARD_TEXT[c] for c in sorted(capture, key=_table_key)])


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
