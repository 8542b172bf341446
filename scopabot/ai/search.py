"""The search levels, ``hard`` and ``expert``: perfect-information Monte Carlo over the
hidden cards.

For each iteration the seat deals the cards it cannot see at random, consistently with its view
and reading the other seats' plays as evidence (:mod:`.determinize`), and plays every one of
its legal moves in that same deal, followed by a playout to the end of the deal in which every
seat plays greedily (the most valuable capture; no sweep and no settebello left to a next seat
that holds the card to take them in the sampled deal) with 10% random moves. A move's value is
its mean point difference over all deals; using the same deal and the same playout seed for
every move (common random numbers) cancels most of the luck between moves. Successive halving
stops searching the worse half of the moves after a quarter and after half of the budget (of
sampled deals or of time, whichever runs out first), so the time goes to telling the good ones
apart (a move the leader is not two standard errors sure to beat is kept all the same, in
``expert``, which keeps what that takes). When few cards are left the playout is replaced by
exact search (alpha-beta on the point difference) in each sampled deal, and a deal drawn again
is not solved again.

The deals are played on the search's own core (:mod:`.core`: card sets as bit masks, checked
against the engine's rules by ``tests/ai/test_core.py``), much faster than on the
engine's :class:`~scopabot.engine.Deal`, which the game itself plays on.

Both levels have an iteration budget (the number of sampled deals) and a time budget (the
search stops early, keeping what it has, when the time is up). The randomness comes from the
seed and the public part of the view, so the same seed and budget give the same move, and
reshuffling the cards the seat cannot see changes nothing.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Final

from scopabot.engine import VALUE_OF, Deal, GameView, IndexMove, Move

from .base import Level, legal_or_raise, view_key
from .core import (
    ACES,
    State,
    apply,
    captures,
    code_of,
    core_for,
    finish,
    mask_of,
    playout_reward,
)
from .core import exact_value as solve
from .determinize import Sampler
from .sim import settle

STREAM: Final = 64
"""Random numbers drawn per sampled deal and shared by the playouts of every move searched
in it (common random numbers): more than a playout's plays, so that it rarely wraps."""


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a search level may think: sampled deals, seconds, the number of cards left
    from which it searches exactly, the share of random moves in playouts, whether it reads
    the other seats' plays, and whether playouts look at the next hand."""

    iterations: int
    time_budget: float
    exact_cards: int
    eps: float
    infer: bool = True
    informed: bool = False
    enough: float = 0.0
    """Stop before the budgets once, with :data:`SURE` confidence, no other move is better than
    the leading one by more than this many points (0: search to the budget). Most decisions
    are plain after a few hundred sampled deals; the rest get the whole budget."""
    cpu_clock: bool = False
    """Count the time budget in this process's CPU seconds rather than on the wall clock:
    for measuring strength on a shared machine, where a wall-clock budget buys less search
    the busier the machine is (a person waits on the wall clock, so the bot never uses it)."""


BUDGETS = {
    Level.HARD: Budget(iterations=300, time_budget=0.3, exact_cards=8, eps=0.1, informed=True),
    # Under the 0.6 s a move the issue allows (building the sampler takes up to ~0.04 s
    # more), against the 1.5 s it had before the core, the early stop and the protected cuts;
    # most decisions stop well before it. In the arena as strong as the 1.5 s search; on the
    # regret bench a little below it, about 0.06 points a deal (docs/ai.md, "Where the regret
    # is").
    Level.EXPERT: Budget(
        iterations=4000, time_budget=0.56, exact_cards=10, eps=0.1, informed=True, enough=0.02
    ),
}


