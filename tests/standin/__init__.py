"""A stand-in for Discord, served on loopback, for driving the real bot end to end.

The unmodified discord.py client connects to it over REST and the gateway; tests act as
users, read what each person sees, and fail when the bot sends anything Discord would refuse
or shows a player's secret cards to someone else.

Writing an end-to-end test of the real ``bot.py`` (the fixtures ``threaded``, a world whose
server lets the bot open threads, and ``bot_py``, bot.py running against it as a child
process, are in ``tests/bot/conftest.py``; the readers in ``tests/bot/helpers.py``)::

    async def test_a_table_against_a_computer(
        threaded: DiscordStandIn, bot_py: BotProcess
    ) -> None:
        s = threaded
        alice = s.user("alice")
        created = await alice.slash("scopa new", computers=1)    # options as registered
        invitation = created.message                              # live: follows edits
        await alice.click(invitation, tr("btn.start", Lang.IT))  # a label or a custom_id
        thread = await s.wait_for(lambda: thread_named(s, "Scopa"), timeout=5)
        hand = await s.wait_for(lambda: hand_message(s, alice), timeout=5)  # her DM
        s.privacy.set_secrets(alice.user, [held(c) for c in card_labels(hand)])
        table = table_messages(s, thread)[0]
        shown = (await alice.click(table, tr("btn.my_hand", Lang.IT))).message
        assert shown is not None and shown.ephemeral              # only alice sees it
        assert [m.id for m in s.timeline(thread, as_user="bob")] == [table.id]

The stand-in's own tests (``tests/standin/test_*.py``) drive the small bot of
``tests/standin/sample_bot.py`` in-process instead: ``async with
standin.connected(SampleBot()) as bot`` logs it in (IDENTIFY, READY), and
``await bot.tree.sync()`` shows users its commands (the ``standin`` and ``sample_bot``
fixtures of ``tests/conftest.py``).

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
  ``standin.dispatcher.answer_slowly(route, seconds, method=..., channel_id=..., when=...)``
  (the next such request carried out, its answer held: people see a reply before the bot
  learns its id, or the bot is killed before it does), ``standin.dispatcher.fail_for(route,
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

    await dave.click(invitation, tr("btn.join", Lang.IT))
    async with standin.expect_violation(code=50007) as expected:   # dave's DMs are closed
        await alice.click(invitation, tr("btn.start", Lang.IT))    # his hand's DM is refused
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
