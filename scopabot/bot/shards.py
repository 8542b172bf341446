"""Which of the service's events this process shows, when several processes share the bot.

Each process runs a slice of the shards (``bot.py --shards 0-3 --shard-count 8``) and shows the
tables of the servers in it: their table message, the hands' DMs, the pings, the deal counts.
A move this process applies to another process's table (a DM click: Discord sends them all to
shard 0; a deadline, when this process runs the scheduler; a computer's reply) is told to that
process through the database (service/relay.py), which shows it as if the move were its own.
Here, of such a move, only the mover's own hand is shown: the click was answered by editing
it, here, and when that answer was lost (or the move was a typed command) this process edits
it, as one process would. A reminder is sent by the process whose scheduler claimed it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scopabot.service import (
    ActorKind,
    CardPlayed,
    Event,
    HandChanged,
    ReminderDue,
    SeatTakenBack,
)

if TYPE_CHECKING:
    from .client import ScopaBot


class ShownHere:
    def __init__(self, bot: ScopaBot) -> None:
        self.bot = bot
        self._movers: dict[int, tuple[int, int]] = {}  # game -> (version, seat) a person made

    async def shows(self, event: Event) -> bool:
        """Whether this process shows ``event`` (every event, when it runs every shard)."""
        config = self.bot.config
        if config.shard_ids is None or isinstance(event, ReminderDue):
            return True
        if event.table_id is None or event.game_id is None:
            return True
        table = await self.bot.delivery.table_info(event.table_id)
        if self.bot.owns(table.guild_id):
            return True
        game_id = event.game_id
        if isinstance(event, CardPlayed):
            if event.actor is ActorKind.USER:
                self._movers[game_id] = (event.version, event.seat)
            else:
                self._movers.pop(game_id, None)
            return False
        if isinstance(event, SeatTakenBack):  # "Take my seat back", answered here too
            self._movers[game_id] = (event.version, event.seat)
            return False
        return isinstance(event, HandChanged) and self._movers.get(game_id) == (
            event.version,
            event.seat,
        )
