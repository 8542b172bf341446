"""How ratings move after a match: openskill's Plackett-Luce model behind the store's policy.

The store calls :class:`RatingsPolicy` once per board (the server's, then the global one) in
the transaction of the move that ended the match, so it must be pure and quick: no I/O, the
same answer for the same input.

One team per side: a pair in scopone and four-player scopa is one team of two (both partners
move together), three players are three teams of one (a free-for-all), two players one against
one. Computer levels are rated players too, each under a fixed negative pseudo user id
(:func:`computer_rating_id`), so beating ``expert`` counts for more than beating ``random`` and
the leaderboard shows where each level stands among the people.

Leaderboards sort by ``score``, the conservative ordinal ``mu - 3 sigma``: a newcomer starts at
0 and climbs as the system grows sure of them, so one lucky win does not top the board.

:class:`Boards` reads them back for front ends: leaderboard pages with ranks, where each level
stands, and a player's record per game kind.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

from scopabot.ai import Level
from scopabot.engine import Preset
from scopabot.store import (
    COMPUTER_RATING_IDS,
    GLOBAL,
    MatchResult,
    Page,
    PlayerStats,
    Rating,
    RatingValue,
    Store,
    rating_id,
)

_LEVEL_OF_ID = {rid: Level(level) for level, rid in COMPUTER_RATING_IDS.items()}

# Where a level starts before any match has rated it: a guess, 5 mu a step, from the arena
# (docs/ai.md, "Measured strength": each level wins about three matches in four against the one
# below). The first sigma is openskill's default, so the matches correct the guess quickly.
COMPUTER_PRIOR_MU: Mapping[str, float] = {
    level.value: 25.0 + 5.0 * (n - list(Level).index(Level.NORMAL)) for n, level in enumerate(Level)
}


def computer_rating_id(level: Level | str) -> int:
    """The pseudo user id a computer level is rated under (ValueError for an unknown level).

    The table itself is the store's (:data:`scopabot.store.COMPUTER_RATING_IDS`: random -1 …
    expert -5, below every Discord id), since the store keys ratings by it inside the move
    that ends a match and may not import the computer players."""
    return COMPUTER_RATING_IDS[Level(level).value]


def level_of_rating_id(rating_id: int) -> Level | None:
    """The computer level rated under ``rating_id``; ``None`` for a person's id."""
    return _LEVEL_OF_ID.get(rating_id)


def conservative_score(mu: float, sigma: float) -> float:
    """What leaderboards sort by: openskill's ordinal, ``mu - 3 sigma``."""
    return mu - 3.0 * sigma


class RatingsPolicy:
    """The store's ``RatingPolicy``: new numbers for the rated players of a finished match.

    ``winner_side`` names who won whatever the reason (target, resignation, forfeit). With a
    winner, it ranks first, a side that resigned or forfeited (``losing_side``) ranks last
    whatever its points, and the other sides fall between by their totals (equal totals share
    a rank: in a three-player match two losers with equal points are tied for second). With
    ``winner_side`` ``None`` (nobody could be named) the match is a draw among all sides, as
    the store's statistics count no win for anyone.

    A player in ``result`` that ``current`` does not list (an unrated seat holder, or a level
    the store did not pass) still plays at their stored or first numbers, so the others are
    rated against the real field, but gets no new numbers back. A rating id sitting in several
    seats (two ``normal`` computers) gets the mean of its seats' new numbers.
    """

    def __init__(self, model: PlackettLuce | None = None) -> None:
        self._model = model or PlackettLuce()

    def first_rating(self, rid: int | None) -> RatingValue:
        """The numbers of a player never rated in this category on this board."""
        mu = self._model.mu
        level = None if rid is None else level_of_rating_id(rid)
        if level is not None:
            mu = COMPUTER_PRIOR_MU[level.value]
        sigma = self._model.sigma
        return RatingValue(mu, sigma, conservative_score(mu, sigma))

    def __call__(
        self, result: MatchResult, current: Mapping[int, Rating | None]
    ) -> dict[int, RatingValue]:
        seated = [(p, rating_id(p.seat_holder)) for p in result.players]
        sides = sorted({p.side for p in result.players})
        if len(sides) < 2:
            return {}
        teams: list[list[PlackettLuceRating]] = []
        members: list[list[int | None]] = []
        for side in sides:
            team, ids = [], []
            for player, rid in seated:
                if player.side == side:
                    team.append(self._rating(rid, current))
                    ids.append(rid)
            teams.append(team)
            members.append(ids)
        ranks = side_ranks(result, sides)
        rated = self._model.rate(teams, ranks=[float(r) for r in ranks])
        found: dict[int, list[PlackettLuceRating]] = defaultdict(list)
        for team_ids, team in zip(members, rated, strict=True):
            for rid, new in zip(team_ids, team, strict=True):
                if rid is not None and rid in current:
                    found[rid].append(new)
        out = {}
        for rid, news in sorted(found.items()):
            mu = sum(r.mu for r in news) / len(news)
            sigma = sum(r.sigma for r in news) / len(news)
            out[rid] = RatingValue(mu, sigma, conservative_score(mu, sigma))
        return out

    def _rating(self, rid: int | None, current: Mapping[int, Rating | None]) -> PlackettLuceRating:
        stored = current.get(rid) if rid is not None else None
        if stored is not None:
            return self._model.rating(mu=stored.mu, sigma=stored.sigma)
        first = self.first_rating(rid)
        return self._model.rating(mu=first.mu, sigma=first.sigma)


