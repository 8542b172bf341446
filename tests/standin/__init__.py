"""A stand-in for Discord, served on loopback, for driving the real bot end to end.

The unmodified discord.py client connects to it over REST and the gateway; tests act as
users (``standin.user("alice").slash("scopa new")``), read what each person sees
(``standin.timeline(channel, as_user=...)``), and fail when the bot sends anything Discord
would refuse or shows a player's secret cards to someone else.
"""

from __future__ import annotations

from .interactions import Callback, Interaction, InteractionType
from .privacy import Leak
from .server import DiscordStandIn, RequestRecord, StandInViolation, Violation
from .users import Actor, InteractionResult
from .validation import Problem, SpecValidator
from .world import Channel, ChannelType, Guild, Message, User, World, default_world

__all__ = [
    "Actor",
    "Callback",
    "Channel",
    "ChannelType",
    "DiscordStandIn",
    "Guild",
    "Interaction",
    "InteractionResult",
    "InteractionType",
    "Leak",
    "Message",
    "Problem",
    "RequestRecord",
    "SpecValidator",
    "StandInViolation",
    "User",
    "Violation",
    "World",
    "default_world",
]
