"""Games: created with their record, changed one move per transaction, loaded fast.

A game is kept twice over, on purpose. The record — rules, seed, every deck order (table
``shuffles``), every move with who made it and when (table ``moves``) — is what happened and
replays exactly. The snapshot (``games.snapshot``, the engine state without the record) is what
makes loading cheap. One transaction writes both, with the version bump that makes a second
click on the same button a :class:`StaleVersionError` instead of a second move. The moves
themselves are played and decided by the service, which hands a prepared record here
(:class:`~.game_rows.MoveRecord`); the SQL it runs is in :mod:`.game_rows`.

The part is ``store.games``; it also keeps what belongs to a game's seats: where each seat's
private hand message is, and which games a person has a seat in.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import aiosqlite

from scopabot.engine import Game, GameRecord, Rules

from .conflicts import conflicts_retried
from .database import AnyDatabase
from .errors import GameClosedError, NotFoundError, StaleVersionError
from .game_rows import (
    CLOSE_TABLE_SQL,
    MOVE_AT_ONCE_SQL,
    MatchEndRecord,
    MoveRecord,
    NewGame,
    SeatState,
    insert_game,
    load_rows,
    plain_move,
    rules_of,
    seat_states,
    version_of,
    write_match_end,
    write_move,
)
from .models import (
    Actor,
    ActorKind,
    GameInfo,
    GameStatus,
    MatchResult,
    MoveEntry,
    SeatHolder,
    StoredGame,
    UserGame,
    from_ms,
    now,
    opt_dt,
    opt_ms,
    to_ms,
)
from .outbox import write_notice
from .postgres_database import PostgresDatabase

_SELECT_GAMES = (
    "SELECT id, table_id, guild_id, rules, status, version, move_count, deadline_at, created_at,"
    " updated_at, finished_at, remind_at FROM games"
)


USER_GAMES_SQL = (
    "SELECT g.id, g.table_id, g.guild_id, s.seat, g.version,"
    " json_extract(g.snapshot, '$.turn'), g.deadline_at, g.rules"
    " FROM game_seats s JOIN games g ON g.id = s.game_id"
    " WHERE s.user_id = ? AND g.status = 'playing' ORDER BY g.id"
)


class GameStore:
    """Games: ``store.games`` (see the module's docstring)."""

    def __init__(self, database: AnyDatabase) -> None:
        self._db = database

    # ------------------------------------------------------------------ creating

    async def create(
        self,
        game: Game,
        *,
        seats: Sequence[SeatHolder],
        guild_id: int | None = None,
        table_id: int | None = None,
        deadline: datetime | None = None,
        at: datetime | None = None,
    ) -> StoredGame:
        """Store a game that has not been played yet (from ``Game.new`` or a position)."""
        new = NewGame.of(
            game, seats, guild_id=guild_id, table_id=table_id, deadline=deadline, at=at
        )
        game_id = await self._db.write_once(insert_game, new)
        return StoredGame(game_id, 1, game)

    # ------------------------------------------------------------------ loading

    async def load(self, game_id: int) -> StoredGame:
        """The game as it is now, from its snapshot (a new copy each time: the service keeps
        the one live copy of a game in play)."""
        version, game = await self._load(game_id)
        return StoredGame(game_id, version, game)

    async def record(self, game_id: int) -> tuple[int, GameRecord]:
        """The game's version and its record alone (rules, seed, every deck order, every move),
        read in one transaction: what replays the game exactly (``Game.replay``), for a check
        of the snapshot or an export. The store reads it; the engine plays it."""
        async with self._db.read() as db:
            row = await _one(db, "SELECT version FROM games WHERE id = ?", (game_id,))
            if row is None:
                raise NotFoundError(f"no game {game_id}")
            record = await self._record(db, game_id)
        return int(row[0]), record

    async def moves(self, game_id: int) -> list[MoveEntry]:
        """Every move in order, with who made it and when."""
        async with self._db.read() as db:
            rows = await db.execute_fetchall(
                "SELECT ply, seat, move, actor, actor_id, at FROM moves WHERE game_id = ?"
                " ORDER BY ply",
                (game_id,),
            )
        return [
            MoveEntry(r[0], r[1], r[2], Actor(ActorKind(r[3]), r[4]), from_ms(r[5])) for r in rows
        ]

    async def version(self, game_id: int) -> int | None:
        """The game's version as stored (None: no such game): whether a copy is current."""
        return await self._db.read_once(version_of, game_id)

    async def info(self, game_id: int) -> GameInfo:
        infos = await self._db.read_once(_infos, " WHERE id = ?", (game_id,))
        if not infos:
            raise NotFoundError(f"no game {game_id}")
        return infos[0]

    async def playing(self, *, guild_id: int | None = None) -> list[GameInfo]:
        """Games still being played (in one server, or everywhere), oldest first."""
        if guild_id is None:
            return await self._db.read_once(_infos, " WHERE status = 'playing' ORDER BY id", ())
        return await self._db.read_once(
            _infos, " WHERE status = 'playing' AND guild_id = ? ORDER BY id", (guild_id,)
        )

    async def _load(self, game_id: int) -> tuple[int, Game]:
        """Version and game from the snapshot: the rows in one hand-off, the parsing here."""
        version, snapshot, header, decks, moves = await self._db.read_once(load_rows, game_id)
        record = _record_of(header, decks, moves)
        return version, Game.restore(record, snapshot=json.loads(snapshot))

    async def _record(self, db: aiosqlite.Connection, game_id: int) -> GameRecord:
        row = await _one(
            db,
            "SELECT rules, seed, first_dealer, dealer_draw, start FROM games WHERE id = ?",
            (game_id,),
        )
        if row is None:
            raise NotFoundError(f"no game {game_id}")
        shuffles = await db.execute_fetchall(
            "SELECT deck FROM shuffles WHERE game_id = ? ORDER BY number", (game_id,)
        )
        moves = await db.execute_fetchall(
            "SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
        )
        return _record_of(tuple(row), [r[0] for r in shuffles], [r[0] for r in moves])

    # ------------------------------------------------------------------ moving

    async def write_move(self, record: MoveRecord) -> MatchResult | None:
        """Write a move the service played and decided, in one transaction: the move, the
        snapshot, the version bump, the next deadline and reminder, the mover's timeouts and,
        at a deal's or the match's end, the score, result, statistics, ratings and the table's
        closing. Raises :class:`StaleVersionError` (the game moved on), :class:`GameClosedError`
        or :class:`StaleRatingError` (a rating moved since it was read); nothing is written
        then. Returns the stored result when the move ended a match with a person in it.

        On PostgreSQL a plain move (most of them) is one statement, one round trip
        (:data:`~.game_rows.MOVE_AT_ONCE_SQL`); refused, the one-hop write says why."""
        db = self._db
        if isinstance(db, PostgresDatabase):
            params = plain_move(record)
            if params is not None and await db.statement_once(MOVE_AT_ONCE_SQL, params):
                return None
        return await db.write_once(write_move, record)

    async def write_match_end(self, record: MatchEndRecord) -> MatchResult | None:
        """End a match now (a resignation or a forfeit) as the service decided it: the result,
        statistics and ratings are written and the table closes, in one transaction."""
        return await self._db.write_once(write_match_end, record)

    async def take_seat_back(
        self,
        game_id: int,
        expected_version: int,
        *,
        seat: int,
        new_version: int,
        deadline: datetime | None = None,
        remind_at: datetime | None = None,
        notice: tuple[dict[str, Any], ...] | None = None,
    ) -> None:
        """A person has their seat back from the computer that held it: no timeouts in a row,
        not away. ``new_version`` above ``expected_version`` refuses a move already prepared at
        the old one (the computer's, when the seat is in turn); ``deadline`` and ``remind_at``
        are then the turn's. ``notice``: for the process that shows the table, when another
        one (store/outbox.py). Raises :class:`StaleVersionError` when the game moved on."""
        await self._db.write_once(
            _take_seat_back,
            game_id,
            expected_version,
            seat,
            new_version,
            opt_ms(deadline),
            opt_ms(remind_at),
            notice,
        )

    @conflicts_retried
    async def abandon(self, game_id: int, expected_version: int) -> int:
        """Mark a game abandoned (no result, no statistics) and cancel its table; returns the
        new version."""
        stamp = to_ms(now())
        async with self._db.write() as db:
            cursor = await db.execute(
                "UPDATE games SET status = 'abandoned', version = version + 1, deadline_at = NULL,"
                " remind_at = NULL, updated_at = ? WHERE id = ? AND version = ?"
                " AND status = 'playing'",
                (stamp, game_id, expected_version),
            )
            if cursor.rowcount != 1:
                row = await _one(db, "SELECT version FROM games WHERE id = ?", (game_id,))
                raise StaleVersionError(game_id, expected_version, None if row is None else row[0])
            await db.execute(CLOSE_TABLE_SQL, ("cancelled", stamp, game_id))
        return expected_version + 1

    # ------------------------------------------------------------------ seats

    async def set_seat_message(
        self, game_id: int, seat: int, *, channel_id: int | None, message_id: int | None
    ) -> None:
        """Where a seat's private hand message is (``None``: forget it)."""
        await self._db.write_once(_set_seat_message, game_id, seat, channel_id, message_id)

    async def seat_messages(self, game_id: int) -> dict[int, tuple[int, int]]:
        """``{seat: (channel_id, message_id)}`` for the seats whose message is known."""
        return await self._db.read_once(_seat_messages, game_id)

    async def set_dm_refused(
        self, game_id: int, seat: int, *, at: int | None, noted: bool = False
    ) -> None:
        """A seat's DMs refused its hand at the turn begun at version ``at`` (``None``: they
        took it; the seat's DMs are open again); ``noted``: the table has been told, once a
        game, and stays so."""
        await self._db.write_once(_set_dm_refused, game_id, seat, at, noted)

    async def dms_refused(self, game_id: int) -> dict[int, tuple[int | None, bool]]:
        """``{seat: (version of the last refused try or None, whether the table was told)}``
        for the seats whose DMs refused a hand in this game."""
        return await self._db.read_once(_dms_refused, game_id)

    async def set_deal_post(
        self, game_id: int, deal: int, *, channel_id: int, message_id: int
    ) -> None:
        """Where deal ``deal``'s count was posted (a second post of it is a no-op)."""
        await self._db.write_once(_set_deal_post, game_id, deal, channel_id, message_id)

    async def deal_post(self, game_id: int, deal: int) -> tuple[int, int] | None:
        """``(channel_id, message_id)`` of deal ``deal``'s count, if it was posted."""
        return await self._db.read_once(_deal_post, game_id, deal)

    # ------------------------------------------------------------------ what the table owes

    async def owed_tables(self) -> list[tuple[int, int]]:
        """``(table_id, game_id)`` of the games in play or over whose table message does not
        show their last version (a move's version bump owes an edit until it is shown)."""
        return await self._db.read_once(_owed_tables)

    async def set_table_shown(self, game_id: int, version: int) -> None:
        """The table message shows ``version`` (an older one never undoes a newer)."""
        await self._db.write_once(_set_table_shown, game_id, version)

    async def owe_table(self, game_id: int) -> None:
        """The table message owes an edit whatever its version (a change without one)."""
        await self._db.write_once(_owe_table, game_id)

    async def hand_nonce(self, game_id: int, seat: int, fresh: int) -> int:
        """The nonce of the seat's hand DM being sent: the one kept from a send not yet
        remembered (a crash between the send and :meth:`set_seat_message`), else ``fresh``,
        kept now."""
        return await self._db.write_once(_hand_nonce, game_id, seat, fresh)

    async def hands_being_sent(self) -> list[tuple[int, int, int]]:
        """``(table_id, game_id, seat)`` of the hand DMs sent and not yet remembered."""
        return await self._db.read_once(_hands_being_sent)

    async def set_note(self, game_id: int, kind: str | None, user_id: int | None) -> None:
        """The table's note of its last timeout (``None``: no note)."""
        await self._db.write_once(_set_note, game_id, kind, user_id)

    async def note(self, game_id: int) -> tuple[str, int] | None:
        """``(kind, user_id)`` of the table's note, if it has one."""
        return await self._db.read_once(_note, game_id)

    async def rating_changes(self, game_id: int) -> list[tuple[int, int, float | None, float]]:
        """``(board, rating_id, score before or None, score after)`` of the match's ratings."""
        return await self._db.read_once(_rating_changes, game_id)

    async def of_user(self, user_id: int) -> list[UserGame]:
        """Games being played where the user has a seat, with that seat: one query."""
        rows = await self._db.read_once(_user_games, user_id)
        return [
            UserGame(r[0], r[1], r[2], r[3], r[4], int(r[5]), opt_dt(r[6]), rules_of(r[7]))
            for r in rows
        ]


def _take_seat_back(
    conn: sqlite3.Connection,
    game_id: int,
    expected_version: int,
    seat: int,
    new_version: int,
    deadline: int | None,
    remind_at: int | None,
    notice: tuple[dict[str, Any], ...] | None,
) -> None:
    times = (deadline, remind_at) if new_version != expected_version else (None, None)
    cursor = conn.execute(
        "UPDATE games SET version = ?, deadline_at = coalesce(?, deadline_at),"
        " remind_at = coalesce(?, remind_at) WHERE id = ? AND version = ? AND status = 'playing'",
        (new_version, *times, game_id, expected_version),
    )
    if cursor.rowcount != 1:
        row = conn.execute("SELECT version, status FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise NotFoundError(f"no game {game_id}")
        if row[1] != "playing":
            raise GameClosedError(game_id, str(row[1]))
        raise StaleVersionError(game_id, expected_version, int(row[0]))
    conn.execute(
        "UPDATE game_seats SET timeouts = 0, away = 0 WHERE game_id = ? AND seat = ?",
        (game_id, seat),
    )
    if notice is not None:
        write_notice(conn, game_id, new_version, notice, to_ms(now()))


async def _one(db: aiosqlite.Connection, sql: str, params: Sequence[Any]) -> Any:
    """The first row, or ``None``."""
    rows = list(await db.execute_fetchall(sql, params))
    return rows[0] if rows else None


def _infos(conn: sqlite3.Connection, where: str, params: tuple[Any, ...]) -> list[GameInfo]:
    return [_info(r, seat_states(conn, r[0])) for r in conn.execute(_SELECT_GAMES + where, params)]


def _record_of(header: Sequence[Any], decks: list[bytes], moves: list[str]) -> GameRecord:
    """The record from its rows: the header (rules, seed, first dealer, dealer draw, start, as
    :meth:`GameStore.create` wrote them), the deck orders and the moves."""
    rules, seed, first_dealer, draw, start = header
    return GameRecord.from_parts(
        rules=json.loads(rules),
        seed=seed,
        first_dealer=first_dealer,
        dealer_draw=json.loads(draw),
        start=None if start is None else json.loads(start),
        shuffles=decks,
        moves=moves,
    )


def _info(row: Sequence[Any], states: list[SeatState]) -> GameInfo:
    return GameInfo(
        id=row[0],
        table_id=row[1],
        guild_id=row[2],
        rules=Rules.from_dict(json.loads(row[3])),
        status=GameStatus(row[4]),
        version=row[5],
        move_count=row[6],
        seats=tuple(s.holder for s in states),
        deadline_at=opt_dt(row[7]),
        created_at=from_ms(row[8]),
        updated_at=from_ms(row[9]),
        finished_at=opt_dt(row[10]),
        remind_at=opt_dt(row[11]),
        timeouts=tuple(s.timeouts for s in states),
        away=frozenset(s.seat for s in states if s.away),
    )


def _set_seat_message(
    conn: sqlite3.Connection,
    game_id: int,
    seat: int,
    channel_id: int | None,
    message_id: int | None,
) -> None:
    conn.execute(
        "UPDATE game_seats SET channel_id = ?, message_id = ?, dm_nonce = NULL"
        " WHERE game_id = ? AND seat = ?",
        (channel_id, message_id, game_id, seat),
    )


def _owed_tables(conn: sqlite3.Connection) -> list[tuple[int, int]]:
    return [
        (int(r[0]), int(r[1]))
        for r in conn.execute(
            # The partial index games_owing_a_table is on this very condition.
            "SELECT table_id, id FROM games WHERE (table_shown IS NULL OR table_shown < version)"
            " AND table_id IS NOT NULL AND status IN ('playing', 'finished') ORDER BY id"
        )
    ]


def _set_table_shown(conn: sqlite3.Connection, game_id: int, version: int) -> None:
    conn.execute(
        "UPDATE games SET table_shown = ?"
        " WHERE id = ? AND (table_shown IS NULL OR table_shown < ?)",
        (version, game_id, version),
    )


def _owe_table(conn: sqlite3.Connection, game_id: int) -> None:
    conn.execute("UPDATE games SET table_shown = NULL WHERE id = ?", (game_id,))


def _hand_nonce(conn: sqlite3.Connection, game_id: int, seat: int, fresh: int) -> int:
    row = conn.execute(
        "UPDATE game_seats SET dm_nonce = coalesce(dm_nonce, ?) WHERE game_id = ? AND seat = ?"
        " RETURNING dm_nonce",
        (fresh, game_id, seat),
    ).fetchone()
    return fresh if row is None else int(row[0])


def _hands_being_sent(conn: sqlite3.Connection) -> list[tuple[int, int, int]]:
    return [
        (int(r[0]), int(r[1]), int(r[2]))
        for r in conn.execute(
            "SELECT g.table_id, s.game_id, s.seat FROM game_seats s JOIN games g"
            " ON g.id = s.game_id WHERE s.dm_nonce IS NOT NULL AND g.table_id IS NOT NULL"
            " AND g.status IN ('playing', 'finished') ORDER BY s.game_id, s.seat"
        )
    ]


def _set_note(conn: sqlite3.Connection, game_id: int, kind: str | None, user: int | None) -> None:
    conn.execute(
        "UPDATE games SET note_kind = ?, note_user = ? WHERE id = ?", (kind, user, game_id)
    )


def _note(conn: sqlite3.Connection, game_id: int) -> tuple[str, int] | None:
    row = conn.execute(
        "SELECT note_kind, note_user FROM games WHERE id = ? AND note_kind IS NOT NULL",
        (game_id,),
    ).fetchone()
    return None if row is None or row[1] is None else (str(row[0]), int(row[1]))


def _rating_changes(
    conn: sqlite3.Connection, game_id: int
) -> list[tuple[int, int, float | None, float]]:
    return [
        (int(r[0]), int(r[1]), None if r[2] is None else float(r[2]), float(r[3]))
        for r in conn.execute(
            "SELECT board, rating_id, score_before, score_after FROM match_rating_changes"
            " WHERE game_id = ? ORDER BY board, rating_id",
            (game_id,),
        )
    ]


def _seat_messages(conn: sqlite3.Connection, game_id: int) -> dict[int, tuple[int, int]]:
    return {
        r[0]: (r[1], r[2])
        for r in conn.execute(
            "SELECT seat, channel_id, message_id FROM game_seats WHERE game_id = ?"
            " AND channel_id IS NOT NULL AND message_id IS NOT NULL",
            (game_id,),
        )
    }


def _set_dm_refused(
    conn: sqlite3.Connection, game_id: int, seat: int, at: int | None, noted: bool
) -> None:
    conn.execute(
        # A refused DM was not sent: no send of it is left to remember (``dm_nonce``).
        "UPDATE game_seats SET dm_refused_at = ?,"
        " dm_noted = CASE WHEN ? = 1 THEN 1 ELSE dm_noted END,"
        " dm_nonce = CASE WHEN ? = 1 THEN NULL ELSE dm_nonce END"
        " WHERE game_id = ? AND seat = ?",
        (at, int(noted), int(at is not None), game_id, seat),
    )


def _dms_refused(conn: sqlite3.Connection, game_id: int) -> dict[int, tuple[int | None, bool]]:
    return {
        r[0]: (r[1], bool(r[2]))
        for r in conn.execute(
            "SELECT seat, dm_refused_at, dm_noted FROM game_seats WHERE game_id = ?"
            " AND (dm_refused_at IS NOT NULL OR dm_noted != 0)",
            (game_id,),
        )
    }


def _set_deal_post(
    conn: sqlite3.Connection, game_id: int, deal: int, channel_id: int, message_id: int
) -> None:
    conn.execute(
        "INSERT INTO deal_posts (game_id, deal, channel_id, message_id) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (game_id, deal) DO NOTHING",
        (game_id, deal, channel_id, message_id),
    )


def _deal_post(conn: sqlite3.Connection, game_id: int, deal: int) -> tuple[int, int] | None:
    row = conn.execute(
        "SELECT channel_id, message_id FROM deal_posts WHERE game_id = ? AND deal = ?",
        (game_id, deal),
    ).fetchone()
    return None if row is None else (int(row[0]), int(row[1]))


def _user_games(conn: sqlite3.Connection, user_id: int) -> list[tuple[Any, ...]]:
    return [tuple(r) for r in conn.execute(USER_GAMES_SQL, (user_id,))]
