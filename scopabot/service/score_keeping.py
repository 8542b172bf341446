"""The score keeper for games played with real cards: sides, a target, entries, undo, standings.

People at a real table write each deal's points on a shared score sheet (``+1``, ``+2``, ``+3``
or any amount) and read who still needs what. The winner is decided as in a game on the bot
(docs/rulebook.md, "Ending the match"): a side that reaches the target with the highest total alone
wins; when the highest totals at or over the target are equal, another deal is played.

The sheet cannot know where a deal ends (people write its points one entry at a time), so the
winner shown is the one the totals so far name: write a deal's points, then read the standings.
The knock-out tiebreak's spareggi need deal boundaries and are not offered here; a tie at the
target simply plays on, which is the default ``extra_deal`` rule.

Who may do what (checked before anything changes):

- anyone may open a sheet and becomes its owner;
- the owner, and any person listed on a side, may write points;
- an entry is taken back (undo: the latest standing one only) by the owner or by whoever
  wrote it, so one player cannot quietly erase another's points;
- only the owner closes the sheet; a closed sheet takes no entries and no undo.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from scopabot.engine import MAX_TARGET, target_winner
from scopabot.store import NotFoundError, ScoreEntry, ScoreSheet, Store, StoreError

from .errors import ServiceError

DEFAULT_TARGET = 11
QUICK_POINTS = (1, 2, 3)
"""The buttons of the score keeper; any other amount is a custom entry."""
MAX_POINTS = MAX_TARGET
"""One entry can hold at most this many points (a whole match to the largest target)."""
MAX_SIDES = 4
MAX_NAME = 40
MAX_NOTE = 200


class ScoreSheetCode(StrEnum):
    UNKNOWN_SCORE_SHEET = "unknown_score_sheet"  # params: sheet_id
    SHEET_CLOSED = "sheet_closed"  # params: sheet_id
    NOT_SHEET_OWNER = "not_sheet_owner"  # params: sheet_id, owner
    NOT_ON_SHEET = "not_on_sheet"  # params: sheet_id
    NOTHING_TO_UNDO = "nothing_to_undo"  # params: sheet_id
    NOT_YOUR_ENTRY = "not_your_entry"  # params: sheet_id, seq, by
    BAD_POINTS = "bad_points"  # params: points, max
    BAD_SIDE = "bad_side"  # params: side, sides
    BAD_SHEET = "bad_sheet"  # params: reason (sides, names, people or target refused)


class ScoreSheetError(ServiceError):
    """A score-keeping request refused; nothing was written."""

    def __init__(self, code: ScoreSheetCode, message: str = "", **params: Any) -> None:
        super().__init__(code, message, **params)


@dataclass(frozen=True, slots=True)
class Side:
    """A side to open a sheet with: a name, and the people who play it (may be none)."""

    name: str
    members: tuple[int, ...] = ()


def match_winner(totals: Sequence[int], target: int | None) -> int | None:
    """The side that has won a match to ``target`` with these totals, or ``None`` (play on).

    The engine's own target rule (:func:`scopabot.engine.target_winner`), so a score sheet
    names the same winner a game would; with no target nobody wins.
    """
    if target is None or not totals:
        return None
    return target_winner(totals, target)


@dataclass(frozen=True, slots=True)
class SideStanding:
    side: int
    name: str
    members: tuple[int, ...]
    points: int
    needs: int | None
    """Points still missing to reach the target (0 once there; ``None`` without a target)."""


@dataclass(frozen=True, slots=True)
class Standings:
    """A sheet as everyone should see it after each entry."""

    sheet_id: int
    owner: int
    title: str
    target: int | None
    closed: bool
    sides: tuple[SideStanding, ...]
    winner: int | None
    """The winning side by the target rule (see :func:`match_winner`); ``None``: play on."""
    tied_at_target: bool
    """The highest totals are equal at or over the target: another deal decides."""
    last: ScoreEntry | None
    """The entry an undo would take back."""
    entries: tuple[ScoreEntry, ...]
    """Every entry in order, undone ones included (marked)."""

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(s.points for s in self.sides)


def standings_of(sheet: ScoreSheet, entries: Sequence[ScoreEntry]) -> Standings:
    members = sheet.members or tuple(() for _ in sheet.sides)
    target = sheet.target
    sides = tuple(
        SideStanding(
            side=n,
            name=name,
            members=members[n],
            points=points,
            needs=None if target is None else max(0, target - points),
        )
        for n, (name, points) in enumerate(zip(sheet.sides, sheet.totals, strict=True))
    )
    winner = match_winner(sheet.totals, target)
    tied = target is not None and winner is None and max(sheet.totals) >= target
    standing = [e for e in entries if e.undone_at is None]
    return Standings(
        sheet_id=sheet.id,
        owner=sheet.owner_id,
        title=sheet.title,
        target=target,
        closed=sheet.closed,
        sides=sides,
        winner=winner,
        tied_at_target=tied,
        last=standing[-1] if standing else None,
        entries=tuple(entries),
    )


class ScoreKeeping:
    """Score sheets for real-card games, on the store; every refusal a :class:`ScoreSheetError`."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def open(
        self,
        *,
        owner: int,
        sides: Sequence[str | Side],
        target: int | None = DEFAULT_TARGET,
        title: str = "",
        guild_id: int | None = None,
        channel_id: int | None = None,
    ) -> Standings:
        """Open a sheet. A side is a name ("Noi") or a :class:`Side` listing its people.

        Two to four sides (two players, three, or two pairs, and room for a four-way game);
        names must differ; a person plays on one side at most; the target is 1..101 or
        ``None`` for a tally with no winner.
        """
        named = [s if isinstance(s, Side) else Side(s) for s in sides]
        names = [one_line(s.name) for s in named]
        title = one_line(title)
        if not 2 <= len(named) <= MAX_SIDES:
            raise _bad("sides", f"a score sheet has 2 to {MAX_SIDES} sides, not {len(named)}")
        if any(not 1 <= len(n) <= MAX_NAME for n in names):
            raise _bad("name", f"each side needs a name of 1 to {MAX_NAME} characters")
        if any(not looks_like(n) for n in names):
            raise _bad("invisible_name", "a side's name shows nothing (invisible characters)")
        if len({looks_like(n) for n in names}) != len(names):
            raise _bad("same_name", "two sides have the same name, or names that look the same")
        people = [m for s in named for m in s.members]
        if len(set(people)) != len(people):
            raise _bad("person_twice", "a person is listed on two sides (or twice)")
        if target is not None and not 1 <= target <= MAX_TARGET:
            raise _bad("target", f"the target must be 1..{MAX_TARGET}, not {target}")
        if len(title) > MAX_NAME:
            raise _bad("title", f"the title is longer than {MAX_NAME} characters")
        sheet = await self._store.score_sheets.open(
            owner_id=owner,
            sides=names,
            title=title,
            target=target,
            guild_id=guild_id,
            channel_id=channel_id,
            members=[list(s.members) for s in named] if people else None,
        )
        return standings_of(sheet, ())

    async def add(
        self, sheet_id: int, *, side: int, points: int, by: int, note: str = ""
    ) -> Standings:
        """Write ``points`` (1..101; +1/+2/+3 are the quick ones) for ``side``."""
        sheet = await self._open_sheet(sheet_id)
        if by != sheet.owner_id and not any(by in m for m in sheet.members):
            raise ScoreSheetError(
                ScoreSheetCode.NOT_ON_SHEET,
                f"{by} is not on score sheet {sheet_id}",
                sheet_id=sheet_id,
            )
        if not 0 <= side < len(sheet.sides):
            raise ScoreSheetError(
                ScoreSheetCode.BAD_SIDE, f"no side {side}", side=side, sides=len(sheet.sides)
            )
        if isinstance(points, bool) or not 1 <= points <= MAX_POINTS:
            raise ScoreSheetError(
                ScoreSheetCode.BAD_POINTS, f"{points} points", points=points, max=MAX_POINTS
            )
        note = one_line(note)[:MAX_NOTE]
        try:
            await self._store.score_sheets.add_score(sheet_id, side, points, note=note, by_user=by)
        except StoreError as error:  # closed between the check and the write
            raise _closed(sheet_id) from error
        return await self.standings(sheet_id)

    async def undo(self, sheet_id: int, *, by: int) -> Standings:
        """Take back the latest standing entry (the owner's right, or its writer's)."""
        sheet = await self._open_sheet(sheet_id)
        entries = await self._store.score_sheets.entries(sheet_id)
        standing = [e for e in entries if e.undone_at is None]
        if not standing:
            raise ScoreSheetError(
                ScoreSheetCode.NOTHING_TO_UNDO, "nothing to undo", sheet_id=sheet_id
            )
        last = standing[-1]
        if by not in (sheet.owner_id, last.by_user):
            raise ScoreSheetError(
                ScoreSheetCode.NOT_YOUR_ENTRY,
                f"entry {last.seq} was written by {last.by_user}",
                sheet_id=sheet_id,
                seq=last.seq,
                by=last.by_user,
            )
        try:
            undone = await self._store.score_sheets.undo_score(sheet_id, seq=last.seq)
        except StoreError as error:
            raise _closed(sheet_id) from error
        if undone is None:  # another entry came in after the check: ask again, on it
            raise ScoreSheetError(
                ScoreSheetCode.NOTHING_TO_UNDO, "the sheet changed; undo again", sheet_id=sheet_id
            )
        return await self.standings(sheet_id)

    async def close(self, sheet_id: int, *, by: int) -> Standings:
        """Close the sheet (the owner only); the final standings."""
        sheet = await self._open_sheet(sheet_id)
        if by != sheet.owner_id:
            raise ScoreSheetError(
                ScoreSheetCode.NOT_SHEET_OWNER,
                f"only {sheet.owner_id} closes score sheet {sheet_id}",
                sheet_id=sheet_id,
                owner=sheet.owner_id,
            )
        await self._store.score_sheets.close(sheet_id)
        return await self.standings(sheet_id)

    async def standings(self, sheet_id: int) -> Standings:
        sheet = await self._sheet(sheet_id)
        return standings_of(sheet, await self._store.score_sheets.entries(sheet_id))

    async def sheets_in_channel(self, channel_id: int) -> list[Standings]:
        """The open sheets of a channel, oldest first."""
        return [
            standings_of(sheet, await self._store.score_sheets.entries(sheet.id))
            for sheet in await self._store.score_sheets.in_channel(channel_id)
        ]

    async def _sheet(self, sheet_id: int) -> ScoreSheet:
        try:
            return await self._store.score_sheets.get(sheet_id)
        except NotFoundError as error:
            raise ScoreSheetError(
                ScoreSheetCode.UNKNOWN_SCORE_SHEET, f"no score sheet {sheet_id}", sheet_id=sheet_id
            ) from error

    async def _open_sheet(self, sheet_id: int) -> ScoreSheet:
        sheet = await self._sheet(sheet_id)
        if sheet.closed:
            raise _closed(sheet_id)
        return sheet


