"""The machine a benchmark ran on, printed beside its figures by every script under bench/.

A figure measured on a shared or busy machine is not a regression: to tell the two apart a
reader needs the load average (how many programs wanted a core, over the last 1, 5 and 15
minutes) against the number of cores, at the start (what else was running) and at the end (the
benchmark's own work included), and which run it was (when, with what command). Each script
prints ``machine_line("start")`` before it measures and ``machine_line("end")`` after.
"""

from __future__ import annotations

import os
import shlex
import sys
from datetime import UTC, datetime
from pathlib import Path

_REPO = Path(__file__).resolve().parents[1]


def machine_line(moment: str) -> str:
    """``moment`` is "start" or "end": the start also names the run (its command)."""
    try:
        one, five, fifteen = os.getloadavg()
        load = f"load average {one:.2f} {five:.2f} {fifteen:.2f} (1, 5, 15 min)"
    except (AttributeError, OSError):  # not a Unix: no load average to read
        load = "load average unknown"
    cores = os.cpu_count() or 0
    line = f"machine at the {moment}: {load} on {cores} cores"
    if hasattr(os, "sched_getaffinity"):
        usable = len(os.sched_getaffinity(0))
        if usable != cores:
            line += f" ({usable} usable by this process)"
    line += f"; {datetime.now(UTC):%Y-%m-%d %H:%M} UTC"
    if moment == "start":
        line += f"; run: {_command()}"
    return line


def _command() -> str:
    script = Path(sys.argv[0]).resolve()
    shown = script.relative_to(_REPO) if script.is_relative_to(_REPO) else script
    return shlex.join(["python", str(shown), *sys.argv[1:]])
