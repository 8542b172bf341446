"""Service events turned into messages: the table message, each hand's DM, pings, reminders.

Counted REST calls per move (docs/design.md's budget): the table message edit, the DM of the
person whose turn starts, and at most one more (a ping, or refreshing the hand of someone who
played from elsewhere). Events only mark messages stale (``Slot``); one task per message edits
it with what the service says now.

The table message and each hand carry their pictures (``pictures``) in that same edit: the
files go with it as ``attachments``, which replaces the old ones instead of adding to them.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import discord

from scopabot.render.hand import hand_screen
from scopabot.render.i18n import Lang, tr
from scopabot.render.table import table_screen
from scopabot.service import (
    CardPlayed,
    DealScored,
    Event,
    HandChanged,
    MatchOver,
    PaceKind,
    PublicView,
    ReminderDue,
    SeatHolder,
    SeatTakenBack,
    SeatView,
    TableCancelled,
    TableChanged,
    TableInfo,
    TableStarted,
    TableStatus,
    TimeoutApplied,
    TurnStarted,
)

from . import ui
from .actions import game_controls
from .context import rated_names, seat_names, table_link, table_title
from .deals import DealPosts
from .dms import ClosedDms
from .memory import MAX_SEATS, TableMemory
from .messages import DmClosed, Messages, again
from .pictures import Pictures
from .shards import ShownHere
from .slots import Slot

if TYPE_CHECKING:
    from .client import ScopaBot

log = logging.getLogger(__name__)

PING_GAP = 120.0  # seconds: a live table pings the same person at most this often


LET_GO_AFTER = 60.0
"""Seconds a finished match keeps its state in the bot (its messages' refresh slots, the caches
of its seats' messages, note, counts and rating changes) before it is let go: its last
messages are shown by then, and a late click on them reads what it needs again. Kept, every
match a process ever showed stayed in its memory, walked by each of Python's full
collections (docs/speed.md)."""

AGAIN_AT_MOST = 3
"""Hand views drawn again when another process keeps moving the game while one is drawn."""


class Delivery:
    def __init__(self, bot: ScopaBot) -> None:
        self.bot = bot
        self.service = bot.service
        self.langs = bot.langs
        self.messages: Messages = bot.messages
        # What a restart must not lose is kept through the service in the store: each hand's
        # DM (``_seat_msgs`` is a cache of it), the seats whose DMs refused a hand and whether
        # the table was told (``dm_closed``, read back per game), each deal's count posted
        # and the last deal's end (``deals``, ``pictures``: its plays are the stored moves),
        # where the table message is (the table's row), a refresh owed to a table, the
        # final table's rating changes and the table's note (``memory``), a hand DM being
        # sent (its nonce). Everything else below is a cache or the state of a moment, and
        # starts empty:
        # - the refresh tasks of each message (``tables``, ``hands``) and the views the last
        #   events carried (``_publics``, ``_seat_views``, ``_tables``);
        # - a match being placed (``placing``, ``after_placing``: its first ping), a new DM
        #   owed to a turn's notice (``new_dm``), the last ping of each person (``_pinged``).
        # What is kept of a match is let go a while after its end (``_let_go``).
        self.tables: dict[int, Slot] = {}
        self.hands: dict[tuple[int, int], Slot] = {}
        self.placing: set[int] = set()
        self.memory = TableMemory(self)
        self.new_dm: set[tuple[int, int]] = set()
        # Hand DMs whose send began before a crash (read at start), and the nonces this
        # process sent: a send tried again with one gets the first message back, as made.
        self.resending: set[tuple[int, int]] = set()
        self._nonces_tried: set[int] = set()
        self.dm_closed = ClosedDms()  # kept: read back per game from the store
        self._dms_read: set[int] = set()  # games whose closed DMs were read back
        self.after_placing: dict[int, int] = {}  # table -> whom to ping once it is placed
        self._pinged: dict[tuple[int, int], float] = {}
        self._seat_msgs: dict[int, dict[int, tuple[int, int]]] = {}
        self.pictures = Pictures(bot)
        self.deals = DealPosts(self)
        self.shown = ShownHere(bot)  # which events are this process's to show
        self._showing = asyncio.Lock()  # this process's events and those told from elsewhere
        # What the latest events carried: the public view of each game, each seat's view (a
        # hand event is its seat's only), shown instead of asking the service again.
        self._publics: dict[int, PublicView] = {}
        self._seat_views: dict[tuple[int, int], SeatView] = {}
        # Tables being played, as the bot last learned them (during a match only the bot's
        # own placing of its messages changes one): not read again for every refresh.
        self._tables: dict[int, TableInfo] = {}
        # Matches over (or called off), the oldest first: (when, table id, game id), each let
        # go :data:`LET_GO_AFTER` seconds later (``_let_go``).
        self._over: deque[tuple[float, int, int]] = deque()
        self._pings_pruned = time.monotonic()

    # Events --------------------------------------------------------------------------------

    async def on_event(self, event: Event) -> None:
        if event.table_id is None or event.game_id is None:
            return
        if not await self.shown.shows(event):
            return  # another process shows its table: told through the database
        async with self._showing:
            self.pictures.on_event(event)
            await self._show(event)

    async def from_elsewhere(self, events: Sequence[Event]) -> None:
        """Events of moves another process applied to tables shown here (service.relay):
        shown as this process's own, their views read at their version; one at a time with
        this process's own events, as they come."""
        async with self._showing:
            for event in events:
                if event.game_id is not None:
                    self.pictures.seen_elsewhere(event.game_id)  # its deal: from the store
                await self._show(event)

    async def _show(self, event: Event) -> None:
        table_id, game_id = event.table_id, event.game_id
        assert table_id is not None and game_id is not None
        self._keep(event)
        if isinstance(event, TableStarted):
            self._dms_read.add(game_id)  # begun here: no DM of it refused before
        if isinstance(event, HandChanged):
            self.hand(table_id, game_id, event.seat).request(event.version)
            return
        if isinstance(event, SeatTakenBack):
            # Out of turn the version stays (the seat in turn keeps its live buttons), yet
            # the hand that said "the computer plays for you" must say it no more, nor the
            # table: its debt is stored as one without a version.
            await self.service.games.owe_table(game_id)
            self.hand(table_id, game_id, event.seat).request()
            self.table(table_id, game_id).request()
        if isinstance(event, TableChanged) and event.table.status is TableStatus.PLAYING:
            self.table(table_id, game_id).request()
        elif isinstance(event, (CardPlayed, DealScored, SeatTakenBack)):
            self.table(table_id, game_id).request(event.version)
            if isinstance(event, CardPlayed) and event.public and event.public.finished:
                self._hands_at_end(table_id, game_id, event.version, event.public.seats)
            if isinstance(event, DealScored):
                await self.deals.deal_scored(event)
        elif isinstance(event, TurnStarted):
            self.dm_closed.turn(game_id, event.version)
            self.table(table_id, game_id).request(event.version)
            if event.user_id is not None:
                await self._turn_started(event)
        elif isinstance(event, MatchOver):
            await self.memory.match_over(event)
            self.table(table_id, game_id).request(event.version)
            table = await self.service.tables.get(table_id)
            self._hands_at_end(table_id, game_id, event.version, table.seats)
            self.dm_closed.forget(game_id)
        elif isinstance(event, TimeoutApplied) and event.user_id is not None:
            await self.memory.timeout(event)
            self.table(table_id, game_id).request(event.version)
        elif isinstance(event, ReminderDue) and event.user_id is not None:
            await self._remind(event)
        if isinstance(event, (MatchOver, TableCancelled)):
            self._over.append((time.monotonic(), table_id, game_id))
            self._let_go()

    def _let_go(self) -> None:
        """Forget what the bot keeps of matches over for :data:`LET_GO_AFTER` seconds whose
        messages are settled; one still busy (a refresh retried, a count being posted) is
        looked at again at a later match's end. The pings' times go too, once past their gap."""
        now = time.monotonic()
        for _ in range(len(self._over)):
            when, table_id, game_id = self._over[0]
            if now - when < LET_GO_AFTER:
                break
            self._over.popleft()
            if not self._let_go_of(table_id, game_id):
                self._over.append((now, table_id, game_id))
        if now - self._pings_pruned >= PING_GAP:
            self._pings_pruned = now
            self._pinged = {k: t for k, t in self._pinged.items() if now - t < PING_GAP}

    def _let_go_of(self, table_id: int, game_id: int) -> bool:
        keys = [(game_id, seat) for seat in range(MAX_SEATS) if (game_id, seat) in self.hands]
        slots = [self.hands[key] for key in keys]
        table = self.tables.get(table_id)
        if table is not None:
            slots.append(table)
        if not all(slot.settled for slot in slots) or table_id in self.placing:
            return False
        if not self.memory.let_go(game_id) or not self.deals.let_go(game_id):
            return False
        for key in keys:
            del self.hands[key]
        self.tables.pop(table_id, None)
        self._seat_msgs.pop(game_id, None)
        self._dms_read.discard(game_id)
        self.pictures.let_go(game_id)
        return True

    def held_games(self) -> set[int]:
        """The games the bot keeps anything of (tests and the benchmark: those in play, and
        those over for less than :data:`LET_GO_AFTER` or still busy)."""
        return (
            {game_id for game_id, _ in self.hands}
            | set(self._seat_msgs)
            | self._dms_read
            | self.memory.held_games()
            | self.deals.held_games()
            | self.pictures.held_games()
        )

    async def table_info(self, table_id: int) -> TableInfo:
        """A table being played, kept from the first read to the end of its match."""
        kept = self._tables.get(table_id)
        if kept is not None:
            return kept
        table = await self.service.tables.get(table_id)
        if table.status is TableStatus.PLAYING:
            self._tables[table_id] = table
        return table

    async def set_table_messages(self, table_id: int, **where: int | None) -> TableInfo:
        """Where the table's message now is (the service remembers it; so does the bot)."""
        table = await self.service.tables.set_messages(table_id, **where)
        if table.status is TableStatus.PLAYING:
            self._tables[table_id] = table
        else:
            self._tables.pop(table_id, None)
        return table

    def _hands_at_end(
        self, table_id: int, game_id: int, version: int, seats: Mapping[int, SeatHolder]
    ) -> None:
        """The match is over: every person's hand says so, as the table does."""
        for seat, holder in seats.items():
            if holder.user_id is not None and (game_id, seat) not in self.dm_closed:
                self.hand(table_id, game_id, seat).request(version)

    def _keep(self, event: Event) -> None:
        """Keep the views an event carries; forget those a change without them made old
        (a seat taken back or handed over, the match's end)."""
        game_id = event.game_id
        if isinstance(event, (TableChanged, TableStarted, TableCancelled)):
            self._tables.pop(event.table.id, None)
        elif isinstance(event, MatchOver) and event.table_id is not None:
            self._tables.pop(event.table_id, None)
        if game_id is None:
            return
        if isinstance(event, CardPlayed) and event.public is not None:
            self._publics[game_id] = event.public
        elif isinstance(event, HandChanged) and event.view is not None:
            self._seat_views[game_id, event.seat] = event.view
        elif isinstance(event, (SeatTakenBack, TimeoutApplied, MatchOver)):
            self._publics.pop(game_id, None)
            for key in [k for k in self._seat_views if k[0] == game_id]:
                del self._seat_views[key]

    def _kept_public(self, table_id: int, game_id: int) -> PublicView | None:
        """The public view the last move's event carried, if no later change wants more."""
        kept = self._publics.get(game_id)
        slot = self.tables.get(table_id)
        if kept is None or (slot is not None and kept.version < slot.wanted):
            return None
        return kept

    def _kept_seat_view(self, game_id: int, seat: int) -> SeatView | None:
        kept = self._seat_views.pop((game_id, seat), None)
        slot = self.hands.get((game_id, seat))
        if kept is None or (slot is not None and kept.version < slot.wanted):
            return None
        return kept

    async def _turn_started(self, event: TurnStarted) -> None:
        assert event.table_id is not None and event.game_id is not None and event.user_id
        table = await self.table_info(event.table_id)
        key = (event.game_id, event.seat)
        await self._closed_dms(event.game_id, table)
        correspondence = table.pace.kind is PaceKind.CORRESPONDENCE
        notify = correspondence and await self.service.people.notify(event.user_id)
        self.dm_closed.your_turn(key)  # DMs refused before: try again (once a turn)
        if notify and key not in self.dm_closed:
            self.new_dm.add(key)  # a new DM is the notification; an edit would be silent
        self.hand(event.table_id, event.game_id, event.seat).request(event.version)
        people = sum(1 for h in table.seats.values() if h.user_id is not None)
        if notify or people < 2:
            return
        ping_key = (event.table_id, event.user_id)
        now = time.monotonic()
        if not correspondence and now - self._pinged.get(ping_key, -PING_GAP) < PING_GAP:
            return
        self._pinged[ping_key] = now
        if event.table_id in self.placing:  # no thread yet: ping there once it is placed
            self.after_placing[event.table_id] = event.user_id
            return
        await self._ping(table, event.user_id)

    async def placed(self, table_id: int) -> None:
        """The table message is in place (its thread opened): the first turn's ping."""
        user_id = self.after_placing.pop(table_id, None)
        if user_id is not None:
            await self._ping(await self.service.tables.get(table_id), user_id)

    def asked_for_hand(self, game_id: int, user_id: int) -> None:
        """The person opened "My hand": a hand their DMs refused is tried again."""
        for table_id, seat in self.dm_closed.asked(game_id, user_id):
            self.hand(table_id, game_id, seat).request()

    async def _ping(self, table: TableInfo, user_id: int, *, key: str = "turn.ping") -> None:
        where = table.thread_id or table.channel_id
        if where is None:
            return
        lang = await self.langs.of_table(table)
        text = tr(key, lang, mention=f"<@{user_id}>", table=table_title(table, lang))
        try:
            await self.messages.send(where, content=text, mention=[user_id])
        except discord.HTTPException:
            log.exception("table %s: could not ping %s", table.id, user_id)

    async def _remind(self, event: ReminderDue) -> None:
        assert event.table_id is not None and event.user_id is not None
        table = await self.service.tables.get(event.table_id)
        if (
            await self.service.people.notify(event.user_id)
            and (
                event.game_id,
                event.seat,
            )
            not in self.dm_closed
        ):
            lang = await self.langs.of_user(event.user_id, guild_id=table.guild_id)
            when = f"<t:{int(event.deadline.timestamp())}:R>"
            link = table_link(table) or ""
            text = tr("remind.dm", lang, table=table_title(table, lang), when=when, link=link)
            try:
                await self.messages.send_dm(event.user_id, content=text)
                return
            except (DmClosed, discord.HTTPException):
                log.info("table %s: reminder DM to %s failed", table.id, event.user_id)
        await self._ping(table, event.user_id, key="turn.ping")

    # The table message ----------------------------------------------------------------------

    async def bring_up_to_date(self) -> int:
        """At start-up: pay what the store says is owed, however old, and nothing else. A
        table message owing an edit (killed between a move and its messages, or with the
        computer's reply stored but not shown, or Discord refusing until the process
        stopped) shows the position now, with the hands of its game (a person would
        otherwise see their old hand, every button disabled, on their own turn) and its
        last deal's count if that was not posted. A hand DM sent and not remembered is sent
        again with its nonce (Discord gives back the message it made). Only existing hand
        messages are edited (a hand never sent, DMs closed, is not sent now). Returns how
        many games were asked for."""
        games = [
            (table_id, game_id)
            for table_id, game_id in await self.service.games.owed_tables()
            if self.bot.owns((await self.table_info(table_id)).guild_id)
        ]  # another process's tables are its own to bring up to date
        for table_id, game_id in games:
            await self.deals.post_missing(table_id, game_id)
            self.table(table_id, game_id).request()
            for seat in await self._seat_messages(game_id):
                self.hand(table_id, game_id, seat).request()
        sending = [
            (table_id, game_id, seat)
            for table_id, game_id, seat in await self.service.games.hands_being_sent()
            if self.bot.owns((await self.table_info(table_id)).guild_id)
        ]  # a hand is sent by the process of its table, as the rest of its messages
        for table_id, game_id, seat in sending:
            self.new_dm.add((game_id, seat))  # replaces a hand it was to replace
            self.resending.add((game_id, seat))
            self.hand(table_id, game_id, seat).request()
        log.info(
            "bringing the messages of %d game(s) up to date, %d hand DM(s) being sent",
            len(games),
            len(sending),
        )
        return len(games)

    def table(self, table_id: int, game_id: int) -> Slot:
        slot = self.tables.get(table_id)
        if slot is None:
            slot = Slot(f"table-{table_id}", lambda: self._refresh_table(table_id, game_id))
            self.tables[table_id] = slot
        return slot

    async def _refresh_table(self, table_id: int, game_id: int) -> int | None:
        if table_id in self.placing:
            return -1  # the start of the match places the message, then asks again
        table = await self.table_info(table_id)
        if table.message_id is None and table.channel_id is None:
            shown = (await self.service.games.public_view(game_id)).version
            await self.service.games.table_shown(game_id, shown)  # nothing to show: no debt
            return None
        lang = await self.langs.of_table(table)
        attach = self.messages.may_attach(table.channel_id)
        view, files, version = await self.table_view(
            table, game_id, lang, urgent=False, pictures=attach
        )
        await self.messages.edit_table(table, view, files)
        if not self.tables[table_id].forced:  # a change came meanwhile: the next edit pays
            public = self._kept_public(table_id, game_id)
            if public is None or public.version != version:
                public = await self.service.games.public_view(game_id)
            last = public.deal_scores[-1].deal if public.deal_scores else None
            await self.memory.shown(game_id, version, last)
        return version

    async def table_view(
        self,
        table: TableInfo,
        game_id: int,
        lang: Lang,
        *,
        urgent: bool = True,
        pictures: bool = True,
        last_deal: bool = False,
    ) -> tuple[discord.ui.LayoutView, list[discord.File], int]:
        """The table message; ``urgent`` when it answers a click (its pictures go first);
        without ``pictures`` where the bot may not attach files (the text says it all); with
        ``last_deal`` the last finished deal's count all through the next deal."""
        public = self._kept_public(table.id, game_id) or await self.service.games.public_view(
            game_id
        )
        if public.deal_scores:  # the last deal's end, from the cache or the stored moves
            await self.pictures.deal_end(game_id)
        screen = table_screen(
            public,
            seat_names(public.table, lang),
            lang,
            table_id=table.id,
            rating_changes=await self.memory.rating_changes(game_id, finished=public.finished),
            rated_names=rated_names(public.table, lang),
            note=await self.memory.note(game_id, lang),
            plain_names=self.pictures.names(public.table, lang),
            earlier=self.deals.earlier(game_id, seat_names(public.table, lang), table, lang),
            last_deal=last_deal,
        )
        if pictures:
            drawn = await self.pictures.table(public, lang, urgent=urgent)
            screen = replace(screen, pictures=drawn)
        view, files = ui.build(screen, game_controls(game_id, public.version))
        return view, files, public.version

    # Hands -------------------------------------------------------------------------------------

    def hand(self, table_id: int, game_id: int, seat: int) -> Slot:
        key = (game_id, seat)
        slot = self.hands.get(key)
        if slot is None:
            slot = Slot(
                f"hand-{game_id}-{seat}", lambda: self._refresh_hand(table_id, game_id, seat)
            )
            self.hands[key] = slot
        return slot

    async def _closed_dms(self, game_id: int, table: TableInfo) -> None:
        """The seats of a game whose DMs refused a hand, as the store kept them: read once
        per game and process (a restart forgets nothing; the table is told once a game)."""
        if game_id in self._dms_read:
            return
        self._dms_read.add(game_id)
        for seat, (tried, noted) in (await self.service.games.dms_refused(game_id)).items():
            holder = table.seats.get(seat)
            if holder is not None and holder.user_id is not None:
                key = (game_id, seat)
                self.dm_closed.restore(
                    key, table_id=table.id, user_id=holder.user_id, tried=tried, noted=noted
                )

    async def _dm_reached(self, key: tuple[int, int]) -> None:
        if self.dm_closed.reopened(key):  # open again: a restart tries them at once
            await self.service.games.set_dm_refused(*key, at=None, noted=True)

    async def _refresh_hand(self, table_id: int, game_id: int, seat: int) -> int | None:
        key = (game_id, seat)
        if table_id in self.placing:
            return -1  # the start of the match asks again once the table message is placed
        table = await self.table_info(table_id)
        await self._closed_dms(game_id, table)
        if key in self.dm_closed:
            return None
        holder = table.seats.get(seat)
        if holder is None or holder.user_id is None:
            return None
        user_id = holder.user_id
        lang = await self.langs.of_user(user_id, guild_id=table.guild_id)
        view, files, version = await self.hand_view(
            game_id,
            user_id,
            lang,
            link=table_link(table),
            urgent=False,
            seat_view=self._kept_seat_view(game_id, seat),
        )
        # Moved meanwhile by another process (a click it answered): never shown older.
        view, files, version = await self.hand_as_now(
            game_id, user_id, lang, (view, files, version), link=table_link(table), urgent=False
        )
        known = (await self._seat_messages(game_id)).get(seat)
        stale = known if key in self.new_dm else None  # replaced below, then deleted
        if known is not None and key not in self.new_dm:
            self.messages.remember_dm(user_id, known[0])
            if await self.messages.edit_dm(known[0], known[1], view, files):
                await self._dm_reached(key)
                return version
        self.new_dm.discard(key)
        # Kept before the send: sent and not remembered below (a crash), the send tried at
        # start carries it again, and Discord gives back the DM it made instead of a copy.
        nonce = await self.service.games.hand_nonce(game_id, seat)
        # Sent before with this nonce (at start: by the process that crashed), Discord gives
        # back the message as it was first made: this view is shown by an edit after it.
        kept = self.service.games.kept_nonces  # from a send that was not remembered
        tried = nonce in kept or nonce in self._nonces_tried or key in self.resending
        kept.discard(nonce)
        self._nonces_tried.add(nonce)
        self.resending.discard(key)
        try:
            # ``again``: a failed edit above has read the files to their end.
            sent = await self.messages.send_dm(user_id, view=view, files=again(files), nonce=nonce)
        except DmClosed:
            self._nonces_tried.discard(nonce)  # refused: nothing was made with it
            first = self.dm_closed.refused(key, table_id=table_id, user_id=user_id)
            await self.service.games.set_dm_refused(
                game_id, seat, at=self.dm_closed.tried(key), noted=True
            )
            if first:
                await self._dm_closed_note(table, user_id)
            return None
        await self._dm_reached(key)
        if tried:
            await self.messages.edit_dm(sent.channel.id, sent.id, view, again(files))
        if stale is not None and stale[1] != sent.id:  # a new hand DM notifies; the old one
            await self.messages.delete_dm(*stale)  # would be a stale copy
        await self.service.games.set_seat_message(
            game_id, seat, channel_id=sent.channel.id, message_id=sent.id
        )
        self._nonces_tried.discard(nonce)  # remembered: the next send has a nonce of its own
        (await self._seat_messages(game_id))[seat] = (sent.channel.id, sent.id)
        return version

    async def hand_as_now(
        self,
        game_id: int,
        user_id: int,
        lang: Lang,
        drawn: tuple[discord.ui.LayoutView, list[discord.File], int],
        *,
        link: str | None,
        note: str = "",
        urgent: bool = True,
    ) -> tuple[discord.ui.LayoutView, list[discord.File], int]:
        """``drawn`` (a hand view and its version), or the hand drawn again as the store has
        it now when another process moved the game while ``drawn`` was made: processes
        sharing the bot edit one hand DM (the answer to a click, the next turn shown by the
        table's process), and the later edit must not show the earlier turn."""
        view, files, version = drawn
        for _ in range(AGAIN_AT_MOST):
            if not await self.moved_since(game_id, version):
                break
            view, files, version = await self.hand_view(
                game_id, user_id, lang, link=link, note=note, urgent=urgent
            )
        return view, files, version

    async def moved_since(self, game_id: int, version: int) -> bool:
        """Whether another process moved the game past ``version`` while its hand was drawn
        (asked only when processes share the bot: one process's moves are all its own)."""
        if self.bot.config.shard_ids is None:
            return False
        return await self.service.relay.moved_since(game_id, version)

    async def _seat_messages(self, game_id: int) -> dict[int, tuple[int, int]]:
        """The hands' DM messages of a game, read once (only this process changes them)."""
        if game_id not in self._seat_msgs:
            self._seat_msgs[game_id] = dict(await self.service.games.seat_messages(game_id))
        return self._seat_msgs[game_id]

    async def hand_view(
        self,
        game_id: int,
        user_id: int,
        lang: Lang,
        *,
        link: str | None,
        note: str = "",
        urgent: bool = True,
        seat_view: SeatView | None = None,
        pictures: bool = True,
    ) -> tuple[discord.ui.LayoutView, list[discord.File], int]:
        """A person's hand; ``urgent`` when it answers a click (its picture goes first);
        ``seat_view`` when the caller holds it already (a move's outcome), else it is read;
        without ``pictures`` when a click's answer cannot wait for the picture."""
        if seat_view is None:
            seat_view = await self.service.games.seat_view(game_id, user=user_id)
        names = seat_names(seat_view.table, lang)
        public = seat_view.public
        screen = hand_screen(
            seat_view.hand,
            public.felt,
            lang,
            title=table_title(seat_view.table, lang),
            your_turn=seat_view.your_turn,
            turn_name=names[public.turn],
            deadline=public.deadline,
            link=link,
            choices=seat_view.choices,
            finished=public.finished,
            note=note,
            away=seat_view.seat in public.away,
            deck=public.deck_size,
        )
        if pictures:
            drawn = await self.pictures.hand(seat_view, lang, urgent=urgent)
            screen = replace(screen, pictures=drawn)
        view, files = ui.build(screen, game_controls(game_id, seat_view.version))
        return view, files, seat_view.version

    async def _dm_closed_note(self, table: TableInfo, user_id: int) -> None:
        where = table.thread_id or table.channel_id
        if where is None:
            return
        lang = await self.langs.of_table(table)
        try:
            await self.messages.send(
                where, content=tr("note.dm_closed", lang, mention=f"<@{user_id}>"), mention=[]
            )
        except discord.HTTPException:
            log.exception("table %s: could not say that DMs are closed", table.id)

    async def idle(self) -> None:
        """Wait until no message is being refreshed (tests and the benchmark)."""
        for slot in [*self.tables.values(), *self.hands.values()]:
            await slot.wait_idle()

    def close(self) -> None:
        for slot in [*self.tables.values(), *self.hands.values()]:
            slot.cancel()
        self.memory.close()
        self.pictures.close()
