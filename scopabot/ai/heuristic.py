"""The ``normal`` level: the traditional strategy experienced Scopone players are taught.

Each legal move gets a score in points of a deal, and the best one is played:

* **What it takes**: its cards (weighted for carte, denari, primiera, the sevens and the
  settebello) and a scopa.
* **What it gives**: the table it leaves is checked against the cards this seat has not seen
  (it counts the cards already played). For every value still out, the best the next player
  could take with it — sweeping the table included — is weighed by the chance, from the
  hypergeometric law, that the next player holds a card of that value. A table of 10 or less
  is only dangerous while a card that sweeps it is still unseen; a settebello laid where an
  unseen 7 can take it is as bad as giving a point away.
* **The signal** (Chitarrella and docs/rulebook.md): when it cannot (or chooses not to) capture, it
  prefers a card of which it holds the twin, so its partner knows it can take it back.
* **Its partner's double**: a card the partner has just laid without capturing is the
  partner's signal; it is left for the partner to take back unless taking it is worth a lot.
* **The last capture**: in the last round it keeps its highest card for the end, when the
  cards left on the felt go to whoever captures last.
"""

from __future__ import annotations

import random
from math import comb

from scopabot.engine import (
    FELT_ORDER,
    SETTEBELLO,
    VALUE_OF,
    GameView,
    Move,
    Rules,
    capture_options,
)

from .base import Level, legal_or_raise, view_key
from .features import SCOPA_WEIGHT, card_weights

SIGNAL_BONUS = 0.2
PARTNER_DOUBLE_PENALTY = 0.25
LAY_COST = 0.25
KEEPER_BONUS = 0.12


class NormalPlayer:
    """Scores every move by what it takes, what it leaves to the next player, and the
    traditional conventions; see the module docstring."""

    level = Level.NORMAL

    def __init__(
        self,
        *,
        seed: int,
        signal_bonus: float = SIGNAL_BONUS,
        partner_double_penalty: float = PARTNER_DOUBLE_PENALTY,
    ) -> None:
        self.seed = seed
        self.signal_bonus = signal_bonus
        self.partner_double_penalty = partner_double_penalty
        self._weights: dict[Rules, tuple[float, ...]] = {}

    def weights(self, rules: Rules) -> tuple[float, ...]:
        found = self._weights.get(rules)
        if found is None:
            found = self._weights[rules] = card_weights(rules)
        return found

    def scores(self, view: GameView) -> dict[Move, float]:
        """Every legal move with its score (higher is better)."""
        moves = legal_or_raise(view)
        return {m: s for m, s in zip(moves, self._score_all(view, moves), strict=True)}

    def choose(self, view: GameView) -> Move:
        moves = legal_or_raise(view)
        scores = self._score_all(view, moves)
        top = max(scores)
        best = [m for m, s in zip(moves, scores, strict=True) if s > top - 1e-9]
        rng = random.Random(self.seed * 1_000_003 + view_key(view))
        return best[int(rng.random() * len(best))]

    def _score_all(self, view: GameView, moves: tuple[Move, ...]) -> list[float]:
        rules = view.rules
        w = self.weights(rules)
        n = rules.players
        hand = [c.index for c in view.hand]
        felt = [c.index for c in view.felt]
        unseen = [c.index for c in view.unseen_cards()]
        by_value: list[list[int]] = [[] for _ in range(11)]
        for c in unseen:
            by_value[VALUE_OF[c]].append(c)
        cards_left = sum(view.hand_sizes) + view.deck_size
        last_play = cards_left == 1
        nxt = (view.seat + 1) % n
        nxt_hand = view.next_hand_size(nxt)
        # The next play is the deal's last when only one card will be left after ours.
        next_is_last = cards_left == 2
        partner_card = self._partner_lay(view)
        last_round = view.deck_size == 0 and len(hand) >= 2
        top_card = max(hand, key=VALUE_OF.__getitem__)
        hand_values = [VALUE_OF[c] for c in hand]

        out: list[float] = []
        for move in moves:
            card = move.card.index
            taken = [c.index for c in move.capture]
            if taken:
                score = w[card] + sum(w[c] for c in taken)
                rest = [c for c in felt if c not in taken]
                if not rest and not last_play and not _apt_sweep(rules, card, taken):
                    score += SCOPA_WEIGHT
                if partner_card in taken and rest and SETTEBELLO not in taken:
                    score -= self.partner_double_penalty
            else:
                rest = sorted([*felt, card], key=FELT_ORDER.__getitem__)
                score = -LAY_COST * w[card]
                if hand_values.count(VALUE_OF[card]) >= 2:
                    score += self.signal_bonus
            if not last_play and rest:
                score -= _risk(rules, rest, by_value, len(unseen), nxt_hand, w, next_is_last)
            if last_round and card != top_card and VALUE_OF[card] < VALUE_OF[top_card]:
                score += KEEPER_BONUS
            out.append(score)
        return out

    @staticmethod
    def _partner_lay(view: GameView) -> int | None:
        """The card the partner laid on its last turn without capturing, if still there."""
        if view.rules.players != 4 or len(view.plays) < 2:
            return None
        play = view.plays[-2]
        if play.capture or play.seat != (view.seat + 2) % 4:
            return None
        return play.card.index if play.card in view.felt else None


def _apt_sweep(rules: Rules, card: int, taken: list[int]) -> bool:
    """An asso sweeping under asso piglia tutto is never a scopa."""
    return rules.asso_piglia_tutto and VALUE_OF[card] == 1 and VALUE_OF[taken[0]] != 1


def _risk(
    rules: Rules,
    rest: list[int],
    by_value: list[list[int]],
    unseen: int,
    hand: int,
    w: tuple[float, ...],
    next_is_last: bool,
) -> float:
    """The expected best take of the next player on table ``rest``."""
    if unseen == 0 or hand == 0:
        return 0.0
    options = capture_options(tuple(VALUE_OF[c] for c in rest), rules.asso_piglia_tutto)
    gains: list[tuple[float, int]] = []
    for v in range(1, 11):
        cards = by_value[v]
        if not cards or not options[v]:
            continue
        played = sum(w[c] for c in cards) / len(cards)
        best = 0.0
        for positions in options[v]:
            g = played + sum(w[rest[i]] for i in positions)
            apt_sweep = rules.asso_piglia_tutto and v == 1 and VALUE_OF[rest[0]] != 1
            if len(positions) == len(rest) and not next_is_last and not apt_sweep:
                g += SCOPA_WEIGHT
            best = max(best, g)
        gains.append((best, len(cards)))
    if not gains:
        return 0.0
    gains.sort(reverse=True)
    total = comb(unseen, hand)
    risk = 0.0
    none_before = 1.0
    count = 0
    for gain, k in gains:
        count += k
        none_now = comb(unseen - count, hand) / total if unseen - count >= hand else 0.0
        risk += gain * (none_before - none_now)
        none_before = none_now
    return risk
