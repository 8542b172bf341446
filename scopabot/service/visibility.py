"""What people may see: one seat's view and the public view.

A seat's view is built from the engine's ``view_for(seat)`` and nothing else; the public view
is that view with the hand dropped (:meth:`PublicView.from_view`), so neither can carry a card
its reader may not see.
"""

from __future__ import annotations

from scopabot.engine import Card, Game, GameView, Move

from .core import GameContext
from .views import PublicView, SeatView


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
