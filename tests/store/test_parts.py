"""The store is a root and its parts: every part runs on the one shared database, so a
transaction of one part never interleaves with another's, and no part reaches the others."""

from __future__ import annotations

import asyncio

from scopabot.store import Database, Store
from scopabot.store.postgres_database import PostgresDatabase

PARTS = ("games", "deadlines", "tables", "settings", "boards", "score_sheets", "tournaments")


async def test_every_part_holds_the_one_database_and_nothing_else_of_the_store(
    store: Store,
) -> None:
    assert isinstance(store.database, Database | PostgresDatabase)
    for name in PARTS:
        held = list(vars(getattr(store, name)).values())
        assert held == [store.database], name  # not the store, not another part


async def test_a_part_waits_for_another_parts_transaction(store: Store) -> None:
    async with store.database.write() as db:
        await db.execute(
            "INSERT INTO user_settings (user_id, language, updated_at) VALUES (5, 'it', 0)"
        )
        reading = asyncio.ensure_future(store.settings.user(5))
        writing = asyncio.ensure_future(store.settings.set_language(6, "en"))
        await asyncio.sleep(0.05)
        assert not reading.done() and not writing.done()  # one lock for every part
    assert (await reading).language == "it"
    await writing
    assert (await store.settings.user(6)).language == "en"
