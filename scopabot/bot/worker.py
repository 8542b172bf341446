"""The start of a process that draws the bot's pictures (:class:`scopabot.bot.pictures.Drawer`).

It imports only the drawing (no discord.py, no store), makes the theme's palette so its first
picture is as quick as the others, and ends as soon as the bot is gone: a bot killed without
a goodbye (a crash, SIGKILL) cannot tell it to, and a worker left behind would hold the bot's
standard output open and keep drawing nothing forever.
"""

from __future__ import annotations

import os
import threading
import time

from scopabot.render.image import Theme, warm


def start(theme: Theme, bot_pid: int) -> None:
    warm(theme)
    threading.Thread(target=_watch, args=(bot_pid,), name="bot-watch", daemon=True).start()


def _watch(bot_pid: int) -> None:
    while os.getppid() == bot_pid:
        time.sleep(0.5)
    os._exit(0)
