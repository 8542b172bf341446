"""What drawing pictures does to the bot's event loop: in the bot's drawing thread, or on the loop.

Run: ``PYTHONPATH=. .venv/bin/python bench/drawing.py [--pairs 150]``. A table and a hand
picture are drawn back to back (the cards cached first), while a ticker on the event loop
sleeps 1 ms at a time and records how late it wakes: the lag every other table's clicks would
see. Printed for three modes: nothing drawn (the machine's own noise), drawn on the loop, and
drawn in :class:`scopabot.bot.pictures.Drawer` (one thread; Pillow holds the GIL for much of
its work, so the loop waits at most about one switch interval, 5 ms, at a time).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from machine import machine_line  # bench/machine.py
from render import positions  # bench/render.py

from scopabot.bot.pictures import Drawer
from scopabot.engine import Rules
from scopabot.render.image import hand_image, table_image

POSITIONS = positions(Rules(), 50, 1)


def draw_pair(i: int) -> None:
    view, names = POSITIONS[i % len(POSITIONS)]
    table_image(view, names=names)
    hand_image(view)


async def ticker(lags: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        start = time.perf_counter()
        await asyncio.sleep(0.001)
        lags.append((time.perf_counter() - start - 0.001) * 1000)


async def run(mode: str, pairs: int) -> None:
    lags: list[float] = []
    stop = asyncio.Event()
    tick = asyncio.create_task(ticker(lags, stop))
    drawer = Drawer()
    start = time.perf_counter()
    for i in range(pairs):
        if mode == "thread":
            await drawer.draw(lambda i=i: draw_pair(i), urgent=False)  # type: ignore[misc]
        elif mode == "loop":
            draw_pair(i)
            await asyncio.sleep(0)
        else:
            await asyncio.sleep(0.012)
    spent = (time.perf_counter() - start) * 1000 / pairs
    stop.set()
    await tick
    drawer.close()
    lags.sort()
    p99 = lags[int(len(lags) * 0.99)]
    print(
        f"{mode:8s} {spent:6.1f} ms a table+hand   loop lag: median {statistics.median(lags):5.2f}"
        f" ms, p99 {p99:6.2f} ms, max {lags[-1]:6.2f} ms"
    )


async def main(pairs: int) -> None:
    print(machine_line("start"))
    for i in range(len(POSITIONS)):
        draw_pair(i)  # the card faces, drawn once
    for mode in ("nothing", "loop", "thread"):
        await run(mode, pairs)
    print(machine_line("end"))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=150)
    asyncio.run(main(parser.parse_args().pairs))
