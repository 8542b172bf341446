"""custom_ids: everything a click needs to find its game again, in at most 100 characters.

``sb|<kind>|<id>|<number>|<action>|<arg>`` (``sbs|`` for a select): kind ``g`` (a game),
``t`` (a table gathering players), ``b`` (a leaderboard page), ``k`` (a score sheet). Each
kind of control is its own ``DynamicItem`` class, whose template fixes the kind and the action
and names what the other places hold for it: a game and the version the person saw, a table,
a board with its category and cursor, a sheet with the entries the person saw. ``|`` never
appears in card or move notation (moves use ``:`` and ``+``), so a move travels whole as the
argument. Since the ids are stored in the message itself, a button keeps working after a
restart; buttons sent by earlier versions of the bot carry this same layout, so they do too.
"""

from __future__ import annotations

import re
from enum import StrEnum

from scopabot.render.screens import Action

MAX_ID = 2**63 - 1
PREFIX, SELECT_PREFIX, SEP = "sb", "sbs", "|"
MAX_ARG = 60


class Kind(StrEnum):
    """What a control's id names: its first place."""

    GAME = "g"
    TABLE = "t"
    BOARD = "b"
    SHEET = "k"


_ACTIONS = "".join(sorted(a.value for a in Action))
_KINDS = "".join(k.value for k in Kind)
# Every custom_id of the bot, whichever its control (forgeries are told apart with it).
PATTERN = (
    rf"sbs?\|(?P<kind>[{_KINDS}])\|(?P<id>-?\d{{1,20}})\|(?P<number>\d{{1,10}})"
    rf"\|(?P<action>[{_ACTIONS}])\|(?P<arg>[^|]{{0,{MAX_ARG}}})"
)
_COMPILED = re.compile(PATTERN)


def template(
    kind: Kind,
    action: Action,
    *,
    id: str,
    number: str | None = None,
    arg: str = "",
    select: bool = False,
) -> str:
    """One kind of control's template: the layout above with its kind and action fixed, the
    id's place named ``id``, the number's ``number`` (unnamed: the control keeps 0 there) and
    ``arg`` a pattern of the argument's place with its own named groups ("" for none)."""
    head = SELECT_PREFIX if select else PREFIX
    count = rf"(?P<{number}>\d{{1,10}})" if number else r"\d{1,10}"
    return rf"{head}\|{kind}\|(?P<{id}>-?\d{{1,20}})\|{count}\|{action}\|{arg}"


def custom_id(
    kind: Kind, id: int, number: int, action: Action, arg: str = "", *, select: bool = False
) -> str:
    head = SELECT_PREFIX if select else PREFIX
    text = SEP.join([head, kind, str(id), str(number), action, arg])
    assert len(text) <= 100 and SEP not in arg and len(arg) <= MAX_ARG, text
    return text


def is_ours(custom_id: str) -> bool:
    """Whether ``custom_id`` has the bot's layout, with ids the database can hold."""
    found = _COMPILED.fullmatch(custom_id)
    return found is not None and abs(int(found["id"])) <= MAX_ID
