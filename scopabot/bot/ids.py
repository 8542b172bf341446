"""custom_ids: everything a click needs to find its game again, in at most 100 characters.

``sb|<kind>|<id>|<version>|<action>|<arg>``: kind ``g`` (a game), ``t`` (a table gathering
players), ``b`` (a leaderboard page), ``k`` (a score sheet). ``|`` never appears in card or
move notation (moves use ``:`` and ``+``), so a move travels whole as the argument. Since
the ids are stored in the message itself, a button keeps working after a restart; the version
is the game's version the person was looking at, so a click on an old message is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from scopabot.render.screens import Action

MAX_ID = 2**63 - 1
PREFIX = "sb"
SEP = "|"
KINDS = "gtbk"
_ACTIONS = "".join(sorted(a.value for a in Action))
PATTERN = (
    rf"sb\|(?P<kind>[{KINDS}])\|(?P<id>-?\d{{1,20}})\|(?P<version>\d{{1,10}})"
    rf"\|(?P<action>[{_ACTIONS}])\|(?P<arg>[^|]{{0,60}})"
)
SELECT_PATTERN = PATTERN.replace(r"sb\|", r"sbs\|", 1)
_COMPILED = re.compile(PATTERN)
_COMPILED_SELECT = re.compile(SELECT_PATTERN)


@dataclass(frozen=True, slots=True)
class Target:
    kind: str
    id: int
    version: int
    action: Action
    arg: str = ""

    def custom_id(self, *, select: bool = False) -> str:
        head = "sbs" if select else PREFIX
        text = SEP.join([head, self.kind, str(self.id), str(self.version), self.action, self.arg])
        assert len(text) <= 100 and SEP not in self.arg, text
        return text


def parse(custom_id: str) -> Target | None:
    """The target of a custom_id, or ``None`` when it is not one of ours (or forged badly)."""
    found = _COMPILED.fullmatch(custom_id) or _COMPILED_SELECT.fullmatch(custom_id)
    if found is None or abs(int(found["id"])) > MAX_ID:
        return None  # beyond the database's integers: no such game, table or sheet
    return from_match(found)


def from_match(found: re.Match[str]) -> Target:
    return Target(
        found["kind"],
        int(found["id"]),
        int(found["version"]),
        Action(found["action"]),
        found["arg"],
    )
