"""The pictures' drawer: pictures drawn in worker processes, off the bot's interpreter, a
click's first; in the drawer's thread when a job cannot go to a process or the worker is
gone. Jobs that sleep stand in for long pictures (the order is what is checked, never time)."""

from __future__ import annotations

import asyncio
import functools
import os
import pickle
import signal
import time

import pytest

from scopabot.bot.pictures import Drawer, dumps
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


async def _worker_pid(drawer: Drawer) -> int:
    pid = await drawer.draw(os.getpid, urgent=True)
    assert pid != os.getpid()
    return pid


async def test_a_clicks_picture_goes_before_the_refreshes_waiting() -> None:
    drawer = Drawer(workers=1)
    try:
        await _worker_pid(drawer)  # started and warm
        finished: list[str] = []

        async def draw(label: str, *, urgent: bool) -> None:
            finished.append(await drawer.draw(functools.partial(str, label), urgent=urgent))

        busy = asyncio.ensure_future(drawer.draw(functools.partial(time.sleep, 0.3), urgent=False))
        await asyncio.sleep(0)  # the worker has it: the others queue behind
        later = [asyncio.ensure_future(draw(x, urgent=False)) for x in ("a", "b")]
        click = asyncio.ensure_future(draw("click", urgent=True))
        await asyncio.gather(busy, *later, click)
        assert finished == ["click", "a", "b"]
    finally:
        drawer.close()


async def test_a_drawing_error_reaches_its_caller_and_the_worker_draws_on() -> None:
    drawer = Drawer(workers=1)
    try:
        worker = await _worker_pid(drawer)
        with pytest.raises(ValueError):
            await drawer.draw(functools.partial(int, "not a number"), urgent=True)
        assert await drawer.draw(os.getpid, urgent=True) == worker
    finally:
        drawer.close()


async def test_two_workers_draw_two_pictures_at_once() -> None:
    drawer = Drawer(workers=2)
    try:
        first = await _worker_pid(drawer)  # the first free worker takes each job
        assert await _worker_pid(drawer) == first
        busy = asyncio.ensure_future(drawer.draw(functools.partial(time.sleep, 0.5), urgent=False))
        await asyncio.sleep(0)
        other = await _worker_pid(drawer)  # not behind the busy one: the second worker
        assert other != first
        await busy
    finally:
        drawer.close()


async def test_a_picture_whose_worker_dies_while_drawing_it_is_drawn_in_the_thread() -> None:
    drawer = Drawer(workers=1)
    try:
        worker = await _worker_pid(drawer)
        drawing = asyncio.ensure_future(
            drawer.draw(functools.partial(time.sleep, 0.5), urgent=False)
        )
        await asyncio.sleep(0.1)
        os.kill(worker, signal.SIGKILL)
        assert await drawing is None  # drawn again, here
        assert await drawer.draw(os.getpid, urgent=True) == os.getpid()
    finally:
        drawer.close()


def test_cards_go_to_the_worker_by_their_index() -> None:
    view = Game.new(Rules(), seed=4).view_for(0)
    sketch = hand_sketch(view, Lang.IT)
    data = dumps(functools.partial(sketched_hand, sketch))
    assert pickle.loads(data).args == (sketch,)
    assert pickle.loads(dumps(view.hand)) == view.hand
    assert b"Card.from_index" in dumps(view.hand)  # not field by field


async def test_pictures_and_jobs_larger_than_the_socket_holds_arrive_whole() -> None:
    drawer = Drawer(workers=1)
    try:
        worker = await _worker_pid(drawer)
        big = 3_000_000  # read and written in parts, the event loop never waiting on either
        assert await drawer.draw(functools.partial(bytes, big), urgent=True) == bytes(big)
        job = functools.partial(len, b"x" * big)
        assert await asyncio.gather(drawer.draw(job, urgent=False), _worker_pid(drawer)) == [
            big,
            worker,
        ]
    finally:
        drawer.close()
