"""``DiscordStandIn``: the loopback Discord that the unmodified discord.py client talks to.

One aiohttp server on 127.0.0.1 serves the REST API under ``/api/v10`` and the gateway at
``/``. Every request is recorded, checked (spec + hand-written limits) before it is handled,
and answered the way Discord answers, errors included. Anything the bot does wrong — a body
Discord would reject, any other request refused with a 4xx, an interaction the user saw fail,
a route the stand-in does not know, a secret card shown to the wrong player — becomes a
``Violation``; the user-side call that caused it raises at once, and the ``standin`` fixture
fails any test that leaves violations behind, unless the test expected them
(``expect_violation``).
"""

from __future__ import annotations

import asyncio
import contextlib
import warnings
from collections.abc import AsyncIterator, Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from aiohttp import web

from .dispatch import Dispatcher, RequestRecord
from .gateway import Gateway
from .messages import Messages
from .models import Channel, Message, User
from .privacy import Leak, PrivacyGuard
from .ratelimit import RateLimits
from .validation import SpecValidator, shared_spec_validator
from .violations import ExpectedViolation, StandInViolation, Violation
from .world import World, default_world

if TYPE_CHECKING:
    import discord

    from .interactions import Interactions
    from .users import Actor

API_PREFIX = "/api/v10"
ClientT = TypeVar("ClientT", bound="discord.Client")


