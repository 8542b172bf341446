"""The pictures on the bot's messages: drawn off the event loop, with the names people see.

A picture costs about 1 ms (a hand) to 4 ms (a table, a breakdown) of Pillow work
(``bench/render.py``); on the event loop that would hold up every other table's clicks, so
pictures are drawn in worker processes (:class:`Drawer`, ``SCOPABOT_PICTURE_WORKERS``, default
1; 0 draws in a thread of the bot), which do not hold the bot's interpreter at all. The event
loop hands each its job through a pipe, one at a time per process, and a picture that answers
a click goes first; the refreshes of messages wait behind it (under load they lag and
coalesce, a click does not). A job is the picture's sketch (what it shows, a few hundred
bytes), and a picture whose sketch was drawn already is shown again without asking.

A picture cannot show a mention, so seat holders are drawn by the name Discord last showed
for them in an interaction; before any (after a restart), as "Seat 2".

The breakdown's primiera cards need each side's pile of the deal, which no view keeps once
the next deal is dealt: the piles are gathered from the deal's plays as they are announced,
and used only when they add up to the cards the score counted (a deal begun before a
restart is shown without them).
"""

from __future__ import annotations

import asyncio
import copyreg
import functools
import heapq
import io
import itertools
import logging
import multiprocessing
import os
import pickle
import socket
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from scopabot.render.hand import hand_sketch, sketched_hand
from scopabot.render.i18n import Lang, tr
from scopabot.render.image import Theme, warm
from scopabot.render.names import plain_name
from scopabot.render.screens import Picture
from scopabot.render.table import Piles, sketched_table, table_files, table_sketch
from scopabot.service import (
    Card,
    CardPlayed,
    DealScore,
    DealScored,
    Event,
    MatchOver,
    Play,
    PublicView,
    Rules,
    SeatView,
    TableInfo,
    TableStarted,
)

from . import worker
from .context import seat_names
from .worker import ANSWER, FRAME, JOB

if TYPE_CHECKING:
    from .client import ScopaBot

T = TypeVar("T")
S = TypeVar("S", bound=Hashable)
log = logging.getLogger(__name__)

THEME = Theme.DARK
"""Discord's default theme is dark; the pictures sit on their own opaque felt, so they read
on the light theme too (docs/pictures.md shows both)."""
KEEP_NAMES = 50_000
KEEP_DEALS = 1_000
READ_SIZE = 256 * 1024
KEEP_PICTURE_BYTES = 8 * 1024 * 1024
"""The pictures kept in the bot, as PNG: the last few hundred tables and hands."""

# A card played this deal: its seat, the play, and the cards left on the table at the
# deal's end with the side that takes them (on the deal's last play only).
Record = tuple[int, Play, tuple[Card, ...], int | None]


class _Job:
    """A picture to draw: the function, its pickled form for a drawing process (None when it
    does not pickle: drawn in the bot's thread), and the caller waiting for it."""

    __slots__ = ("data", "fn", "future", "urgent")

    def __init__(
        self, fn: Callable[[], Any], data: bytes | None, future: asyncio.Future[Any], urgent: bool
    ) -> None:
        self.fn, self.data, self.future, self.urgent = fn, data, future, urgent


class _Lane:
    """One drawing process and the socket to it. Each job is written as soon as it is asked
    for; the process reads them into its own queue, urgent ones first, so it never waits for
    the bot's event loop to hand it the next picture. The bot's end never blocks: it reads
    what has arrived and writes what fits (a worker put aside halfway through writing a
    picture, on a busy machine, must not stop the event loop)."""

    def __init__(self, context: Any, theme: Theme) -> None:
        conn, child = context.Pipe(duplex=True)
        self.process = context.Process(
            target=worker.serve,
            args=(child, theme, os.getpid()),
            name="scopabot-pictures",
            daemon=True,
        )
        self.process.start()
        child.close()
        self.sock = socket.socket(fileno=os.dup(conn.fileno()))
        conn.close()
        self.sock.setblocking(False)
        self.inbox = bytearray()
        self.outbox = bytearray()
        self.writing = False
        self.jobs: dict[int, _Job] = {}  # sent, not answered yet
        self.alive = True


