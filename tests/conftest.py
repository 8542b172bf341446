"""Shared fixtures.

``standin`` starts the Discord stand-in (see ``tests/standin``) and, when the test is over,
fails it if the bot left behind anything Discord would have refused. Options for the stand-in
come from ``@pytest.mark.standin(response_deadline=0.3, ...)``.

``database`` is what the store and service suites open: each test that takes it runs twice,
on a SQLite file and on a new PostgreSQL database (skipped without a server). A test of the
SQLite file itself (its bytes, its pragmas, its worker thread) says so with
``@pytest.mark.sqlite_only``, and is not run on PostgreSQL.

``postgres_url`` is a new, empty PostgreSQL database for one test, made on the server named by
``SCOPABOT_TEST_DATABASE_URL`` (``tests/postgres.py`` starts a throwaway one; ``.ci/run`` does)
and dropped after it. Without that variable every test that asks for it is skipped, all under
one line of the summary saying how to run them.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Generator, Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.postgres import HOW_TO_RUN, URL_VARIABLE
from tests.standin import DiscordStandIn
from tests.standin_sample_bot import SampleBot


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "standin(**options): keyword arguments for the DiscordStandIn of this test"
    )
    config.addinivalue_line(
        "markers",
        "sqlite_only(why): a test of the SQLite file itself, not run on PostgreSQL",
    )


@pytest.fixture
async def standin(request: pytest.FixtureRequest) -> AsyncIterator[DiscordStandIn]:
    marker = request.node.get_closest_marker("standin")
    options = dict(marker.kwargs) if marker else {}
    async with DiscordStandIn(**options) as server:
        yield server
    server.check()


@pytest.fixture
async def sample_bot(standin: DiscordStandIn) -> AsyncIterator[SampleBot]:
    """The stand-in's sample bot, connected, ready and with its commands synced."""
    async with standin.connected(SampleBot()) as bot:
        await bot.tree.sync()
        yield bot


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Every PostgreSQL test skipped for want of a server is told under one line."""
    report = yield
    longrepr = report.longrepr
    if report.skipped and isinstance(longrepr, tuple) and HOW_TO_RUN in str(longrepr[2]):
        report.longrepr = ("tests/postgres.py", 1, str(longrepr[2]))
    return report


@pytest.fixture(scope="session")
def postgres_server() -> str:
    """The URL of the PostgreSQL server the tests may make databases on."""
    url = os.environ.get(URL_VARIABLE, "").strip()
    if not url:
        pytest.skip(HOW_TO_RUN)
    return url


def with_database(url: str, name: str) -> str:
    """``url`` naming the database ``name`` instead of its own."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


@pytest.fixture
async def postgres_url(postgres_server: str) -> AsyncIterator[str]:
    """A fresh, empty database of its own for this test (dropped after it)."""
    import asyncpg  # the [dev] extra installs it; only PostgreSQL tests need it

    name = "scopabot_test_" + uuid.uuid4().hex[:16]
    admin = await asyncpg.connect(postgres_server)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    yield with_database(postgres_server, name)
    admin = await asyncpg.connect(postgres_server)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest) -> str | Path:
    """The database a store test opens: a SQLite file, then a new PostgreSQL database."""
    if request.param == "sqlite":
        path: Path = request.getfixturevalue("db_path")
        return path
    marker = request.node.get_closest_marker("sqlite_only")
    if marker is not None:
        pytest.skip(
            "a test of the SQLite file itself" + (f": {marker.args[0]}" if marker.args else "")
        )
    url: str = request.getfixturevalue("migrated_postgres_url")
    return url


@pytest.fixture(scope="session")
def postgres_template(postgres_server: str) -> Iterator[str]:
    """A database migrated once for the whole run, that each test's database is a copy of
    (copying is much quicker than applying every migration again)."""
    import asyncio

    import asyncpg

    from scopabot.store.postgres import connect, migrate

    name = f"scopabot_template_{os.getpid()}"

    async def make() -> None:
        admin = await asyncpg.connect(postgres_server)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            await admin.execute(f'CREATE DATABASE "{name}"')
        finally:
            await admin.close()
        conn = await connect(with_database(postgres_server, name))
        try:
            await migrate(conn, name)
        finally:
            await conn.close()

    async def drop() -> None:
        admin = await asyncpg.connect(postgres_server)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()

    asyncio.run(make())
    yield name
    asyncio.run(drop())


@pytest.fixture
async def migrated_postgres_url(postgres_server: str, postgres_template: str) -> AsyncIterator[str]:
    """A database of its own for this test, at the latest schema version (dropped after it)."""
    import asyncpg

    name = "scopabot_test_" + uuid.uuid4().hex[:16]
    admin = await asyncpg.connect(postgres_server)
    try:
        await admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{postgres_template}"')
    finally:
        await admin.close()
    yield with_database(postgres_server, name)
    admin = await asyncpg.connect(postgres_server)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()
