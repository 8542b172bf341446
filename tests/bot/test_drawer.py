"""The pictures' drawer: pictures drawn in a worker process, off the bot's interpreter, and
in the drawer's thread when a job cannot go to a process or the worker is gone."""

from __future__ import annotations

import asyncio
import functools
import multiprocessing
import os
import signal
import threading
from pathlib import Path

from scopabot.bot.pictures import IN_FLIGHT, Drawer
from scopabot.engine import Game, Rules
from scopabot.render.hand import hand_picture, hand_sketch, sketched_hand
from scopabot.render.i18n import Lang


async def test_pictures_are_drawn_in_a_worker_process() -> None:
    drawer = Drawer(workers=1)
    try:
        worker = await drawer.draw(os.getpid, urgent=True)
        assert worker != os.getpid()
        view = Game.new(Rules(), seed=1).view_for(0)
        picture = await drawer.draw(functools.partial(hand_picture, view, "it"), urgent=False)
        assert picture == hand_picture(view, "it")  # the same bytes as drawn here
        # What the bot sends: the hand's sketch (its cards and the turn), not the view.
        sketched = await drawer.draw(
            functools.partial(sketched_hand, hand_sketch(view, Lang.IT)), urgent=True
        )
        assert sketched == picture
    finally:
        drawer.close()


async def test_without_workers_or_pickling_the_thread_draws() -> None:
    drawer = Drawer(workers=0)
    try:
        assert await drawer.draw(os.getpid, urgent=True) == os.getpid()
    finally:
        drawer.close()
    drawer = Drawer(workers=1)
    try:
        local = 7
        assert await drawer.draw(lambda: (os.getpid(), local), urgent=True) == (os.getpid(), 7)
    finally:
        drawer.close()


async def test_a_dead_worker_leaves_the_thread_drawing() -> None:
    drawer = Drawer(workers=1)
    try:
        worker = await drawer.draw(os.getpid, urgent=True)
        os.kill(worker, signal.SIGKILL)
        assert await drawer.draw(os.getpid, urgent=True) == os.getpid()
        assert await drawer.draw(os.getpid, urgent=False) == os.getpid()
    finally:
        drawer.close()


def test_a_drawer_stopped_while_its_worker_starts_has_ended_it() -> None:
    """A bot stopped just after it is ready (its worker still starting) must not leave the
    pool's manager thread closing its pipe while Python exits: Python 3.11 then prints a
    traceback (``Bad file descriptor``) from the exit. So the stop waits for the worker."""
    drawer = Drawer(workers=1)
    drawer.close()
    assert multiprocessing.active_children() == []
    assert not [t for t in threading.enumerate() if t.name == "scopabot-pictures-exit"]


def _drawn_once_there_is(path: str) -> int:
    """A picture that takes until the test says so (a file appears), drawn in the worker."""
    import time

    while not os.path.exists(path):
        time.sleep(0.01)
    return os.getpid()


async def test_the_worker_is_handed_the_next_picture_while_it_draws_one(tmp_path: Path) -> None:
    """One picture at a time, the worker sat idle through every hand-off, which under load
    took as long as the drawing: the refreshes then lagged seconds behind the clicks. The next
    picture now crosses to the worker while one is drawn, and no more than IN_FLIGHT do."""
    drawer = Drawer(workers=1)
    gate = tmp_path / "go"
    try:
        await drawer.draw(os.getpid, urgent=True)  # the worker is up
        pool = drawer._pool
        assert pool is not None
        slow = asyncio.ensure_future(
            drawer.draw(functools.partial(_drawn_once_there_is, str(gate)), urgent=False)
        )
        rest = [asyncio.ensure_future(drawer.draw(os.getpid, urgent=False)) for _ in range(3)]
        handed = pool._pending_work_items  # submitted to the worker, not yet given back
        async with asyncio.timeout(10):
            while len(handed) < IN_FLIGHT:
                await asyncio.sleep(0.01)
        await asyncio.sleep(0.2)
        assert len(handed) == IN_FLIGHT  # the others wait in the drawer's queue, by urgency
        assert not slow.done() and not any(r.done() for r in rest)
        gate.touch()
        worker = await slow
        assert [await r for r in rest] == [worker] * 3
    finally:
        drawer.close()
