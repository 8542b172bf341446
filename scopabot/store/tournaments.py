"""Tournaments as kept: the tournament, its entries and people, its rounds and pairings.

A part of the store like the others: ``store.tournaments``, a :class:`TournamentStore` on the
store's one :class:`~.database.Database`, its data types in :mod:`.models` and its refusals in
:mod:`.errors` (all importable from here too). It only stores: the service decides every pairing and
result. Each write is guarded so that it happens once, whoever asks twice: a round is opened
once (its key), a pairing is decided once (``WHERE outcome IS NULL``) and opens at most one
table (``WHERE table_id IS NULL`` and a unique index), and the tournament row carries a version
that every change of its state names.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import aiosqlite

from .conflicts import conflicts_retried
from .database import AnyDatabase
from .errors import (
    AlreadyEnteredError,
    NotEnteredError,
    NotFoundError,
    NotRegisteringError,
    TournamentChangedError,
    TournamentError,
)
from .models import (
    Entry,
    NewPairing,
    Round,
    StoredPairing,
    Tournament,
    TournamentStatus,
    from_ms,
    now,
    opt_dt,
    opt_ms,
    to_ms,
)
from .outbox import TELL_SQL, notes_text

_TOURNAMENT_COLUMNS = (
    "id, guild_id, channel_id, organiser_id, name, format, preset, players, options, pace,"
    " on_timeout, level, round_seconds, rounds, groups, qualifiers, seeding, seed, status,"
    " round, round_deadline, bracket, knockout_from, winner_entry, standings, version,"
    " created_at, started_at, finished_at, computers"
)
_ENTRY_COLUMNS = "id, tournament_id, user_id, partner_id, seed, group_no, joined_at, withdrawn_at"
_PAIRING_COLUMNS = (
    "id, tournament_id, round, slot, group_no, entry_a, entry_b, table_id, outcome, points_a,"
    " points_b, reason, decided_at"
)
_SELECT_TOURNAMENTS = "SELECT " + _TOURNAMENT_COLUMNS + " FROM tournaments"
_SELECT_ENTRIES = "SELECT " + _ENTRY_COLUMNS + " FROM tournament_entries"
_SELECT_PAIRINGS = "SELECT " + _PAIRING_COLUMNS + " FROM tournament_pairings"


def _tournament(row: Sequence[Any]) -> Tournament:
    return Tournament(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        organiser_id=row[3],
        name=row[4],
        format=row[5],
        preset=row[6],
        players=row[7],
        options=json.loads(row[8]),
        pace=json.loads(row[9]),
        on_timeout=row[10],
        level=row[11],
        round_seconds=row[12],
        rounds=row[13],
        groups=row[14],
        qualifiers=row[15],
        seeding=row[16],
        seed=row[17],
        status=TournamentStatus(row[18]),
        round=row[19],
        round_deadline=opt_dt(row[20]),
        bracket=row[21],
        knockout_from=row[22],
        winner_entry=row[23],
        standings=None if row[24] is None else json.loads(row[24]),
        version=row[25],
        created_at=from_ms(row[26]),
        started_at=opt_dt(row[27]),
        finished_at=opt_dt(row[28]),
        computers=bool(row[29]),
    )


def _entry(row: Sequence[Any]) -> Entry:
    return Entry(row[0], row[1], row[2], row[3], row[4], row[5], from_ms(row[6]), opt_dt(row[7]))


def _pairing(row: Sequence[Any]) -> StoredPairing:
    return StoredPairing(
        id=row[0],
        tournament_id=row[1],
        round=row[2],
        slot=row[3],
        group_no=row[4],
        entry_a=row[5],
        entry_b=row[6],
        table_id=row[7],
        outcome=row[8],
        points_a=row[9],
        points_b=row[10],
        reason=row[11],
        decided_at=opt_dt(row[12]),
    )


async def _one(db: aiosqlite.Connection, sql: str, params: Sequence[Any]) -> Any:
    rows = list(await db.execute_fetchall(sql, params))
    return rows[0] if rows else None


async def _load(db: aiosqlite.Connection, tournament_id: int) -> Tournament:
    row = await _one(db, _SELECT_TOURNAMENTS + " WHERE id = ?", (tournament_id,))
    if row is None:
        raise NotFoundError(f"no tournament {tournament_id}")
    return _tournament(row)


async def _bump(
    db: aiosqlite.Connection, tournament_id: int, expected: int, stamp: int, sets: str, args: Any
) -> None:
    """Change the tournament's row only at the version the caller read (``sets`` is one of
    this module's fixed SQL fragments, never built from input)."""
    cursor = await db.execute(
        "UPDATE tournaments SET " + sets + ", version = version + 1, updated_at = ?"
        " WHERE id = ? AND version = ?",
        (*args, stamp, tournament_id, expected),
    )
    if cursor.rowcount != 1:
        row = await _one(db, "SELECT version FROM tournaments WHERE id = ?", (tournament_id,))
        if row is None:
            raise NotFoundError(f"no tournament {tournament_id}")
        raise TournamentChangedError(tournament_id, expected, row[0])


