"""A finished deal's own message in the table's thread: the count ("la conta") that stays.

The table message is edited in place, so whatever it shows of a deal's end is gone a round
later. Players count at the end of each deal and like to read it back, so each deal's end is
posted once below the table: its last plays and who took the cards left on the table, the
breakdown with the primiera's cards, the score, and the breakdown's picture. One counted REST
call a deal. It goes to the table's thread, or to the channel (or DM) the table lives in when
it has no thread (no thread permission): a count shown only on the table message would be gone
a play later, with no way to read it back. ``/scopa table`` shows the last one too.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import discord

from scopabot.render.deal import deal_end_block, deal_end_lines, deal_picture, deal_screen
from scopabot.render.i18n import Lang
from scopabot.service import DealScore, DealScored, TableInfo

from . import ui
from .context import seat_names, table_title
from .pictures import THEME

if TYPE_CHECKING:
    from .delivery import Delivery

log = logging.getLogger(__name__)


def count_nonce(game_id: int, deal: int) -> str:
    """The nonce of a deal's count (Discord takes up to 25 characters): one count a deal."""
    return f"count-{game_id}-{deal}"


class DealPosts:
    def __init__(self, delivery: Delivery) -> None:
        self.delivery = delivery
        self._locks: dict[int, asyncio.Lock] = {}  # a state of the moment, per game
        self._settled: dict[int, int] = {}  # game -> last deal whose count is posted (a cache)

    def held_games(self) -> set[int]:
        return set(self._locks) | set(self._settled)

    def let_go(self, game_id: int) -> bool:
        """Forget a finished game's counts, unless one is being posted (False: asked again
        later); whether a count was posted is kept through the service anyway."""
        lock = self._locks.get(game_id)
        if lock is not None and lock.locked():
            return False
        self._locks.pop(game_id, None)
        self._settled.pop(game_id, None)
        return True

    def where(self, table: TableInfo) -> int | None:
        return table.thread_id or table.channel_id

    async def deal_scored(self, event: DealScored) -> None:
        """Post the deal's count (called in event order, before the next deal's turns)."""
        assert event.table_id is not None and event.game_id is not None
        await self.post(event.table_id, event.game_id, event.deal_score, event.totals)

    async def post_missing(self, table_id: int, game_id: int) -> None:
        """At start-up: the last finished deal's count, if the process stopped between the
        deal's end (stored) and its post (the store says which counts were posted)."""
        public = await self.delivery.service.games.public_view(game_id)
        if public.deal_scores:
            await self.post(table_id, game_id, public.deal_scores[-1], public.totals)

    async def post(
        self, table_id: int, game_id: int, score: DealScore, totals: Sequence[int]
    ) -> None:
        """The count of deal ``score.deal``, once: where it went is kept through the service,
        so a restart neither posts it twice nor leaves it out."""
        delivery = self.delivery
        service = delivery.service
        # One at a time per game: the start-up's catch-up and the deal's own event may both
        # come for one deal (a move made while the bot was catching up).
        async with self._locks.setdefault(game_id, asyncio.Lock()):
            if await service.games.deal_post(game_id, score.deal) is None and not await self._post(
                table_id, game_id, score, totals
            ):
                return
        self._settled[game_id] = max(score.deal, self._settled.get(game_id, 0))
        await delivery.memory.count_settled(game_id, score.deal)

    async def settled(self, game_id: int, deal: int) -> bool:
        """Whether deal ``deal``'s count is posted (or has nowhere to go)."""
        if self._settled.get(game_id, 0) >= deal:
            return True
        if game_id in self._locks and self._locks[game_id].locked():
            return False  # being posted: :meth:`post` says when it is
        if await self.delivery.service.games.deal_post(game_id, deal) is None:
            return False
        self._settled[game_id] = max(deal, self._settled.get(game_id, 0))
        return True

    async def _post(
        self, table_id: int, game_id: int, score: DealScore, totals: Sequence[int]
    ) -> bool:
        """Post the count; False when Discord refused it (it is owed still)."""
        delivery = self.delivery
        service = delivery.service
        table = await service.tables.get(table_id)
        where = self.where(table)
        if where is None:
            return True  # nowhere to post it: nothing owed
        lang = await delivery.langs.of_table(table)
        pictures = delivery.pictures
        rules = table.rules
        await pictures.deal_end(game_id)
        records = pictures.records(game_id, score.deal)
        piles = pictures.piles(game_id, rules, score)
        plain = pictures.names(table, lang)
        screen = deal_screen(
            score,
            totals,
            rules,
            seat_names(table, lang),
            lang,
            title=table_title(table, lang),
            records=records,
            piles=piles,
            plain_names=plain,
        )
        if delivery.messages.may_attach(table.channel_id or where):
            picture = await pictures.draw(
                deal_picture,
                score,
                rules,
                plain,
                lang,
                game_id=game_id,
                piles=piles,
                theme=THEME,
                urgent=False,
            )
            screen = replace(screen, pictures=(picture,))
        view, files = ui.build(screen, ui.NO_CONTROLS)
        try:
            # The same nonce each time this count is sent: sent just before a crash and not
            # yet remembered below, the send at start gets the message Discord made back.
            sent = await delivery.messages.send(
                where, view=view, files=files, mention=[], nonce=count_nonce(game_id, score.deal)
            )
        except discord.HTTPException as error:
            log.warning("table %s: could not post deal %s: %s", table.id, score.deal, error)
            return False
        await service.games.set_deal_post(
            game_id, score.deal, channel_id=sent.channel.id, message_id=sent.id
        )
        return True

    def earlier(self, game_id: int, names: list[str], table: TableInfo, lang: Lang) -> str:
        """The last deal's end for the table message ("" when its plays were not seen)."""
        found = self.delivery.pictures.last_deal(game_id)
        if found is None:
            return ""
        deal, records = found
        lines = deal_end_lines(records, names, table.rules, lang)
        return deal_end_block(deal, lines, lang) if lines else ""
