"""A game's rows: the SQL that creates, loads and moves a game, as plain functions run on the
database thread in one hand-off, and the records the service prepares for it.

The service plays the move and decides what it does (timeouts, hand-over, the next deadline,
the result, the ratings) and hands a prepared :class:`MoveRecord` to
:meth:`GameStore.write_move <scopabot.store.games.GameStore.write_move>`, which runs
:func:`write_move` on the worker thread inside ``BEGIN IMMEDIATE`` … ``COMMIT``: the snapshot
JSON, the version check, the snapshot, the move row and, when the move ends a deal or the
match, the deal score, statistics, result and ratings, all in that one call. One hand-off
instead of four or more awaited statements doubled the moves per second (``bench/store.py``).
The store never plays a move and never decides one.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from scopabot.engine import Card, DealScore, Game, Rules

from .errors import GameClosedError, NotFoundError, StaleRatingError, StaleVersionError, StoreError
from .models import (
    MatchResult,
    RatingValue,
    SeatHolder,
    now,
    opt_ms,
    to_ms,
)
from .outbox import write_notice
from .results import ENCODER, dumps, save_deal, save_result

UPDATE_GAME_SQL = (
    "UPDATE games SET snapshot = ?, version = ?, move_count = ?, status = ?,"
    " deadline_at = ?, remind_at = ?, updated_at = ?, finished_at = ? WHERE id = ? AND version = ?"
    " AND status = 'playing'"
)
INSERT_MOVE_SQL = (
    "INSERT INTO moves (game_id, ply, seat, move, actor, actor_id, at) VALUES (?, ?, ?, ?, ?, ?, ?)"
)
# A plain move (no deck dealt, no deal ended, the mover's timeouts unchanged: most moves) in
# one statement, for PostgreSQL (GameStore.write_move): the version-checked UPDATE and the move's
# INSERT as one round trip in the statement's own transaction. No row back: the game was not at
# the version, and the one-hop write_move says why. SQLite has no UPDATE inside WITH; its
# one-hop write_move is one hand-off already.
MOVE_AT_ONCE_SQL = (
    "WITH moved AS (" + UPDATE_GAME_SQL + " RETURNING id)"
    " INSERT INTO moves (game_id, ply, seat, move, actor, actor_id, at)"
    " SELECT id, ?, ?, ?, ?, ?, ? FROM moved RETURNING game_id"
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
class ResultRow:
    """How a match ended, as the service decided it."""

    winner: int | None
    reason: str
    totals: tuple[int, ...]
    deals: int
    losing_side: int | None = None  # the side that resigned or forfeited


@dataclass(frozen=True, slots=True)
class RatingWrite:
    """A rating the service computed after a match, written only if the rating is still the
    one it was computed from (``games_before``; ``None``: the player had none)."""

    board: int
    rating_id: int
    value: RatingValue
    games_before: int | None
    score_before: float | None = None  # kept with the match: its final table shows it


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """Everything one move writes, prepared by the service (which played and decided it):
    the move row, the new snapshot, the next deadline and reminder, the mover's timeouts, and
    for a deal's or the match's end the score, the result and the ratings."""

    game_id: int
    expected_version: int
    version: int
    snapshot: dict[str, Any]  # the game after the move, without its record
    move_count: int
    stamp: int
    seat: int  # the seat that moved
    move: str
    actor: str  # ActorKind value
    actor_id: int | None
    first_deck: int  # number of the first new deck order in ``decks``
    decks: list[bytes]
    deadline: int | None  # the next turn's
    remind_at: int | None
    seat_state: tuple[int, bool] | None  # the mover's (timeouts in a row, away), when changed
    rules: Rules
    deal_score: DealScore | None
    result: ResultRow | None
    ratings: tuple[RatingWrite, ...] = ()
    # What the move did, for the process that shows the table when it is another one
    # (store/outbox.py): written in this transaction; None when this process shows it.
    notice: tuple[dict[str, Any], ...] | None = None


@dataclass(frozen=True, slots=True)
class MatchEndRecord:
    """A match ended early (resignation, forfeit), prepared by the service."""

    game_id: int
    expected_version: int
    stamp: int
    rules: Rules
    result: ResultRow
    ratings: tuple[RatingWrite, ...] = ()
    notice: tuple[dict[str, Any], ...] | None = None  # as MoveRecord's


@dataclass(frozen=True, slots=True)
class SeatState:
    seat: int
    holder: SeatHolder
    timeouts: int
    away: bool


def seat_states(conn: sqlite3.Connection, game_id: int) -> list[SeatState]:
    return [
        SeatState(r[0], SeatHolder(r[1], r[2]), int(r[3]), bool(r[4]))
        for r in conn.execute(SEAT_STATE_SQL, (game_id,))
    ]


def plain_move(record: MoveRecord) -> tuple[Any, ...] | None:
    """The parameters of :data:`MOVE_AT_ONCE_SQL` for a move that writes only the game's row
    and the move's (None: it writes more, and goes through :func:`write_move`)."""
    if record.decks or record.seat_state is not None or record.deal_score is not None:
        return None
    if record.result is not None or record.notice is not None:
        return None  # a notice for another process is written in the move's transaction
    return (
        *_update_of(record),
        record.move_count - 1,
        record.seat,
        record.move,
        record.actor,
        record.actor_id,
        record.stamp,
    )


def _update_of(record: MoveRecord) -> tuple[Any, ...]:
    return (
        ENCODER.encode(record.snapshot),
        record.version,
        record.move_count,
        "finished" if record.result is not None else "playing",
        record.deadline,
        record.remind_at,
        record.stamp,
        record.stamp if record.result is not None else None,
        record.game_id,
        record.expected_version,
    )


