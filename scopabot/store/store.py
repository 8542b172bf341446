"""The :class:`Store`: the database file, and the parts that read and write it.

Each part is one topic with its own methods, all on the one shared :class:`Database` (each
method one transaction): ``store.games`` (a game's record, snapshot and moves), ``store.deadlines``
(each turn's deadline and reminder), ``store.tables`` (where people gather before a game),
``store.settings`` (a server's and a person's settings), ``store.boards`` (ratings, statistics
and results), ``store.score_sheets`` (the score keeper's sheets), ``store.tournaments`` and
``store.outbox`` (notices between bot processes).
The root only opens, checks and closes the file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Self

from .boards import BoardStore
from .database import AnyDatabase, Database
from .deadlines import DeadlineStore
from .games import GameStore
from .migrate import Migration
from .outbox import OutboxStore
from .postgres import is_postgres_url
from .postgres_database import PostgresDatabase
from .score_sheets import ScoreSheetStore
from .settings import SettingsStore
from .tables import TableStore
from .tournaments import TournamentStore


class Store:
    """ScopaBot's database. Open with ``await Store.open(path)``, close with ``await close()``;
    everything else is asked of a part (``await store.games.load(game_id)``)."""

    def __init__(self, database: AnyDatabase) -> None:
        self.database = database
        self.games = GameStore(database)
        self.deadlines = DeadlineStore(database)
        self.tables = TableStore(database)
        self.settings = SettingsStore(database)
        self.boards = BoardStore(database)
        self.score_sheets = ScoreSheetStore(database)
        self.tournaments = TournamentStore(database)
        self.outbox = OutboxStore(database)

    @classmethod
    async def open(
        cls,
        path: Path | str,
        *,
        synchronous: str = "NORMAL",
        busy_timeout: float = 5.0,
        max_size_bytes: int | None = None,
        check: bool = False,
        expected: bool = False,
        migrations: tuple[Migration, ...] | None = None,
    ) -> Self:
        """Open (creating if needed) and migrate the database at ``path``; see
        :meth:`Database.open` for what each option promises. A ``postgresql://`` URL opens that
        PostgreSQL database instead (:class:`~.postgres_database.PostgresDatabase`; the SQLite
        file's options do not apply to it)."""
        database: AnyDatabase
        if is_postgres_url(path):
            assert isinstance(path, str)
            database = await PostgresDatabase.open(path, migrations=migrations)
        else:
            database = await Database.open(
                path,
                synchronous=synchronous,
                busy_timeout=busy_timeout,
                max_size_bytes=max_size_bytes,
                check=check,
                expected=expected,
                migrations=migrations,
            )
        return cls(database)

    @property
    def path(self) -> Path | str:
        """The SQLite file, or the PostgreSQL database's URL without its password."""
        return self.database.path

    async def check(self) -> None:
        """Read every page (``PRAGMA quick_check``); raise DatabaseCorruptError on damage."""
        await self.database.check()

    async def analyze(self) -> None:
        """Refresh the query planner's statistics (after a large import)."""
        await self.database.analyze()

    async def close(self) -> None:
        await self.database.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
