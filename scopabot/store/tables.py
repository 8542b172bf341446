"""The tables people gather at before a game starts: seats taken and left, the start (the game
stored with the table's seats), the rematch, and a table's messages on Discord."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import aiosqlite

from scopabot.engine import Game, Rules

from .conflicts import conflicts_retried
from .database import AnyDatabase, on_worker
from .errors import (
    AlreadySeatedError,
    NoSuchSeatError,
    NotFoundError,
    SeatsEmptyError,
    SeatTakenError,
    TableNotOpenError,
)
from .game_rows import NewGame, insert_game
from .models import (
    SeatHolder,
    StoredGame,
    Table,
    TableStatus,
    from_ms,
    now,
    to_ms,
)
from .outbox import write_notice

_SELECT_TABLES = (
    "SELECT t.id, t.guild_id, t.host_id, t.rules, t.status, t.channel_id, t.thread_id,"
    " t.message_id, t.created_at, t.updated_at, t.pace, t.on_timeout, t.level, g.id, g.version"
    " FROM tables t LEFT JOIN games g ON g.id = (SELECT max(id) FROM games WHERE table_id = t.id)"
)
_UNSET: Any = object()


class TableStore:
    """Tables: ``store.tables`` (see the module's docstring)."""

    def __init__(self, database: AnyDatabase) -> None:
        self._db = database

    # ------------------------------------------------------------------ tables

    @conflicts_retried
    async def create(
        self,
        *,
        host_id: int,
        rules: Rules,
        guild_id: int | None = None,
        channel_id: int | None = None,
        pace: dict[str, Any] | None = None,
        on_timeout: str = "computer",
        level: str = "normal",
        at: datetime | None = None,
        rematch_of: int | None = None,
    ) -> Table:
        """A new open table; ``pace`` is the service's pace as JSON data (kept as given);
        ``rematch_of`` the finished game whose Rematch opened it."""
        async with self._db.write() as db:
            table_id = await _insert_table(
                db,
                host_id=host_id,
                rules=rules,
                guild_id=guild_id,
                channel_id=channel_id,
                pace=pace,
                on_timeout=on_timeout,
                level=level,
                stamp=to_ms(at or now()),
                rematch_of=rematch_of,
            )
            return await _table(db, table_id)

    @conflicts_retried
    async def open_rematch(
        self,
        game_id: int,
        *,
        host_id: int,
        rules: Rules,
        seats: Mapping[int, SeatHolder],
        guild_id: int | None = None,
        channel_id: int | None = None,
        pace: dict[str, Any] | None = None,
        on_timeout: str = "computer",
        level: str = "normal",
        at: datetime | None = None,
    ) -> tuple[Table, bool]:
        """The rematch of ``game_id``, its seats taken, in one transaction: a crash leaves no
        half-filled table, and of two clicks at once (in any process) the second gets the
        table the first opened. True when this call opened it."""
        stamp = to_ms(at or now())
        async with self._db.write() as db:
            rows = list(
                await db.execute_fetchall(
                    "SELECT id FROM tables WHERE rematch_of = ? AND status IN ('open', 'playing')"
                    " ORDER BY id DESC LIMIT 1",
                    (game_id,),
                )
            )
            if rows:
                return await _table(db, rows[0][0]), False
            table_id = await _insert_table(
                db,
                host_id=host_id,
                rules=rules,
                guild_id=guild_id,
                channel_id=channel_id,
                pace=pace,
                on_timeout=on_timeout,
                level=level,
                stamp=stamp,
                rematch_of=game_id,
            )
            if any(not 0 <= seat < rules.players for seat in seats):
                raise NoSuchSeatError(table_id, f"a seat outside 0..{rules.players - 1}", None)
            await db.executemany(
                "INSERT INTO table_seats (table_id, seat, user_id, ai_level, joined_at)"
                " VALUES (?, ?, ?, ?, ?)",
                [(table_id, s, h.user_id, h.ai_level, stamp) for s, h in sorted(seats.items())],
            )
            return await _table(db, table_id), True

    async def get(self, table_id: int) -> Table:
        async with self._db.read() as db:
            return await _table(db, table_id)

    async def by_message(self, message_id: int) -> Table | None:
        async with self._db.read() as db:
            rows = list(
                await db.execute_fetchall(
                    "SELECT id FROM tables WHERE message_id = ? ORDER BY id DESC LIMIT 1",
                    (message_id,),
                )
            )
            return await _table(db, rows[0][0]) if rows else None

    async def rematch_of(self, game_id: int) -> Table | None:
        """The newest table opened as the rematch of ``game_id``."""
        async with self._db.read() as db:
            rows = list(
                await db.execute_fetchall(
                    "SELECT id FROM tables WHERE rematch_of = ? ORDER BY id DESC LIMIT 1",
                    (game_id,),
                )
            )
            return await _table(db, rows[0][0]) if rows else None

    async def in_guild(self, guild_id: int | None) -> list[Table]:
        """Tables still gathering or playing in a server, oldest first."""
        async with self._db.read() as db:
            rows = await db.execute_fetchall(
                "SELECT id FROM tables WHERE guild_id IS ? AND status IN ('open', 'playing')"
                " ORDER BY id",
                (guild_id,),
            )
            return [await _table(db, r[0]) for r in rows]

    @conflicts_retried
    async def update(
        self,
        table_id: int,
        *,
        status: TableStatus | None = None,
        rules: Rules | None = None,
        channel_id: int | None = _UNSET,
        thread_id: int | None = _UNSET,
        message_id: int | None = _UNSET,
    ) -> Table:
        """Change what is given; ids given as ``None`` are cleared."""
        async with self._db.write() as db:
            current = await _table(db, table_id)
            await db.execute(
                "UPDATE tables SET status = ?, rules = ?, channel_id = ?, thread_id = ?,"
                " message_id = ?, updated_at = ? WHERE id = ?",
                (
                    status or current.status,
                    json.dumps((rules or current.rules).to_dict()),
                    current.channel_id if channel_id is _UNSET else channel_id,
                    current.thread_id if thread_id is _UNSET else thread_id,
                    current.message_id if message_id is _UNSET else message_id,
                    to_ms(now()),
                    table_id,
                ),
            )
            return await _table(db, table_id)

    @conflicts_retried
    async def take_seat(self, table_id: int, seat: int, holder: SeatHolder) -> Table:
        """Sit someone down before the start; one seat per person per table.

        Refused with :class:`SeatTakenError`, :class:`NoSuchSeatError`,
        :class:`AlreadySeatedError` or :class:`TableNotOpenError`; nothing is written then.
        """
        async with self._db.write() as db:
            table = await _table(db, table_id)
            _must_be_open(table)
            if not 0 <= seat < table.rules.players:
                raise NoSuchSeatError(table_id, f"table {table_id} has no seat {seat}", seat)
            if seat in table.seats:
                raise SeatTakenError(table_id, f"seat {seat} at table {table_id} is taken", seat)
            if holder.user_id is not None and any(
                h.user_id == holder.user_id for h in table.seats.values()
            ):
                raise AlreadySeatedError(
                    table_id, f"user {holder.user_id} already sits at table {table_id}", seat
                )
            await db.execute(
                "INSERT INTO table_seats (table_id, seat, user_id, ai_level, joined_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (table_id, seat, holder.user_id, holder.ai_level, to_ms(now())),
            )
            return await _table(db, table_id)

    @conflicts_retried
    async def leave_seat(self, table_id: int, seat: int) -> Table:
        """Free a seat before the start (refused with :class:`TableNotOpenError` after it)."""
        async with self._db.write() as db:
            _must_be_open(await _table(db, table_id))
            await db.execute(
                "DELETE FROM table_seats WHERE table_id = ? AND seat = ?", (table_id, seat)
            )
            return await _table(db, table_id)

    @conflicts_retried
    async def move_seats(self, table_id: int, moves: dict[int, int]) -> Table:
        """Move seat holders before the start: ``moves`` maps a seat to its new seat. The
        seats left behind are freed; a destination must be free or itself moved away."""
        async with self._db.write() as db:
            table = await _table(db, table_id)
            _must_be_open(table)
            for seat, to in moves.items():
                if seat not in table.seats:
                    raise NoSuchSeatError(table_id, f"nobody sits in seat {seat}", seat)
                if not 0 <= to < table.rules.players:
                    raise NoSuchSeatError(table_id, f"table {table_id} has no seat {to}", to)
            staying = {s: h for s, h in table.seats.items() if s not in moves}
            placed = dict(staying)
            for seat, to in moves.items():
                if to in placed:
                    raise SeatTakenError(table_id, f"seat {to} at table {table_id} is taken", to)
                placed[to] = table.seats[seat]
            await db.execute("DELETE FROM table_seats WHERE table_id = ?", (table_id,))
            await db.executemany(
                "INSERT INTO table_seats (table_id, seat, user_id, ai_level, joined_at)"
                " VALUES (?, ?, ?, ?, ?)",
                [(table_id, s, h.user_id, h.ai_level, to_ms(now())) for s, h in placed.items()],
            )
            return await _table(db, table_id)

    @conflicts_retried
    async def start(
        self,
        table_id: int,
        game: Game,
        *,
        deadline: datetime | None = None,
        remind_at: datetime | None = None,
        at: datetime | None = None,
        notice: tuple[dict[str, Any], ...] | None = None,
    ) -> StoredGame:
        """Store the table's game, seated as the table is, and flip the table to playing, in
        one transaction. Refused (:class:`TableNotOpenError`, :class:`SeatsEmptyError`) unless
        the table is open and every seat taken. ``deadline`` is the first turn's. ``notice``:
        for the process that shows the table, when another one (store/outbox.py)."""
        stamp = at or now()
        async with self._db.write() as db:
            table = await _table(db, table_id)
            _must_be_open(table)
            if len(table.seats) != table.rules.players:
                raise SeatsEmptyError(table_id, f"table {table_id} has empty seats")
            if game.rules != table.rules:
                raise ValueError("the game must be played with the table's rules")
            seats = [table.seats[n] for n in range(table.rules.players)]
            new = NewGame.of(
                game,
                seats,
                guild_id=table.guild_id,
                table_id=table_id,
                deadline=deadline,
                remind_at=remind_at,
                at=stamp,
            )
            game_id = await on_worker(db, insert_game, new)
            await db.execute(
                "UPDATE tables SET status = 'playing', updated_at = ? WHERE id = ?",
                (to_ms(stamp), table_id),
            )
            if notice is not None:
                await on_worker(db, write_notice, game_id, 1, notice, to_ms(stamp))
        return StoredGame(game_id, 1, game)

    @conflicts_retried
    async def cancel(self, table_id: int) -> Table:
        """Close a table that has not started (:class:`TableNotOpenError` otherwise)."""
        async with self._db.write() as db:
            _must_be_open(await _table(db, table_id))
            await db.execute(
                "UPDATE tables SET status = 'cancelled', updated_at = ? WHERE id = ?",
                (to_ms(now()), table_id),
            )
            return await _table(db, table_id)

    async def in_channel(self, channel_id: int) -> list[Table]:
        """Tables open or playing in a channel or shown in a thread, oldest first."""
        async with self._db.read() as db:
            rows = await db.execute_fetchall(
                "SELECT id FROM tables WHERE (channel_id = ? OR thread_id = ?)"
                " AND status IN ('open', 'playing') ORDER BY id",
                (channel_id, channel_id),
            )
            return [await _table(db, r[0]) for r in rows]

    async def of_user(self, user_id: int) -> list[Table]:
        """Open or playing tables where this user has a seat."""
        async with self._db.read() as db:
            rows = await db.execute_fetchall(
                "SELECT l.id FROM table_seats s JOIN tables l ON l.id = s.table_id"
                " WHERE s.user_id = ? AND l.status IN ('open', 'playing') ORDER BY l.id",
                (user_id,),
            )
            return [await _table(db, r[0]) for r in rows]


async def _insert_table(
    db: aiosqlite.Connection,
    *,
    host_id: int,
    rules: Rules,
    guild_id: int | None,
    channel_id: int | None,
    pace: dict[str, Any] | None,
    on_timeout: str,
    level: str,
    stamp: int,
    rematch_of: int | None,
) -> int:
    """A new open table's row, inside the caller's transaction; its id."""
    rows = await db.execute_fetchall(
        "INSERT INTO tables (guild_id, host_id, rules, status, channel_id, created_at,"
        " updated_at, pace, on_timeout, level, rematch_of)"
        " VALUES (?, ?, ?, 'open', ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (
            guild_id,
            host_id,
            json.dumps(rules.to_dict()),
            channel_id,
            stamp,
            stamp,
            json.dumps(pace or {"kind": "untimed", "seconds": None, "reminders": []}),
            on_timeout,
            level,
            rematch_of,
        ),
    )
    return int(next(iter(rows))[0])


async def _table(db: aiosqlite.Connection, table_id: int) -> Table:
    rows = list(await db.execute_fetchall(_SELECT_TABLES + " WHERE t.id = ?", (table_id,)))
    if not rows:
        raise NotFoundError(f"no table {table_id}")
    r: Sequence[Any] = rows[0]
    seats = await db.execute_fetchall(
        "SELECT seat, user_id, ai_level FROM table_seats WHERE table_id = ? ORDER BY seat",
        (table_id,),
    )
    return Table(
        id=r[0],
        guild_id=r[1],
        host_id=r[2],
        rules=Rules.from_dict(json.loads(r[3])),
        status=TableStatus(r[4]),
        channel_id=r[5],
        thread_id=r[6],
        message_id=r[7],
        seats={s[0]: SeatHolder(s[1], s[2]) for s in seats},
        created_at=from_ms(r[8]),
        updated_at=from_ms(r[9]),
        pace=json.loads(r[10]),
        on_timeout=r[11],
        level=r[12],
        game_id=r[13],
        game_version=r[14],
    )


def _must_be_open(table: Table) -> None:
    if table.status is not TableStatus.OPEN:
        raise TableNotOpenError(table.id, f"table {table.id} is {table.status}: seats are fixed")