class SearchPlayer:
    """Chooses the move with the best mean point difference over sampled deals."""

    def __init__(self, level: Level, *, seed: int, budget: Budget) -> None:
        self.level = level
        self.seed = seed
        self.budget = budget
        self.last_iterations = 0

    @classmethod
    def for_level(
        cls,
        level: Level,
        *,
        seed: int,
        iterations: int | None = None,
        time_budget: float | None = None,
        infer: bool = True,
        informed: bool | None = None,
        cpu_clock: bool = False,
        enough: float | None = None,
    ) -> SearchPlayer:
        base = BUDGETS[level]
        if iterations is not None and iterations < 1:
            raise ValueError(f"a search needs at least one sampled deal, not {iterations}")
        if time_budget is not None and time_budget <= 0:
            raise ValueError(f"a search needs some time, not {time_budget} s")
        budget = Budget(
            iterations=base.iterations if iterations is None else iterations,
            time_budget=base.time_budget if time_budget is None else time_budget,
            exact_cards=base.exact_cards,
            eps=base.eps,
            infer=infer,
            informed=base.informed if informed is None else informed,
            enough=base.enough if enough is None else enough,
            cpu_clock=cpu_clock,
        )
        return cls(level, seed=seed, budget=budget)

    def choose(self, view: GameView) -> Move:
        moves = legal_or_raise(view)
        if len(moves) == 1:
            return moves[0]
        return tie_broken(view, self.evaluate(view))

    def evaluate(self, view: GameView) -> dict[Move, float]:
        """Each legal move with its mean point difference over the sampled deals."""
        clock = time.process_time if self.budget.cpu_clock else time.perf_counter
        # A little is kept back for building the sampler and returning the move.
        deadline = clock() + self.budget.time_budget * 0.97
        moves = legal_or_raise(view)
        actions = [(m.card.index, mask_of(c.index for c in m.capture)) for m in moves]
        sampler = Sampler(view, infer=self.budget.infer)
        side = view.rules.side_of(view.seat)
        c = core_for(view.rules)
        eps = self.budget.eps
        informed = self.budget.informed
        rng = random.Random(self.seed * 1_000_003 + view_key(view))
        rand = rng.random
        exact = view.deck_size == 0 and sum(view.hand_sizes) <= self.budget.exact_cards
        # Exact search of the one possible deal gives the same values every time: once is all.
        iterations = 1 if sampler.is_one_deal and exact else self.budget.iterations
        totals = [0.0] * len(actions)
        counts = [0] * len(actions)
        alive = list(range(len(actions)))
        started = clock()
        # Successive halving after a quarter and after half of the budget, whichever of the
        # two budgets (sampled deals, time) runs out first: a search stopped by its time
        # still spends its second half on the better moves.
        cuts = (
            [
                (max(1, iterations * k // 8), started + self.budget.time_budget * k / 8)
                for k in (2, 4)
            ]
            if len(actions) > 2
            else []
        )
        # With every hand known, a deal's exact values are the same each time it is drawn,
        # and with few cards left the same deals are drawn again and again: solved once.
        solved: dict[tuple[int, ...], list[float | None]] = {}
        # Per pair of moves still searched, the sum of their squared differences deal by deal:
        # with common random numbers, the paired difference is what tells two moves apart.
        enough = self.budget.enough
        squares = [[0.0] * len(actions) for _ in actions] if enough else []
        values = [0.0] * len(actions)
        done = 0
        last = started
        for _ in range(iterations):
            base = State.of(sampler.sample(rng))
            stream = [rand() for _ in range(STREAM)]
            known = None
            if exact:
                key = tuple([mask_of(h) for h in base.hands])
                known = solved.get(key)
                if known is None:
                    known = solved[key] = [None] * len(actions)
            for k in alive:
                if known is not None and (value := known[k]) is not None:
                    totals[k] += value
                    counts[k] += 1
                    values[k] = value
                    continue
                card, taken = actions[k]
                s = base.copy()
                if apply(c, s, card, taken):
                    finish(c, s)
                    value = c.reward(s.piles, s.scope, side)
                elif exact:
                    value = solve(c, s, side)
                else:
                    value = playout_reward(c, s, side, stream, eps, informed)
                if known is not None:
                    known[k] = value
                totals[k] += value
                counts[k] += 1
                values[k] = value
            done += 1
            if enough:
                for i, a in enumerate(alive):
                    row, va = squares[a], values[a]
                    for b in alive[i + 1 :]:
                        row[b] += (va - values[b]) ** 2
                if (
                    done >= SURE_AFTER
                    and done % SURE_EVERY == 0
                    and settled(alive, totals, squares, done, enough)
                ):
                    break
            now = clock()
            if cuts and (done >= cuts[0][0] or now >= cuts[0][1]):
                del cuts[0]
                # The worse half stops being searched, so the time goes to telling the good
                # moves apart.
                alive = halved(alive, totals, squares, done)
            # Stop when the next sampled deal would likely overrun the time budget.
            if now + (now - last) > deadline:
                break
            last = now
        self.last_iterations = done
        # Moves dropped early keep their mean, lowered so that a survivor always wins a tie.
        return {
            m: totals[k] / counts[k] - (0.0 if k in alive else 1e-6) for k, m in enumerate(moves)
        }


SURE: Final = 3.0
"""Standard errors of the paired difference by which a move's lead must hold for the search
to stop early (one-sided, for each rival, looked at every :data:`SURE_EVERY` deals: a
stricter bound than a single look would need, because it is looked at many times)."""
SURE_AFTER: Final = 128
"""Sampled deals searched before stopping early is considered: fewer cannot estimate a
difference's spread."""
SURE_EVERY: Final = 32


def settled(
    alive: list[int], totals: list[float], squares: list[list[float]], n: int, enough: float
) -> bool:
    """Whether the leading move, among the moves searched over the same ``n`` deals, is with
    :data:`SURE` confidence no more than ``enough`` points worse than any rival.

    Dropping a rival as soon as the leader looked surely better was tried: over many looks
    it dropped good moves by chance, and chose worse than searching them all to the end."""
    lead = max(alive, key=totals.__getitem__)
    for k in alive:
        if k == lead:
            continue
        mean, se = lead_over(lead, k, totals, squares, n)
        if SURE * se - mean >= enough:
            return False
    return True


def lead_over(
    lead: int, k: int, totals: list[float], squares: list[list[float]], n: int
) -> tuple[float, float]:
    """The mean lead of move ``lead`` over move ``k`` across the same ``n`` deals, and its
    standard error from their deal-by-deal difference (common random numbers: the luck both
    met cancels in it)."""
    mean = (totals[lead] - totals[k]) / n
    a, b = (lead, k) if lead < k else (k, lead)
    return mean, math.sqrt(max(squares[a][b] / n - mean * mean, 0.0) / (n - 1))


CUT_SURE: Final = 2.0
"""Standard errors of the paired difference within which a cut keeps a move whatever its rank
(only when the search stops early, which keeps the squares it needs). The regret is in the
close decisions, the ones that use the whole budget, where a plain halving can drop the best
move for a rank it holds by chance. On ``bench/choices.py``'s 120 scopone positions: 0.0064 to
0.0093 regret a decision in four runs with it, 0.0079 and 0.0094 in two without: a gain, if
any, inside the spread between runs (docs/ai.md); it costs time on the close decisions only."""


def halved(alive: list[int], totals: list[float], squares: list[list[float]], n: int) -> list[int]:
    """The better half of the moves searched over the same ``n`` deals, and any other move
    the leader is not :data:`CUT_SURE` standard errors sure to beat."""
    ranked = sorted(alive, key=lambda k: -totals[k])
    keep = max(2, (len(ranked) + 1) // 2)
    kept = ranked[:keep]
    if CUT_SURE and squares and n > 1:
        lead = ranked[0]
        for k in ranked[keep:]:
            mean, se = lead_over(lead, k, totals, squares, n)
            if mean <= CUT_SURE * se:
                kept.append(k)
    return sorted(kept)


TIE: Final = 0.05
"""Moves whose values are within this many points of the best are equally good: the search
cannot tell them apart (a tenth of a typical interval between two moves' means)."""


def tie_broken(view: GameView, values: dict[Move, float]) -> Move:
    """The best move; among moves about as good as it (:data:`TIE`), the one that leaves the
    least :func:`scopa_risk`, then the better value. A sweep for one card left on the felt
    is what a player notices first, and a search that sees two plays as equal has no
    reason to give the next seat the chance."""
    top = max(values.values())
    near = [m for m, v in values.items() if v >= top - TIE]
    if len(near) == 1:
        return near[0]
    return min(near, key=lambda m: (round(scopa_risk(view, m), 6), -values[m]))


def scopa_risk(view: GameView, move: Move) -> float:
    """The chance that the next seat can sweep the table this move leaves, the cards it may
    hold drawn from those this seat has not seen (a sweep on the deal's last card is no
    scopa, nor an asso sweeping a table with no asso under asso piglia tutto)."""
    rules = view.rules
    c = core_for(rules)
    felt = mask_of(card.index for card in view.felt)
    taken = mask_of(card.index for card in move.capture)
    felt = felt ^ taken if taken else felt | 1 << move.card.index
    left = sum(view.hand_sizes) + view.deck_size - 1
    if not felt or left <= 1:
        return 0.0
    code = code_of(felt)
    unseen = [card.index for card in view.unseen_cards()]
    sweeping = 0
    for value in range(1, 11):
        if rules.asso_piglia_tutto and value == 1 and not felt & ACES:
            continue  # it takes the table, but that is no scopa
        if any(m == felt for m, _ in captures(c, felt, code, value)):
            sweeping += sum(1 for card in unseen if VALUE_OF[card] == value)
    nxt = (view.seat + 1) % rules.players
    held = view.next_hand_size(nxt)
    if not sweeping or not held:
        return 0.0
    return 1.0 - math.comb(len(unseen) - sweeping, held) / math.comb(len(unseen), held)


def exact_value(deal: Deal, side: int, alpha: float, beta: float) -> float:
    """The exact point difference for ``side`` with every hand known, the other sides
    playing against it."""
    maximizing = deal.sides[deal.turn] == side
    actions = deal.actions()
    actions.sort(key=_capture_first)
    best = -1e9 if maximizing else 1e9
    for card, taken in actions:
        d = deal.copy()
        value = settle(d, side) if d.apply(card, taken) else exact_value(d, side, alpha, beta)
        if maximizing:
            if value > best:
                best = value
            if best > alpha:
                alpha = best
        else:
            if value < best:
                best = value
            if best < beta:
                beta = best
        if alpha >= beta:
            break
    return best


def _capture_first(action: IndexMove) -> int:
    return -len(action[1])


__all__ = ["BUDGETS", "TIE", "Budget", "SearchPlayer", "scopa_risk", "tie_broken"]
