"""bot.py runs on uvloop's event loop where uvloop is installed, on asyncio's own where not
(Windows, or an installation without it); every test that starts the real bot.py runs it on
the loop chosen here."""

from __future__ import annotations

import asyncio
import sys

import pytest

import bot


def test_the_bot_runs_on_uvloop_when_it_is_installed() -> None:
    uvloop = pytest.importorskip("uvloop")
    factory = bot.event_loop_factory()
    assert factory is uvloop.new_event_loop
    with asyncio.Runner(loop_factory=factory) as runner:
        assert isinstance(runner.get_loop(), uvloop.Loop)
        assert runner.run(asyncio.sleep(0, result=7)) == 7


def test_without_uvloop_the_bot_runs_on_asyncios_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "uvloop", None)  # its import fails, as if not installed
    assert bot.event_loop_factory() is None
    with asyncio.Runner(loop_factory=bot.event_loop_factory()) as runner:
        assert runner.run(asyncio.sleep(0, result=7)) == 7
