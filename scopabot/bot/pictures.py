"""The pictures on the bot's messages: drawn off the event loop, with the names people see.

A picture costs about 1 ms (a hand) to 4 ms (a table, a breakdown) of Pillow work
(``bench/render.py``); on the event loop that would hold up every other table's clicks, so
pictures are handed to one thread of their own (:class:`Drawer`), which has them drawn in a
worker process (``SCOPABOT_PICTURE_WORKERS``, default 1; 0 draws in the thread). Not a pool of
threads: Pillow keeps the GIL for most of its drawing, so more threads would not draw faster,
and FreeType faces (the fonts) must not be used by two threads at once; in a process of its
own the drawing does not hold the bot's interpreter at all. A picture that answers a click
goes first; the refreshes of messages wait behind it (under load they lag and coalesce, a
click does not).

A picture cannot show a mention, so seat holders are drawn by the name Discord last showed
for them in an interaction; before any (after a restart), as "Seat 2".

The breakdown's primiera cards need each side's pile of the deal, which no view keeps once
the next deal is dealt: the piles are gathered from the deal's plays as they are announced,
and used only when they add up to the cards the score counted (a deal begun before a
restart is shown without them).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import itertools
import logging
import multiprocessing
import os
import pickle
import queue
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
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

if TYPE_CHECKING:
    from .client import ScopaBot

T = TypeVar("T")
log = logging.getLogger(__name__)

THEME = Theme.DARK
"""Discord's default theme is dark; the pictures sit on their own opaque felt, so they read
on the light theme too (docs/pictures.md shows both)."""
KEEP_NAMES = 50_000
KEEP_DEALS = 1_000

# A card played this deal: its seat, the play, and the cards left on the table at the
# deal's end with the side that takes them (on the deal's last play only).
Record = tuple[int, Play, tuple[Card, ...], int | None]


# A picture to draw (``None``: the warm-up, which nobody waits for), whom to give it to, and
# whether the drawer's own thread must draw it (the worker could not: gone, or no pickle).
Work = tuple[Callable[[], Any], "asyncio.Future[Any] | None", bool]
Job = tuple[int, int, Work | None]


POOL_EXIT_WAIT = 3.0  # seconds the bot's stop waits for its picture worker to end
IN_FLIGHT = 2
"""Pictures handed to each worker at once: one drawn while the next crosses the pipe. One at a
time, the worker sat idle through every hand-off (the pool's threads in the bot waking one
another, each waiting for the interpreter): under load a picture took three times its drawing,
the drawer could not keep up, and the refreshes behind the clicks' pictures lagged by a second
or more. No more than that, so a click's picture waits behind at most two others."""


