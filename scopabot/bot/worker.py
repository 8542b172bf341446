"""The process that draws the bot's pictures (:class:`scopabot.bot.pictures.Drawer`).

It imports only the drawing (no discord.py, no store), makes the theme's palette so its first
picture is as quick as the others, then draws one job at a time as the bot writes them to its
pipe and writes each picture back (or the error that stopped it). It ends when the bot closes
the pipe, and as soon as the bot is gone: a bot killed without a goodbye (a crash, SIGKILL)
cannot tell it to, and a worker left behind would hold the bot's standard output open and
keep drawing nothing forever.
"""

from __future__ import annotations

import os
import pickle
import threading
import time
from multiprocessing.connection import Connection
from typing import Any

from scopabot.render.image import Theme, warm


def serve(conn: Connection, theme: Theme, bot_pid: int) -> None:
    warm(theme)
    threading.Thread(target=_watch, args=(bot_pid,), name="bot-watch", daemon=True).start()
    while True:
        try:
            job = conn.recv_bytes()
        except (EOFError, OSError):  # the bot closed the pipe: it is shutting down
            return
        try:
            answer = pickle.dumps((True, pickle.loads(job)()), pickle.HIGHEST_PROTOCOL)
        except Exception as exc:
            answer = _error(exc)
        try:
            conn.send_bytes(answer)
        except OSError:
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