def side_ranks(result: MatchResult, sides: Sequence[int]) -> list[int]:
    """openskill ranks (lower is better) of ``sides``: the winner first, a side that resigned
    or forfeited (``losing_side``) last, the others between by their totals."""
    if result.winner_side is None:
        return [0] * len(sides)
    last = result.losing_side
    middle = [s for s in sides if s not in (result.winner_side, last)]

    def total(side: int) -> int:
        return result.totals[side] if side < len(result.totals) else 0

    ranks = []
    for side in sides:
        if side == result.winner_side:
            ranks.append(0)
        elif side == last:
            ranks.append(1 + len({total(s) for s in middle}))
        else:
            ranks.append(1 + len({total(s) for s in middle if total(s) > total(side)}))
    return ranks


@dataclass(frozen=True, slots=True)
class BoardRow:
    """One line of a leaderboard: a person, or a computer level (``level`` set)."""

    rank: int
    rating_id: int
    level: Level | None
    mu: float
    sigma: float
    score: float
    games: int

    @property
    def user_id(self) -> int | None:
        """The person's Discord id; ``None`` on a computer level's line."""
        return None if self.level is not None else self.rating_id


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """A player's rating, place and statistics in one category on one board."""

    category: str
    board: int
    rating: Rating | None
    rank: int | None
    stats: PlayerStats | None


class Boards:
    """Leaderboards and player records, read from the store (people and levels together)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def leaderboard(
        self,
        *,
        board: int = GLOBAL,
        category: str = Preset.SCOPA.value,
        after: tuple[float, int] | None = None,
        limit: int = 10,
    ) -> Page[BoardRow]:
        """Best first; pass the page's ``after`` back for the next page (ranks continue)."""
        page = await self._store.boards.ratings(category, guild_id=board, limit=limit, after=after)
        first = 1
        if after is not None and page.rows:
            top = page.rows[0]
            first = await self._store.boards.rank(top.user_id, category, guild_id=board) or 1
        rows = tuple(_row(first + n, r) for n, r in enumerate(page.rows))
        return Page(rows, page.after)

    async def levels(
        self, *, board: int = GLOBAL, category: str = Preset.SCOPA.value
    ) -> list[BoardRow]:
        """Where each computer level stands on the board (levels never rated are left out)."""
        out = []
        for level in Level:
            rid = computer_rating_id(level)
            rating = await self._store.boards.rating(rid, category, guild_id=board)
            if rating is not None:
                rank = await self._store.boards.rank(rid, category, guild_id=board)
                out.append(_row(rank or 0, rating))
        return out

    async def stats(self, user: int, *, board: int = GLOBAL) -> list[PlayerRecord]:
        """The player's record in every game kind they have played on ``board``."""
        out = []
        for preset in Preset:
            category = preset.value
            rating = await self._store.boards.rating(user, category, guild_id=board)
            stats = await self._store.boards.player_stats(user, category, guild_id=board)
            if rating is None and stats is None:
                continue
            rank = await self._store.boards.rank(user, category, guild_id=board)
            out.append(PlayerRecord(category, board, rating, rank, stats))
        return out


def _row(rank: int, rating: Rating) -> BoardRow:
    return BoardRow(
        rank=rank,
        rating_id=rating.user_id,
        level=level_of_rating_id(rating.user_id),
        mu=rating.mu,
        sigma=rating.sigma,
        score=rating.score,
        games=rating.games,
    )
