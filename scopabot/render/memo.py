"""Pictures kept once drawn: a picture is drawn again only when what it shows has changed.

The bot refreshes a table message and each hand after every move, but much of what they show
does not change with every move (a hand between its owner's turns, a deal's breakdown shown
through the next deal's first round, a table refreshed for a timer or a seat): the same key
gives back the same bytes without drawing.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Final


class Memo:
    """The last pictures drawn, by what they show, up to ``max_bytes`` of PNG in all."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._kept: OrderedDict[Hashable, bytes] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.drawn = 0
        """How many pictures were drawn (not found kept), for tests and benchmarks."""

    def get(self, key: Hashable, draw: Callable[[], bytes]) -> bytes:
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
                return found
        data = draw()
        with self._lock:
            self.drawn += 1
            if key not in self._kept:
                self._kept[key] = data
                self._bytes += len(data)
            while self._bytes > self.max_bytes and len(self._kept) > 1:
                _, old = self._kept.popitem(last=False)
                self._bytes -= len(old)
        return data

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self._bytes = 0


PICTURES: Final = Memo(max_bytes=32 * 1024 * 1024)
"""Every picture already drawn, by what it shows: about a thousand tables and hands."""
