"""The arena: two computer players (two levels, or two budgets of one level) meet over a fixed
set of seeded deals, each deal played again with the seats swapped.

Playing every deal both ways cancels the luck of the cards: what is left of the point
difference is the players' skill. In scopone the pairs swap; with three players the first
configuration holds seat 0's side in one game and the other two sides in the other.

The service owns the arena (it plays games between computer players, in worker processes);
it reports progress through a callback and returns the results, and a front end such as
:mod:`scopabot.cli.arena` shows them.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

from scopabot.ai import PlayerSpec
from scopabot.engine import Game, Rules


@dataclass(frozen=True, slots=True)
class DealResult:
    """One deal from A's point of view (A being the first configuration)."""

    seed: int
    swapped: bool
    a_points: float
    b_points: float
    a_dealer_side: bool
    a_times: tuple[float, ...]
    b_times: tuple[float, ...]
    a_cpu: tuple[float, ...] = ()
    """This process's CPU seconds per move, beside the wall-clock ``a_times``: on a shared
    machine the wall clock counts the other programs too."""
    b_cpu: tuple[float, ...] = ()

    @property
    def diff(self) -> float:
        return self.a_points - self.b_points


def a_sides(rules: Rules, swapped: bool) -> frozenset[int]:
    """The sides configuration A plays: side 0 normally, the others when swapped."""
    if not swapped:
        return frozenset({0})
    return frozenset(range(1, rules.sides))


def play_deal(rules: Rules, seed: int, a: PlayerSpec, b: PlayerSpec, swapped: bool) -> DealResult:
    """Play the first deal of the match seeded ``seed``, A on :func:`a_sides`."""
    rules = rules.replace(deals=1)
    game = Game.new(rules, seed=seed)
    mine = a_sides(rules, swapped)
    players = [
        (a if rules.side_of(s) in mine else b).make(seed * 64 + s) for s in range(rules.players)
    ]
    times: dict[bool, list[float]] = {True: [], False: []}
    cpu: dict[bool, list[float]] = {True: [], False: []}
    dealer = game.dealer
    while not game.deal_scores:
        seat = game.turn
        view = game.view_for(seat)
        start, start_cpu = time.perf_counter(), time.process_time()
        move = players[seat].choose(view)
        ours = rules.side_of(seat) in mine
        times[ours].append(time.perf_counter() - start)
        cpu[ours].append(time.process_time() - start_cpu)
        game.play(move, seat=seat)
    score = game.deal_scores[0]
    a_pts = [score.sides[s].total for s in range(rules.sides) if s in mine]
    b_pts = [score.sides[s].total for s in range(rules.sides) if s not in mine]
    return DealResult(
        seed=seed,
        swapped=swapped,
        a_points=sum(a_pts) / len(a_pts),
        b_points=sum(b_pts) / len(b_pts),
        a_dealer_side=rules.side_of(dealer) in mine,
        a_times=tuple(times[True]),
        b_times=tuple(times[False]),
        a_cpu=tuple(cpu[True]),
        b_cpu=tuple(cpu[False]),
    )


def play_pair(task: tuple[Rules, int, PlayerSpec, PlayerSpec]) -> tuple[DealResult, DealResult]:
    """A deal played both ways (the unit of work sent to each process)."""
    rules, seed, a, b = task
    return play_deal(rules, seed, a, b, False), play_deal(rules, seed, a, b, True)


@dataclass(frozen=True, slots=True)
class Tally:
    deals: int
    won: int
    lost: int
    tied: int
    mean_diff: float

    @classmethod
    def of(cls, results: Sequence[DealResult]) -> Tally:
        diffs = [r.diff for r in results]
        return cls(
            deals=len(diffs),
            won=sum(1 for d in diffs if d > 0),
            lost=sum(1 for d in diffs if d < 0),
            tied=sum(1 for d in diffs if d == 0),
            mean_diff=statistics.fmean(diffs) if diffs else 0.0,
        )

    def line(self) -> str:
        if not self.deals:
            return "no deals"
        pct = 100 / self.deals
        return (
            f"{self.deals} deals: won {self.won} ({self.won * pct:.1f}%), "
            f"lost {self.lost} ({self.lost * pct:.1f}%), tied {self.tied} ({self.tied * pct:.1f}%)"
            f", mean point difference {self.mean_diff:+.3f}"
        )


