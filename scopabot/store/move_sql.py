"""The SQL of one move, as plain functions run on the database thread in one hand-off.

:meth:`GamesMixin.apply_move <scopabot.store.games.GamesMixin.apply_move>` checks and plays the
move and builds the row tuples on the event loop, then hands :func:`write_move` to the worker
thread inside ``BEGIN IMMEDIATE`` … ``COMMIT``: the snapshot JSON, the version check, the
snapshot, the move row and, when the move ends a deal or the match, the deal score, statistics
and result, all in that one call. One hand-off instead of four or more awaited statements
doubled the moves per second (``bench/store.py``); making the snapshot here rather than on the
loop measured the same throughput and a lower median under an open-loop load.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from scopabot.engine import Card, DealScore, Game, Outcome, Rules

from .errors import GameClosedError, NotFoundError, StaleVersionError, StoreError
from .models import (
    MatchResult,
    Rating,
    SeatHolder,
    now,
    opt_ms,
    to_ms,
)
from .result_sql import (
    ENCODER,
    boards_of,
    current_ratings,
    dumps,
    save_deal,
    save_result,
)
from .result_sql import put_all_ratings as put_all_ratings  # the names other modules import
from .result_sql import put_ratings as put_ratings
from .result_sql import rating_of as rating_of

UPDATE_GAME_SQL = (
    "UPDATE games SET snapshot = ?, version = ?, move_count = ?, status = ?,"
    " deadline_at = ?, remind_at = ?, updated_at = ?, finished_at = ? WHERE id = ? AND version = ?"
    " AND status = 'playing'"
)
INSERT_MOVE_SQL = (
    "INSERT INTO moves (game_id, ply, seat, move, actor, actor_id, at) VALUES (?, ?, ?, ?, ?, ?, ?)"
)
SEAT_STATE_SQL = (
    "SELECT seat, user_id, ai_level, timeouts, away FROM game_seats WHERE game_id = ? ORDER BY seat"
)
CLOSE_TABLE_SQL = (
    "UPDATE tables SET status = ?, updated_at = ? WHERE status IN ('open', 'playing')"
    " AND id = (SELECT table_id FROM games WHERE id = ?)"
)


def deck_blob(order: Iterable[Card]) -> bytes:
    return bytes(c.index for c in order)


@dataclass(frozen=True, slots=True)
class MovePlan:
    """Everything a move writes, prepared on the event loop."""

    game_id: int
    expected_version: int
    game: Game  # after the move; only this call uses it until it returns
    update: tuple[Any, ...]  # parameters of UPDATE_GAME_SQL after snapshot, deadline, reminder
    move: tuple[Any, ...]  # parameters of INSERT_MOVE_SQL
    first_deck: int  # number of the first new deck order in ``decks``
    decks: list[bytes]
    rules: Rules
    deal_score: DealScore | None
    outcome: Outcome | None
    stamp: int
    rate: bool  # read current ratings for the rating policy
    seat: int  # the seat that moved
    actor: str  # ActorKind value
    deadline: int | None  # the next turn's deadline, if a person (not handed over) plays it
    remind_at: int | None
    hand_over_after: int  # timeouts in a row that hand a seat to a computer


@dataclass(frozen=True, slots=True)
class SeatState:
    seat: int
    holder: SeatHolder
    timeouts: int
    away: bool


Pending = tuple[MatchResult, dict[int, dict[int, Rating | None]]]


@dataclass(frozen=True, slots=True)
class Written:
    """What :func:`write_move` wrote beyond the move itself."""

    match: MatchResult | None  # the result, when the move ended a match with a person in it
    pending: Pending | None  # the result and current ratings, when ratings must move
    away: frozenset[int]
    seat_timeouts: int
    took_back: bool
    deadline: int | None
    remind_at: int | None


def seat_states(conn: sqlite3.Connection, game_id: int) -> list[SeatState]:
    return [
        SeatState(r[0], SeatHolder(r[1], r[2]), int(r[3]), bool(r[4]))
        for r in conn.execute(SEAT_STATE_SQL, (game_id,))
    ]


def write_move(conn: sqlite3.Connection, plan: MovePlan) -> Written:
    """Write one move inside the caller's transaction; raise StaleVersionError if it is old.

    Besides the move: the mover's timeouts in a row (a timeout adds one and hands the seat to a
    computer at ``hand_over_after``; a person's own play clears both), the next turn's deadline
    and reminder (none when a computer plays that turn), and, when the move ends a deal or the
    match, the deal score, statistics, result and the table's closing. Returns what a rating
    policy needs when a rated match just ended.
    """
    game_id = plan.game_id
    states = seat_states(conn, game_id)
    mover = next((s for s in states if s.seat == plan.seat), None)
    timeouts, away_now, took_back = (
        (mover.timeouts, mover.away, False) if mover else (0, False, False)
    )
    if plan.actor == "timeout":
        timeouts += 1
        away_now = away_now or timeouts >= plan.hand_over_after
    elif plan.actor == "user" and mover is not None:
        took_back = mover.away
        timeouts, away_now = 0, False
    away = {s.seat for s in states if s.away and s.seat != plan.seat}
    if away_now:
        away.add(plan.seat)
    deadline, remind_at = plan.deadline, plan.remind_at
    if plan.outcome is not None:
        deadline = remind_at = None
    else:
        nxt = next((s for s in states if s.seat == plan.game.turn), None)
        if nxt is not None and (not nxt.holder.is_human or nxt.seat in away):
            deadline = remind_at = None
    snapshot = ENCODER.encode(plan.game.to_snapshot(include_record=False))
    update = (snapshot, *plan.update[:3], deadline, remind_at, *plan.update[3:])
    if conn.execute(UPDATE_GAME_SQL, update).rowcount != 1:
        row = conn.execute("SELECT version, status FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise NotFoundError(f"no game {game_id}")
        if row[1] != "playing":
            raise GameClosedError(game_id, str(row[1]))
        raise StaleVersionError(game_id, plan.expected_version, int(row[0]))
    conn.execute(INSERT_MOVE_SQL, plan.move)
    if mover is not None and (timeouts, away_now) != (mover.timeouts, mover.away):
        conn.execute(
            "UPDATE game_seats SET timeouts = ?, away = ? WHERE game_id = ? AND seat = ?",
            (timeouts, int(away_now), game_id, plan.seat),
        )
    if plan.decks:
        save_shuffles(conn, game_id, plan.first_deck, plan.decks)
    match: MatchResult | None = None
    pending: Pending | None = None
    if plan.deal_score is not None:
        seats = [(s.seat, s.holder) for s in states]
        guild = guild_of(conn, game_id)
        save_deal(conn, game_id, plan.rules, plan.deal_score, seats, guild, plan.stamp)
        if plan.outcome is not None:
            o = plan.outcome
            match = save_result(
                conn,
                game_id,
                plan.rules,
                seats,
                guild,
                plan.stamp,
                winner=o.winner,
                reason=o.reason.value,
                totals=o.totals,
                deals=o.deals,
            )
            conn.execute(CLOSE_TABLE_SQL, ("finished", plan.stamp, game_id))
            if match is not None and plan.rate:
                pending = match, {b: current_ratings(conn, b, match) for b in boards_of(guild)}
    return Written(match, pending, frozenset(away), timeouts, took_back, deadline, remind_at)


def end_match_rows(
    conn: sqlite3.Connection,
    game_id: int,
    expected_version: int,
    *,
    rules: Rules,
    losing_side: int,
    reason: str,
    totals: tuple[int, ...],
    deals: int,
    stamp: int,
    rate: bool,
) -> tuple[MatchResult | None, Pending | None]:
    """Finish a game by resignation or forfeit: the other side wins (with three players, the
    other side with the most points, the earlier seat on a tie); the result and statistics are
    written as for a match that ran to its end, and the table closes."""
    cursor = conn.execute(
        "UPDATE games SET status = 'finished', version = version + 1, deadline_at = NULL,"
        " remind_at = NULL, updated_at = ?, finished_at = ? WHERE id = ? AND version = ?"
        " AND status = 'playing'",
        (stamp, stamp, game_id, expected_version),
    )
    if cursor.rowcount != 1:
        row = conn.execute("SELECT version, status FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise NotFoundError(f"no game {game_id}")
        if row[1] != "playing":
            raise GameClosedError(game_id, str(row[1]))
        raise StaleVersionError(game_id, expected_version, int(row[0]))
    others = [side for side in range(rules.sides) if side != losing_side]
    winner = max(others, key=lambda side: (totals[side] if side < len(totals) else 0, -side))
    seats = [(s.seat, s.holder) for s in seat_states(conn, game_id)]
    guild = guild_of(conn, game_id)
    match = save_result(
        conn,
        game_id,
        rules,
        seats,
        guild,
        stamp,
        winner=winner,
        reason=reason,
        totals=totals,
        deals=deals,
        losing_side=losing_side,
    )
    conn.execute(CLOSE_TABLE_SQL, ("finished", stamp, game_id))
    if match is None or not rate:
        return match, None
    return match, (match, {b: current_ratings(conn, b, match) for b in boards_of(guild)})


@dataclass(frozen=True, slots=True)
class NewGame:
    """The rows of a game not played yet, made on the event loop."""

    game_row: tuple[Any, ...]
    seat_rows: list[tuple[int, int | None, str | None]]
    decks: list[bytes]

    @classmethod
    def of(
        cls,
        game: Game,
        seats: Sequence[SeatHolder],
        *,
        guild_id: int | None,
        table_id: int | None,
        deadline: datetime | None,
        at: datetime | None,
        remind_at: datetime | None = None,
    ) -> NewGame:
        if game.move_count:
            raise ValueError("store a game before its first move")
        if len(seats) != game.rules.players:
            raise ValueError(f"{game.rules.players} seats are needed, got {len(seats)}")
        record = game.record().to_dict()
        stamp = to_ms(at or now())
        return cls(
            (
                table_id,
                guild_id,
                dumps(record["rules"]),
                record["seed"],
                record["first_dealer"],
                dumps(record["dealer_draw"]),
                None if record["start"] is None else dumps(record["start"]),
                dumps(game.to_snapshot(include_record=False)),
                opt_ms(deadline),
                opt_ms(remind_at),
                stamp,
                stamp,
            ),
            [(n, s.user_id, s.ai_level) for n, s in enumerate(seats)],
            [deck_blob(o) for o in game.shuffles_since(0)],
        )


def insert_game(conn: sqlite3.Connection, new: NewGame) -> int:
    cursor = conn.execute(
        "INSERT INTO games (table_id, guild_id, rules, seed, first_dealer, dealer_draw,"
        " start, status, version, move_count, snapshot, deadline_at, remind_at, created_at,"
        " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'playing', 1, 0, ?, ?, ?, ?, ?)",
        new.game_row,
    )
    game_id = cursor.lastrowid
    assert game_id is not None
    conn.executemany(
        "INSERT INTO game_seats (game_id, seat, user_id, ai_level) VALUES (?, ?, ?, ?)",
        [(game_id, *row) for row in new.seat_rows],
    )
    save_shuffles(conn, game_id, 0, new.decks)
    return game_id


def version_of(conn: sqlite3.Connection, game_id: int) -> int | None:
    row = conn.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()
    return None if row is None else int(row[0])


def save_shuffles(conn: sqlite3.Connection, game_id: int, first: int, decks: list[bytes]) -> None:
    conn.executemany(
        "INSERT OR IGNORE INTO shuffles (game_id, number, deck) VALUES (?, ?, ?)",
        [(game_id, first + n, deck) for n, deck in enumerate(decks)],
    )


def seat_rows(conn: sqlite3.Connection, game_id: int) -> list[tuple[int, SeatHolder]]:
    rows = conn.execute(
        "SELECT seat, user_id, ai_level FROM game_seats WHERE game_id = ? ORDER BY seat",
        (game_id,),
    ).fetchall()
    return [(r[0], SeatHolder(r[1], r[2])) for r in rows]


def guild_of(conn: sqlite3.Connection, game_id: int) -> int | None:
    row = conn.execute("SELECT guild_id FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise StoreError(f"game {game_id} vanished inside its own transaction")
    return None if row[0] is None else int(row[0])


def load_rows(
    conn: sqlite3.Connection, game_id: int
) -> tuple[int, str, tuple[Any, ...], list[bytes], list[str]]:
    """The rows a game is loaded from: version, snapshot, the record's header (rules, seed,
    first dealer, dealer draw, start), decks, moves."""
    row = conn.execute(
        "SELECT version, snapshot, rules, seed, first_dealer, dealer_draw, start FROM games"
        " WHERE id = ?",
        (game_id,),
    ).fetchone()
    if row is None:
        raise NotFoundError(f"no game {game_id}")
    decks = [
        r[0]
        for r in conn.execute(
            "SELECT deck FROM shuffles WHERE game_id = ? ORDER BY number", (game_id,)
        )
    ]
    moves = [
        r[0]
        for r in conn.execute("SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))
    ]
    return int(row[0]), row[1], tuple(row[2:]), decks, moves
