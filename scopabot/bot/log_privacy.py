"""Log lines never carry a hidden card or a token, whatever the level.

At DEBUG, discord.py logs every request body (a hand's DM, its card buttons' custom_ids and
labels), every gateway event (each interaction with its token, valid for 15 minutes to answer
as the bot) and, at WARNING, rate-limited URLs, which hold interaction tokens too. Whoever
reads the logs (a host's log viewer, a pasted bug report) would see everyone's cards. So each
record is cleaned when it is made, before any handler sees it: discord.py's payloads are
withheld (a gateway event keeps its name, a request its method, URL and status), and so are
aiosqlite's (a move's write holds the next deal's deck order); tokens in URLs and payload
fields are replaced, and the argument of every game control's custom_id (the card a button
plays) and every button label in a repr are dropped.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import Any

_HIDDEN = "…"
_SUBSTITUTIONS = (
    # /interactions/{id}/{token}/callback and /webhooks/{application}/{token}
    (re.compile(r"(/(?:interactions|webhooks)/\d+/)[A-Za-z0-9_.\-]+"), rf"\g<1>{_HIDDEN}"),
    (re.compile(r"""(['"]token['"]\s*:\s*['"])[^'"]*"""), rf"\g<1>{_HIDDEN}"),
    (re.compile(r"\b(Bot|Bearer) [A-Za-z0-9_.\-]{20,}"), rf"\g<1> {_HIDDEN}"),
    # sb|g|<game>|<version>|p|7d: the card is the secret; the rest routes the click.
    (re.compile(r"(\bsbs?\|\w\|-?\d+\|\d+\|\w\|)[^|\s'\"<>,;)}\]\\]*"), rf"\g<1>{_HIDDEN}"),
    (re.compile(r"""(\blabel=)(['"]).*?\2"""), rf"\g<1>{_HIDDEN}"),
)
# Libraries whose log arguments may be whole payloads: discord.py's requests and events, and
# aiosqlite's operations (a move's write carries the new deal's deck order, a load the
# snapshot with every hand).
_DISCORD = "discord"
_AIOSQLITE = "aiosqlite"


def clean(text: str) -> str:
    """``text`` with tokens and the cards of game controls replaced."""
    for pattern, replacement in _SUBSTITUTIONS:
        text = pattern.sub(replacement, text)
    return text


def _withheld(arg: Any) -> Any:
    """A payload argument replaced by what it is; plain values kept."""
    if arg is None or isinstance(arg, (int, float, bool)):
        return arg
    if isinstance(arg, dict):
        kind = arg.get("t") or (f"op {arg.get('op')}" if "op" in arg else "payload")
        return f"<{kind}: withheld>"
    if isinstance(arg, (list, tuple, bytes, bytearray, memoryview)):
        return "<payload withheld>"
    text = str(arg)  # a URL, a view or an item (their labels are cleaned below)
    return "<payload withheld>" if text.lstrip().startswith(("{", "[")) else text


def _is(name: str, library: str) -> bool:
    return name == library or name.startswith(library + ".")


def guard_logs() -> None:
    """Clean every log record this process makes from now on (see the module's text).

    aiosqlite's two lines per statement say nothing but "executing" and "completed" once
    their arguments are withheld, so its logger is also quieted to INFO."""
    logger = logging.getLogger(_AIOSQLITE)
    if logger.level < logging.INFO:
        logger.setLevel(logging.INFO)
    make = logging.getLogRecordFactory()
    if getattr(make, "scopabot_guard", False):
        return

    def guarded(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = make(*args, **kwargs)
        if record.args:
            record_args: Any = record.args
            if isinstance(record_args, Mapping):
                record_args = dict(record_args)
            elif _is(record.name, _DISCORD):
                record_args = tuple(_withheld(a) for a in record_args)
            elif _is(record.name, _AIOSQLITE):
                record_args = tuple(
                    a if isinstance(a, (int, float, bool)) else "<withheld>" for a in record_args
                )
            try:
                record.msg = str(record.msg) % record_args
            except (TypeError, ValueError, KeyError):
                record.msg = f"{record.msg} {record_args!r}"
            record.args = None
        record.msg = clean(str(record.msg))
        if record.exc_info and record.exc_info[0] is not None:
            record.exc_text = clean(logging.Formatter().formatException(record.exc_info))
        return record

    guarded.scopabot_guard = True  # type: ignore[attr-defined]
    logging.setLogRecordFactory(guarded)
