"""Shared helpers for the service tests: a recording subscriber, and people who play."""

from __future__ import annotations

import random
from typing import TypeVar

from scopabot.service import Event, GameService, MoveOutcome, SeatView

E = TypeVar("E", bound=Event)


class Recorder:
    """A subscriber that keeps every event."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    async def __call__(self, event: Event) -> None:
        self.events.append(event)

    def of(self, kind: type[E], game_id: int | None = None) -> list[E]:
        return [
            e
            for e in self.events
            if isinstance(e, kind) and (game_id is None or e.game_id == game_id)
        ]


async def play_once(
    service: GameService, game_id: int, user: int, rng: random.Random | None = None
) -> MoveOutcome:
    """The person plays a legal move (random, or the first), naming the version they saw."""
    view: SeatView = await service.games.seat_view(game_id, user=user)
    moves = [m for options in view.choices.values() for m in options]
    move = rng.choice(moves) if rng else moves[0]
    capture = "+".join(str(c) for c in move.sorted_capture()) or None
    return await service.games.play(
        game_id, user=user, card=str(move.card), capture=capture, version=view.version
    )


async def play_out(
    service: GameService, game_id: int, users: list[int], rng: random.Random | None = None
) -> None:
    """People play whenever it is their turn until the match ends (computers answer)."""
    while True:
        await service.settle()
        public = await service.games.public_view(game_id)
        if public.finished:
            return
        holder = public.seats[public.turn]
        assert holder.user_id in users, "a computer's turn was left unplayed"
        await play_once(service, game_id, holder.user_id, rng)
