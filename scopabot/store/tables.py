"""Server settings, and the tables (tables) people gather at before a game starts."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import aiosqlite

from scopabot.engine import Rules

from .base import StoreBase
from .errors import NotFoundError, StoreError
from .models import GuildSettings, SeatHolder, Table, TableStatus, from_ms, now, to_ms

_SELECT_TABLES = (
    "SELECT id, guild_id, host_id, rules, status, channel_id, thread_id, message_id, created_at,"
    " updated_at FROM tables"
)
_UNSET: Any = object()


class TablesMixin(StoreBase):
    # ------------------------------------------------------------------ server settings

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """A server's settings (the defaults when it never changed any)."""
        async with self._read() as db:
            rows = list(
                await db.execute_fetchall(
                    "SELECT language, default_rules, game_channel_id FROM guild_settings"
                    " WHERE guild_id = ?",
                    (guild_id,),
                )
            )
        if not rows:
            return GuildSettings(guild_id)
        language, rules, channel = rows[0]
        return GuildSettings(guild_id, language, json.loads(rules), channel)

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        if settings.default_rules:
            Rules.from_dict(settings.default_rules)  # refuse options no table could use
        async with self._tx() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, language, default_rules, game_channel_id,"
                " updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
                " language = excluded.language, default_rules = excluded.default_rules,"
                " game_channel_id = excluded.game_channel_id, updated_at = excluded.updated_at",
                (
                    settings.guild_id,
                    settings.language,
                    json.dumps(settings.default_rules, sort_keys=True),
                    settings.game_channel_id,
                    to_ms(now()),
                ),
            )

    # ------------------------------------------------------------------ tables

    async def create_table(
        self,
        *,
        host_id: int,
        rules: Rules,
        guild_id: int | None = None,
        channel_id: int | None = None,
        at: datetime | None = None,
    ) -> Table:
        stamp = to_ms(at or now())
        async with self._tx() as db:
            cursor = await db.execute(
                "INSERT INTO tables (guild_id, host_id, rules, status, channel_id, created_at,"
                " updated_at) VALUES (?, ?, ?, 'open', ?, ?, ?)",
                (guild_id, host_id, json.dumps(rules.to_dict()), channel_id, stamp, stamp),
            )
            table_id = cursor.lastrowid
            assert table_id is not None
            return await _table(db, table_id)

    async def table(self, table_id: int) -> Table:
        async with self._read() as db:
            return await _table(db, table_id)

    async def table_by_message(self, message_id: int) -> Table | None:
        async with self._read() as db:
            rows = list(
                await db.execute_fetchall(
                    "SELECT id FROM tables WHERE message_id = ?", (message_id,)
                )
            )
            return await _table(db, rows[0][0]) if rows else None

    async def open_tables(self, guild_id: int | None) -> list[Table]:
        """Tables still gathering or playing in a server, oldest first."""
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT id FROM tables WHERE guild_id IS ? AND status IN ('open', 'playing')"
                " ORDER BY id",
                (guild_id,),
            )
            return [await _table(db, r[0]) for r in rows]

    async def update_table(
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
        async with self._tx() as db:
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

    async def take_seat(self, table_id: int, seat: int, holder: SeatHolder) -> Table:
        """Sit someone down; refused (``StoreError``) when the seat is taken."""
        async with self._tx() as db:
            table = await _table(db, table_id)
            if seat in table.seats:
                raise StoreError(f"seat {seat} at table {table_id} is taken")
            if not 0 <= seat < table.rules.players:
                raise StoreError(f"table {table_id} has no seat {seat}")
            await db.execute(
                "INSERT INTO table_seats (table_id, seat, user_id, ai_level, joined_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (table_id, seat, holder.user_id, holder.ai_level, to_ms(now())),
            )
            return await _table(db, table_id)

    async def leave_seat(self, table_id: int, seat: int) -> Table:
        async with self._tx() as db:
            await db.execute(
                "DELETE FROM table_seats WHERE table_id = ? AND seat = ?", (table_id, seat)
            )
            return await _table(db, table_id)

    async def tables_of_user(self, user_id: int) -> list[Table]:
        """Open or playing tables where this user has a seat."""
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT l.id FROM table_seats s JOIN tables l ON l.id = s.table_id"
                " WHERE s.user_id = ? AND l.status IN ('open', 'playing') ORDER BY l.id",
                (user_id,),
            )
            return [await _table(db, r[0]) for r in rows]


async def _table(db: aiosqlite.Connection, table_id: int) -> Table:
    rows = list(await db.execute_fetchall(_SELECT_TABLES + " WHERE id = ?", (table_id,)))
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
    )
