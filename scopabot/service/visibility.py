"""What people may see: one seat's view, the public view, and "my games".

A seat's view is built from the engine's ``view_for(seat)`` and nothing else; the public view
is that view with the hand dropped (:meth:`PublicView.from_view`), so neither can carry a card
its reader may not see.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from scopabot.engine import Card, Game, GameView, Move
from scopabot.store import GameStatus, TableStatus

from .core import GameContext, ServiceCore, table_info
from .errors import ErrorCode, ServiceError
from .views import MyGame, PublicView, SeatView, TableInfo

_NEVER = datetime.max.replace(tzinfo=UTC)


def views_of(
    ctx: GameContext,
    game: Game,
    version: int,
    seat: int,
    *,
    reason: str | None = None,
    winner: int | None = None,
) -> tuple[PublicView, GameView]:
    """The public view and ``seat``'s engine view of ``game`` at ``version``, with what the
    context knows (table, deadline, seats handed over)."""
    assert ctx.table is not None
    view = game.view_for(seat)
    public = PublicView.from_view(
        view,
        game_id=ctx.game_id,
        table=ctx.table,
        version=version,
        deadline=ctx.deadline,
        seats=ctx.seats_map(),
        away=frozenset(ctx.away),
        finished=ctx.finished,
        result_reason=reason,
        winner_side=winner,
    )
    return public, view


def seat_view_of(ctx: GameContext, public: PublicView, view: GameView, seat: int) -> SeatView:
    choices: dict[Card, tuple[Move, ...]] = {}
    if not public.finished:
        for move in view.legal_moves():
            choices[move.card] = (*choices.get(move.card, ()), move)
    return SeatView(
        game_id=ctx.game_id,
        table=public.table,
        seat=seat,
        version=public.version,
        view=view,
        public=public,
        deadline=public.deadline,
        seats=public.seats,
        choices=choices,
    )


class ViewingMixin(ServiceCore):
    async def seat_view(self, game_id: int, *, user: int) -> SeatView:
        """What this person may see of the game: their hand, the public game, their choices."""
        ctx = await self._context(game_id)
        seat = ctx.seat_of(user)
        if seat is None:
            raise ServiceError(ErrorCode.NOT_SEATED, "you do not sit at this game", game_id=game_id)
        return await self._seat_view(ctx, seat)

    async def _seat_view(self, ctx: GameContext, seat: int) -> SeatView:
        return seat_view_of(ctx, *await self._views(ctx, seat), seat)

    async def public_view(self, game_id: int) -> PublicView:
        """What everyone at or watching the table may see (no hand at all)."""
        ctx = await self._context(game_id)
        return (await self._views(ctx, 0))[0]

    async def _views(self, ctx: GameContext, seat: int) -> tuple[PublicView, GameView]:
        # The live game is the game now: every move of it goes through its owner, which
        # replaces it only once the move is written (a view during a write shows the game
        # before that move).
        if not ctx.finished:
            return views_of(ctx, ctx.game, ctx.version, seat)
        stored = await self.store.games.load(ctx.game_id)
        info = await self.store.games.info(ctx.game_id)
        ctx.version, ctx.deadline, ctx.away = info.version, info.deadline_at, set(info.away)
        ctx.finished = info.status is not GameStatus.PLAYING
        ctx.table = await self._table_of(ctx)
        reason = winner = None
        if ctx.finished and stored.game.outcome() is None:
            result = await self.store.boards.match_result(game_id=ctx.game_id)
            reason = "abandoned" if result is None else result.reason
            winner = None if result is None else result.winner_side
        return views_of(ctx, stored.game, stored.version, seat, reason=reason, winner=winner)

    def _moved_view(self, ctx: GameContext, game: Game, version: int, seat: int) -> SeatView | None:
        """The mover's view right after their move, from the game the store just wrote (no
        read): what :meth:`seat_view` would return at that version."""
        if ctx.table is None:
            return None
        return seat_view_of(ctx, *views_of(ctx, game, version, seat), seat)

    async def _table_of(self, ctx: GameContext) -> TableInfo:
        if ctx.table_id is None:
            raise ServiceError(ErrorCode.UNKNOWN_TABLE, f"game {ctx.game_id} has no table")
        return table_info(await self.store.tables.get(ctx.table_id))

    async def my_games(self, *, user: int) -> list[MyGame]:
        """Every table the person sits at: those waiting for them first, then by deadline."""
        games = await self.store.games.of_user(user)
        playing = {g.table_id for g in games}
        found = [
            MyGame(
                table_id=g.table_id or 0,
                game_id=g.game_id,
                guild_id=g.guild_id,
                channel_id=None,
                thread_id=None,
                rules=g.rules,
                status=TableStatus.PLAYING,
                seat=g.seat,
                turn=g.turn,
                deadline=g.deadline_at,
                waiting_for_you=g.turn == g.seat,
                version=g.version,
            )
            for g in games
        ]
        tables = {t.id: t for t in await self.store.tables.of_user(user)}
        for n, game in enumerate(found):
            t = tables.get(game.table_id)
            if t is not None:
                found[n] = replace(game, channel_id=t.channel_id, thread_id=t.thread_id)
        for t in tables.values():
            if t.id in playing:
                continue
            seat = next(s for s, h in t.seats.items() if h.user_id == user)
            found.append(
                MyGame(
                    table_id=t.id,
                    game_id=None,
                    guild_id=t.guild_id,
                    channel_id=t.channel_id,
                    thread_id=t.thread_id,
                    rules=t.rules,
                    status=t.status,
                    seat=seat,
                    turn=None,
                    deadline=None,
                    waiting_for_you=False,
                    version=None,
                )
            )
        found.sort(key=lambda g: (not g.waiting_for_you, g.deadline or _NEVER, g.table_id))
        return found