@dataclass(frozen=True, slots=True)
class ArenaReport:
    rules: Rules
    a: PlayerSpec
    b: PlayerSpec
    results: tuple[DealResult, ...]
    wall_seconds: float
    jobs: int
    target: int
    kept: int = 0
    """Seeded deals taken from an earlier run of the match (not in ``wall_seconds``)."""
    overall: Tally = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "overall", Tally.of(self.results))

    def confidence(self) -> tuple[float, float]:
        """95% interval of the mean point difference per deal.

        The two games of a seeded deal share their cards, so the interval is computed over
        the pair means (independent draws), not over the games."""
        pairs: dict[int, list[float]] = {}
        for r in self.results:
            pairs.setdefault(r.seed, []).append(r.diff)
        means = [statistics.fmean(v) for v in pairs.values()]
        if len(means) < 2:
            return (-math.inf, math.inf)
        m = statistics.fmean(means)
        half = 1.96 * statistics.stdev(means) / math.sqrt(len(means))
        return (m - half, m + half)

    def matches(self) -> tuple[int, int]:
        """Matches to the target won by A and by B, made of consecutive deals of the series
        (each orientation apart), the totals checked after every deal as in a real match."""
        won = [0, 0]
        for swapped in (False, True):
            series = sorted((r for r in self.results if r.swapped == swapped), key=_seed)
            a_total = b_total = 0.0
            for r in series:
                a_total += r.a_points
                b_total += r.b_points
                if max(a_total, b_total) >= self.target and a_total != b_total:
                    won[0 if a_total > b_total else 1] += 1
                    a_total = b_total = 0.0
        return won[0], won[1]

    def split(self, dealer_side: bool) -> Tally:
        return Tally.of([r for r in self.results if r.a_dealer_side == dealer_side])

    def times(self, of_a: bool, *, cpu: bool = False) -> tuple[float, float, float, int]:
        """Median, 95th percentile and max seconds per move (on the wall clock, or of this
        process's CPU), and the number of moves."""
        name = f"{'a' if of_a else 'b'}_{'cpu' if cpu else 'times'}"
        values = sorted(t for r in self.results for t in getattr(r, name))
        if not values:
            return (0.0, 0.0, 0.0, 0)
        p95 = values[min(len(values) - 1, math.ceil(0.95 * len(values)) - 1)]
        return (statistics.median(values), p95, values[-1], len(values))

    def text(self) -> str:
        lo, hi = self.confidence()
        won_a, won_b = self.matches()
        r = self.rules
        opts = [o for o in ("asso_piglia_tutto", "napola", "re_bello") if getattr(r, o)]
        lines = [
            f"arena: A = {self.a}  vs  B = {self.b}",
            f"game: {r.preset}, {r.players} players"
            + (f", {', '.join(opts)}" if opts else "")
            + f"; {len(self.results) // 2} seeded deals, each played both ways",
            f"A overall: {self.overall.line()}",
            f"  95% interval of the mean point difference: [{lo:+.3f}, {hi:+.3f}]",
            f"  A on the dealer's side: {self.split(True).line()}",
            f"  A on the other side:    {self.split(False).line()}",
            f"matches to {self.target} (consecutive deals): A won {won_a}, B won {won_b}",
        ]
        for label, spec, of_a in (("A", self.a, True), ("B", self.b, False)):
            med, p95, mx, count = self.times(of_a)
            cpu_med, cpu_p95, cpu_mx, _ = self.times(of_a, cpu=True)
            lines.append(
                f"time per move {label} ({spec}): median {med * 1000:.1f} ms, "
                f"p95 {p95 * 1000:.1f} ms, max {mx * 1000:.1f} ms over {count} moves"
                f" (CPU: {cpu_med * 1000:.1f} / {cpu_p95 * 1000:.1f} / {cpu_mx * 1000:.1f} ms)"
            )
        lines.append(
            f"wall time {self.wall_seconds:.0f} s with {self.jobs} job(s)"
            + (f", after {self.kept} seeded deals kept from before" if self.kept else "")
        )
        return "\n".join(lines)


