"""What the picture tests share: every canvas a picture function encodes, kept to read what
it drew (its texts and their sizes) rather than its pixels."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from scopabot.render import canvas as canvas_module
from scopabot.render.canvas import Canvas
from scopabot.render.memo import PICTURES

Record = list[Canvas]


@pytest.fixture
def canvases(monkeypatch: pytest.MonkeyPatch) -> Iterator[Record]:
    """Every canvas a picture function encodes, to read what it drew."""
    seen: Record = []
    encode = Canvas.encode
    PICTURES.clear()  # pictures already drawn by other tests would not be drawn again

    def keep(self: Canvas) -> bytes:
        seen.append(self)
        return encode(self)

    monkeypatch.setattr(canvas_module.Canvas, "encode", keep)
    yield seen
