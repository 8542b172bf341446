"""The process that draws the bot's pictures (:class:`scopabot.bot.pictures.Drawer`).

It imports only the drawing (no discord.py, no store) and makes the theme's palette so its
first picture is as quick as the others. A thread reads the jobs the bot writes to the pipe
into a queue, a click's picture (urgent) before the refreshes; the main thread draws them one
at a time and writes each picture back (or the error that stopped it). The process ends when
the bot closes the pipe, and as soon as the bot is gone: a bot killed without a goodbye (a
crash, SIGKILL) cannot tell it to, and a worker left behind would hold the bot's standard
output open and keep drawing nothing forever.
"""

from __future__ import annotations

import heapq
import os
import pickle
import struct
import threading
import time
from multiprocessing.connection import Connection
from typing import Any, Final

from scopabot.render.image import Theme, warm

FRAME: Final = struct.Struct("!i")
"""Before every message, its length: the framing of ``multiprocessing.Connection``, which this
side reads and writes with (the bot reads its socket without blocking, so it frames itself)."""
JOB: Final = struct.Struct("<Q?")
"""Before each job's pickle: its number and whether it is urgent."""
ANSWER: Final = struct.Struct("<Q")
"""Before each answer's pickle (``(True, picture)`` or ``(False, error)``): the job's number."""


def serve(conn: Connection, theme: Theme, bot_pid: int) -> None:
    warm(theme)
    threading.Thread(target=_watch, args=(bot_pid,), name="bot-watch", daemon=True).start()
    waiting: list[tuple[bool, int, bytes | None]] = []  # (not urgent, number, job); None: the end
    ready = threading.Condition()
    threading.Thread(target=_read, args=(conn, waiting, ready), name="jobs", daemon=True).start()
    while True:
        with ready:
            while not waiting:
                ready.wait()
            _, number, job = heapq.heappop(waiting)
        if job is None:
            return
        try:
            answer = pickle.dumps((True, pickle.loads(job)()), pickle.HIGHEST_PROTOCOL)
        except Exception as exc:
            answer = _error(exc)
        try:
            conn.send_bytes(ANSWER.pack(number) + answer)
        except OSError:
            return


def _read(
    conn: Connection, waiting: list[tuple[bool, int, bytes | None]], ready: threading.Condition
) -> None:
    while True:
        try:
            message = conn.recv_bytes()
        except (EOFError, OSError):  # the bot closed the pipe: it is shutting down
            entry: tuple[bool, int, bytes | None] = (False, -1, None)  # before any job
        else:
            number, urgent = JOB.unpack_from(message)
            entry = (not urgent, number, message[JOB.size :])
        with ready:
            heapq.heappush(waiting, entry)
            ready.notify()
        if entry[2] is None:
            return


def _error(exc: Exception) -> bytes:
    """The error as the bot can raise it again (one that does not pickle, as its words)."""
    try:
        return pickle.dumps((False, exc), pickle.HIGHEST_PROTOCOL)
    except Exception:
        failed: Any = RuntimeError(f"{type(exc).__name__}: {exc}")
        return pickle.dumps((False, failed), pickle.HIGHEST_PROTOCOL)


def _watch(bot_pid: int) -> None:
    while os.getppid() == bot_pid:
        time.sleep(0.5)
    os._exit(0)
