"""A move, from what a person typed or clicked to the events everyone sees: pure helpers.

The engine resolves ``"7d"`` (and a capture, if named) into the one legal move it means, or
the refusal that says why not; here that refusal becomes data, and a stored move events, each
with its audience.
"""

from __future__ import annotations

from collections.abc import Iterable

from scopabot.engine import (
    AmbiguousMoveError,
    Game,
    GameView,
    IllegalMoveError,
    IllegalReason,
    InvalidMoveError,
    Move,
    Play,
)
from scopabot.store import GLOBAL, ActorKind, AppliedMove, RatingChange

from .core import GameContext
from .errors import ChooseCapture, ErrorCode, ServiceError
from .events import (
    Audience,
    CardPlayed,
    DealScored,
    Event,
    HandChanged,
    MatchOver,
    SeatTakenBack,
    TurnStarted,
)
from .ratings import RatingsPolicy, level_of_rating_id
from .views import PublicView, SeatView
from .visibility import seat_view_of, views_of

FIRST_RATINGS = RatingsPolicy()  # where each computer level starts (README "Ratings")


def resolve(game: Game, seat: int, played: str | Move, capture: str | None) -> Move:
    """The engine's one legal move for what the person gave, or the refusal as data: the
    text is read and checked here once, and from here the move travels as a :class:`Move`."""
    try:
        return game.resolve_move(played, capture, seat=seat)
    except InvalidMoveError as exc:
        text = played if isinstance(played, str) else str(played)
        raise ServiceError(ErrorCode.NOT_A_CARD, str(exc), text=text.strip()) from None
    except AmbiguousMoveError as exc:
        raise ChooseCapture(exc.card, exc.choices) from None
    except IllegalMoveError as exc:
        if exc.reason is IllegalReason.GAME_OVER:
            raise ServiceError(ErrorCode.GAME_OVER, "the match is over") from None
        if exc.reason is IllegalReason.NOT_YOUR_TURN:
            raise ServiceError(
                ErrorCode.NOT_YOUR_TURN, "it is not your turn", turn=game.turn
            ) from None
        raise illegal(exc) from None


def illegal(exc: IllegalMoveError) -> ServiceError:
    """The engine's refusal as data (its message is English, kept for logs only)."""
    return ServiceError(
        ErrorCode.ILLEGAL_MOVE,
        str(exc),
        reason=exc.reason.value,
        card=None if exc.card is None else str(exc.card),
        missing=[str(c) for c in exc.missing],
        options=[[str(c) for c in option] for option in exc.options],
    )


def move_events(
    ctx: GameContext,
    before: Game,
    applied: AppliedMove,
    *,
    actor: ActorKind,
    user_id: int | None,
) -> list[Event]:
    """Everything a front end needs to show after a move, each event with its audience."""
    game, result, version = applied.game, applied.result, applied.version
    tid, gid = ctx.table_id, ctx.game_id
    seat = result.seat
    # The public view, made once with the mover's own view (which the mover's outcome shows);
    # another seat's view only when its hand changed and a person holds it.
    public, mover = (None, None) if ctx.table is None else views_of(ctx, game, version, seat)
    events: list[Event] = [
        CardPlayed(
            table_id=tid,
            game_id=gid,
            seat=seat,
            play=Play(seat, result.move.card, result.move.sorted_capture(), result.scopa),
            actor=actor,
            user_id=user_id,
            version=version,
            leftovers=result.leftovers,
            leftovers_to=result.leftovers_to,
            public=public,
        )
    ]
    if applied.took_back:
        events.append(
            SeatTakenBack(
                table_id=tid, game_id=gid, seat=seat, user_id=user_id or 0, version=version
            )
        )
    for s in range(game.rules.players):
        # The mover's hand always changes; the others' when a deal ends or hands are refilled.
        if s == seat or game.hand(s) != before.hand(s):
            events.append(
                HandChanged(
                    table_id=tid,
                    game_id=gid,
                    seat=s,
                    hand=game.hand(s),
                    version=version,
                    audience=Audience.seat(s),
                    view=_seat_view(ctx, game, version, s, public, mover, seat),
                )
            )
    if result.deal_score is not None:
        events.append(
            DealScored(
                table_id=tid,
                game_id=gid,
                deal_score=result.deal_score,
                totals=game.totals,
                version=version,
            )
        )
    outcome = game.outcome()
    if outcome is not None:
        local, world = rating_changes(applied.rating_changes, ctx)
        events.append(
            MatchOver(
                table_id=tid,
                game_id=gid,
                winner_side=outcome.winner,
                reason=outcome.reason.value,
                totals=outcome.totals,
                outcome=outcome,
                version=version,
                rating_changes=local,
                global_rating_changes=world,
            )
        )
    else:
        nxt = game.turn
        events.append(
            TurnStarted(
                table_id=tid,
                game_id=gid,
                seat=nxt,
                user_id=ctx.user_of(nxt),
                deadline=applied.deadline,
                version=version,
            )
        )
    return events


def _seat_view(
    ctx: GameContext,
    game: Game,
    version: int,
    seat: int,
    public: PublicView | None,
    mover: GameView | None,
    mover_seat: int,
) -> SeatView | None:
    if public is None or (ctx.computer_plays(seat) and seat != mover_seat):
        return None
    if seat == mover_seat and mover is not None:
        return seat_view_of(ctx, public, mover, seat)
    return seat_view_of(ctx, *views_of(ctx, game, version, seat), seat)


def rating_changes(
    changes: tuple[RatingChange, ...], ctx: GameContext
) -> tuple[dict[int, tuple[float | None, float]], dict[int, tuple[float | None, float]]]:
    """Score before and after per rated player, on the game's board and on the global one.

    ``None`` before is a person's first rated match (front ends show a newcomer's start); a
    computer level is never a newcomer: its first match starts from the level's own rating.
    """
    guild = None if ctx.table is None else ctx.table.guild_id
    scores = [
        (c.board, c.rating_id, None if c.before is None else c.before.score, c.after.score)
        for c in changes
    ]
    return rating_pairs(scores, guild)


def rating_pairs(
    changes: Iterable[tuple[int, int, float | None, float]], guild_id: int | None
) -> tuple[dict[int, tuple[float | None, float]], dict[int, tuple[float | None, float]]]:
    """:func:`rating_changes` from (board, rating id, score before, score after): also what
    another process's notice of a match's end carries (service/relay.py)."""
    board = GLOBAL if guild_id is None else guild_id
    local: dict[int, tuple[float | None, float]] = {}
    world: dict[int, tuple[float | None, float]] = {}
    for on, rating_id, before, after in changes:
        if before is None and level_of_rating_id(rating_id) is not None:
            before = FIRST_RATINGS.first_rating(rating_id).score
        pair = (before, after)
        if on == GLOBAL:
            world[rating_id] = pair
        if on == board:
            local[rating_id] = pair
    return local, world


def seed_of(game: Game) -> int:
    """A computer's choice is reproducible from the game's seed and the move number."""
    return game.seed * 1009 + game.move_count


def stale(game_id: int, expected: int, actual: int | None) -> ServiceError:
    return ServiceError(
        ErrorCode.STALE_VERSION,
        f"game {game_id} moved on (version {actual}, not {expected})",
        game_id=game_id,
        version=actual,
    )
