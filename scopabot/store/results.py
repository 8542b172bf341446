"""The SQL of a finished deal and match: scores, statistics, results and ratings.

Plain functions run on the database thread inside the transaction of the move (or the
resignation) that ends the deal or the match (see :mod:`.game_rows`), and the rating rows read
before it; the leaderboards read them back (:mod:`.boards`).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

from scopabot.engine import DealScore, Rules

from .models import (
    GLOBAL,
    MatchPlayer,
    MatchResult,
    Rating,
    RatingValue,
    SeatHolder,
    from_ms,
)

# One encoder, made once: json.dumps with options builds a new one per call.
ENCODER = json.JSONEncoder(separators=(",", ":"))


def dumps(data: Any) -> str:
    return ENCODER.encode(data)


def boards_of(guild: int | None) -> tuple[int, ...]:
    """The boards a game counts on: its server's (if any), then the global one."""
    return (GLOBAL,) if guild is None else (guild, GLOBAL)


def save_deal(
    conn: sqlite3.Connection,
    game_id: int,
    rules: Rules,
    score: DealScore,
    seats: list[tuple[int, SeatHolder]],
    guild: int | None,
    stamp: int,
) -> None:
    conn.executemany(
        "INSERT INTO deal_scores (game_id, deal, side, carte, denari, settebello, primiera,"
        " scope, re_bello, napola, total, cards, denari_count, primiera_total, sevens,"
        " napola_reale) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                game_id,
                score.deal,
                s.side,
                s.carte,
                s.denari,
                s.settebello,
                s.primiera,
                s.scope,
                s.re_bello,
                s.napola,
                s.total,
                s.cards,
                s.denari_count,
                s.primiera_total,
                s.sevens,
                int(score.napola_reale == s.side),
            )
            for s in score.sides
        ],
    )
    rows = []
    for seat, holder in seats:
        if holder.user_id is None:
            continue
        s = score.sides[rules.side_of(seat)]
        for board in boards_of(guild):
            rows.append(
                (
                    board,
                    rules.preset.value,
                    holder.user_id,
                    s.scope,
                    s.settebello,
                    s.primiera,
                    s.total,
                    stamp,
                )
            )
    conn.executemany(
        "INSERT INTO player_stats (guild_id, category, user_id, deals, scope, settebelli,"
        " primiere, points, updated_at) VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?)"
        " ON CONFLICT (guild_id, category, user_id) DO UPDATE SET deals = player_stats.deals + 1,"
        " scope = player_stats.scope + excluded.scope,"
        " settebelli = player_stats.settebelli + excluded.settebelli,"
        " primiere = player_stats.primiere + excluded.primiere,"
        " points = player_stats.points + excluded.points,"
        " updated_at = excluded.updated_at",
        rows,
    )


def save_result(
    conn: sqlite3.Connection,
    game_id: int,
    rules: Rules,
    seats: list[tuple[int, SeatHolder]],
    guild: int | None,
    stamp: int,
    *,
    winner: int | None,
    reason: str,
    totals: tuple[int, ...],
    deals: int,
    losing_side: int | None = None,
) -> MatchResult | None:
    """Write the result, its players and their statistics; the result if anyone is human."""
    category = rules.preset.value
    match_id = int(
        conn.execute(
            "INSERT INTO match_results (game_id, guild_id, category, winner_side, reason, totals,"
            " deals, finished_at, losing_side) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (
                game_id,
                guild,
                category,
                winner,
                reason,
                dumps(list(totals)),
                deals,
                stamp,
                losing_side,
            ),
        ).fetchall()[0][0]
    )
    players = tuple(
        MatchPlayer(seat, rules.side_of(seat), holder, rules.side_of(seat) == winner)
        for seat, holder in seats
    )
    conn.executemany(
        "INSERT INTO match_players (match_id, seat, side, user_id, ai_level, won)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        [
            (match_id, p.seat, p.side, p.seat_holder.user_id, p.seat_holder.ai_level, int(p.won))
            for p in players
        ],
    )
    humans = [p for p in players if p.seat_holder.user_id is not None]
    conn.executemany(
        "INSERT INTO player_stats (guild_id, category, user_id, games, wins, updated_at)"
        " VALUES (?, ?, ?, 1, ?, ?) ON CONFLICT (guild_id, category, user_id) DO UPDATE"
        " SET games = player_stats.games + 1, wins = player_stats.wins + excluded.wins,"
        " updated_at = excluded.updated_at",
        [
            (board, category, p.seat_holder.user_id, int(p.won), stamp)
            for p in humans
            for board in boards_of(guild)
        ],
    )
    if not humans:
        return None
    return MatchResult(
        match_id,
        game_id,
        guild,
        category,
        winner,
        reason,
        tuple(totals),
        deals,
        from_ms(stamp),
        players,
        losing_side,
    )


def rating_of(row: Any) -> Rating:
    return Rating(row[0], row[1], row[2], row[3], row[4], row[5], row[6], from_ms(row[7]))


def put_ratings(
    conn: sqlite3.Connection,
    board: int,
    category: str,
    values: dict[int, RatingValue],
    stamp: int,
    *,
    played: bool,
) -> None:
    conn.executemany(
        "INSERT INTO ratings (guild_id, category, user_id, mu, sigma, score, games, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, category, user_id) DO UPDATE"
        " SET mu = excluded.mu, sigma = excluded.sigma, score = excluded.score,"
        " games = ratings.games + excluded.games, updated_at = excluded.updated_at",
        [
            (board, category, uid, v.mu, v.sigma, v.score, int(played), stamp)
            for uid, v in sorted(values.items())
        ],
    )


def ratings_of(
    conn: sqlite3.Connection, category: str, boards: Sequence[int], rating_ids: Sequence[int]
) -> dict[int, dict[int, Rating | None]]:
    """The current rating of each id on each board (``None``: not rated there yet)."""
    out: dict[int, dict[int, Rating | None]] = {}
    ids = sorted(rating_ids)
    # One placeholder per id (a table's few seats), which both databases read alike.
    marks = ", ".join("?" * len(ids)) or "NULL"
    for board in boards:
        current: dict[int, Rating | None] = dict.fromkeys(ids)
        for row in conn.execute(
            "SELECT guild_id, category, user_id, mu, sigma, score, games, updated_at"
            f" FROM ratings WHERE guild_id = ? AND category = ? AND user_id IN ({marks})",
            (board, category, *ids),
        ):
            current[row[2]] = rating_of(row)
        out[board] = current
    return out
