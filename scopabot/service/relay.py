"""Several bot processes on one database: each shows the tables of its own servers.

A process runs a slice of Discord's shards and shows (sends the messages of) the tables of the
servers in it; Discord sends every DM interaction to shard 0, and one process runs the
scheduler, so a move of a table is often applied by a process that does not show it. That
process's live game is written as any other (every move goes through the store's optimistic
version: a process holding an old copy is refused, reads the game again and the caller
decides), and the move's transaction also writes a notice (:func:`~.live.move_notes`,
``store.outbox``) for the process that shows the table. :class:`Relay` (``service.relay``) is
that process's side: it claims the notices of its servers, brings its live copy of the game
up to date, and hands the front end the events the mover's process published, made again from
the notes and the stored game (views left out: the front end reads them at their version).

A tournament's news travels the same way. Its next round is often reached in a process that
does not run its server (the round's last match ended by a DM click, a timeout, a round's
deadline): that process opens and deals the round's tables (store writes, which any process
may make), and writes a notice of no game (:meth:`Relay.tell_elsewhere`); the server's process
makes the event again from the store (the part that wrote it says how: :meth:`Relay.hears`)
and its front end places the tables, announces the round and tells its players. The notices
of the tables' deals come first, in the outbox's order, so the round finds its tables dealt.

Each notice is claimed before anything is shown, so two processes never both show one; it is
deleted once handed over. A process that stops after claiming leaves the notice to be claimed
again a minute later by the process that runs those servers next (it shows the state then).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from scopabot.engine import Card, Move, Play
from scopabot.store import ActorKind, Listening, Notice
from scopabot.store.models import opt_dt

from .core import Core
from .events import (
    Audience,
    CardPlayed,
    DealScored,
    Event,
    HandChanged,
    MatchOver,
    SeatTakenBack,
    TableStarted,
    TimeoutAction,
    TimeoutApplied,
    TurnStarted,
)
from .moves import rating_pairs

log = logging.getLogger(__name__)

STALE_AFTER = 60.0  # seconds: a notice claimed this long ago by a process that died is free
POLL_EVERY = 1.0  # seconds between looks at the notices without PostgreSQL's LISTEN
LISTENING_POLL_EVERY = 10.0  # seconds between looks when a LISTEN wakes the reader

Shown = Callable[[Sequence[Event]], Awaitable[None]]
News = Callable[[dict[str, Any]], Awaitable[Sequence[Event]]]


class Relay:
    """This process's side of the notices between processes (see the module's docstring)."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self.name = f"{socket.gethostname()}:{os.getpid()}"  # who claimed a notice
        self._owns: Callable[[int | None], bool] | None = None
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._listening: Listening | None = None
        self._news: dict[str, News] = {}

    def hears(self, kind: str, news: News) -> None:
        """A notice of no game whose note says ``kind`` is made into events by ``news``
        (called with the note), from the store as it is when the notice is read."""
        self._news[kind] = news

    def shown_here(self, guild_id: int | None) -> bool:
        """Whether this process shows the tables and news of ``guild_id``'s server (always,
        when it runs alone)."""
        return self._owns is None or self._owns(guild_id)

    async def tell_elsewhere(
        self, guild_id: int | None, notes: Sequence[dict[str, Any]], *, version: int = 0
    ) -> bool:
        """News of no game (a tournament's round, its end) for the process that shows
        ``guild_id``'s server, when that is another: written to the outbox, True. This
        process's front end shows nothing of it."""
        if self.shown_here(guild_id):
            return False
        now = int(time.time() * 1000)
        await self.core.store.outbox.tell(guild_id, notes, version=version, at=now)
        return True

    def show_here(self, owns: Callable[[int | None], bool]) -> None:
        """This process shows the tables of the servers ``owns`` says (None: those outside a
        server); a move it applies to another table writes a notice for the process that
        shows it."""
        self._owns = owns
        self.core.live.elsewhere = lambda guild_id: not owns(guild_id)

    def start(self, shown: Shown, *, every: float = POLL_EVERY) -> None:
        """Read the notices of this process's servers from now on, handing ``shown`` the
        events of each (in the order the moves were made)."""
        if self._task is None and self._owns is not None:
            self._task = asyncio.create_task(self._run(shown, every), name="scopabot-relay")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        listening, self._listening = self._listening, None
        if listening is not None:
            with contextlib.suppress(Exception):
                await listening.close()

    async def take(self, shown: Shown) -> int:
        """One look: claim the notices of this process's servers, hand over their events,
        and let the notices go. Returns how many were handed over."""
        owns = self._owns
        if owns is None:
            return 0
        outbox = self.core.store.outbox
        now = int(time.time() * 1000)
        stale = now - int(STALE_AFTER * 1000)
        pending = await outbox.pending(stale_before=stale)
        mine = [notice_id for notice_id, guild_id in pending if owns(guild_id)]
        notices = await outbox.claim(mine, by=self.name, at=now, stale_before=stale)
        try:
            for notice in notices:
                try:
                    events = await self._events(notice)
                except Exception:
                    log.exception(
                        "game %s: could not read the notice of version %s",
                        notice.game_id,
                        notice.version,
                    )
                    continue
                log.debug(
                    "game %s: version %s, applied by another process, shown here",
                    notice.game_id,
                    notice.version,
                )
                await shown(events)
        finally:
            await outbox.done([n.id for n in notices])
        return len(notices)

    async def moved_since(self, game_id: int, version: int) -> bool:
        """Whether the game as stored has moved past ``version`` (one indexed read), its live
        copy here brought up to date if so. Several processes edit one person's hand DM (the
        process a click reached answers it, the table's process shows the next turn): a view
        drawn slowly (its picture, under load) at an old version, sent after another process
        showed a newer one, would take the person back to a turn already played."""
        stored = await self.core.store.games.version(game_id)
        if stored is None or stored <= version:
            return False
        live = self.core.live.kept(game_id)
        if live is not None and live.version < stored:
            await self.core.live.refresh(live)
        return True

    async def _run(self, shown: Shown, every: float) -> None:
        while not self.core.closing:
            if self._listening is None or not self._listening.alive:
                self._listening = await self._listen()
            self._wake.clear()
            try:
                await self.take(shown)
            except Exception:
                log.exception("reading the notices of other processes failed; trying again")
            wait = every if self._listening is None else max(every, LISTENING_POLL_EVERY)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), wait)

    async def _listen(self) -> Listening | None:
        try:
            return await self.core.store.outbox.listen(self._wake.set)
        except Exception as exc:  # the server is away: look from time to time meanwhile
            log.warning("cannot listen for notices (%s): looking every %.0f s", exc, POLL_EVERY)
            return None

    async def _events(self, notice: Notice) -> list[Event]:
        """The events of ``notice``'s move, its game brought up to date here first."""
        if notice.game_id is None:
            return await self._news_of(notice)
        core = self.core
        live = core.live.kept(notice.game_id)
        seat_back = any(note.get("e") == "back" for note in notice.notes)
        if live is not None and (live.version < notice.version or seat_back):
            await core.live.refresh(live)  # a seat taken back out of turn keeps the version
        if live is None:
            live = await core.context(notice.game_id)
        tid, gid, version = notice.table_id, notice.game_id, notice.version
        events: list[Event] = []
        mover: tuple[int, bool] | None = None  # the seat, and whether a person moved
        for note in notice.notes:
            kind = note.get("e")
            if kind == "played":
                seat = int(note["seat"])
                move = Move.parse(str(note["move"]))
                actor = ActorKind(note["actor"])
                mover = (seat, actor is ActorKind.USER)
                events.append(
                    CardPlayed(
                        table_id=tid,
                        game_id=gid,
                        seat=seat,
                        play=Play(seat, move.card, move.sorted_capture(), bool(note["scopa"])),
                        actor=actor,
                        user_id=note.get("user"),
                        version=version,
                        leftovers=tuple(Card.parse(c) for c in note.get("leftovers") or ()),
                        leftovers_to=note.get("leftovers_to"),
                    )
                )
            elif kind == "hand":
                seat = int(note["seat"])
                if mover == (seat, True):
                    continue  # a person's own hand: the process they clicked in answered it
                events.append(
                    HandChanged(
                        table_id=tid,
                        game_id=gid,
                        seat=seat,
                        hand=(),
                        version=version,
                        audience=Audience.seat(seat),
                    )
                )
            elif kind == "started" and tid is not None:
                table = await core.table(tid)
                events.append(TableStarted(table_id=tid, game_id=gid, table=table, version=version))
            elif kind == "back":
                mover = (int(note["seat"]), True)  # answered where the person clicked
                events.append(
                    SeatTakenBack(
                        table_id=tid,
                        game_id=gid,
                        seat=int(note["seat"]),
                        user_id=int(note.get("user") or 0),
                        version=version,
                    )
                )
            elif kind == "timeout":
                forfeit = bool(note.get("forfeit"))  # the match's end follows (an "over")
                events.append(
                    TimeoutApplied(
                        table_id=tid,
                        game_id=gid,
                        seat=int(note["seat"]),
                        user_id=note.get("user"),
                        what=TimeoutAction.FORFEIT if forfeit else TimeoutAction.COMPUTER_PLAYED,
                        handed_to_computer=bool(note.get("handed")),
                        version=version,
                    )
                )
            elif kind == "deal":
                scores = [d for d in live.game.deal_scores if d.deal == note.get("deal")]
                if scores:
                    events.append(
                        DealScored(
                            table_id=tid,
                            game_id=gid,
                            deal_score=scores[-1],
                            totals=live.game.totals,
                            version=version,
                        )
                    )
            elif kind == "over":
                events.append(self._over(notice, note, live.guild_id))
            elif kind == "turn" and live.version == version:
                # Only the turn that is the game's now: a later move made here meanwhile
                # started another, already shown.
                events.append(
                    TurnStarted(
                        table_id=tid,
                        game_id=gid,
                        seat=int(note["seat"]),
                        user_id=note.get("user"),
                        deadline=opt_dt(note.get("deadline")),
                        version=version,
                    )
                )
        if any(isinstance(e, MatchOver) for e in events):
            core.forget(gid)  # read from the store from here, as after a match ended here
        return events

    async def _news_of(self, notice: Notice) -> list[Event]:
        """A notice of no game: each note made into events by the part that hears its kind
        (one unheard of, from a newer process, is left: logged, not shown)."""
        events: list[Event] = []
        for note in notice.notes:
            news = self._news.get(str(note.get("e")))
            if news is None:
                log.warning("a notice of kind %r that this process cannot read", note.get("e"))
                continue
            events += await news(note)
        return events

    def _over(self, notice: Notice, note: dict[str, Any], guild_id: int | None) -> MatchOver:
        ratings = [
            (int(board), int(rid), before, float(after))
            for board, rid, before, after in note.get("ratings") or ()
        ]
        local, world = rating_pairs(ratings, guild_id)
        return MatchOver(
            table_id=notice.table_id,
            game_id=notice.game_id,
            winner_side=note.get("winner"),
            reason=str(note.get("reason")),
            totals=tuple(note.get("totals") or ()),
            outcome=None,
            version=notice.version,
            losing_side=note.get("losing_side"),
            rating_changes=local,
            global_rating_changes=world,
        )
