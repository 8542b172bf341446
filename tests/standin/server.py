"""``DiscordStandIn``: the loopback Discord that the unmodified discord.py client talks to.

One aiohttp server on 127.0.0.1 serves the REST API under ``/api/v10`` and the gateway at
``/``. Every request is recorded, checked (spec + hand-written limits) before it is handled,
and answered the way Discord answers, errors included. Anything the bot does wrong — a body
Discord would reject, a route the stand-in does not know, a secret card shown to the wrong
player — becomes a ``Violation``; the user-side call that caused it raises at once, and the
``standin`` fixture fails any test that leaves violations behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import warnings
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from aiohttp import BodyPartReader, web

from .errors import DiscordError, form_body_error, json_response
from .gateway import Gateway
from .messages import Messages
from .models import Channel, Message, Payload, User
from .privacy import Leak, PrivacyGuard
from .ratelimit import RateLimits
from .validation import (
    Problem,
    SpecValidator,
    check_callback,
    check_message,
    shared_spec_validator,
)
from .world import World, default_world

if TYPE_CHECKING:
    import discord

    from .interactions import Interactions
    from .users import Actor

API_PREFIX = "/api/v10"
ClientT = TypeVar("ClientT", bound="discord.Client")


@dataclass(frozen=True)
class Violation:
    """Something the bot did that Discord would refuse, or that breaks a rule of ours."""

    kind: str  # "spec", "limit", "privacy", "unsupported"
    request: str
    path: str
    message: str

    def __str__(self) -> str:
        where = f" {self.path}:" if self.path else ""
        return f"[{self.kind}] {self.request}:{where} {self.message}"


class StandInViolation(AssertionError):
    def __init__(self, violations: list[Violation]) -> None:
        self.violations = violations
        lines = "\n  ".join(str(v) for v in violations)
        super().__init__(f"the bot broke Discord's rules:\n  {lines}")


@dataclass
class RequestRecord:
    method: str
    path: str
    route: str | None
    query: dict[str, str]
    body: Any
    status: int = 0
    response: Any = None


@dataclass
class Call:
    """A matched request, as handlers see it: spec-style route, path params, parsed body."""

    method: str
    route: str
    params: dict[str, str]
    query: dict[str, str]
    body: Any
    files: list[Payload]

    def snowflake(self, name: str) -> int:
        value = self.params[name]
        if not value.isdigit():
            raise form_body_error(
                [(name, "NUMBER_TYPE_COERCE", f'Value "{value}" is not snowflake.')]
            )
        return int(value)


@dataclass
class Reply:
    data: Any = None
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)


Handler = Callable[[Call], Awaitable[Reply | Any]]


@dataclass
class _Route:
    method: str
    pattern: str
    handler: Handler
    auth: bool
    regex: re.Pattern[str]


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
        self.messages = Messages(self.world, self.gateway, self.privacy, self._leaked)
        self.interactions: Interactions = Interactions(self)
        self.requests: list[RequestRecord] = []
        self.violations: list[Violation] = []
        self._routes: list[_Route] = []
        for method, pattern, handler, auth in [
            *RestApi(self).routes(),
            *self.interactions.routes(),
        ]:
            self.add_route(method, pattern, handler, auth=auth)
        self._runner: web.AppRunner | None = None
        self.port = 0
        if not self.spec.available:
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
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._handle)
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
        self.violations.append(violation)
        self.world.touch()

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

    def _leaked(self, leak: Leak) -> None:
        self.violate(Violation("privacy", f"message {leak.message_id}", "", str(leak)))

    # HTTP dispatch ----------------------------------------------------------------------------

    def add_route(self, method: str, pattern: str, handler: Handler, *, auth: bool = True) -> None:
        regex = re.compile(
            "^" + re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(pattern)) + "$"
        )
        self._routes.append(_Route(method, pattern, handler, auth, regex))
        # literal segments (``@me``, ``@original``) must win over parameters
        self._routes.sort(key=lambda r: r.pattern.count("{"))

    def _match(self, method: str, path: str) -> tuple[_Route | None, dict[str, str], bool]:
        known_path = False
        for route in self._routes:
            found = route.regex.match(path)
            if found:
                known_path = True
                if route.method == method:
                    return route, found.groupdict(), True
        return None, {}, known_path

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        query = dict(request.query)
        body, files = await _read_body(request)
        record = RequestRecord(request.method, path, None, query, body)
        self.requests.append(record)
        response = await self._respond(request, record, files)
        record.status = response.status
        if isinstance(response, web.Response) and response.body:
            with contextlib.suppress(ValueError, TypeError):
                record.response = json.loads(response.body)  # type: ignore[arg-type]
        self.world.touch()
        return response

    async def _respond(
        self, request: web.Request, record: RequestRecord, files: list[Payload]
    ) -> web.StreamResponse:
        route, params, known = self._match(request.method, record.path)
        if route is None:
            if known:
                return json_response({"message": "405: Method Not Allowed", "code": 0}, status=405)
            self.violate(
                Violation(
                    "unsupported",
                    f"{request.method} {record.path}",
                    "",
                    "the stand-in does not implement this route (add it to tests/standin/rest.py)",
                )
            )
            return json_response({"message": "404: Not Found", "code": 0}, status=404)
        record.route = route.pattern
        if route.auth and request.headers.get("Authorization") != f"Bot {self.world.token}":
            return json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        major = next(
            (params[k] for k in ("channel_id", "guild_id", "webhook_id") if k in params), ""
        )
        limited, rate_headers = self.rate_limits.check(route.pattern, major)
        if limited is not None:
            return limited
        call = Call(request.method, route.pattern, params, record.query, record.body, files)
        try:
            self._validate(call)
            result = await route.handler(call)
        except DiscordError as error:
            response = error.response()
            response.headers.update(rate_headers)
            return response
        reply = result if isinstance(result, Reply) else Reply(result)
        headers = {**rate_headers, **reply.headers}
        if reply.data is None and reply.status in (200, 204):
            return web.Response(status=204, headers=headers)
        return json_response(reply.data, status=reply.status, headers=headers)

    def _validate(self, call: Call) -> None:
        if call.method not in ("POST", "PUT", "PATCH") or call.body is None:
            return
        request = f"{call.method} {call.route}"
        spec = self.spec.check(call.method, call.route, call.body)
        hand = self._hand_checks(call) if isinstance(call.body, dict) else []
        for kind, problems in (("spec", spec), ("limit", hand)):
            for problem in problems:
                self.violate(Violation(kind, request, problem.path, problem.message))
        if spec or hand:
            raise form_body_error([(p.path, "BASE_TYPE_INVALID", p.message) for p in spec + hand])

    def _hand_checks(self, call: Call) -> list[Problem]:
        body = call.body
        route = call.route
        if route == "/channels/{channel_id}/messages" and call.method == "POST":
            return check_message(body)
        if route == "/webhooks/{webhook_id}/{webhook_token}" and call.method == "POST":
            return check_message(body)
        if route.endswith("/messages/{message_id}") or route.endswith("/messages/@original"):
            message = self.interactions.message_for_edit(call)
            return check_message(body, current_flags=message.flags if message else 0)
        if route.endswith("/callback"):
            message = self.interactions.source_message(call)
            return check_callback(body, current_flags=message.flags if message else 0)
        return []


async def _read_body(request: web.Request) -> tuple[Any, list[Payload]]:
    """JSON bodies, and multipart ones the way discord.py sends files (``payload_json``)."""
    if not request.can_read_body:
        return None, []
    if request.content_type == "multipart/form-data":
        body: Any = None
        files: list[Payload] = []
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not isinstance(part, BodyPartReader):
                continue
            if part.name == "payload_json":
                body = json.loads(await part.text())
            else:
                data = await part.read()
                files.append(
                    {
                        "filename": part.filename or "file",
                        "size": len(data),
                        "content_type": part.headers.get("Content-Type"),
                    }
                )
        return body, files
    raw = await request.read()
    if not raw:
        return None, []
    try:
        return json.loads(raw), []
    except ValueError:
        return raw.decode(errors="replace"), []
