"""The score keeper: points written down for games played with real cards, with undo. The
part is ``store.score_sheets``."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import aiosqlite

from .conflicts import conflicts_retried
from .database import AnyDatabase
from .errors import NotFoundError, StoreError
from .models import ScoreEntry, ScoreSheet, from_ms, now, opt_dt, to_ms


class ScoreSheetStore:
    """Score sheets: ``store.score_sheets``."""

    def __init__(self, database: AnyDatabase) -> None:
        self._db = database

    @conflicts_retried
    async def open(
        self,
        *,
        owner_id: int,
        sides: Sequence[str],
        title: str = "",
        target: int | None = 11,
        guild_id: int | None = None,
        channel_id: int | None = None,
        members: Sequence[Sequence[int]] | None = None,
        at: datetime | None = None,
    ) -> ScoreSheet:
        """``members``: the people of each side, one list per side (who may write on it)."""
        if len(sides) < 2:
            raise ValueError("a score sheet needs at least two sides")
        if members is not None and len(members) != len(sides):
            raise ValueError("give the members of every side, or of none")
        stamp = to_ms(at or now())
        async with self._db.write() as db:
            rows = await db.execute_fetchall(
                "INSERT INTO score_sheets (guild_id, channel_id, owner_id, title, sides,"
                " target, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'open', ?, ?)"
                " RETURNING id",
                (
                    guild_id,
                    channel_id,
                    owner_id,
                    title,
                    json.dumps(_sides_data(sides, members)),
                    target,
                    stamp,
                    stamp,
                ),
            )
            sheet_id = int(next(iter(rows))[0])
            return await _sheet(db, sheet_id)

    async def get(self, sheet_id: int) -> ScoreSheet:
        async with self._db.read() as db:
            return await _sheet(db, sheet_id)

    async def in_channel(self, channel_id: int) -> list[ScoreSheet]:
        """The sheets still open in a channel, oldest first."""
        async with self._db.read() as db:
            rows = await db.execute_fetchall(
                "SELECT id FROM score_sheets WHERE channel_id = ? AND status = 'open' ORDER BY id",
                (channel_id,),
            )
            return [await _sheet(db, r[0]) for r in rows]

    @conflicts_retried
    async def add_score(
        self,
        sheet_id: int,
        side: int,
        points: int,
        *,
        note: str = "",
        by_user: int | None = None,
        at: datetime | None = None,
    ) -> ScoreSheet:
        stamp = to_ms(at or now())
        async with self._db.write() as db:
            sheet = await _sheet(db, sheet_id)
            if sheet.closed:
                raise StoreError(f"score sheet {sheet_id} is closed")
            if not 0 <= side < len(sheet.sides):
                raise ValueError(f"score sheet {sheet_id} has no side {side}")
            await db.execute(
                "INSERT INTO score_entries (sheet_id, seq, side, points, note, by_user, at)"
                " SELECT ?, coalesce(max(seq), 0) + 1, ?, ?, ?, ?, ? FROM score_entries"
                " WHERE sheet_id = ?",
                (sheet_id, side, points, note, by_user, stamp, sheet_id),
            )
            await _touch(db, sheet_id, stamp)
            return await _sheet(db, sheet_id)

    @conflicts_retried
    async def undo_score(
        self, sheet_id: int, *, seq: int | None = None, at: datetime | None = None
    ) -> ScoreEntry | None:
        """Take back the latest entry still standing; returns it (``None`` if nothing to undo).

        ``seq``, when given, must be that latest entry's number, else nothing is undone and
        ``None`` comes back: whoever checked who may undo it checked that very entry, even if
        someone wrote another in between.
        """
        stamp = to_ms(at or now())
        async with self._db.write() as db:
            sheet = await _sheet(db, sheet_id)
            if sheet.closed:
                raise StoreError(f"score sheet {sheet_id} is closed")
            rows = list(
                await db.execute_fetchall(
                    "SELECT seq FROM score_entries WHERE sheet_id = ? AND undone_at IS NULL"
                    " ORDER BY seq DESC LIMIT 1",
                    (sheet_id,),
                )
            )
            if not rows or (seq is not None and rows[0][0] != seq):
                return None
            await db.execute(
                "UPDATE score_entries SET undone_at = ? WHERE sheet_id = ? AND seq = ?",
                (stamp, sheet_id, rows[0][0]),
            )
            await _touch(db, sheet_id, stamp)
            return (await _entries(db, sheet_id, seq=rows[0][0]))[0]

    async def entries(self, sheet_id: int) -> list[ScoreEntry]:
        """Every entry in order, undone ones included (marked)."""
        async with self._db.read() as db:
            return await _entries(db, sheet_id)

    @conflicts_retried
    async def close(self, sheet_id: int) -> ScoreSheet:
        async with self._db.write() as db:
            await db.execute(
                "UPDATE score_sheets SET status = 'closed', updated_at = ? WHERE id = ?",
                (to_ms(now()), sheet_id),
            )
            return await _sheet(db, sheet_id)


def _sides_data(sides: Sequence[str], members: Sequence[Sequence[int]] | None) -> list[Any]:
    """The ``sides`` column: names alone, or ``{"name", "members"}`` per side (no migration:
    rows written before people were listed hold plain names and still read)."""
    if members is None:
        return list(sides)
    return [
        {"name": name, "members": [int(m) for m in people]}
        for name, people in zip(sides, members, strict=True)
    ]


def _parse_sides(data: list[Any]) -> tuple[tuple[str, ...], tuple[tuple[int, ...], ...]]:
    names = tuple(item if isinstance(item, str) else item["name"] for item in data)
    if all(isinstance(item, str) for item in data):
        return names, ()
    members = tuple(
        () if isinstance(item, str) else tuple(int(m) for m in item["members"]) for item in data
    )
    return names, members


async def _touch(db: aiosqlite.Connection, sheet_id: int, stamp: int) -> None:
    await db.execute("UPDATE score_sheets SET updated_at = ? WHERE id = ?", (stamp, sheet_id))


async def _sheet(db: aiosqlite.Connection, sheet_id: int) -> ScoreSheet:
    rows = list(
        await db.execute_fetchall(
            "SELECT id, guild_id, channel_id, owner_id, title, sides, target, status, created_at,"
            " updated_at FROM score_sheets WHERE id = ?",
            (sheet_id,),
        )
    )
    if not rows:
        raise NotFoundError(f"no score sheet {sheet_id}")
    r: Sequence[Any] = rows[0]
    sides, members = _parse_sides(json.loads(r[5]))
    totals = [0] * len(sides)
    for side, points in await db.execute_fetchall(
        "SELECT side, sum(points) FROM score_entries WHERE sheet_id = ?"
        " AND undone_at IS NULL GROUP BY side",
        (sheet_id,),
    ):
        totals[side] = points
    return ScoreSheet(
        r[0],
        r[1],
        r[2],
        r[3],
        r[4],
        sides,
        r[6],
        r[7] == "closed",
        tuple(totals),
        from_ms(r[8]),
        from_ms(r[9]),
        members,
    )


async def _entries(
    db: aiosqlite.Connection, sheet_id: int, *, seq: int | None = None
) -> list[ScoreEntry]:
    rows = await db.execute_fetchall(
        "SELECT sheet_id, seq, side, points, note, by_user, at, undone_at"
        " FROM score_entries WHERE sheet_id = ? AND (CAST(? AS BIGINT) IS NULL OR seq = ?)"
        " ORDER BY seq",
        (sheet_id, seq, seq),
    )
    return [
        ScoreEntry(r[0], r[1], r[2], r[3], r[4], r[5], from_ms(r[6]), opt_dt(r[7])) for r in rows
    ]
