"""What the store keeps about people and their front end: settings, hand messages, games."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from scopabot.engine import Rules

from .base import StoreBase
from .models import UserGame, UserSettings, now, opt_dt, to_ms

USER_GAMES_SQL = (
    "SELECT g.id, g.table_id, g.guild_id, s.seat, g.version,"
    " json_extract(g.snapshot, '$.turn'), g.deadline_at, g.rules"
    " FROM game_seats s JOIN games g ON g.id = s.game_id"
    " WHERE s.user_id = ? AND g.status = 'playing' ORDER BY g.id"
)


class PeopleMixin(StoreBase):
    async def user_settings(self, user_id: int) -> UserSettings:
        """A person's settings (the defaults when they never chose any)."""
        row = await self._read_once(_user_row, user_id)
        return UserSettings(user_id) if row is None else UserSettings(user_id, row[0], row[1])

    async def set_language(self, user_id: int, language: str | None) -> None:
        """The person's language for replies (``None``: follow their Discord client)."""
        await self._write_once(_upsert_user, user_id, "language", language)

    async def set_notify(self, user_id: int, on: bool) -> None:
        await self._write_once(_upsert_user, user_id, "notify", int(on))

    async def set_seat_message(
        self, game_id: int, seat: int, *, channel_id: int | None, message_id: int | None
    ) -> None:
        """Where a seat's private hand message is (``None``: forget it)."""
        await self._write_once(_set_seat_message, game_id, seat, channel_id, message_id)

    async def seat_messages(self, game_id: int) -> dict[int, tuple[int, int]]:
        """``{seat: (channel_id, message_id)}`` for the seats whose message is known."""
        return await self._read_once(_seat_messages, game_id)

    async def games_of_user(self, user_id: int) -> list[UserGame]:
        """Games being played where the user has a seat, with that seat: one query."""
        rows = await self._read_once(_user_games, user_id)
        return [
            UserGame(r[0], r[1], r[2], r[3], r[4], int(r[5]), opt_dt(r[6]), _rules(r[7]))
            for r in rows
        ]


_RULES_CACHE: dict[str, Rules] = {}


def _rules(text: str) -> Rules:
    rules = _RULES_CACHE.get(text)
    if rules is None:
        rules = _RULES_CACHE.setdefault(text, Rules.from_dict(json.loads(text)))
    return rules


def _user_row(conn: sqlite3.Connection, user_id: int) -> tuple[str | None, bool] | None:
    row = conn.execute(
        "SELECT language, notify FROM user_settings WHERE user_id = ?", (user_id,)
    ).fetchone()
    return None if row is None else (row[0], bool(row[1]))


def _upsert_user(conn: sqlite3.Connection, user_id: int, column: str, value: object) -> None:
    # ``column`` is "language" or "notify", chosen above, never from input.
    assert column in ("language", "notify")
    conn.execute(
        "INSERT INTO user_settings (user_id, " + column + ", updated_at) VALUES (?, ?, ?)"
        " ON CONFLICT (user_id) DO UPDATE SET " + column + " = excluded." + column + ","
        " updated_at = excluded.updated_at",
        (user_id, value, to_ms(now())),
    )


def _set_seat_message(
    conn: sqlite3.Connection,
    game_id: int,
    seat: int,
    channel_id: int | None,
    message_id: int | None,
) -> None:
    conn.execute(
        "UPDATE game_seats SET channel_id = ?, message_id = ? WHERE game_id = ? AND seat = ?",
        (channel_id, message_id, game_id, seat),
    )


def _seat_messages(conn: sqlite3.Connection, game_id: int) -> dict[int, tuple[int, int]]:
    return {
        r[0]: (r[1], r[2])
        for r in conn.execute(
            "SELECT seat, channel_id, message_id FROM game_seats WHERE game_id = ?"
            " AND channel_id IS NOT NULL AND message_id IS NOT NULL",
            (game_id,),
        )
    }


def _user_games(conn: sqlite3.Connection, user_id: int) -> list[tuple[Any, ...]]:
    return [tuple(r) for r in conn.execute(USER_GAMES_SQL, (user_id,))]
