"""A move, from the text a person typed to the events everyone sees: pure helpers.

Turning ``"7d"`` (and a capture, if named) into the one legal move it means, or the refusal
that says why not; and turning a stored move into events, each with its audience.
"""

from __future__ import annotations

from scopabot.engine import (
    Card,
    CardParseError,
    Game,
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

FIRST_RATINGS = RatingsPolicy()  # where each computer level starts (README "Ratings")


def parse_move(card: str, capture: str | None) -> Move | Card:
    """The move named (a card alone when no capture is given), or NOT_A_CARD."""
    text = card.strip()
    try:
        if capture:
            return Move.parse(f"{text}:{capture.strip()}")
        if ":" in text:
            return Move.parse(text)
        return Card.parse(text)
    except (CardParseError, InvalidMoveError) as exc:
        raise ServiceError(ErrorCode.NOT_A_CARD, str(exc), text=text) from None


def choose_move(game: Game, seat: int, named: Move | Card) -> Move:
    """The legal move ``named`` means for ``seat``, or the refusal that says why not."""
    if game.is_over:
        raise ServiceError(ErrorCode.GAME_OVER, "the match is over")
    if game.turn != seat:
        raise ServiceError(ErrorCode.NOT_YOUR_TURN, "it is not your turn", turn=game.turn)
    if isinstance(named, Move):
        try:
            game.verify_move(named, seat=seat)
        except IllegalMoveError as exc:
            raise illegal(exc) from None
        return named
    choices = tuple(m for m in game.legal_moves() if m.card == named)
    if not choices:
        reason = IllegalReason.NOT_IN_HAND
        raise ServiceError(
            ErrorCode.ILLEGAL_MOVE,
            f"{named} is not in your hand",
            reason=reason.value,
            card=str(named),
        )
    if len(choices) > 1:
        raise ChooseCapture(named, choices)
    return choices[0]


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


def rating_changes(
    changes: tuple[RatingChange, ...], ctx: GameContext
) -> tuple[dict[int, tuple[float | None, float]], dict[int, tuple[float | None, float]]]:
    """Score before and after per rated player, on the game's board and on the global one.

    ``None`` before is a person's first rated match (front ends show a newcomer's start); a
    computer level is never a newcomer: its first match starts from the level's own rating.
    """
    board = GLOBAL if ctx.table is None or ctx.table.guild_id is None else ctx.table.guild_id
    local: dict[int, tuple[float | None, float]] = {}
    world: dict[int, tuple[float | None, float]] = {}
    for change in changes:
        before: float | None = None if change.before is None else change.before.score
        if before is None and level_of_rating_id(change.rating_id) is not None:
            before = FIRST_RATINGS.first_rating(change.rating_id).score
        pair = (before, change.after.score)
        if change.board == GLOBAL:
            world[change.rating_id] = pair
        if change.board == board:
            local[change.rating_id] = pair
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
