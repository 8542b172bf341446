"""The :class:`GameService`: the one door through which every front end plays.

The bot and the terminal call it with plain values (ids, card text, the version the person
saw) and get back frozen values and events; it decides whose turn it is, when a deadline
passes and what a timeout does, and keeps everything in the store, so a restart loses nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from scopabot.store import GuildSettings, RatingPolicy, Store

from .clock import Clock
from .events import Event, Handler
from .thinking import Thinker
from .views import MyGame, Pace, PublicView, SeatView, TableInfo, TimeoutRule

DEFAULT_COMPUTER_PAUSE = 0.8  # seconds between computer plays, so people can follow


@dataclass(frozen=True, slots=True)
class MoveOutcome:
    """What a person's move did: the game's new version and the events it caused."""

    version: int
    events: tuple[Event, ...]


class GameService:
    """Tables, seats, turns, deadlines and computer seats on top of a :class:`Store`."""

    @classmethod
    async def start(
        cls,
        store: Store,
        *,
        clock: Clock | None = None,
        thinker: Thinker | None = None,
        computer_pause: float = DEFAULT_COMPUTER_PAUSE,
        rating_policy: RatingPolicy | None = None,
    ) -> GameService:
        """Start on an open store: re-arm every deadline (one that passed while the process
        was down is handled at once, in order) and let computer seats in turn play.

        ``thinker`` None: hard/expert think in a process pool (one worker per core), made at
        the first search; the other levels inline. ``rating_policy`` None: the OpenSkill
        policy of :mod:`.ratings`.
        """
        raise NotImplementedError

    async def close(self) -> None:
        """Stop the scheduler and computer seats, deliver queued events, close the pool."""
        raise NotImplementedError

    def subscribe(self, handler: Handler) -> Callable[[], None]:
        """Every later event goes to ``handler`` (in its own queue); returns unsubscribe."""
        raise NotImplementedError

    async def settle(self) -> None:
        """Wait until no computer seat is in turn and every event is delivered (tests, cli)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ tables

    async def open_table(
        self,
        *,
        host: int,
        guild_id: int | None = None,
        channel_id: int | None = None,
        preset: str = "scopa",
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        pace: Pace | None = None,
        on_timeout: TimeoutRule = TimeoutRule.COMPUTER,
        level: str = "normal",
        computers: int = 0,
        seat_host: bool = True,
    ) -> TableInfo:
        """Open a table; options not given come from the server's defaults, then RULES.md.

        The host sits at seat 0 (unless ``seat_host`` is false); ``computers`` seats are filled
        with computer players of ``level``, which is also the level that plays for an absent
        person when a deadline passes.
        """
        raise NotImplementedError

    async def join(self, table_id: int, *, user: int, side: int | None = None) -> TableInfo:
        """Sit down at the first free seat (of ``side``, with four players)."""
        raise NotImplementedError

    async def leave(self, table_id: int, *, user: int) -> TableInfo:
        """Stand up before the start. The host cannot leave; the host cancels."""
        raise NotImplementedError

    async def add_computer(
        self, table_id: int, *, by: int, level: str | None = None, seat: int | None = None
    ) -> TableInfo:
        """The host puts a computer player in a free seat (the first one, or ``seat``)."""
        raise NotImplementedError

    async def remove_seat_holder(self, table_id: int, *, by: int, seat: int) -> TableInfo:
        """The host frees a seat before the start (a computer, or a person who left)."""
        raise NotImplementedError

    async def arrange(self, table_id: int, *, by: int, seats: Mapping[int, int]) -> TableInfo:
        """The host moves seat holders: ``seats`` maps each current seat to its new one."""
        raise NotImplementedError

    async def start_table(self, table_id: int, *, by: int, seed: int | None = None) -> SeatView:
        """Deal: the table flips to playing with its game in one transaction. Returns the
        host's view (their seat, or seat 0's public part if the host does not play)."""
        raise NotImplementedError

    async def cancel_table(self, table_id: int, *, by: int) -> TableInfo:
        """The host closes a table that has not started."""
        raise NotImplementedError

    async def table(self, table_id: int) -> TableInfo:
        raise NotImplementedError

    async def table_of_game(self, game_id: int) -> TableInfo:
        raise NotImplementedError

    async def tables_in_channel(self, channel_id: int) -> list[TableInfo]:
        """Tables open or playing in a channel (or its threads), oldest first."""
        raise NotImplementedError

    async def set_table_messages(
        self,
        table_id: int,
        *,
        channel_id: int | None = None,
        thread_id: int | None = None,
        message_id: int | None = None,
    ) -> TableInfo:
        """Remember where the front end shows the table (to edit it in place later)."""
        raise NotImplementedError

    async def table_by_message(self, message_id: int) -> TableInfo | None:
        raise NotImplementedError

    # ------------------------------------------------------------------ turns

    async def play(
        self,
        game_id: int,
        *,
        user: int,
        card: str,
        capture: str | None = None,
        version: int | None = None,
    ) -> MoveOutcome:
        """Play a card for the person's seat; ``capture`` like ``"3c+4s"`` when there is a
        choice; ``version`` is what the person was looking at (None: the current one, for
        typed commands). Raises :class:`ChooseCapture` when the card can take different cards
        and none was named; other refusals raise :class:`ServiceError`. A person whose seat
        was handed to a computer takes it back by playing."""
        raise NotImplementedError

    async def resign(self, game_id: int, *, user: int) -> MoveOutcome:
        """The person's side loses the match now."""
        raise NotImplementedError

    async def abandon(self, game_id: int, *, by: int) -> TableInfo:
        """The host calls the game off before its first move; nobody wins or loses."""
        raise NotImplementedError

    async def seat_view(self, game_id: int, *, user: int) -> SeatView:
        raise NotImplementedError

    async def public_view(self, game_id: int) -> PublicView:
        raise NotImplementedError

    async def my_games(self, *, user: int) -> list[MyGame]:
        """Every table the person sits at, those waiting for them first, then by deadline."""
        raise NotImplementedError

    # ------------------------------------------------------------------ front-end memory

    async def set_seat_message(
        self, game_id: int, seat: int, *, channel_id: int, message_id: int
    ) -> None:
        """Remember a seat's private hand message (a DM) to edit it in place."""
        raise NotImplementedError

    async def seat_messages(self, game_id: int) -> dict[int, tuple[int, int]]:
        """``{seat: (channel_id, message_id)}`` of the hand messages remembered."""
        raise NotImplementedError

    async def set_language(self, user: int, language: str | None) -> None:
        raise NotImplementedError

    async def language(self, user: int) -> str | None:
        raise NotImplementedError

    async def set_notify(self, user: int, *, on: bool) -> None:
        raise NotImplementedError

    async def notify(self, user: int) -> bool:
        """Whether the person wants a DM when it is their turn (on by default)."""
        raise NotImplementedError

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        raise NotImplementedError

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        raise NotImplementedError

    @property
    def store(self) -> Store:
        """The store underneath, for the ratings and score-keeping parts of the service."""
        raise NotImplementedError


__all__ = ["DEFAULT_COMPUTER_PAUSE", "GameService", "MoveOutcome"]