def _seed(r: DealResult) -> int:
    return r.seed


def run_arena(
    rules: Rules,
    a: PlayerSpec,
    b: PlayerSpec,
    *,
    deals: int,
    first_seed: int = 1,
    jobs: int = 1,
    target: int = 11,
    progress: Callable[[int, int], None] | None = None,
    kept: Sequence[DealResult] = (),
    record: Callable[[tuple[DealResult, DealResult]], None] | None = None,
) -> ArenaReport:
    """Play ``deals`` seeded deals both ways; ``progress(done, total)`` after each.

    ``kept`` are results of an earlier run of the same match, whose seeds are not played
    again, and ``record`` is given each pair as it is played: a run of a thousand deals
    takes hours, and one cut short goes on where it stopped."""
    seeds = range(first_seed, first_seed + deals)
    results = [r for r in kept if r.seed in seeds]
    have = {r.seed for r in results}
    tasks = [(rules, seed, a, b) for seed in seeds if seed not in have]
    start = time.perf_counter()
    outcomes: Iterable[tuple[DealResult, DealResult]]
    with ExitStack() as stack:
        if jobs > 1 and len(tasks) > 1:
            pool = stack.enter_context(get_context("spawn").Pool(jobs))
            outcomes = pool.imap_unordered(play_pair, tasks)
        else:
            outcomes = map(play_pair, tasks)
        for done, pair in enumerate(outcomes, len(have) + 1):
            results.extend(pair)
            if record:
                record(pair)
            if progress:
                progress(done, deals)
    results.sort(key=lambda r: (r.seed, r.swapped))
    return ArenaReport(
        rules=rules,
        a=a,
        b=b,
        results=tuple(results),
        wall_seconds=time.perf_counter() - start,
        jobs=jobs,
        target=target,
        kept=len(have),
    )


def match_header(rules: Rules, a: PlayerSpec, b: PlayerSpec) -> dict[str, Any]:
    """What names a match in a saved run: a run goes on only with the same players and game."""
    return {"a": str(a), "b": str(b), "rules": rules.to_dict()}


def result_to_dict(r: DealResult) -> dict[str, Any]:
    """A deal's result as saved, its times to the microsecond: a clock's last digits are
    noise, and a saved run of 1,000 deals stays a size that can be kept beside its figures."""
    saved = {f: getattr(r, f) for f in DealResult.__slots__}
    for f in ("a_times", "b_times", "a_cpu", "b_cpu"):
        saved[f] = [round(t, 6) for t in saved[f]]
    return saved


def result_from_dict(data: dict[str, Any]) -> DealResult:
    """A saved deal's result; a line that is not one raises ``ValueError``."""
    try:
        return DealResult(
            seed=int(data["seed"]),
            swapped=bool(data["swapped"]),
            a_points=float(data["a_points"]),
            b_points=float(data["b_points"]),
            a_dealer_side=bool(data["a_dealer_side"]),
            a_times=tuple(float(t) for t in data["a_times"]),
            b_times=tuple(float(t) for t in data["b_times"]),
            a_cpu=tuple(float(t) for t in data.get("a_cpu", ())),
            b_cpu=tuple(float(t) for t in data.get("b_cpu", ())),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not a deal's result: {exc}") from None


__all__ = ["ArenaReport", "DealResult", "PlayerSpec", "Tally", "play_deal", "run_arena"]