class DiscordStandIn:
    """The stand-in: world + REST + gateway + rules. Use as ``async with DiscordStandIn():``."""

    def __init__(
        self,
        world: World | None = None,
        *,
        response_deadline: float = 3.0,
        token_lifetime: float = 15 * 60,
        spec: SpecValidator | None = None,
    ) -> None:
        from .interactions import Interactions
        from .rest import RestApi

        self.world = world or default_world()
        self.response_deadline = response_deadline
        self.token_lifetime = token_lifetime
        self.spec = spec or shared_spec_validator()
        self.gateway = Gateway(self.world, resume_url=lambda: self.gateway_url)
        self.rate_limits = RateLimits()
        self.privacy = PrivacyGuard(self.world)
        self.messages = Messages(self.world, self.gateway, self.privacy, self.leaked)
        self.interactions: Interactions = Interactions(self)
        self.requests: list[RequestRecord] = []
        self.violations: list[Violation] = []
        self._expected: list[ExpectedViolation] = []
        self.dispatcher = Dispatcher(self)
        for method, pattern, handler, auth in [
            *RestApi(self).routes(),
            *self.interactions.routes(),
        ]:
            self.dispatcher.add(method, pattern, handler, auth=auth)
        self._runner: web.AppRunner | None = None
        self.doors: dict[int, str] = {}  # port -> the name of the process given it (env_for)
        self.port = 0
        if not self.spec.available and not self.spec.reported:
            # Said once per validator: the shared one serves every fixture of a test run.
            self.spec.reported = True
            warnings.warn(self.spec.skip_reason or "spec unavailable", stacklevel=2)

    # Lifecycle ------------------------------------------------------------------------------

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/", self.gateway.handle)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self.dispatcher.handle)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        self.world.emit = self.gateway.dispatch

    async def close(self) -> None:
        self.interactions.cancel_timers()
        self.dispatcher.release()
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> DiscordStandIn:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @contextlib.contextmanager
    def patch_discord(self) -> Iterator[None]:
        """Point discord.py (this process) at the stand-in; restore it afterwards."""
        import discord.gateway
        import discord.http
        import yarl

        old_base = discord.http.Route.BASE
        old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord.http.Route.BASE = self.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        try:
            yield
        finally:
            discord.http.Route.BASE = old_base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    async def door(self, name: str) -> str:
        """The REST API's base on a port of its own, for one bot process named ``name``:
        every request through it is recorded with ``RequestRecord.via == name``, so a test
        of several processes sees which one sent what (Discord has one API for them all)."""
        assert self._runner is not None, "start the stand-in first"
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        self.doors[port] = name
        return f"http://127.0.0.1:{port}{API_PREFIX}"

    def env(self) -> dict[str, str]:
        """Environment for running ``bot.py`` as a child process against the stand-in."""
        return {
            "DISCORD_TOKEN": self.world.token,
            "SCOPABOT_DISCORD_API_BASE": self.api_base,
            "SCOPABOT_DISCORD_GATEWAY": self.gateway_url,
        }

    @contextlib.asynccontextmanager
    async def connected(self, client: ClientT, *, timeout: float = 5.0) -> AsyncIterator[ClientT]:
        """Run ``client`` against the stand-in until it is ready; close it on the way out."""
        with self.patch_discord():
            runner = asyncio.create_task(client.start(self.world.token))
            ready = asyncio.create_task(client.wait_until_ready())
            try:
                done, _ = await asyncio.wait(
                    {runner, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
                )
                if runner in done:
                    runner.result()  # raises what stopped the client
                    raise RuntimeError("the client stopped before it was ready")
                if not done:
                    raise TimeoutError("the client did not become ready")
                yield client
            finally:
                ready.cancel()
                await client.close()
                with contextlib.suppress(Exception, asyncio.CancelledError):
                    await asyncio.wait_for(runner, timeout=5)

    # User side and views for assertions -----------------------------------------------------

    def user(self, name_or_user: str | User) -> Actor:
        from .users import Actor

        user = (
            name_or_user if isinstance(name_or_user, User) else self.world.user_named(name_or_user)
        )
        return Actor(self, user)

    def channel(self, name: str) -> Channel:
        return self.world.channel_named(name)

    def timeline(self, channel: Channel | str, *, as_user: User | str) -> list[Message]:
        """What ``as_user`` sees in ``channel`` now (ephemeral replies only their own)."""
        if isinstance(channel, str):
            channel = self.world.channel_named(channel)
        viewer = as_user if isinstance(as_user, User) else self.world.user_named(as_user)
        return self.world.timeline(channel, viewer)

    def dm_timeline(self, user: User | str) -> list[Message]:
        """The user's DM with the bot, as the user sees it."""
        viewer = user if isinstance(user, User) else self.world.user_named(user)
        return self.world.timeline(self.world.dm_channel(viewer), viewer)

    def message(self, message_id: int) -> Message:
        return self.world.messages[message_id]

    async def wait_for(self, predicate: Callable[[], Any], *, timeout: float = 2.0) -> Any:
        """Wait until ``predicate()`` holds (checked after every change); fail on violations."""
        before = len(self.violations)

        def done() -> Any:
            return len(self.violations) > before or predicate()

        result = await self.world.wait_for(done, timeout=timeout)
        self.raise_new_violations(before)
        return result

    # Violations ---------------------------------------------------------------------------

    def violate(self, violation: Violation) -> None:
        for expected in reversed(self._expected):
            if expected.matches(violation):
                expected.caught.append(violation)
                break
        else:
            self.violations.append(violation)
        self.world.touch()

    @contextlib.asynccontextmanager
    async def expect_violation(
        self,
        kind: str | None = None,
        *,
        code: int | None = None,
        match: str | None = None,
        timeout: float = 2.0,
    ) -> AsyncIterator[ExpectedViolation]:
        """Catch the violations of the block that match; fail if none came by its end.

        ``kind`` (``"refused"``, ``"failed"``, ``"limit"``…), ``code`` (the Discord error
        code: 40060, 10062, 50006, 50007…) and ``match`` (a regex on the violation's text)
        narrow what is expected; the caught ones are in ``.caught``. On leaving the block it
        waits up to ``timeout`` seconds for the first one.
        """
        expected = ExpectedViolation(kind, code, match)
        self._expected.append(expected)
        try:
            yield expected
            try:
                await self.world.wait_for(lambda: expected.caught, timeout=timeout)
            except TimeoutError:
                raise AssertionError(f"expected {expected}, but none came") from None
        finally:
            self._expected.remove(expected)

    def raise_new_violations(self, since: int) -> None:
        """Raise (and consume) the violations recorded after index ``since``."""
        if len(self.violations) > since:
            new = self.violations[since:]
            del self.violations[since:]
            raise StandInViolation(new)

    def take_violations(self) -> list[Violation]:
        taken, self.violations = self.violations, []
        return taken

    def check(self) -> None:
        """Raise if the bot left violations behind; the ``standin`` fixture calls this."""
        self.raise_new_violations(0)

    def leaked(self, leak: Leak) -> None:
        self.violate(Violation("privacy", leak.what, leak.field, str(leak)))
