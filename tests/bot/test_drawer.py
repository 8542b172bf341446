"""The pictures' drawer: pictures drawn in a worker process, off the bot's interpreter, and
in the drawer's thread when a job cannot go to a process or the worker is gone."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading

from scopabot.bot.pictures import Drawer
from scopabot.engine import Game, Rules
from scopabot.render.hand import hand_picture, hand_sketch, sketched_hand
from scopabot.render.i18n import Lang


async def test_pictures_are_drawn_in_a_worker_process() -> None:
    drawer = Drawer(workers=1)
    try:
        worker = await drawer.draw(os.getpid, urgent=True)
        assert worker != os.getpid()
        view = Game.new(Rules(), seed=1).view_for(0)
        import functools

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
