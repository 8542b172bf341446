"""The seam between the store's SQL and PostgreSQL: the few words of sqlite3 the store speaks.

The store's parts are written once, against the small part of sqlite3 (in a one-hop function,
:meth:`Database.write_once`) and of aiosqlite (in a ``write()`` or ``read()`` block) that they
use: ``execute`` returning a cursor with ``fetchone``, ``fetchall``, ``rowcount`` and
iteration, ``execute_fetchall``, ``executemany``, ``in_transaction``, and sqlite3's
``IntegrityError`` for a broken constraint. Here the same words run on an asyncpg connection:

- ``?`` placeholders become ``$1``, ``$2``… (outside quoted text; once per statement text),
  ``x IS ?`` PostgreSQL's ``x IS NOT DISTINCT FROM $1``, ``json_extract(doc, '$.key')``
  ``(doc::jsonb ->> 'key')``;
- each statement is prepared once per connection, and its parameters are converted to the
  types PostgreSQL inferred for them (a ``bool`` for a ``BIGINT`` column becomes ``1``, an
  ``int`` for a ``DOUBLE PRECISION`` a float, a number for a ``TEXT`` its text, as SQLite's
  column affinity would have stored it);
- rows come back as tuples; ``rowcount`` is read from the command's status;
- a broken constraint (SQLSTATE class 23) is raised as ``sqlite3.IntegrityError``, anything
  else PostgreSQL refuses as ``sqlite3.OperationalError``, so the parts' own handling of errors
  is the same on both databases.

Where the two dialects differ, the parts write SQL both accept (``RETURNING id`` instead of
``lastrowid``, ``ON CONFLICT … DO NOTHING`` instead of ``INSERT OR IGNORE``, an explicit
``CAST(? AS BIGINT)`` where PostgreSQL could not tell a parameter's type), so nothing else is
rewritten behind their back.

A one-hop function is plain synchronous code (on SQLite it runs on aiosqlite's thread); on
PostgreSQL it runs on the event loop's thread, in a greenlet, and each statement it sends is
awaited on the asyncpg connection by the loop's own greenlet (:func:`run_blocking`): the same
function, no thread, no hand-off.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Coroutine, Iterable, Iterator, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeVar, cast

if TYPE_CHECKING:
    import asyncpg
    from asyncpg.prepared_stmt import PreparedStatement

Row = tuple[Any, ...]
T = TypeVar("T")
_TOKENS = re.compile(
    r"(?P<json>json_extract\(\s*(?P<doc>[\w.]+)\s*,\s*'\$\.(?P<key>\w+)'\s*\))"
    r"|'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|--[^\n]*"
    r"|(?P<isnot>\bIS\s+NOT\s+\?)|(?P<is>\bIS\s+\?)|(?P<mark>\?)",
    re.I,
)


@lru_cache(maxsize=1024)
def placeholders(sql: str) -> str:
    """``sql`` in PostgreSQL's words: each ``?`` outside quotes and comments numbered as
    ``$1``, ``$2``…, and two of SQLite's forms that PostgreSQL spells otherwise.

    SQLite's null-safe comparison with a parameter, ``x IS ?`` (``x IS NOT ?``), is
    ``x IS NOT DISTINCT FROM $1`` (``IS DISTINCT FROM``) in PostgreSQL, where ``IS`` takes only
    ``NULL``, ``TRUE`` or ``FALSE``; and a top-level field of a JSON column,
    ``json_extract(doc, '$.key')``, is ``(doc::jsonb ->> 'key')`` (as text: the caller
    converts it). Neither rewrite can change a meaning: PostgreSQL refuses both forms.
    """
    count = 0

    def number(match: re.Match[str]) -> str:
        nonlocal count
        if match["json"]:
            return f"({match['doc']}::jsonb ->> '{match['key']}')"
        if not (match["mark"] or match["is"] or match["isnot"]):
            return match[0]
        count += 1
        if match["mark"]:
            return f"${count}"
        return ("IS DISTINCT FROM $" if match["isnot"] else "IS NOT DISTINCT FROM $") + str(count)

    return _TOKENS.sub(number, sql)


_INTEGERS = frozenset({"int2", "int4", "int8"})
_FLOATS = frozenset({"float4", "float8", "numeric"})
_TEXTS = frozenset({"text", "varchar", "bpchar", "name"})


def _convert(kind: str, value: Any) -> Any:
    if value is None:
        return None
    if kind in _INTEGERS:
        if isinstance(value, bool):
            return int(value)
        if isinstance(value, float) and value.is_integer():
            return int(value)
    elif kind in _FLOATS:
        if isinstance(value, int) and not isinstance(value, bool):
            return float(value)
    elif kind in _TEXTS:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(value)
    elif kind == "bool":
        if isinstance(value, int):
            return bool(value)
    elif kind == "bytea" and isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    return value


def _arguments(kinds: tuple[str, ...], params: Sequence[Any] | None) -> list[Any]:
    if not params:
        return []
    if len(kinds) != len(params):
        raise sqlite3.ProgrammingError(
            f"the statement takes {len(kinds)} parameters, {len(params)} were given"
        )
    return [_convert(kind, value) for kind, value in zip(kinds, params, strict=True)]


def _rowcount(status: str | None) -> int:
    """The rows an INSERT, UPDATE or DELETE touched, from its status ("UPDATE 3")."""
    if not status:
        return -1
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() and status.split(" ", 1)[0] != "SELECT" else -1


def as_sqlite_error(exc: BaseException) -> sqlite3.Error:
    """The sqlite3 exception the store's parts handle, for a PostgreSQL refusal."""
    sqlstate = str(getattr(exc, "sqlstate", "") or "")
    if sqlstate.startswith("23"):
        error: sqlite3.Error = sqlite3.IntegrityError(f"{exc} (PostgreSQL {sqlstate})")
    else:
        error = sqlite3.OperationalError(f"{type(exc).__name__}: {exc}")
    error.sqlstate = sqlstate  # type: ignore[attr-defined]
    return error