def _bad(reason: str, message: str) -> ScoreSheetError:
    """``reason`` says which rule refused the sheet (front ends word it; ``message`` is for
    logs): sides, name, invisible_name, same_name, person_twice, target, title."""
    return ScoreSheetError(
        ScoreSheetCode.BAD_SHEET,
        message,
        reason=reason,
        max=MAX_TARGET if reason == "target" else MAX_SIDES if reason == "sides" else MAX_NAME,
    )


def one_line(text: str) -> str:
    """What a person typed, on one line: line breaks, tabs and runs of spaces become one
    space (a name or a note is one line of the sheet; a newline there would start a
    heading or a quote)."""
    return " ".join(text.split())


def looks_like(name: str) -> str:
    """How a name reads: compatibility-normalised (NFKC: "ｎｏｉ" is "noi"), without
    invisible characters (zero-width spaces and joiners, direction marks), case folded.
    Two sides that read the same are refused; a name that reads as nothing is refused.

    >>> looks_like("Noi\u200b") == looks_like("NOI")
    True
    >>> looks_like("\u200b\u200d")
    ''
    """
    folded = unicodedata.normalize("NFKC", name)
    visible = "".join(c for c in folded if unicodedata.category(c) not in ("Cf", "Cc"))
    return " ".join(visible.split()).casefold()


def _closed(sheet_id: int) -> ScoreSheetError:
    return ScoreSheetError(
        ScoreSheetCode.SHEET_CLOSED, f"score sheet {sheet_id} is closed", sheet_id=sheet_id
    )