def write_move(conn: sqlite3.Connection, record: MoveRecord) -> MatchResult | None:
    """Write one move inside the caller's transaction; StaleVersionError if the game is no
    longer at the version the move was prepared from, StaleRatingError if a rating moved since
    it was read. Returns the stored result when the move ended a match with a person in it."""
    game_id = record.game_id
    if conn.execute(UPDATE_GAME_SQL, _update_of(record)).rowcount != 1:
        _refused(conn, game_id, record.expected_version)
    conn.execute(
        INSERT_MOVE_SQL,
        (
            game_id,
            record.move_count - 1,
            record.seat,
            record.move,
            record.actor,
            record.actor_id,
            record.stamp,
        ),
    )
    if record.seat_state is not None:
        timeouts, away = record.seat_state
        conn.execute(
            "UPDATE game_seats SET timeouts = ?, away = ? WHERE game_id = ? AND seat = ?",
            (timeouts, int(away), game_id, record.seat),
        )
    if record.decks:
        save_shuffles(conn, game_id, record.first_deck, record.decks)
    if record.notice is not None:
        write_notice(conn, game_id, record.version, record.notice, record.stamp)
    if record.deal_score is None:
        return None
    seats = seat_rows(conn, game_id)
    guild = guild_of(conn, game_id)
    save_deal(conn, game_id, record.rules, record.deal_score, seats, guild, record.stamp)
    if record.result is None:
        return None
    return _finish(conn, game_id, record.rules, record.result, record.ratings, record.stamp)


def write_match_end(conn: sqlite3.Connection, record: MatchEndRecord) -> MatchResult | None:
    """Finish a game by resignation or forfeit: the result and statistics as for a match that
    ran to its end, the ratings, and the table's closing."""
    cursor = conn.execute(
        "UPDATE games SET status = 'finished', version = version + 1, deadline_at = NULL,"
        " remind_at = NULL, updated_at = ?, finished_at = ? WHERE id = ? AND version = ?"
        " AND status = 'playing'",
        (record.stamp, record.stamp, record.game_id, record.expected_version),
    )
    if cursor.rowcount != 1:
        _refused(conn, record.game_id, record.expected_version)
    if record.notice is not None:
        version = record.expected_version + 1
        write_notice(conn, record.game_id, version, record.notice, record.stamp)
    return _finish(conn, record.game_id, record.rules, record.result, record.ratings, record.stamp)


def _finish(
    conn: sqlite3.Connection,
    game_id: int,
    rules: Rules,
    result: ResultRow,
    ratings: Sequence[RatingWrite],
    stamp: int,
) -> MatchResult | None:
    match = save_result(
        conn,
        game_id,
        rules,
        seat_rows(conn, game_id),
        guild_of(conn, game_id),
        stamp,
        winner=result.winner,
        reason=result.reason,
        totals=result.totals,
        deals=result.deals,
        losing_side=result.losing_side,
    )
    conn.execute(CLOSE_TABLE_SQL, ("finished", stamp, game_id))
    write_ratings(conn, rules.preset.value, ratings, stamp, game_id=game_id)
    return match


def _refused(conn: sqlite3.Connection, game_id: int, expected_version: int) -> None:
    row = conn.execute("SELECT version, status FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise NotFoundError(f"no game {game_id}")
    if row[1] != "playing":
        raise GameClosedError(game_id, str(row[1]))
    raise StaleVersionError(game_id, expected_version, int(row[0]))


def write_ratings(
    conn: sqlite3.Connection,
    category: str,
    ratings: Sequence[RatingWrite],
    stamp: int,
    *,
    game_id: int,
) -> None:
    """Each rating, compare-and-set on the games it had counted when it was read, and the
    match's change of it (before and after) beside the game."""
    for r in ratings:
        conn.execute(
            "INSERT INTO match_rating_changes (game_id, board, rating_id, score_before,"
            " score_after) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (game_id, r.board, r.rating_id, r.score_before, r.value.score),
        )
        v = r.value
        if r.games_before is None:
            cursor = conn.execute(
                "INSERT INTO ratings (guild_id, category, user_id, mu, sigma, score, games,"
                " updated_at) VALUES (?, ?, ?, ?, ?, ?, 1, ?) ON CONFLICT DO NOTHING",
                (r.board, category, r.rating_id, v.mu, v.sigma, v.score, stamp),
            )
        else:
            cursor = conn.execute(
                "UPDATE ratings SET mu = ?, sigma = ?, score = ?, games = games + 1,"
                " updated_at = ? WHERE guild_id = ? AND category = ? AND user_id = ?"
                " AND games = ?",
                (v.mu, v.sigma, v.score, stamp, r.board, category, r.rating_id, r.games_before),
            )
        if cursor.rowcount != 1:
            raise StaleRatingError(r.board, category, r.rating_id)


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
    # RETURNING rather than lastrowid: PostgreSQL has only the former.
    game_id = int(
        conn.execute(
            "INSERT INTO games (table_id, guild_id, rules, seed, first_dealer, dealer_draw,"
            " start, status, version, move_count, snapshot, deadline_at, remind_at, created_at,"
            " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'playing', 1, 0, ?, ?, ?, ?, ?)"
            " RETURNING id",
            new.game_row,
        ).fetchall()[0][0]
    )
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
        "INSERT INTO shuffles (game_id, number, deck) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
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


_RULES: dict[str, Rules] = {}


def rules_of(text: str) -> Rules:
    """A game's rules from their stored JSON, parsed once per distinct text."""
    rules = _RULES.get(text)
    if rules is None:
        rules = _RULES.setdefault(text, Rules.from_dict(json.loads(text)))
    return rules
