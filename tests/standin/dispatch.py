"""The REST side of the stand-in: every request recorded, matched, checked and answered.

A request is matched to a route written as in Discord's OpenAPI description, authorised,
rate-limited, checked (spec, hand-written limits, empty messages) and handed to its
handler. Whatever is refused goes back to the bot as Discord sends it (``DiscordError``:
status, code, message, ``errors`` tree) and is recorded as a violation, because a bot that
swallows a refusal still failed its user; a refusal whose broken rule is already recorded
(``recorded=True``) is not recorded twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import BodyPartReader, web

from .errors import INVALID_FORM_BODY, DiscordError, empty_message, form_body_error, json_response
from .limits import check_callback, check_files, check_message, empty_after
from .models import Payload
from .validation import Problem
from .violations import Violation

if TYPE_CHECKING:
    from .server import DiscordStandIn


@dataclass
class RequestRecord:
    method: str
    path: str
    route: str | None
    query: dict[str, str]
    body: Any
    status: int = 0
    response: Any = None
    via: str | None = None  # the process whose door it came through (DiscordStandIn.door)


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


@dataclass
class _Slow:
    """An answer to hold (:meth:`Dispatcher.answer_slowly`)."""

    route: str
    seconds: float
    method: str | None
    channel_id: int | None
    when: Callable[[Call], bool] | None


@dataclass
class _Held:
    """A request to carry out only once something else has happened (:meth:`Dispatcher.after`)."""

    route: str
    until: Callable[[], bool]
    seconds: float
    method: str | None
    via: str | None


class Dispatcher:
    """Routes and the path every request takes through them."""

    def __init__(self, standin: DiscordStandIn) -> None:
        self.s = standin
        self.routes: list[_Route] = []
        self._slow: list[_Slow] = []
        self._held: list[_Held] = []
        self._released = asyncio.Event()  # set: the answers held are given now
        self._failing: list[tuple[str, float, int]] = []

    def answer_slowly(
        self,
        route: str,
        seconds: float,
        *,
        method: str | None = None,
        channel_id: int | None = None,
        when: Callable[[Call], bool] | None = None,
    ) -> None:
        """Hold the answer to the next request to ``route`` (a spec-style path; only with
        ``method``, in ``channel_id``, and for which ``when`` is true, when given) ``seconds``
        after it was carried out, as a busy Discord does: people already see its effect (a
        reply, a message) while the bot still waits to learn, say, the message's id (or is
        killed before it does)."""
        self._slow.append(_Slow(route, seconds, method, channel_id, when))

    def after(
        self,
        route: str,
        until: Callable[[], bool],
        *,
        seconds: float,
        method: str | None = None,
        via: str | None = None,
    ) -> None:
        """Carry out the next request to ``route`` (only with ``method``, through the door
        ``via``, when given) once ``until()`` holds, or after ``seconds`` at most: Discord
        takes two processes' requests in whichever order they reach it, and a test makes the
        order it is about. ``seconds`` is Discord's own time (it counts against an
        interaction's 3 s), so it is not stretched by the stand-in's patience."""
        self._held.append(_Held(route, until, seconds, method, via))

    def release(self) -> None:
        """Give every answer held by :meth:`answer_slowly` now (the stand-in closing: nobody
        waits for them any more)."""
        self._slow.clear()
        self._released.set()

    def fail_for(self, route: str, seconds: float, *, status: int = 500) -> None:
        """Answer every request to ``route`` with ``status`` (Discord having a bad moment)
        for the next ``seconds``, without carrying it out. The failures are the test's
        doing, so they are no violations; what the bot does about them may be."""
        self._failing.append((route, time.monotonic() + seconds, status))

    def heal(self, route: str) -> None:
        """End every :meth:`fail_for` of ``route`` now: Discord is well again."""
        self._failing = [entry for entry in self._failing if entry[0] != route]

    def failing(self, route: str) -> bool:
        """Whether requests to ``route`` are still answered with a failure (:meth:`fail_for`)."""
        now = time.monotonic()
        return any(failing == route and now < until for failing, until, _ in self._failing)

    # HTTP dispatch ----------------------------------------------------------------------------

    def add(self, method: str, pattern: str, handler: Handler, *, auth: bool = True) -> None:
        regex = re.compile(
            "^" + re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(pattern)) + "$"
        )
        self.routes.append(_Route(method, pattern, handler, auth, regex))
        # literal segments (``@me``, ``@original``) must win over parameters
        self.routes.sort(key=lambda r: r.pattern.count("{"))

    def _match(self, method: str, path: str) -> tuple[_Route | None, dict[str, str], bool]:
        known_path = False
        for route in self.routes:
            found = route.regex.match(path)
            if found:
                known_path = True
                if route.method == method:
                    return route, found.groupdict(), True
        return None, {}, known_path

    async def handle(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        query = dict(request.query)
        body, files = await _read_body(request)
        record = RequestRecord(request.method, path, None, query, body)
        if self.s.doors and request.transport is not None:
            sockname = request.transport.get_extra_info("sockname")
            record.via = self.s.doors.get(sockname[1]) if sockname else None
        self.s.requests.append(record)
        response = await self._respond(request, record, files)
        record.status = response.status
        if isinstance(response, web.Response) and response.body:
            with contextlib.suppress(ValueError, TypeError):
                record.response = json.loads(response.body)  # type: ignore[arg-type]
        self.s.world.touch()
        return response

    async def _respond(
        self, request: web.Request, record: RequestRecord, files: list[Payload]
    ) -> web.StreamResponse:
        headers: dict[str, str] = {}
        try:
            reply = await self._dispatch(request, record, files, headers)
        except DiscordError as error:
            if not error.recorded:
                self._refused(record, error)
            response = error.response()
            response.headers.update(headers)
            return response
        if isinstance(reply, web.StreamResponse):
            return reply
        headers.update(reply.headers)
        if reply.data is None and reply.status in (200, 204):
            return web.Response(status=204, headers=headers)
        return json_response(reply.data, status=reply.status, headers=headers)

    async def _dispatch(
        self,
        request: web.Request,
        record: RequestRecord,
        files: list[Payload],
        headers: dict[str, str],
    ) -> Reply | web.StreamResponse:
        """Match, authorise, rate-limit, validate and handle; refusals raise ``DiscordError``."""
        route, params, known = self._match(request.method, record.path)
        if route is None:
            if known:
                raise DiscordError(405, 0, "405: Method Not Allowed")
            self.s.violate(
                Violation(
                    "unsupported",
                    f"{request.method} {record.path}",
                    "",
                    "the stand-in does not implement this route (add it to tests/standin/rest.py)",
                )
            )
            raise DiscordError(404, 0, "404: Not Found", recorded=True)
        record.route = route.pattern
        if route.auth and request.headers.get("Authorization") != f"Bot {self.s.world.token}":
            raise DiscordError(401, 0, "401: Unauthorized")
        # Discord's buckets: per route and major parameter; an interaction's answers (its
        # callback, its follow-ups through the webhook and token) have a bucket of their own,
        # not one shared by every person clicking.
        major = next(
            (params[k] for k in ("channel_id", "guild_id", "webhook_id") if k in params), ""
        ) + "".join(f"/{params[k]}" for k in ("interaction_id", "webhook_token") if k in params)
        for failing, until, status in self._failing:
            if failing == route.pattern and time.monotonic() < until:
                raise DiscordError(status, 0, f"{status}: Internal Server Error", recorded=True)
        limited, rate_headers, outrun = self.s.rate_limits.check(route.pattern, major)
        if limited is not None:
            if outrun:
                self.s.violate(
                    Violation(
                        "refused",
                        f"{request.method} {route.pattern}",
                        "",
                        "429: the bot outran the rate limit it was told (X-RateLimit-*)",
                        code=0,
                    )
                )
            return limited
        headers.update(rate_headers)
        for held in self._held:
            if (
                held.route == route.pattern
                and held.method in (None, request.method)
                and held.via in (None, record.via)
            ):
                self._held.remove(held)
                until = time.monotonic() + held.seconds
                while not held.until() and time.monotonic() < until:
                    await asyncio.sleep(0.005)
                break
        call = Call(request.method, route.pattern, params, record.query, record.body, files)
        self._validate(call)
        result = await route.handler(call)
        for slow in self._slow:
            if (
                slow.route == route.pattern
                and slow.method in (None, request.method)
                and slow.channel_id in (None, int(params.get("channel_id", 0)))
                and (slow.when is None or slow.when(call))
            ):
                self._slow.remove(slow)
                self.s.world.touch()  # its effect is there for people to act on
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._released.wait(), slow.seconds)
                break
        return result if isinstance(result, Reply) else Reply(result)

    def _refused(self, record: RequestRecord, error: DiscordError) -> None:
        request = f"{record.method} {record.route or record.path}"
        about = self.s.interactions.describe_request(record.route, record.path)
        self.s.violate(
            Violation(
                "refused",
                request + (f" ({about})" if about else ""),
                "",
                f"{error.status} {error.code}: {error.message}",
                code=error.code,
            )
        )

    def _validate(self, call: Call) -> None:
        if call.method not in ("POST", "PUT", "PATCH") or call.body is None:
            return
        request = f"{call.method} {call.route}"
        spec = self.s.spec.check(call.method, call.route, call.body)
        hand = self._hand_checks(call) if isinstance(call.body, dict) else []
        for kind, problems in (("spec", spec), ("limit", hand)):
            for problem in problems:
                self.s.violate(
                    Violation(kind, request, problem.path, problem.message, code=INVALID_FORM_BODY)
                )
        if spec or hand:
            error = form_body_error([(p.path, "BASE_TYPE_INVALID", p.message) for p in spec + hand])
            error.recorded = True
            raise error
        if isinstance(call.body, dict) and self._would_be_empty(call):
            raise empty_message()

    def _would_be_empty(self, call: Call) -> bool:
        """A message left with nothing to show, which Discord refuses with 50006."""
        body, route = call.body, call.route
        if route in ("/channels/{channel_id}/messages", "/webhooks/{webhook_id}/{webhook_token}"):
            return call.method == "POST" and empty_after(body, call.files, None)
        if call.method == "PATCH" and (
            route.endswith("/messages/{message_id}") or route.endswith("/messages/@original")
        ):
            current = self.s.interactions.message_for_edit(call)
            return current is not None and empty_after(body, call.files, current)
        if route.endswith("/callback"):
            data = body.get("data") or {}
            if body.get("type") == 4:
                return empty_after(data, call.files, None)
            if body.get("type") == 7:
                source = self.s.interactions.source_message(call)
                return source is not None and empty_after(data, call.files, source)
        return False

    def _hand_checks(self, call: Call) -> list[Problem]:
        return self._message_checks(call) + self._file_checks(call)

    def _message_checks(self, call: Call) -> list[Problem]:
        body = call.body
        route = call.route
        if route == "/channels/{channel_id}/messages" and call.method == "POST":
            return check_message(body)
        if route == "/webhooks/{webhook_id}/{webhook_token}" and call.method == "POST":
            return check_message(body)
        if route.endswith("/messages/{message_id}") or route.endswith("/messages/@original"):
            message = self.s.interactions.message_for_edit(call)
            return check_message(body, current_flags=message.flags if message else 0)
        if route.endswith("/callback"):
            message = self.s.interactions.source_message(call)
            return check_callback(body, current_flags=message.flags if message else 0)
        return []

    def _file_checks(self, call: Call) -> list[Problem]:
        """Attachments of a message sent, edited or answered with (see ``check_files``)."""
        body, route = call.body, call.route
        if call.method == "POST" and route in (
            "/channels/{channel_id}/messages",
            "/webhooks/{webhook_id}/{webhook_token}",
        ):
            return check_files(body, call.files)
        if call.method == "PATCH" and (
            route.endswith("/messages/{message_id}") or route.endswith("/messages/@original")
        ):
            current = self.s.interactions.message_for_edit(call)
            return check_files(body, call.files, current=current)
        if route.endswith("/callback") and isinstance(body.get("data"), dict):
            kind = body.get("type")
            if kind == 4:
                return check_files(body["data"], call.files, "data")
            if kind == 7:
                source = self.s.interactions.source_message(call)
                return check_files(body["data"], call.files, "data", current=source)
        return []


async def _read_body(request: web.Request) -> tuple[Any, list[Payload]]:
    """JSON bodies, and multipart ones the way discord.py sends files (``payload_json``)."""
    if not request.can_read_body:
        return None, []
    # The media type read off the header itself: aiohttp's ``content_type`` parses it with the
    # email package, a sixth of the harness's CPU when a bench sends hundreds of requests a
    # second (the parameters, the boundary among them, are the multipart reader's business).
    media_type = request.headers.get("Content-Type", "").partition(";")[0].strip().lower()
    if media_type == "multipart/form-data":
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
                index = re.fullmatch(r"files\[(\d+)\]", part.name or "")
                files.append(
                    {
                        "filename": part.filename or "file",
                        "size": len(data),
                        "content_type": part.headers.get("Content-Type"),
                        "index": int(index[1]) if index else None,
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
