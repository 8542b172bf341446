"""Opening the store takes the start-up objects out of Python's full collections."""

from __future__ import annotations

import gc

from scopabot.store import Store
from scopabot.store.base import freeze_startup_objects


async def test_first_open_freezes_start_up_objects_once(store: Store) -> None:
    # Whichever test opened a store first froze them; later opens and calls do nothing more.
    assert gc.get_freeze_count() > 0
    assert freeze_startup_objects() is False
    assert gc.isenabled()  # the collector still runs for everything made since
