"""The people who play: their language, their turn notifications, their games.

``service.people``: what a person chose for themselves, kept in the store, and every table
they sit at, those waiting for them first.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from scopabot.store import Store, TableStatus

from .views import MyGame

_NEVER = datetime.max.replace(tzinfo=UTC)


class People:
    """A person's own settings and games (``service.people``)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def set_language(self, user: int, language: str | None) -> None:
        await self.store.settings.set_language(user, language)

    async def language(self, user: int) -> str | None:
        """The person's chosen language (``None``: they never chose; use their client's)."""
        return (await self.store.settings.user(user)).language

    async def set_notify(self, user: int, *, on: bool) -> None:
        await self.store.settings.set_notify(user, on)

    async def notify(self, user: int) -> bool:
        """Whether the person wants a DM when it is their turn (on by default)."""
        return (await self.store.settings.user(user)).notify

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
