"""Who may look at a table through ``/scopa table`` and ``/scopa rules``.

Table ids are small numbers in sequence, so a command naming one could otherwise show anyone
anywhere the players, the cards on the table, the score and the turn. A table is shown to its
players (the answer is ephemeral, wherever they ask), and otherwise only inside its own
server to a person who can see its channel, as Discord itself would let them see the table
message there. A table in a DM is its host's and players' alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from scopabot.service import TableInfo

from .autocomplete import GameNotFound

if TYPE_CHECKING:
    from .client import ScopaBot


def may_see_table(interaction: discord.Interaction[ScopaBot], table: TableInfo) -> bool:
    user = interaction.user.id
    if user == table.host or any(h.user_id == user for h in table.seats.values()):
        return True
    if table.guild_id is None or interaction.guild_id != table.guild_id:
        return False
    if interaction.channel_id is not None and interaction.channel_id in (
        table.channel_id,
        table.thread_id,
    ):
        return True
    guild, member = interaction.guild, interaction.user
    if guild is None or not isinstance(member, discord.Member):
        return False
    for place in (table.thread_id, table.channel_id):
        channel = guild.get_channel_or_thread(place) if place is not None else None
        if channel is not None:
            # A thread's view follows its parent channel's (the table's threads are public).
            return channel.permissions_for(member).view_channel
    return False


def check_may_see_table(interaction: discord.Interaction[ScopaBot], table: TableInfo) -> None:
    """Refuse, with the reason in the person's language, a look at someone else's table."""
    if not may_see_table(interaction, table):
        raise GameNotFound("err.table_elsewhere")
