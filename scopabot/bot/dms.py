"""People whose direct messages refuse their hand (Discord's 50007), and when to try again.

A person may open their DMs at any time, and Discord says nothing when they do. So a hand
refused is tried again on that person's next turn, or when they ask for their hand with
"My hand" — at most once in a turn of the game, since each refusal is a request Discord
refuses (and counts). The table is told once per game that their DMs are closed.

What a restart must not forget (a seat's DMs refused, at which turn, and that the table was
told) is kept through the service in the store: :class:`ClosedDms` is the bot's copy, read
back per game (:meth:`restore`) before its first use after a start.
"""

from __future__ import annotations

Key = tuple[int, int]  # (game id, seat)


class ClosedDms:
    def __init__(self) -> None:
        self._closed: dict[Key, tuple[int, int]] = {}  # -> (table id, user id)
        self._noted: set[Key] = set()
        self._tried: dict[Key, int] = {}  # the game's turn (its version) of the last try
        self._turns: dict[int, int] = {}  # game id -> the version its current turn began at

    def __contains__(self, key: object) -> bool:
        return key in self._closed

    def refused(self, key: Key, *, table_id: int, user_id: int) -> bool:
        """A hand was refused; True the first time in the game (the table is told then)."""
        self._closed[key] = (table_id, user_id)
        self._tried[key] = self._turns.get(key[0], -1)
        first = key not in self._noted
        self._noted.add(key)
        return first

    def restore(
        self, key: Key, *, table_id: int, user_id: int, tried: int | None, noted: bool
    ) -> None:
        """What the store kept of a seat: refused at the turn begun at ``tried`` (``None``:
        open again since), the table told (``noted``)."""
        if tried is not None:
            self._closed[key] = (table_id, user_id)
            self._tried[key] = tried
        if noted:
            self._noted.add(key)

    def tried(self, key: Key) -> int:
        """The version of the turn the seat's hand was last refused in."""
        return self._tried.get(key, -1)

    def reopened(self, key: Key) -> bool:
        """A hand reached the seat's DMs: True once after they had refused one (to be
        remembered as open again)."""
        return self._tried.pop(key, None) is not None and key not in self._closed

    def turn(self, game_id: int, version: int) -> None:
        """A turn of the game began (anyone's)."""
        self._turns[game_id] = version

    def _retry(self, key: Key) -> bool:
        if key not in self._closed or self._tried.get(key) == self._turns.get(key[0], -1):
            return False
        del self._closed[key]
        return True

    def your_turn(self, key: Key) -> bool:
        """The seat's turn began: True when its hand should be tried again now."""
        return self._retry(key)

    def asked(self, game_id: int, user_id: int) -> list[tuple[int, int]]:
        """The person asked for their hand: the (table id, seat) of theirs to try again."""
        mine = [
            (table_id, seat)
            for (game, seat), (table_id, user) in list(self._closed.items())
            if game == game_id and user == user_id
        ]
        return [(t, seat) for t, seat in mine if self._retry((game_id, seat))]

    def forget(self, game_id: int) -> None:
        """The game is over."""
        for key in [k for k in self._closed if k[0] == game_id]:
            del self._closed[key]
        self._noted = {k for k in self._noted if k[0] != game_id}
        self._tried = {k: v for k, v in self._tried.items() if k[0] != game_id}
        self._turns.pop(game_id, None)
