"""bot.py runs on uvloop's event loop where uvloop is installed, on asyncio's own where not
(Windows, or an installation without it); every test that starts the real bot.py runs it on
the loop chosen here."""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path

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


def test_a_broken_uvloop_is_said_once_and_the_bot_runs_on_asyncios_loop(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """uvloop installed but unloadable (a wheel built for another Python, a shared library
    gone): one warning, and the bot starts on asyncio's loop rather than not at all."""
    (tmp_path / "uvloop").mkdir()
    (tmp_path / "uvloop" / "__init__.py").write_text(
        "raise ImportError('libuv.so.1: cannot open shared object file')\n"
    )
    monkeypatch.delitem(sys.modules, "uvloop", raising=False)
    monkeypatch.syspath_prepend(str(tmp_path))
    with caplog.at_level(logging.WARNING, logger="scopabot"):
        assert bot.event_loop_factory() is None
    [said] = [r for r in caplog.records if "uvloop" in r.getMessage()]
    assert "cannot be loaded" in said.getMessage() and "libuv.so.1" in said.getMessage()
