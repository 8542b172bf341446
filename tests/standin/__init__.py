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
* ``standin.privacy.set_secrets(user, [...])``: strings or patterns only ``user`` may see; the
  guard reads every string any viewer's client receives (``Message.received()``), modals and
  autocomplete choices included.
* ``standin.wait_for(predicate)``: wait for any condition instead of sleeping.
* ``standin.requests`` (every request), ``standin.gateway`` (``request_reconnect()``,
  ``invalidate_session()``, ``drop()``), ``standin.rate_limits.inject(...)``,
  ``standin.dispatcher.answer_slowly(route, seconds)`` (the request carried out, its answer
  held: people see a reply before the bot learns its id), ``standin.dispatcher.fail_for(route,
  seconds, status=500)`` (Discord failing a route for a while; not violations themselves),
  ``standin.world.clock.advance(seconds)`` (expire interaction tokens).
* What moderators do: ``world.archive_thread(thread, locked=...)`` (THREAD_UPDATE; then the
  bot's edits there get 400 50083 "Thread is archived", and a message sent opens it again
  unless locked), ``world.delete_channel(channel)`` (THREAD_DELETE; then 10003),
  ``world.set_overwrite(channel, user_or_role_or_guild, allow=..., deny=...)``. Permissions
  are computed per channel as Discord does (``permissions.py``): ``app_permissions``, and
  403 50013 "Missing Permissions" for a send, a thread or a channel edit the bot may not do.

Violations. Whatever Discord would refuse or a user would see fail is a ``Violation``, even
when the bot catches the error and carries on: a body against the spec or a hand-written
limit (kinds ``spec``, ``limit``: 50035), any other request answered with a 4xx
(``refused``: 40060 answered twice, 10062 answered late, 50006 an empty message, 50007
closed DMs, 10008 unknown message, 401s, a 429 for outrunning the announced rate limit; not
the 429s a test injects), an interaction not answered within the deadline (``failed``,
code 10062: the user saw "This interaction failed"), a secret shown to someone else
(``privacy``), a route the stand-in lacks (``unsupported``). Each one raises
``StandInViolation`` in the user action that caused it, or fails the test at teardown,
unless the test expects it::

    async with standin.expect_violation(code=50007) as expected:   # dave's DMs are closed
        result = await alice.slash("scopa invite", user=dave)
    assert "50007" in str(expected.caught[0])

``expect_violation(kind=None, *, code=None, match=None, timeout=2.0)`` catches the matching
violations of its block (all of them, in ``.caught``; ``match`` is a regex on the text) and
fails if none came by the end of the block (it waits up to ``timeout`` for the first).
Others still raise. Nest two for an incident with two sides, e.g. a reply refused with 50006
and then the interaction failing at the deadline (``code=50006`` and ``kind="failed"``).
``standin.take_violations()`` consumes, after the fact, all violations recorded so far.
"""

from __future__ import annotations

from .dispatch import RequestRecord
from .interaction_data import Callback, Interaction, InteractionType
from .models import Channel, ChannelType, Guild, Message, User
from .privacy import Leak
from .server import DiscordStandIn
from .users import Actor, InteractionResult
from .validation import Problem, SpecValidator
from .violations import ExpectedViolation, StandInViolation, Violation
from .world import World, default_world

__all__ = [
    "Actor",
    "Callback",
    "Channel",
    "ChannelType",
    "DiscordStandIn",
    "ExpectedViolation",
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