class Drawer:
    """One thread handing out pictures to draw, urgent ones (answering a click) first.

    With ``workers`` (the default, one), the pictures are drawn in a process of their own, so
    drawing never holds the bot's interpreter (its GIL) while a click waits: the thread only
    hands them over, :data:`IN_FLIGHT` a worker at a time, and the pool gives each back as
    it is drawn. A job that cannot go to a process (it does not pickle) is drawn in the
    thread; if the worker dies, the thread draws from then on."""

    def __init__(self, workers: int = 1) -> None:
        self._jobs: queue.PriorityQueue[Job] = queue.PriorityQueue()
        self._order = itertools.count()
        self._pool: ProcessPoolExecutor | None = None
        self._room = threading.Semaphore(IN_FLIGHT * max(1, workers))
        if workers > 0:
            context = multiprocessing.get_context("spawn")  # a fork would copy the bot's locks
            self._pool = ProcessPoolExecutor(
                workers, mp_context=context, initializer=worker.start, initargs=(THEME, os.getpid())
            )
            self._pool.submit(int)  # start the worker now, not at the first click
        else:  # make the palette while the bot connects, not at the first click
            self._jobs.put((2, next(self._order), (functools.partial(warm, THEME), None, True)))
        self._thread = threading.Thread(target=self._work, name="scopabot-pictures", daemon=True)
        self._thread.start()

    async def draw(self, fn: Callable[[], T], *, urgent: bool) -> T:
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._jobs.put((0 if urgent else 1, next(self._order), (fn, future, False)))
        return await future

    def _work(self) -> None:
        while True:
            # Room first, then the most urgent job: while the worker has IN_FLIGHT pictures,
            # the next stays in the queue, where a click's picture can still go before it.
            self._room.acquire()
            _, _, job = self._jobs.get()
            if job is None:
                return
            fn, future, here = job
            pool = None if here else self._pool
            if future is None or future.done() or pool is None:
                self._room.release()
                if future is None:  # the warm-up: nobody waits for it
                    with contextlib.suppress(Exception):
                        fn()
                elif not future.done():  # (done: its caller gave up, cancelled)
                    self._draw_here(fn, future)
                continue
            try:
                handed = pool.submit(fn)
            except (BrokenProcessPool, RuntimeError):  # the worker is gone, or stopping
                self._room.release()
                self._worker_gone()
                self._draw_here(fn, future)
                continue
            handed.add_done_callback(functools.partial(self._drawn, fn, future))

    def _drawn(
        self,
        fn: Callable[[], Any],
        future: asyncio.Future[Any],
        handed: concurrent.futures.Future[Any],
    ) -> None:
        """In the pool's thread, as a picture comes back: give it to whoever waits, or have
        the drawer's thread draw it (the worker could not), first of all."""
        self._room.release()
        try:
            result = handed.result()
        except BrokenProcessPool:
            self._worker_gone()
            self._jobs.put((0, next(self._order), (fn, future, True)))
        except (pickle.PicklingError, TypeError, AttributeError):  # it cannot cross to a process
            self._jobs.put((0, next(self._order), (fn, future, True)))
        except BaseException as exc:  # the drawing failed, or the pool stopped before it
            _hand_over(future, None, exc)
        else:
            _hand_over(future, result, None)

    def _draw_here(self, fn: Callable[[], Any], future: asyncio.Future[Any]) -> None:
        try:
            result, error = fn(), None
        except Exception as exc:
            result, error = None, exc
        _hand_over(future, result, error)

    def _worker_gone(self) -> None:
        if self._pool is not None:
            self._pool = None
            log.warning("the pictures' worker died; pictures are drawn in the bot from now on")

    def close(self) -> None:
        """Stop the thread and the worker, waiting a while at most for the worker to end
        (pictures not yet begun are dropped). The wait is what keeps the stop quiet: Python
        3.11's exit wakes a pool's manager thread while it may still be closing its pipe,
        and prints a traceback (``OSError: Bad file descriptor``) from the exit itself.

        The wait is one ``shutdown(wait=True)`` in a thread of its own: a ``shutdown(wait=False)``
        first would forget the manager thread, and a second shutdown would then wait for
        nothing (it did, and a bot stopped while its worker was starting printed the trace)."""
        self._jobs.put((-1, -1, None))
        pool = self._pool
        if pool is not None:
            finished = threading.Thread(
                target=functools.partial(pool.shutdown, wait=True, cancel_futures=True),
                name="scopabot-pictures-exit",
                daemon=True,
            )
            finished.start()
            finished.join(POOL_EXIT_WAIT)


def _hand_over(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    """From any thread: the picture (or why there is none) to the event loop that waits."""
    with contextlib.suppress(RuntimeError):  # the loop is closed: the bot is shutting down
        future.get_loop().call_soon_threadsafe(_settle, future, result, error)


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():
        return
    if isinstance(error, (asyncio.CancelledError, concurrent.futures.CancelledError)):
        future.cancel()
    elif error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


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
        self.let_go(game_id)

    def let_go(self, game_id: int) -> None:
        """Forget the game's plays (its match over and shown, or played elsewhere too): its
        last deal's are played again from the stored moves if ever asked for."""
        self._plays.pop(game_id, None)
        self._whole.discard(game_id)
        self._ended.pop(game_id, None)

    def held_games(self) -> set[int]:
        return set(self._plays) | self._whole | set(self._ended)

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
        """The table message's pictures (in the server's language). The worker is sent the
        table's sketch (what the pictures show: a few hundred bytes), not the public view
        with every play of the deal and the table's settings, which cost the bot more to
        pickle than the worker takes to draw a hand."""
        last = public.deal_scores[-1] if public.deal_scores else None
        piles = None if last is None else self.piles(public.game_id, public.rules, last)
        sketch = table_sketch(
            public, self.names(public.table, lang), lang, piles=piles, theme=THEME
        )
        drawn = await self.draw(sketched_table, sketch, urgent=urgent)
        return table_files(drawn, game_id=public.game_id, version=public.version)

    async def hand(self, seat_view: SeatView, lang: Lang, *, urgent: bool) -> tuple[Picture, ...]:
        """The hand's picture, for its owner only (in their language); none once it is over."""
        if seat_view.public.finished:
            return ()
        sketch = hand_sketch(seat_view.view, lang, theme=THEME)
        return (await self.draw(sketched_hand, sketch, urgent=urgent),)

    def close(self) -> None:
        self._drawer.close()
