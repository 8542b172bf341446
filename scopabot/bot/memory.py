"""What the table message owes and what it says past its moves, kept through the service in the
store so that a restart neither guesses nor forgets.

- **The table's debt.** A move is stored with a new version of its game; the table message
  owes an edit until one showing that version has reached Discord, and only then is it paid
  (:meth:`TableMemory.shown`). At start the bot pays exactly the debts the store holds, however
  old; a paid one is never paid again. A debt stands for the game's other messages too: a
  deal's last move is paid only once that deal's count is posted (or known posted), and an
  edit only once the hands being edited with it are done, so that a crash in between still
  finds them owed at start (where the count and the hands are brought up to date with the
  table).
- **The final table's rating changes and the table's note of its last timeout** are read back
  from the store when the event that carried them was seen by another run of the bot, so a
  restarted bot draws the same final table.

The dictionaries below are caches of what the store holds, filled as the events come.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from scopabot.render.i18n import Lang, tr
from scopabot.service import MatchOver, NoteKind, TableNote, TimeoutApplied

if TYPE_CHECKING:
    from .delivery import Delivery
    from .slots import Slot

log = logging.getLogger(__name__)

RatingChanges = dict[int, tuple[float | None, float]]
MAX_SEATS = 4  # seats 0-3
_NOTE_KEYS = {NoteKind.TIMEOUT: "note.timeout", NoteKind.HANDED: "note.handed"}


class TableMemory:
    def __init__(self, delivery: Delivery) -> None:
        self.delivery = delivery
        self.service = delivery.service
        self._finals: dict[int, RatingChanges] = {}  # game -> rating changes (a cache)
        self._notes: dict[int, TableNote | None] = {}  # game -> its note (a cache)
        # game -> (version, deal) of a table edit shown and not paid yet: its deal's count
        # is being posted, or its hands edited (the state of a moment).
        self._waiting: dict[int, tuple[int, int]] = {}
        self._hands_awaited: dict[int, asyncio.Task[None]] = {}

    # The debt -------------------------------------------------------------------------------

    async def shown(self, game_id: int, version: int, last_deal: int | None) -> None:
        """The table's edit showing ``version`` reached Discord; ``last_deal`` is the last
        finished deal it shows. The debt is paid once that deal's count is posted and the
        game's hands being edited now are done too: the hands of a game whose table is owed
        are brought up to date with it at start, so a crash before they are shown still
        finds them owed."""
        waiting = self._waiting.get(game_id)
        if waiting is None or waiting[0] < version:
            self._waiting[game_id] = (version, last_deal or 0)
        await self._pay(game_id)

    async def count_settled(self, game_id: int, deal: int) -> None:
        """Deal ``deal``'s count is posted: a table edit waiting for it is paid now."""
        if game_id in self._waiting:
            await self._pay(game_id)

    async def _pay(self, game_id: int) -> None:
        waiting = self._waiting.get(game_id)
        if waiting is None:
            return
        version, deal = waiting
        if deal and not await self.delivery.deals.settled(game_id, deal):
            return  # :meth:`count_settled` comes back
        hands = self.delivery.hands
        editing = [
            slot
            for seat in range(MAX_SEATS)
            if (slot := hands.get((game_id, seat))) is not None
            and slot.stale
            and not slot.idle.is_set()
        ]
        if editing:
            if game_id not in self._hands_awaited:
                task = asyncio.get_running_loop().create_task(self._after(game_id, editing))
                self._hands_awaited[game_id] = task
            return
        if self._waiting.get(game_id) != waiting:
            return  # a newer edit was shown meanwhile: it pays
        del self._waiting[game_id]
        await self.service.games.table_shown(game_id, version)

    async def _after(self, game_id: int, slots: list[Slot]) -> None:
        try:
            await asyncio.gather(*(slot.wait_idle() for slot in slots))
        finally:
            del self._hands_awaited[game_id]
        try:
            await self._pay(game_id)
        except Exception as error:  # the debt stays stored: paid at the next start
            log.warning("game %s: could not pay its table's debt: %s", game_id, error)

    def held_games(self) -> set[int]:
        return set(self._finals) | set(self._notes) | set(self._waiting)

    def let_go(self, game_id: int) -> bool:
        """Forget a finished game's caches, unless its table's debt is still being paid
        (False: asked again later)."""
        if game_id in self._waiting or game_id in self._hands_awaited:
            return False
        self._finals.pop(game_id, None)
        self._notes.pop(game_id, None)
        return True

    def close(self) -> None:
        for task in list(self._hands_awaited.values()):
            task.cancel()

    # What the table says --------------------------------------------------------------------

    async def match_over(self, event: MatchOver) -> None:
        assert event.game_id is not None
        self._finals[event.game_id] = dict(event.rating_changes)

    async def timeout(self, event: TimeoutApplied) -> None:
        """The note the table shows until the next timeout, kept with the game."""
        assert event.game_id is not None and event.user_id is not None
        kind = NoteKind.HANDED if event.handed_to_computer else NoteKind.TIMEOUT
        note = TableNote(kind, event.user_id)
        self._notes[event.game_id] = note
        await self.service.games.set_note(event.game_id, note)

    async def rating_changes(self, game_id: int, *, finished: bool) -> RatingChanges | None:
        """The match's rating changes on its board, once it is over."""
        if not finished:
            return None
        if game_id not in self._finals:
            self._finals[game_id] = (await self.service.games.final_rating_changes(game_id))[0]
        return self._finals[game_id] or None

    async def note(self, game_id: int, lang: Lang) -> str:
        if game_id not in self._notes:
            self._notes[game_id] = await self.service.games.note(game_id)
        note = self._notes[game_id]
        if note is None:
            return ""
        return tr(_NOTE_KEYS[note.kind], lang, name=f"<@{note.user_id}>")