class Cursor:
    """What one statement gave: its rows and how many rows it changed."""

    def __init__(self, rows: list[Row], rowcount: int) -> None:
        self._rows = rows
        self._next = 0
        self.rowcount = rowcount

    @property
    def lastrowid(self) -> int:
        raise sqlite3.NotSupportedError(
            "PostgreSQL has no lastrowid: write INSERT … RETURNING id and read the row"
        )

    def fetchone(self) -> Row | None:
        if self._next >= len(self._rows):
            return None
        self._next += 1
        return self._rows[self._next - 1]

    def fetchall(self) -> list[Row]:
        rows, self._next = self._rows[self._next :], len(self._rows)
        return rows

    def __iter__(self) -> Iterator[Row]:
        return iter(self.fetchall())


class AsyncCursor(Cursor):
    """aiosqlite's shape: the fetches are awaited."""

    async def fetchone(self) -> Row | None:  # type: ignore[override]
        return Cursor.fetchone(self)

    async def fetchall(self) -> list[Row]:  # type: ignore[override]
        return Cursor.fetchall(self)


class AsyncConnection:
    """aiosqlite's words over one asyncpg connection, inside a transaction begun for it."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn
        # Each statement prepared once, with the types PostgreSQL inferred for its parameters.
        self._statements: dict[str, tuple[PreparedStatement, tuple[str, ...]]] = {}

    @property
    def in_transaction(self) -> bool:
        return self._conn.is_in_transaction()

    async def _prepared(self, sql: str) -> tuple[PreparedStatement, tuple[str, ...]]:
        prepared = self._statements.get(sql)
        if prepared is None:
            statement = await self._conn.prepare(placeholders(sql))
            kinds = tuple(t.name for t in statement.get_parameters())
            prepared = self._statements[sql] = (statement, kinds)
        return prepared

    async def _run(self, sql: str, params: Sequence[Any] | None) -> tuple[list[Row], int]:
        import asyncpg

        try:
            statement, kinds = await self._prepared(sql)
            records = await statement.fetch(*_arguments(kinds, params))
            return [tuple(r) for r in records], _rowcount(statement.get_statusmsg())
        except asyncpg.PostgresError as exc:
            raise as_sqlite_error(exc) from exc

    async def execute(self, sql: str, params: Sequence[Any] | None = None) -> AsyncCursor:
        rows, count = await self._run(sql, params)
        return AsyncCursor(rows, count)

    async def execute_fetchall(self, sql: str, params: Sequence[Any] | None = None) -> list[Row]:
        rows, _ = await self._run(sql, params)
        return rows

    async def executemany(self, sql: str, seq: Iterable[Sequence[Any]]) -> AsyncCursor:
        import asyncpg

        try:
            statement, kinds = await self._prepared(sql)
            await statement.executemany([_arguments(kinds, p) for p in seq])
        except asyncpg.PostgresError as exc:
            raise as_sqlite_error(exc) from exc
        return AsyncCursor([], -1)


async def run_blocking(connection: AsyncConnection, fn: Callable[..., T], *args: Any) -> T:
    """Run a one-hop function ``fn(conn, *args)`` inside the transaction ``connection`` is in
    (what ``on_worker`` does on SQLite), on the event loop's own thread: ``fn`` runs in a
    greenlet of its own, and each statement it sends switches back here, where the statement
    is awaited on the connection like any coroutine, and its result switched back into ``fn``.

    No thread is involved. Handing each statement from a worker thread to the event loop and
    back cost two thread wake-ups and two waits for the GIL per statement, and under load
    (the loop busy with other games) each of those waits could last the interpreter's whole
    switch interval (5 ms): a move's four statements took 20 ms (``bench/store.py``,
    docs/speed.md). A switch between greenlets is a few hundred nanoseconds.
    """
    import greenlet  # the postgres extra's, as asyncpg

    hop = greenlet.greenlet(fn)
    hop.scopabot_hop = True  # type: ignore[attr-defined]  # what _awaited looks for
    value = hop.switch(BlockingConnection(connection), *args)
    while not hop.dead:
        try:
            result = await value
        except BaseException as exc:  # the statement's error, raised where fn sent it
            value = hop.throw(exc)
        else:
            value = hop.switch(result)
    return cast(T, value)


def _awaited(coro: Coroutine[Any, Any, T]) -> T:
    """Await ``coro`` from the one-hop function running in this greenlet: the event loop's
    greenlet (its parent, in :func:`run_blocking`) awaits it and switches back the result."""
    import greenlet

    hop = greenlet.getcurrent()
    if not getattr(hop, "scopabot_hop", False) or hop.parent is None:
        coro.close()
        raise RuntimeError("a one-hop function's statement was sent outside run_blocking")
    return cast(T, hop.parent.switch(coro))


class BlockingConnection:
    """sqlite3's words for a one-hop function: each statement is awaited on the asyncpg
    connection by the event loop's greenlet (:func:`run_blocking`), and the function goes on
    with its result as a plain call would."""

    def __init__(self, connection: AsyncConnection) -> None:
        self._connection = connection

    @property
    def in_transaction(self) -> bool:
        return self._connection.in_transaction

    def execute(self, sql: str, params: Sequence[Any] | None = None) -> Cursor:
        rows, count = _awaited(self._connection._run(sql, params))
        return Cursor(rows, count)

    def executemany(self, sql: str, seq: Iterable[Sequence[Any]]) -> Cursor:
        _awaited(self._connection.executemany(sql, list(seq)))
        return Cursor([], -1)