class TournamentStore:
    """Tournaments: ``store.tournaments`` (see the module's docstring)."""

    def __init__(self, database: AnyDatabase) -> None:
        self._db = database

    # ------------------------------------------------------------------ tournaments

    @conflicts_retried
    async def create(
        self,
        *,
        organiser_id: int,
        name: str,
        format: str,
        preset: str,
        players: int,
        options: dict[str, Any],
        pace: dict[str, Any],
        on_timeout: str,
        level: str,
        round_seconds: int,
        seeding: str,
        seed: int,
        guild_id: int | None = None,
        channel_id: int | None = None,
        rounds: int | None = None,
        groups: int | None = None,
        qualifiers: int | None = None,
        computers: bool = False,
        at: datetime | None = None,
    ) -> Tournament:
        stamp = to_ms(at or now())
        async with self._db.write() as db:
            rows = await db.execute_fetchall(
                "INSERT INTO tournaments (guild_id, channel_id, organiser_id, name, format,"
                " preset, players, options, pace, on_timeout, level, round_seconds, rounds,"
                " groups, qualifiers, seeding, seed, status, created_at, updated_at, computers)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'registering', ?, ?,"
                " ?) RETURNING id",
                (
                    guild_id,
                    channel_id,
                    organiser_id,
                    name,
                    format,
                    preset,
                    players,
                    json.dumps(options, sort_keys=True),
                    json.dumps(pace, sort_keys=True),
                    on_timeout,
                    level,
                    round_seconds,
                    rounds,
                    groups,
                    qualifiers,
                    seeding,
                    seed,
                    stamp,
                    stamp,
                    int(computers),
                ),
            )
            return await _load(db, int(next(iter(rows))[0]))

    async def get(self, tournament_id: int) -> Tournament:
        async with self._db.read() as db:
            return await _load(db, tournament_id)

    async def in_guild(self, guild_id: int | None, *, active: bool = True) -> list[Tournament]:
        """A server's tournaments, newest first (``active``: registering or playing only)."""
        where = " WHERE guild_id IS ?"
        if active:
            where += " AND status IN ('registering', 'playing')"
        async with self._db.read() as db:
            rows = await db.execute_fetchall(
                _SELECT_TOURNAMENTS + where + " ORDER BY id DESC",
                (guild_id,),
            )
        return [_tournament(r) for r in rows]

    async def playing(self) -> list[Tournament]:
        async with self._db.read() as db:
            rows = await db.execute_fetchall(
                _SELECT_TOURNAMENTS + " WHERE status = 'playing' ORDER BY id"
            )
        return [_tournament(r) for r in rows]

    async def of_user(self, user_id: int) -> list[Tournament]:
        """The tournaments a person entered (alone or in a pair), newest first."""
        async with self._db.read() as db:
            rows = await db.execute_fetchall(
                _SELECT_TOURNAMENTS + " WHERE id IN"
                " (SELECT tournament_id FROM tournament_people WHERE user_id = ?) ORDER BY id DESC",
                (user_id,),
            )
        return [_tournament(r) for r in rows]

    async def next_deadline(self) -> datetime | None:
        """The earliest round deadline of a tournament in play."""
        async with self._db.read() as db:
            row = await _one(
                db,
                "SELECT min(round_deadline) FROM tournaments WHERE status = 'playing'"
                " AND round_deadline IS NOT NULL",
                (),
            )
        return None if row is None or row[0] is None else from_ms(row[0])

    async def due(self, until: datetime) -> list[Tournament]:
        """Tournaments in play whose round deadline is at or before ``until``."""
        async with self._db.read() as db:
            rows = await db.execute_fetchall(
                _SELECT_TOURNAMENTS + " WHERE status = 'playing'"
                " AND round_deadline <= ? ORDER BY round_deadline, id",
                (to_ms(until),),
            )
        return [_tournament(r) for r in rows]

    # ------------------------------------------------------------------ entries

    @conflicts_retried
    async def enter(
        self,
        tournament_id: int,
        user_id: int,
        *,
        partner_id: int | None = None,
        at: datetime | None = None,
    ) -> Entry:
        """Enter a person (with ``partner_id``: a pair) while registration is open."""
        if partner_id == user_id:
            raise ValueError("a pair is two people")
        stamp = to_ms(at or now())
        async with self._db.write() as db:
            t = await _load(db, tournament_id)
            if t.status is not TournamentStatus.REGISTERING:
                raise NotRegisteringError(tournament_id, t.status.value)
            rows = await db.execute_fetchall(
                "INSERT INTO tournament_entries (tournament_id, user_id, partner_id, joined_at)"
                " VALUES (?, ?, ?, ?) RETURNING id",
                (tournament_id, user_id, partner_id, stamp),
            )
            entry_id = int(next(iter(rows))[0])
            for person in (user_id, partner_id):
                if person is None:
                    continue
                try:
                    await db.execute(
                        "INSERT INTO tournament_people (tournament_id, user_id, entry_id)"
                        " VALUES (?, ?, ?)",
                        (tournament_id, person, entry_id),
                    )
                except sqlite3.IntegrityError:
                    raise AlreadyEnteredError(tournament_id, person) from None
            await db.execute(
                "UPDATE tournaments SET version = version + 1, updated_at = ? WHERE id = ?",
                (stamp, tournament_id),
            )
            row = await _one(db, _SELECT_ENTRIES + " WHERE id = ?", (entry_id,))
            return _entry(row)

    @conflicts_retried
    async def leave(self, tournament_id: int, user_id: int) -> Entry:
        """Take the person's entry (their pair's, too) out while registration is open."""
        async with self._db.write() as db:
            t = await _load(db, tournament_id)
            if t.status is not TournamentStatus.REGISTERING:
                raise NotRegisteringError(tournament_id, t.status.value)
            entry = await _entry_of(db, tournament_id, user_id)
            await db.execute("DELETE FROM tournament_entries WHERE id = ?", (entry.id,))
            await db.execute(
                "UPDATE tournaments SET version = version + 1, updated_at = ? WHERE id = ?",
                (to_ms(now()), tournament_id),
            )
            return entry

    async def entries(self, tournament_id: int) -> list[Entry]:
        """Entries by seed once started (before: in the order they joined)."""
        async with self._db.read() as db:
            rows = await db.execute_fetchall(
                _SELECT_ENTRIES + " WHERE tournament_id = ? ORDER BY seed IS NULL, seed, id",
                (tournament_id,),
            )
        return [_entry(r) for r in rows]

    async def entry_of(self, tournament_id: int, user_id: int) -> Entry:
        async with self._db.read() as db:
            return await _entry_of(db, tournament_id, user_id)

    @conflicts_retried
    async def withdraw(self, tournament_id: int, entry_id: int, *, at: datetime) -> bool:
        """Mark an entry withdrawn (once: False if it already was)."""
        async with self._db.write() as db:
            cursor = await db.execute(
                "UPDATE tournament_entries SET withdrawn_at = ? WHERE id = ?"
                " AND tournament_id = ? AND withdrawn_at IS NULL",
                (to_ms(at), entry_id, tournament_id),
            )
            return cursor.rowcount == 1

    # ------------------------------------------------------------------ the start

    @conflicts_retried
    async def start(
        self,
        tournament_id: int,
        expected_version: int,
        *,
        pairs: Sequence[tuple[int, int]],
        seeds: Sequence[int],
        groups: dict[int, int] | None = None,
        bracket: int | None = None,
        knockout_from: int | None = None,
        at: datetime,
    ) -> Tournament:
        """Close registration: entries of people who signed up alone merged into the
        ``pairs`` drawn (the first entry keeps the pair, the second is removed), seeds set in
        the order of ``seeds`` (entry ids, after merging), groups given; status playing."""
        stamp = to_ms(at)
        async with self._db.write() as db:
            t = await _load(db, tournament_id)
            if t.status is not TournamentStatus.REGISTERING:
                raise NotRegisteringError(tournament_id, t.status.value)
            for keep, merged in pairs:
                row = await _one(
                    db,
                    "SELECT user_id FROM tournament_entries WHERE id = ? AND tournament_id = ?"
                    " AND partner_id IS NULL",
                    (merged, tournament_id),
                )
                if row is None:
                    raise TournamentError(tournament_id, f"entry {merged} cannot be paired")
                await db.execute(
                    "UPDATE tournament_people SET entry_id = ? WHERE entry_id = ?",
                    (keep, merged),
                )
                await db.execute("DELETE FROM tournament_entries WHERE id = ?", (merged,))
                cursor = await db.execute(
                    "UPDATE tournament_entries SET partner_id = ? WHERE id = ?"
                    " AND tournament_id = ? AND partner_id IS NULL",
                    (row[0], keep, tournament_id),
                )
                if cursor.rowcount != 1:
                    raise TournamentError(tournament_id, f"entry {keep} cannot be paired")
            for number, entry_id in enumerate(seeds, start=1):
                group = None if groups is None else groups[entry_id]
                await db.execute(
                    "UPDATE tournament_entries SET seed = ?, group_no = ? WHERE id = ?"
                    " AND tournament_id = ?",
                    (number, group, entry_id, tournament_id),
                )
            await _bump(
                db,
                tournament_id,
                expected_version,
                stamp,
                "status = 'playing', started_at = ?, bracket = ?, knockout_from = ?",
                (stamp, bracket, knockout_from),
            )
            return await _load(db, tournament_id)

    # ------------------------------------------------------------------ rounds and pairings

    @conflicts_retried
    async def open_round(
        self,
        tournament_id: int,
        expected_version: int,
        *,
        round_number: int,
        stage: str,
        deadline: datetime,
        pairings: Sequence[NewPairing],
        at: datetime,
    ) -> Tournament:
        """Store a round and all its pairings at once, and make it the round in play.
        :class:`TournamentChangedError` if someone else moved the tournament on first."""
        stamp = to_ms(at)
        async with self._db.write() as db:
            await _bump(
                db,
                tournament_id,
                expected_version,
                stamp,
                "round = ?, round_deadline = ?",
                (round_number, to_ms(deadline)),
            )
            try:
                await db.execute(
                    "INSERT INTO tournament_rounds (tournament_id, round, stage, started_at,"
                    " deadline_at) VALUES (?, ?, ?, ?, ?)",
                    (tournament_id, round_number, stage, stamp, to_ms(deadline)),
                )
            except sqlite3.IntegrityError:
                raise TournamentChangedError(tournament_id, expected_version, None) from None
            await db.executemany(
                "INSERT INTO tournament_pairings (tournament_id, round, slot, group_no, entry_a,"
                " entry_b, outcome, reason, decided_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        tournament_id,
                        round_number,
                        p.slot,
                        p.group_no,
                        p.entry_a,
                        p.entry_b,
                        p.outcome,
                        p.reason,
                        None if p.outcome is None else stamp,
                    )
                    for p in pairings
                ],
            )
            return await _load(db, tournament_id)

    async def rounds(self, tournament_id: int) -> list[Round]:
        async with self._db.read() as db:
            rows = await db.execute_fetchall(
                "SELECT tournament_id, round, stage, started_at, deadline_at, finished_at"
                " FROM tournament_rounds WHERE tournament_id = ? ORDER BY round",
                (tournament_id,),
            )
        return [Round(r[0], r[1], r[2], from_ms(r[3]), from_ms(r[4]), opt_dt(r[5])) for r in rows]

    async def pairings(
        self, tournament_id: int, *, round_number: int | None = None
    ) -> list[StoredPairing]:
        sql = _SELECT_PAIRINGS + " WHERE tournament_id = ?"
        args: tuple[Any, ...] = (tournament_id,)
        if round_number is not None:
            sql += " AND round = ?"
            args += (round_number,)
        async with self._db.read() as db:
            rows = await db.execute_fetchall(sql + " ORDER BY round, slot", args)
        return [_pairing(r) for r in rows]

    async def pairing_at_table(self, table_id: int) -> StoredPairing | None:
        async with self._db.read() as db:
            row = await _one(
                db,
                _SELECT_PAIRINGS + " WHERE table_id = ?",
                (table_id,),
            )
        return None if row is None else _pairing(row)

    @conflicts_retried
    async def attach_table(self, pairing_id: int, table_id: int) -> bool:
        """Give an undecided pairing its table, once: False if it has one (or is decided)."""
        async with self._db.write() as db:
            try:
                cursor = await db.execute(
                    "UPDATE tournament_pairings SET table_id = ? WHERE id = ?"
                    " AND table_id IS NULL AND outcome IS NULL",
                    (table_id, pairing_id),
                )
            except sqlite3.IntegrityError:
                return False
            return cursor.rowcount == 1

    @conflicts_retried
    async def decide(
        self,
        pairing_id: int,
        *,
        outcome: str,
        points_a: int = 0,
        points_b: int = 0,
        reason: str,
        at: datetime,
    ) -> bool:
        """Write a pairing's result, once: False if it was already decided."""
        async with self._db.write() as db:
            cursor = await db.execute(
                "UPDATE tournament_pairings SET outcome = ?, points_a = ?, points_b = ?,"
                " reason = ?, decided_at = ? WHERE id = ? AND outcome IS NULL",
                (outcome, points_a, points_b, reason, to_ms(at), pairing_id),
            )
            return cursor.rowcount == 1

    @conflicts_retried
    @conflicts_retried
    async def announce_round(
        self,
        tournament_id: int,
        round_number: int,
        *,
        at: datetime,
        guild_id: int | None = None,
        notes: Sequence[dict[str, Any]] | None = None,
    ) -> bool:
        """Mark a round announced, once (of two callers, one): whether this call did. With
        ``notes``, the notice for the process that shows ``guild_id``'s server is written in
        the same transaction (``store.outbox``), so a round is told once or not at all."""
        stamp = to_ms(at)
        async with self._db.write() as db:
            cursor = await db.execute(
                "UPDATE tournament_rounds SET announced_at = ? WHERE tournament_id = ?"
                " AND round = ? AND announced_at IS NULL",
                (stamp, tournament_id, round_number),
            )
            if cursor.rowcount != 1:
                return False
            if notes is not None:
                await db.execute(TELL_SQL, (guild_id, round_number, notes_text(notes), stamp))
            return True

    async def round_announced(self, tournament_id: int, round_number: int) -> bool:
        """Whether the round was announced (a round not opened yet counts as announced)."""
        async with self._db.read() as db:
            rows = await db.execute_fetchall(
                "SELECT announced_at FROM tournament_rounds WHERE tournament_id = ? AND round = ?",
                (tournament_id, round_number),
            )
        return all(row[0] is not None for row in rows)

    async def finish_round(self, tournament_id: int, round_number: int, *, at: datetime) -> None:
        async with self._db.write() as db:
            await db.execute(
                "UPDATE tournament_rounds SET finished_at = ? WHERE tournament_id = ?"
                " AND round = ? AND finished_at IS NULL",
                (to_ms(at), tournament_id, round_number),
            )

    @conflicts_retried
    async def finish(
        self,
        tournament_id: int,
        expected_version: int,
        *,
        status: TournamentStatus,
        standings: list[dict[str, Any]] | None,
        winner_entry: int | None,
        at: datetime,
    ) -> Tournament:
        """End it for good (finished, or cancelled by its organiser) with its standings."""
        if status not in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
            raise ValueError("a tournament ends finished or cancelled")
        stamp = to_ms(at)
        async with self._db.write() as db:
            await _bump(
                db,
                tournament_id,
                expected_version,
                stamp,
                "status = ?, standings = ?, winner_entry = ?, finished_at = ?,"
                " round_deadline = NULL",
                (
                    status.value,
                    None if standings is None else json.dumps(standings),
                    winner_entry,
                    stamp,
                ),
            )
            return await _load(db, tournament_id)

    @conflicts_retried
    async def set_deadline(
        self, tournament_id: int, expected_version: int, deadline: datetime | None
    ) -> Tournament:
        """Move the round's deadline (None: no deadline pending)."""
        async with self._db.write() as db:
            await _bump(
                db,
                tournament_id,
                expected_version,
                to_ms(now()),
                "round_deadline = ?",
                (opt_ms(deadline),),
            )
            return await _load(db, tournament_id)

    # ------------------------------------------------------------------ organisers

    async def organiser_role(self, guild_id: int) -> int | None:
        async with self._db.read() as db:
            row = await _one(
                db, "SELECT role_id FROM tournament_organisers WHERE guild_id = ?", (guild_id,)
            )
        return None if row is None else row[0]

    @conflicts_retried
    async def set_organiser_role(self, guild_id: int, role_id: int | None) -> None:
        async with self._db.write() as db:
            await db.execute(
                "INSERT INTO tournament_organisers (guild_id, role_id, updated_at)"
                " VALUES (?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
                " role_id = excluded.role_id, updated_at = excluded.updated_at",
                (guild_id, role_id, to_ms(now())),
            )


async def _entry_of(db: aiosqlite.Connection, tournament_id: int, user_id: int) -> Entry:
    row = await _one(
        db,
        "SELECT "
        + ", ".join("e." + column for column in _ENTRY_COLUMNS.split(", "))
        + " FROM tournament_people p JOIN tournament_entries e ON e.id = p.entry_id"
        " WHERE p.tournament_id = ? AND p.user_id = ?",
        (tournament_id, user_id),
    )
    if row is None:
        raise NotEnteredError(tournament_id, user_id)
    return _entry(row)


__all__ = [
    "AlreadyEnteredError",
    "Entry",
    "NewPairing",
    "NotEnteredError",
    "NotRegisteringError",
    "Round",
    "StoredPairing",
    "Tournament",
    "TournamentChangedError",
    "TournamentError",
    "TournamentStatus",
    "TournamentStore",
]