class Drawer:
    """Hands out pictures to draw, urgent ones (answering a click) first.

    With ``workers`` (the default, one), the pictures are drawn in processes of their own, so
    drawing never holds the bot's interpreter (its GIL) while a click waits. The event loop
    itself writes each job to a process's pipe and reads the picture back when the pipe is
    readable: no thread stands between them (a pool's feeder, manager and waiting threads
    cost the bot more CPU a picture, in hand-offs of the GIL, than pickling the job). Jobs go
    as small sketches of what is drawn (``render.table.TableSketch``), cards by their index,
    each to the process with the fewest waiting. A job that cannot go to a process (it does
    not pickle) is drawn in a thread of the bot; if every worker has died, the thread draws
    from then on."""

    def __init__(self, workers: int = 1) -> None:
        self._ids = itertools.count()
        self._local: list[tuple[int, int, _Job]] = []  # for the thread: urgent first
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="scopabot-pictures")
        self._thread_busy = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closed = False
        context = multiprocessing.get_context("spawn")  # a fork would copy the bot's locks
        self._lanes = [_Lane(context, THEME) for _ in range(workers)]
        if not self._lanes:  # make the palette while the bot connects, not at the first click
            self._thread.submit(warm, THEME)

    async def draw(self, fn: Callable[[], T], *, urgent: bool) -> T:
        loop = asyncio.get_running_loop()
        if self._loop is None:
            self._loop = loop
            for lane in self._lanes:
                loop.add_reader(lane.sock.fileno(), self._answered, lane)
        future: asyncio.Future[T] = loop.create_future()
        data = None
        if any(lane.alive for lane in self._lanes):
            try:
                data = dumps(fn)
            except (pickle.PicklingError, TypeError, AttributeError):
                data = None  # a lambda, a local function: drawn here
        job = _Job(fn, data, future, urgent)
        if data is None or not self._send(job):
            self._here(job)
        try:
            return await future
        finally:
            if not future.done():  # the caller gave up: a thread's job is not drawn
                future.cancel()

    def _send(self, job: _Job) -> bool:
        """Write the job to the live worker with the fewest waiting; False if none is left."""
        live = [lane for lane in self._lanes if lane.alive]
        if self._closed or not live:
            return False
        lane = min(live, key=lambda lane: len(lane.jobs))
        job_id = next(self._ids)
        assert job.data is not None
        lane.jobs[job_id] = job
        lane.outbox += FRAME.pack(JOB.size + len(job.data)) + JOB.pack(job_id, job.urgent)
        lane.outbox += job.data
        self._flush(lane)
        return True

    def _flush(self, lane: _Lane) -> None:
        """Write what the socket takes now; the rest when it is writable again."""
        try:
            sent = lane.sock.send(lane.outbox) if lane.outbox else 0
        except BlockingIOError:
            sent = 0
        except OSError:  # the process is gone: its socket is closed
            self._lost(lane)
            return
        del lane.outbox[:sent]
        assert self._loop is not None
        if lane.outbox and not lane.writing:
            self._loop.add_writer(lane.sock.fileno(), self._flush, lane)
            lane.writing = True
        elif not lane.outbox and lane.writing:
            self._loop.remove_writer(lane.sock.fileno())
            lane.writing = False

    def _here(self, job: _Job) -> None:
        heapq.heappush(self._local, (0 if job.urgent else 1, next(self._ids), job))
        self._next_here()

    def _next_here(self) -> None:
        while not self._closed and not self._thread_busy and self._local:
            job = heapq.heappop(self._local)[2]
            if job.future.done():
                continue
            assert self._loop is not None
            self._thread_busy = True
            drawn = self._loop.run_in_executor(self._thread, job.fn)
            drawn.add_done_callback(functools.partial(self._drawn_here, job))

    def _answered(self, lane: _Lane) -> None:
        """The worker's socket is readable: (part of) a picture or an error is back, or the
        worker has ended (the socket's end)."""
        try:
            chunk = lane.sock.recv(READ_SIZE)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            self._lost(lane)
            return
        inbox = lane.inbox
        inbox += chunk
        while len(inbox) >= FRAME.size:
            (size,) = FRAME.unpack_from(inbox)
            if len(inbox) < FRAME.size + size:
                break
            message = bytes(inbox[FRAME.size : FRAME.size + size])
            del inbox[: FRAME.size + size]
            self._settle(lane, message)

    @staticmethod
    def _settle(lane: _Lane, message: bytes) -> None:
        (job_id,) = ANSWER.unpack_from(message)
        job = lane.jobs.pop(job_id, None)
        if job is None or job.future.done():
            return
        try:
            ok, value = pickle.loads(memoryview(message)[ANSWER.size :])
        except Exception as exc:
            ok, value = False, exc
        if ok:
            job.future.set_result(value)
        else:
            job.future.set_exception(value)

    def _lost(self, lane: _Lane) -> None:
        """A worker died: its pictures, and every one once no worker is left, are drawn in
        the bot's thread."""
        self._close(lane)
        jobs, lane.jobs = list(lane.jobs.values()), {}
        if not any(other.alive for other in self._lanes):
            log.warning("the pictures' worker died; pictures are drawn in the bot from now on")
        for job in jobs:
            if not job.future.done() and not self._send(job):
                self._here(job)

    def _close(self, lane: _Lane) -> None:
        if not lane.alive:
            return
        lane.alive = False
        if self._loop is not None and not self._loop.is_closed():
            self._loop.remove_reader(lane.sock.fileno())
            if lane.writing:
                self._loop.remove_writer(lane.sock.fileno())
        lane.sock.close()

    def _drawn_here(self, job: _Job, drawn: asyncio.Future[Any]) -> None:
        self._thread_busy = False
        if not job.future.done():
            if drawn.cancelled():
                job.future.cancel()
            elif drawn.exception() is not None:
                job.future.set_exception(drawn.exception())  # type: ignore[arg-type]
            else:
                job.future.set_result(drawn.result())
        self._next_here()

    def close(self) -> None:
        self._closed = True
        for lane in self._lanes:
            self._close(lane)  # the worker reads the socket's end and ends
            for job in lane.jobs.values():
                job.future.cancel()
        for _, _, job in self._local:
            job.future.cancel()
        self._thread.shutdown(wait=False, cancel_futures=True)


