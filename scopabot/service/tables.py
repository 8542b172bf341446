"""Tables and seats (``service.tables``): open, join, leave, computers, arranging, start
and cancel.

People gather at a table before its match: each sits in one seat (one per person per table;
with four players, partners sit opposite, so choosing a side chooses seats 0 and 2 or 1 and 3).
The host adds computer players, arranges the seats, starts when every seat is taken, or
cancels. Every refusal is a :class:`ServiceError` raised before anything changes.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from scopabot.ai import Level
from scopabot.engine import Game, Rules, RulesProblem
from scopabot.store import (
    AlreadySeatedError,
    NoSuchSeatError,
    SeatError,
    SeatHolder,
    SeatsEmptyError,
    SeatTakenError,
    StoredGame,
    TableNotOpenError,
    TableStatus,
)

from .core import Core, must_be_host, must_be_open, table_info
from .errors import ErrorCode, ServiceError
from .events import (
    Audience,
    Event,
    HandChanged,
    TableCancelled,
    TableChanged,
    TableOpened,
    TableStarted,
    TurnStarted,
)
from .games import Games
from .live import as_stored, started_notes
from .options import Options, chosen_options, pace_of, table_rules
from .views import Pace, PaceKind, PublicView, Rematch, SeatView, TableInfo, TimeoutRule

StartedView = SeatView | PublicView


def check_level(level: str) -> str:
    try:
        return Level(str(level).strip().lower()).value
    except ValueError:
        raise ServiceError(
            ErrorCode.BAD_LEVEL, f"no computer level {level!r}", level=str(level)
        ) from None


def seat_error(exc: SeatError) -> ServiceError:
    """The service's refusal for a seat change the store refused."""
    code = {
        SeatTakenError: ErrorCode.SEAT_TAKEN,
        AlreadySeatedError: ErrorCode.ALREADY_SEATED,
        NoSuchSeatError: ErrorCode.BAD_SEAT,
        TableNotOpenError: ErrorCode.TABLE_NOT_OPEN,
        SeatsEmptyError: ErrorCode.SEATS_EMPTY,
    }.get(type(exc), ErrorCode.BAD_SEAT)
    return ServiceError(code, str(exc), table_id=exc.table_id, seat=exc.seat)


