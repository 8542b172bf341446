"""The end-to-end example in the stand-in's docstring runs as written: its commands, buttons
and readers exist (an example that drifted from the bot would teach the wrong thing)."""

from __future__ import annotations

import textwrap
from typing import Any

import tests.standin
from scopabot.render.i18n import Lang, tr
from tests.standin import DiscordStandIn

from . import helpers
from .helpers import BotProcess


def first_example() -> str:
    doc = tests.standin.__doc__ or ""
    block = doc.split("::\n\n", 1)[1]
    lines = []
    for line in block.splitlines():
        if line and not line.startswith("    "):
            break
        lines.append(line)
    return textwrap.dedent("\n".join(lines))


async def test_the_docstring_example_runs_against_the_real_bot(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    code = first_example()
    assert "async def test_" in code, code
    namespace: dict[str, Any] = {"DiscordStandIn": DiscordStandIn, "BotProcess": BotProcess}
    readers = {n: v for n, v in vars(helpers).items() if callable(v) and not n.startswith("_")}
    namespace.update(readers, Lang=Lang, tr=tr)
    exec(compile(code, "tests/standin/__init__.py", "exec"), namespace)
    [example] = [v for k, v in namespace.items() if k.startswith("test_")]
    await example(threaded, bot_py)