def _size(drawn: object) -> int:
    pictures = drawn if isinstance(drawn, tuple) else (drawn,)
    return sum(len(p.data) for p in pictures if isinstance(p, Picture))


def _card(card: Card) -> tuple[Callable[[int], Card], tuple[int]]:
    return Card.from_index, (card.index,)


_REDUCE: dict[type, Any] = {**copyreg.dispatch_table, Card: _card}
"""Cards go by their index: a card is a dataclass, which pickles field by field, and a
table's sketch holds a dozen of them."""


def dumps(obj: object) -> bytes:
    """A job as a drawing process reads it (``worker.serve``)."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _REDUCE
    pickler.dump(obj)
    return out.getvalue()


class Pictures:
    def __init__(self, bot: ScopaBot) -> None:
        self.bot = bot
        config = getattr(bot, "config", None)
        self._drawer = Drawer(getattr(config, "picture_workers", 1))
        self._names: dict[int, str] = {}
        # A cache of each game's last deal's end, as its events announced it: the store keeps
        # the moves, and the service plays a deal again from them when this process did not
        # see every play of it (a restart, a match begun before it).
        self._plays: dict[int, list[Record]] = {}
        self._whole: set[int] = set()  # games whose current deal was seen from its start
        self._ended: OrderedDict[int, tuple[int, tuple[Record, ...]]] = OrderedDict()
        # The pictures drawn last, by their sketch (what they show): see ``_sketched``.
        self._drawn: OrderedDict[Hashable, Any] = OrderedDict()
        self._drawn_bytes = 0
        self.kept = 0
        """How many pictures were shown again without asking the worker (tests, benchmarks)."""
        bot.add_listener(self.on_interaction, "on_interaction")

    async def draw(self, fn: Callable[..., T], /, *args: Any, urgent: bool, **kwargs: Any) -> T:
        return await self._drawer.draw(functools.partial(fn, *args, **kwargs), urgent=urgent)

    # Names ------------------------------------------------------------------------------

    async def on_interaction(self, interaction: discord.Interaction[ScopaBot]) -> None:
        user = interaction.user
        self._names.pop(user.id, None)
        self._names[user.id] = user.display_name
        if len(self._names) > KEEP_NAMES:
            del self._names[next(iter(self._names))]

    def name_of(self, user_id: int) -> str | None:
        """The plain name Discord last showed for a person, as a picture can show it (None
        when the bot has not seen them since it started)."""
        name = self._names.get(user_id)
        if name is None:
            user = self.bot.get_user(user_id)
            name = user.display_name if user is not None else None
        return plain_name(name) or None

    def names(self, table: TableInfo, lang: Lang) -> list[str]:
        """Seat holders by seat as a picture (or a code block) can show them: plain names on
        one line, never mentions."""
        names = seat_names(table, lang)
        for seat, holder in table.seats.items():
            if holder.user_id is None:
                continue
            name = self._names.get(holder.user_id)
            if name is None:
                user = self.bot.get_user(holder.user_id)
                name = user.display_name if user is not None else None
            # A display name is data: one line, nothing invisible, no markup (render.names).
            names[seat] = plain_name(name) or tr("invite.seat", lang, seat=seat + 1)
        return names

    # Each side's pile of a deal -------------------------------------------------------------

    def on_event(self, event: Event) -> None:
        game_id = event.game_id
        if game_id is None:
            return
        if isinstance(event, TableStarted):
            self._whole.add(game_id)
        elif isinstance(event, CardPlayed):
            record = (event.seat, event.play, event.leftovers, event.leftovers_to)
            self._plays.setdefault(game_id, []).append(record)
        elif isinstance(event, DealScored):
            plays = tuple(self._plays.pop(game_id, ()))
            if game_id in self._whole:
                self._keep(game_id, (event.deal_score.deal, plays))
            else:  # some of its plays were before this process: asked for in deal_end
                self._ended.pop(game_id, None)
            self._whole.add(game_id)  # the next deal is seen from its start
        elif isinstance(event, MatchOver):
            self._plays.pop(game_id, None)
            self._whole.discard(game_id)

    def seen_elsewhere(self, game_id: int) -> None:
        """A play of the game was made by another process: this deal's plays are not all
        seen here, so its end is played again from the stored moves (``deal_end``)."""
        self._plays.pop(game_id, None)
        self._whole.discard(game_id)
        self._ended.pop(game_id, None)

    def _keep(self, game_id: int, ended: tuple[int, tuple[Record, ...]]) -> None:
        self._ended[game_id] = ended
        self._ended.move_to_end(game_id)
        if len(self._ended) > KEEP_DEALS:
            self._ended.popitem(last=False)

    async def deal_end(self, game_id: int) -> tuple[int, tuple[Record, ...]] | None:
        """The last finished deal's number and plays: from the cache, else played again by
        the service from the stored moves (then cached). Call it before :meth:`records`,
        :meth:`piles` and :meth:`last_deal`, which read the cache only."""
        found = self._ended.get(game_id)
        if found is None:
            end = await self.bot.service.games.last_deal_end(game_id)
            if end is None:
                return None
            found = (end.deal, end.plays)
            self._keep(game_id, found)
        return found

    def last_deal(self, game_id: int) -> tuple[int, tuple[Record, ...]] | None:
        """The last finished deal's number and its plays (None if not in the cache)."""
        return self._ended.get(game_id)

    def records(self, game_id: int, deal: int) -> tuple[Record, ...]:
        """Deal ``deal``'s plays as announced (empty if not seen, e.g. after a restart)."""
        found = self._ended.get(game_id)
        return found[1] if found is not None and found[0] == deal else ()

    def piles(self, game_id: int, rules: Rules, score: DealScore) -> Piles | None:
        """Each side's cards of the deal ``score`` counted, when every play of it was seen."""
        deal, plays = self._ended.get(game_id, (None, ()))
        if deal != score.deal:
            return None
        piles: list[list[Card]] = [[] for _ in range(rules.sides)]
        for seat, play, leftovers, leftovers_to in plays:
            if play.capture:
                piles[rules.side_of(seat)] += [play.card, *play.capture]
            if leftovers_to is not None:
                piles[leftovers_to] += leftovers
        if [len(p) for p in piles] != [side.cards for side in score.sides]:
            return None
        return tuple(tuple(p) for p in piles)

    # The pictures ---------------------------------------------------------------------------

    async def table(self, public: PublicView, lang: Lang, *, urgent: bool) -> tuple[Picture, ...]:
        """The table message's pictures (in the server's language): drawn again only when
        what they show changed, not for each version of the game (a timer, a seat, a note)."""
        last = public.deal_scores[-1] if public.deal_scores else None
        piles = None if last is None else self.piles(public.game_id, public.rules, last)
        sketch = table_sketch(
            public, self.names(public.table, lang), lang, piles=piles, theme=THEME
        )
        drawn = await self._sketched(sketched_table, sketch, urgent=urgent)
        return table_files(drawn, game_id=public.game_id, version=public.version)

    async def hand(self, seat_view: SeatView, lang: Lang, *, urgent: bool) -> tuple[Picture, ...]:
        """The hand's picture, for its owner only (in their language); none once it is over."""
        if seat_view.public.finished:
            return ()
        sketch = hand_sketch(seat_view.view, lang, theme=THEME)
        return (await self._sketched(sketched_hand, sketch, urgent=urgent),)

    async def _sketched(self, draw: Callable[[S], T], sketch: S, *, urgent: bool) -> T:
        """What ``draw`` makes of ``sketch``: kept from the last time (the sketch is all it
        shows), else drawn in a worker. The worker keeps what it drew too; kept here, a
        picture shown again costs no trip to the worker and back."""
        found = self._drawn.get(sketch)
        if found is not None:
            self._drawn.move_to_end(sketch)
            self.kept += 1
            return found  # type: ignore[no-any-return]
        drawn = await self.draw(draw, sketch, urgent=urgent)
        self._drawn[sketch] = drawn
        self._drawn_bytes += _size(drawn)
        while self._drawn_bytes > KEEP_PICTURE_BYTES and len(self._drawn) > 1:
            self._drawn_bytes -= _size(self._drawn.popitem(last=False)[1])
        return drawn

    def close(self) -> None:
        self._drawer.close()
