"""The schema of a SQLite file and of a PostgreSQL database, described alike to compare them.

Each table becomes its columns (name, kind of value, NOT NULL, default, place in the primary
key), its foreign keys (columns, table and columns named, what a delete does), its UNIQUE
constraints and its own indexes (name, columns with their order, unique, the WHERE of a partial
index). Types compare by the kind of value they hold (SQLite's INTEGER holds 64 bits like
PostgreSQL's BIGINT; REAL is a DOUBLE PRECISION), text by its letters without PostgreSQL's
casts and parentheses. CHECK constraints are not compared (each database prints them its own
way); the tests of the store show that both refuse the same rows.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

import asyncpg

_KINDS = {
    "integer": "integer",
    "bigint": "integer",
    "smallint": "integer",
    "text": "text",
    "real": "real",
    "double precision": "real",
    "blob": "blob",
    "bytea": "blob",
}


def _text(sql: str | None) -> str | None:
    if sql is None:
        return None
    sql = re.sub(r"::[a-z ]+", "", sql.lower())
    return re.sub(r"[\s()]", "", sql)


def sqlite_schema(path: Path) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with sqlite3.connect(path) as db:
        tables = [
            r[0]
            for r in db.execute(
                "SELECT name FROM sqlite_schema WHERE type = 'table'"
                " AND name NOT LIKE 'sqlite_%' ORDER BY name"
            )
        ]
        for table in tables:
            columns = [
                (name, _KINDS[kind.lower()], bool(notnull) or pk > 0, _text(default), pk)
                for _, name, kind, notnull, default, pk in db.execute(f"PRAGMA table_info({table})")
            ]
            keys: dict[int, list[Any]] = {}
            for fk_id, _seq, target, source, to, _upd, on_delete, _match in db.execute(
                f"PRAGMA foreign_key_list({table})"
            ):
                entry = keys.setdefault(fk_id, [[], target, [], on_delete.lower()])
                entry[0].append(source)
                entry[2].append(to)
            foreign = sorted((tuple(a), b, tuple(c), d) for a, b, c, d in keys.values())
            unique, indexes = [], []
            for _, name, is_unique, origin, partial in db.execute(f"PRAGMA index_list({table})"):
                cols = [
                    (r[2], bool(r[3]))
                    for r in db.execute(f"PRAGMA index_xinfo({name})")
                    if r[5]  # key columns only
                ]
                if origin == "u":
                    unique.append(tuple(c for c, _ in cols))
                elif origin == "c":
                    sql = db.execute(
                        "SELECT sql FROM sqlite_schema WHERE name = ?", (name,)
                    ).fetchone()[0]
                    where = _text(sql.split(" WHERE ", 1)[1]) if partial else None
                    indexes.append((name, tuple(cols), bool(is_unique), where))
            out[table] = {
                "columns": columns,
                "foreign keys": foreign,
                "unique": sorted(unique),
                "indexes": sorted(indexes),
            }
    return out


_ON_DELETE = {
    "a": "no action",
    "c": "cascade",
    "n": "set null",
    "r": "restrict",
    "d": "set default",
}


async def postgres_schema(
    conn: asyncpg.Connection, *, skip: tuple[str, ...] = ()
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    tables = [
        r["table_name"]
        for r in await conn.fetch(
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
            " ORDER BY table_name"
        )
        if r["table_name"] not in skip
    ]
    for table in tables:
        pk = {
            r["attname"]: int(r["n"])
            for r in await conn.fetch(
                "SELECT a.attname, k.n FROM pg_constraint c"
                " CROSS JOIN LATERAL unnest(c.conkey) WITH ORDINALITY AS k(attnum, n)"
                " JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum"
                " WHERE c.conrelid = $1::regclass AND c.contype = 'p'",
                table,
            )
        }
        columns = [
            (
                r["column_name"],
                _KINDS[r["data_type"]],
                r["is_nullable"] == "NO",
                _text(r["column_default"]),
                pk.get(r["column_name"], 0),
            )
            for r in await conn.fetch(
                "SELECT column_name, data_type, is_nullable, column_default"
                " FROM information_schema.columns"
                " WHERE table_schema = current_schema() AND table_name = $1"
                " ORDER BY ordinal_position",
                table,
            )
        ]
        constraints = await conn.fetch(
            "SELECT c.contype::text AS contype, c.confdeltype::text AS confdeltype,"
            " c.confrelid::regclass::text AS target,"
            " ARRAY(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY k(n, i)"
            "       JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n"
            "       ORDER BY k.i) AS source,"
            " ARRAY(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY k(n, i)"
            "       JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n"
            "       ORDER BY k.i) AS dest"
            " FROM pg_constraint c WHERE c.conrelid = $1::regclass AND c.contype IN ('f', 'u')",
            table,
        )
        foreign = sorted(
            (tuple(c["source"]), c["target"], tuple(c["dest"]), _ON_DELETE[c["confdeltype"]])
            for c in constraints
            if c["contype"] == "f"
        )
        unique = sorted(tuple(c["source"]) for c in constraints if c["contype"] == "u")
        indexes = []
        for r in await conn.fetch(
            "SELECT i.relname AS name, x.indisunique AS is_unique, x.indnatts AS width,"
            " x.indoption::int2[] AS options, pg_get_expr(x.indpred, x.indrelid) AS pred,"
            " x.indexrelid AS oid"
            " FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid"
            " WHERE x.indrelid = $1::regclass"
            " AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)",
            table,
        ):
            cols = []
            for k in range(1, r["width"] + 1):
                name = await conn.fetchval("SELECT pg_get_indexdef($1, $2, true)", r["oid"], k)
                cols.append((name, bool(r["options"][k - 1] & 1)))
            indexes.append((r["name"], tuple(cols), r["is_unique"], _text(r["pred"])))
        out[table] = {
            "columns": columns,
            "foreign keys": foreign,
            "unique": unique,
            "indexes": sorted(indexes),
        }
    return out