class Tables:
    """Tables and their seats: ``service.tables``, from opening to the deal (the match is
    then the game's, :class:`~.games.Games`)."""

    def __init__(self, core: Core, games: Games) -> None:
        self.core = core
        self.games = games

    async def open(
        self,
        *,
        host: int,
        guild_id: int | None = None,
        channel_id: int | None = None,
        preset: str = "scopa",
        players: int | None = None,
        options: Options | None = None,
        pace: Pace | PaceKind | str | None = None,
        minutes: int | None = None,
        hours: int | None = None,
        on_timeout: TimeoutRule | str = TimeoutRule.COMPUTER,
        level: str = "normal",
        computers: int = 0,
        seat_host: bool = True,
        rematch_of: int | None = None,
    ) -> TableInfo:
        """Open a table; options not given come from the server's defaults, then docs/rulebook.md.

        The host sits at seat 0 (unless ``seat_host`` is false); ``computers`` seats are
        filled with computer players of ``level``, which is also the level that plays for an
        absent person when a deadline passes. ``options`` are the rule options chosen (a
        :class:`~.options.RuleChoices` as a command took them, or a mapping). ``pace`` is a
        :class:`Pace`, or its kind as the host named it with ``minutes`` (live) or ``hours``
        (correspondence) a turn (:func:`~.options.pace_of`); by default a live two minutes.
        ``rematch_of`` is the finished game whose Rematch opens this table (:meth:`open_rematch`).
        """
        chosen = chosen_options(options or {})
        if not isinstance(pace, Pace):
            pace = pace_of(pace or PaceKind.LIVE, minutes=minutes, hours=hours)
        rules = await self._rules(guild_id, preset, players, chosen)
        level = check_level(level)
        try:
            rule = TimeoutRule(on_timeout)
        except ValueError:
            raise ServiceError(
                ErrorCode.BAD_OPTION,
                f"no timeout rule {on_timeout!r}",
                problem=RulesProblem.BAD_CHOICE.value,
                option="on_timeout",
                value=str(on_timeout),
            ) from None
        if not 0 <= computers <= rules.players - int(seat_host):
            raise ServiceError(
                ErrorCode.TABLE_FULL, f"{computers} computers do not fit", computers=computers
            )
        table = await self.core.store.tables.create(
            host_id=host,
            rules=rules,
            guild_id=guild_id,
            channel_id=channel_id,
            pace=pace.to_dict(),
            on_timeout=rule.value,
            level=level,
            rematch_of=rematch_of,
        )
        try:
            if seat_host:
                table = await self.core.store.tables.take_seat(table.id, 0, SeatHolder.human(host))
            for _ in range(computers):
                free = table_info(table).open_seats
                table = await self.core.store.tables.take_seat(
                    table.id, free[0], SeatHolder.computer(level)
                )
        except SeatError as exc:  # pragma: no cover - a brand-new table has every seat free
            raise seat_error(exc) from exc
        info = table_info(table)
        self.core.emit([TableOpened(table_id=info.id, game_id=None, table=info)])
        return info

    async def _rules(
        self, guild_id: int | None, preset: str, players: int | None, options: Mapping[str, Any]
    ) -> Rules:
        defaults = None
        if guild_id is not None:
            defaults = (await self.core.store.settings.guild(guild_id)).default_rules
        return table_rules(preset, players, options, defaults)

    async def get(self, table_id: int) -> TableInfo:
        return await self.core.table(table_id)

    async def of_game(self, game_id: int) -> TableInfo:
        ctx = await self.core.context(game_id)
        if ctx.table_id is None:
            raise ServiceError(ErrorCode.UNKNOWN_TABLE, f"game {game_id} has no table")
        return await self.core.table(ctx.table_id)

    async def in_channel(self, channel_id: int) -> list[TableInfo]:
        """Tables open or playing in a channel (or shown in a thread), oldest first."""
        return [table_info(t) for t in await self.core.store.tables.in_channel(channel_id)]

    async def rematch_of(self, game_id: int) -> TableInfo | None:
        """The table opened as the rematch of ``game_id``, if any (kept in the store, so a
        second click after a restart still finds it)."""
        found = await self.core.store.tables.rematch_of(game_id)
        return None if found is None else table_info(found)

    async def open_rematch(
        self, game_id: int, *, by: int, channel_id: int | None = None
    ) -> Rematch:
        """A new table for the players of a finished match, in one step: the same seats (so
        the same sides), options, pace and computers, hosted by ``by``, who must have played.
        Opened and filled in one transaction, so a crash leaves no half-filled table, and
        a second click (even from another process, or after a restart) gets the first's."""
        old = await self.of_game(game_id)
        if old.status is not TableStatus.FINISHED:
            raise ServiceError(ErrorCode.GAME_STARTED, "the match is not over", game_id=game_id)
        if old.seat_of(by) is None:
            raise ServiceError(
                ErrorCode.REMATCH_PLAYERS_ONLY, "only the players may ask", game_id=game_id
            )
        seats = {
            seat: holder if holder.is_human else SeatHolder.computer(holder.ai_level or old.level)
            for seat, holder in old.seats.items()
        }
        try:
            stored, opened = await self.core.store.tables.open_rematch(
                game_id,
                host_id=by,
                rules=old.rules,
                seats=seats,
                guild_id=old.guild_id,
                channel_id=channel_id,
                pace=old.pace.to_dict(),
                on_timeout=old.on_timeout.value,
                level=old.level,
                at=self.core.now(),
            )
        except SeatError as exc:  # pragma: no cover - the old table's seats are valid ones
            raise seat_error(exc) from exc
        info = table_info(stored)
        if opened:
            self.core.emit([TableOpened(table_id=info.id, game_id=None, table=info)])
        return Rematch(info, opened)

    async def by_message(self, message_id: int) -> TableInfo | None:
        found = await self.core.store.tables.by_message(message_id)
        return None if found is None else table_info(found)

    async def set_messages(
        self,
        table_id: int,
        *,
        channel_id: int | None = None,
        thread_id: int | None = None,
        message_id: int | None = None,
    ) -> TableInfo:
        """Remember where the front end shows the table (ids given as None are kept)."""
        current = await self.core.table(table_id)
        info = table_info(
            await self.core.store.tables.update(
                table_id,
                channel_id=current.channel_id if channel_id is None else channel_id,
                thread_id=current.thread_id if thread_id is None else thread_id,
                message_id=current.message_id if message_id is None else message_id,
            )
        )
        live = None if info.game_id is None else self.core.live.kept(info.game_id)
        if live is not None:
            live.table = info
        return info

    async def join(self, table_id: int, *, user: int, side: int | None = None) -> TableInfo:
        """Sit down at the first free seat (of ``side``, with four players)."""
        table = await self.core.table(table_id)
        must_be_open(table)
        if table.seat_of(user) is not None:
            raise ServiceError(ErrorCode.ALREADY_SEATED, "already seated", table_id=table_id)
        if side is not None and not 0 <= side < table.rules.sides:
            raise ServiceError(ErrorCode.BAD_SIDE, f"no side {side}", side=side)
        free = [s for s in table.open_seats if side is None or table.rules.side_of(s) == side]
        if not free:
            if side is not None and table.open_seats:
                raise ServiceError(ErrorCode.SIDE_FULL, f"side {side} is full", side=side)
            raise ServiceError(ErrorCode.TABLE_FULL, "the table is full", table_id=table_id)
        return await self._seat(table, free[0], SeatHolder.human(user))

    async def leave(self, table_id: int, *, user: int) -> TableInfo:
        """Stand up before the start. The host does not leave: the host cancels."""
        table = await self.core.table(table_id)
        must_be_open(table)
        seat = table.seat_of(user)
        if seat is None:
            raise ServiceError(ErrorCode.NOT_SEATED, "not at this table", table_id=table_id)
        if user == table.host:
            raise ServiceError(ErrorCode.HOST_CANNOT_LEAVE, "the host cancels instead")
        return await self._changed(self.core.store.tables.leave_seat(table_id, seat))

    async def add_computer(
        self, table_id: int, *, by: int, level: str | None = None, seat: int | None = None
    ) -> TableInfo:
        """The host puts a computer player in a free seat (the first one, or ``seat``)."""
        table = await self.core.table(table_id)
        must_be_host(table, by)
        must_be_open(table)
        chosen = check_level(level or table.level)
        if seat is None:
            if not table.open_seats:
                raise ServiceError(ErrorCode.TABLE_FULL, "the table is full", table_id=table_id)
            seat = table.open_seats[0]
        return await self._seat(table, seat, SeatHolder.computer(chosen))

    async def remove_seat_holder(self, table_id: int, *, by: int, seat: int) -> TableInfo:
        """The host frees a seat before the start (not their own)."""
        table = await self.core.table(table_id)
        must_be_host(table, by)
        must_be_open(table)
        if seat not in table.seats:
            raise ServiceError(ErrorCode.BAD_SEAT, f"nobody sits in seat {seat}", seat=seat)
        if table.seats[seat].user_id == table.host:
            raise ServiceError(ErrorCode.HOST_CANNOT_LEAVE, "the host cancels instead")
        return await self._changed(self.core.store.tables.leave_seat(table_id, seat))

    async def arrange(self, table_id: int, *, by: int, seats: Mapping[int, int]) -> TableInfo:
        """The host moves seat holders: ``seats`` maps a current seat to its new one."""
        table = await self.core.table(table_id)
        must_be_host(table, by)
        must_be_open(table)
        return await self._changed(self.core.store.tables.move_seats(table_id, dict(seats)))

    async def _seat(self, table: TableInfo, seat: int, holder: SeatHolder) -> TableInfo:
        return await self._changed(self.core.store.tables.take_seat(table.id, seat, holder))

    async def _changed(self, change: Any) -> TableInfo:
        try:
            info = table_info(await change)
        except SeatError as exc:
            raise seat_error(exc) from exc
        self.core.emit([TableChanged(table_id=info.id, game_id=None, table=info)])
        return info

    async def cancel(self, table_id: int, *, by: int) -> TableInfo:
        """The host closes a table that has not started."""
        table = await self.core.table(table_id)
        must_be_host(table, by)
        must_be_open(table)
        try:
            info = table_info(await self.core.store.tables.cancel(table_id))
        except SeatError as exc:
            raise seat_error(exc) from exc
        self.core.emit(
            [TableCancelled(table_id=info.id, game_id=None, table=info, reason="cancelled")]
        )
        return info

    async def _start_game(
        self, table_id: int, *, by: int, seed: int | None
    ) -> tuple[TableInfo, StoredGame, datetime | None]:
        """Deal the table's game (see :meth:`start`)."""
        table = await self.core.table(table_id)
        must_be_host(table, by)
        must_be_open(table)
        if not table.is_full:
            raise ServiceError(
                ErrorCode.SEATS_EMPTY, "some seats are empty", open_seats=list(table.open_seats)
            )
        game = Game.new(table.rules, seed=random.randrange(2**31) if seed is None else seed)
        first = table.seats[game.turn]
        deadline = table.pace.deadline(self.core.now()) if first.is_human else None
        elsewhere = self.core.live.elsewhere
        notice = None
        if elsewhere is not None and elsewhere(table.guild_id):  # a tournament's next round
            notice = started_notes(game.rules.players, game.turn, first.user_id, deadline)
        try:
            stored = await self.core.store.tables.start(
                table_id,
                game,
                deadline=deadline,
                remind_at=table.pace.next_reminder(deadline, self.core.now()),
                at=self.core.now(),
                notice=notice,
            )
        except SeatError as exc:
            raise seat_error(exc) from exc
        return await self.core.table(table_id), stored, as_stored(deadline)

    async def start(self, table_id: int, *, by: int, seed: int | None = None) -> StartedView:
        """Deal: the table flips to playing with its game in one transaction. Returns the
        host's seat view (the public view when the host does not play)."""
        info, stored, deadline = await self._start_game(table_id, by=by, seed=seed)
        ctx = self.core.live.adopt(stored, table=info, deadline=deadline)  # live from here
        self.core.adopted(table_id, stored.id)
        game = ctx.game
        tid, gid = table_id, stored.id
        events: list[Event] = [
            TableStarted(table_id=tid, game_id=gid, table=info, version=stored.version)
        ]
        events += [
            HandChanged(
                table_id=tid,
                game_id=gid,
                seat=s,
                hand=game.hand(s),
                version=stored.version,
                audience=Audience.seat(s),
            )
            for s in range(game.rules.players)
        ]
        events.append(
            TurnStarted(
                table_id=tid,
                game_id=gid,
                seat=game.turn,
                user_id=ctx.user_of(game.turn),
                deadline=deadline,
                version=stored.version,
            )
        )
        self.core.emit(events)
        if deadline is not None:
            self.core.wakeup.deadline_set(deadline)
        if ctx.computer_plays(game.turn):
            self.games.drive(stored.id)
        seat = ctx.seat_of(by)
        if seat is None:
            return await self.games.public_view(stored.id)
        return await self.games.seat_view(stored.id, user=by)
