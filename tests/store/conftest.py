from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from scopabot.store import Store


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "scopabot.db"


@pytest.fixture
async def store(database: Path | str) -> AsyncIterator[Store]:
    opened = await Store.open(database)
    yield opened
    await opened.close()
