"""A stand-in for Discord, served on loopback, for driving the real bot end to end.

The unmodified discord.py client connects to it over REST and the gateway; tests act as
users, read what each person sees, and fail when the bot sends anything Discord would refuse
or shows a player's secret cards to someone else.

Writing an end-to-end test (the ``standin`` fixture is in ``tests/conftest.py``)::

    async def test_new_table(standin: DiscordStandIn) -> None:
        async with standin.connected(ScopaBot(config)) as bot:      # login, IDENTIFY, READY
            await bot.tree.sync()                                     # users see the commands
            alice, bob = standin.user("alice"), standin.user("bob")
            standin.privacy.set_secrets(alice.user, ["7♥", "3♠"])    # alice's hand
            result = await alice.slash("scopa new", mode="scopa")     # options typed as registered
            table = result.message                                    # live: follows edits
            await bob.click(table, "Siedi")                           # label or custom_id
            hand = await result.followup(0)                           # wait for a follow-up
            assert hand.ephemeral and "7♥" in hand.text()
            assert [m.content for m in standin.timeline("tavolo", as_user="bob")] == [...]

The default world (``default_world()``) is the guild "Osteria" with #tavolo and #chiacchiere
and the users alice (owner), bob, carol and dave (DMs closed). Other pieces:

* ``standin.timeline(channel, as_user=...)``, ``standin.dm_timeline(user)``: messages as that
  person sees them now; ``Message.history`` holds every revision, ``Message.text()`` all
  readable text (content, embeds, components, V2 text displays).
* ``actor.autocomplete(...)``, ``actor.select(...)``, ``actor.submit_modal(result, {...})``,
  ``actor.send(...)``; ``result.failed`` when the bot missed the 3-second deadline.
* ``standin.wait_for(predicate)``: wait for any condition instead of sleeping.
* ``standin.requests`` (every request), ``standin.gateway`` (``request_reconnect()``,
  ``invalidate_session()``, ``drop()``), ``standin.rate_limits.inject(...)``,
  ``standin.world.clock.advance(seconds)`` (expire interaction tokens).
* ``standin.take_violations()`` consumes violations a test provokes on purpose; any other
  violation raises ``StandInViolation`` in the user action that caused it, or fails the test
  at teardown.
"""

from __future__ import annotations

from .interactions import Callback, Interaction, InteractionType
from .models import Channel, ChannelType, Guild, Message, User
from .privacy import Leak
from .server import DiscordStandIn, RequestRecord, StandInViolation, Violation
from .users import Actor, InteractionResult
from .validation import Problem, SpecValidator
from .world import World, default_world

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
