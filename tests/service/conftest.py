from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from scopabot.service import FakeClock, GameService, InlineThinker
from scopabot.store import Store

from .helpers import Recorder


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "scopabot.db"


@pytest.fixture
async def store(database: Path | str) -> AsyncIterator[Store]:
    opened = await Store.open(database)
    yield opened
    await opened.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def service(store: Store, clock: FakeClock) -> AsyncIterator[GameService]:
    started = await GameService.start(store, clock=clock, thinker=InlineThinker(), computer_pause=0)
    yield started
    await started.close()


@pytest.fixture
async def events(service: GameService) -> Recorder:
    recorder = Recorder()
    service.subscribe(recorder)
    return recorder
