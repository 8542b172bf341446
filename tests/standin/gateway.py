"""The gateway websocket: HELLO, heartbeats, IDENTIFY/READY, RESUME, dispatch, test hooks.

Sessions outlive connections, as on Discord: events dispatched while the bot is between
connections are buffered with their sequence numbers and replayed on RESUME. Each connection
writes through one queue, so events reach the bot in sequence order and a zlib-stream
(one compression context for the whole connection) stays consistent.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import uuid
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .models import ChannelType, Payload
from .world import World

_log = logging.getLogger(__name__)

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE = 0, 1, 2, 3, 4
RESUME, RECONNECT, REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 6, 7, 8, 9, 10, 11

GUILDS = 1 << 0
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15

AUTHENTICATION_FAILED = 4004
NOT_AUTHENTICATED = 4003
UNKNOWN_OPCODE = 4001


@dataclass
class Connection:
    """One websocket; everything it sends goes through ``queue`` in order."""

    ws: web.WebSocketResponse
    request: web.Request
    compress: bool
    queue: asyncio.Queue[Payload | None] = field(default_factory=asyncio.Queue)
    session: Session | None = None
    _zlib: Any = field(default_factory=zlib.compressobj)

    def encode_and_send(self, payload: Payload) -> Any:
        text = json.dumps(payload)
        if self.compress:
            data = self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
            return self.ws.send_bytes(data)
        return self.ws.send_str(text)


@dataclass
class Session:
    id: str
    intents: int
    seq: int = 0
    buffer: list[Payload] = field(default_factory=list)
    connection: Connection | None = None

    def push(self, event: str, data: Payload) -> None:
        self.seq += 1
        payload = {"op": DISPATCH, "t": event, "s": self.seq, "d": data}
        self.buffer.append(payload)
        if self.connection is not None:
            self.connection.queue.put_nowait(payload)


class Gateway:
    """Serves the websocket and keeps the bot's session; the world dispatches through it."""

    def __init__(self, world: World, *, resume_url: Callable[[], str]) -> None:
        self.world = world
        self._resume_url = resume_url
        self.heartbeat_interval_ms = 41_250
        self.sessions: dict[str, Session] = {}
        self.current: Session | None = None
        self.connections: list[Connection] = []
        self.received: list[Payload] = []  # every op the bot sent, token redacted
        self.identifies = 0
        self.resumes = 0
        self.readies = 0

    # Dispatch -------------------------------------------------------------------------------

    def dispatch(self, event: str, data: Payload, *, intent: int | None = None) -> None:
        """Send an event to the bot's session, if its intents ask for it."""
        session = self.current
        if session is None:
            return
        if intent is not None and not session.intents & intent:
            return
        session.push(event, data)

    def dispatch_message(
        self,
        event: str,
        data: Payload,
        *,
        channel_type: ChannelType,
        author_id: int,
        mentions_bot: bool = False,
    ) -> None:
        """MESSAGE_CREATE/UPDATE with Discord's intent rules, content stripped without intent."""
        session = self.current
        if session is None:
            return
        in_dm = channel_type is ChannelType.DM
        if not session.intents & (DIRECT_MESSAGES if in_dm else GUILD_MESSAGES):
            return
        privileged = in_dm or author_id == self.world.bot.id or mentions_bot
        if not privileged and not session.intents & MESSAGE_CONTENT:
            data = {**data, "content": "", "embeds": [], "components": [], "attachments": []}
        session.push(event, data)

    # Test hooks ----------------------------------------------------------------------------

    def _live(self) -> Connection:
        if self.current is None or self.current.connection is None:
            raise RuntimeError("no bot is connected to the gateway")
        return self.current.connection

    async def request_reconnect(self) -> None:
        """Op 7: the bot should close and RESUME."""
        self._live().queue.put_nowait({"op": RECONNECT, "d": None})

    async def invalidate_session(self, *, resumable: bool = False) -> None:
        """Op 9; a non-resumable session is forgotten, so the bot must IDENTIFY again."""
        connection = self._live()
        if not resumable and connection.session is not None:
            self.sessions.pop(connection.session.id, None)
        connection.queue.put_nowait({"op": INVALID_SESSION, "d": resumable})

    async def drop(self, *, code: int | None = None) -> None:
        """Lose the connection: a close frame with ``code``, or the TCP link cut without one."""
        connection = self._live()
        if code is None:
            transport = connection.request.transport
            if transport is not None:
                transport.abort()
        else:
            await connection.ws.close(code=code, message=b"stand-in drop")

    async def close_all(self) -> None:
        for connection in list(self.connections):
            connection.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await connection.ws.close(code=1001, message=b"stand-in shutting down")

    # The websocket ---------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(timeout=2.0, max_msg_size=0)
        await ws.prepare(request)
        connection = Connection(ws, request, request.query.get("compress") == "zlib-stream")
        self.connections.append(connection)
        writer = asyncio.create_task(self._write(connection))
        connection.queue.put_nowait(
            {"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}}
        )
        try:
            async for message in ws:
                if message.type is WSMsgType.TEXT:
                    await self._receive(connection, json.loads(message.data))
                elif message.type is WSMsgType.ERROR:
                    break
        finally:
            self.connections.remove(connection)
            session = connection.session
            if session is not None and session.connection is connection:
                session.connection = None
            connection.queue.put_nowait(None)
            await asyncio.gather(writer, return_exceptions=True)
            self.world.touch()
        return ws

    async def _write(self, connection: Connection) -> None:
        while (payload := await connection.queue.get()) is not None:
            if connection.ws.closed:
                return
            try:
                await connection.encode_and_send(payload)
            except (ConnectionError, RuntimeError):
                return

    async def _receive(self, connection: Connection, payload: Payload) -> None:
        op = payload.get("op")
        redacted = dict(payload)
        if isinstance(payload.get("d"), dict) and "token" in payload["d"]:
            redacted["d"] = {**payload["d"], "token": "<redacted>"}
        self.received.append(redacted)
        self.world.touch()
        data = payload.get("d")
        if not isinstance(data, dict):
            data = {}
        if op == HEARTBEAT:
            connection.queue.put_nowait({"op": HEARTBEAT_ACK})
        elif op == IDENTIFY:
            await self._identify(connection, data)
        elif op == RESUME:
            await self._resume(connection, data)
        elif connection.session is None:
            await connection.ws.close(code=NOT_AUTHENTICATED, message=b"Not authenticated.")
        elif op == REQUEST_MEMBERS:
            self._members_chunk(data)
        elif op in (PRESENCE, VOICE):
            pass
        else:
            await connection.ws.close(code=UNKNOWN_OPCODE, message=b"Unknown opcode.")

    async def _identify(self, connection: Connection, data: Payload) -> None:
        if data.get("token") != self.world.token:
            await connection.ws.close(code=AUTHENTICATION_FAILED, message=b"Authentication failed.")
            return
        self.identifies += 1
        session = Session(uuid.uuid4().hex, int(data.get("intents", 0)))
        self.sessions[session.id] = session
        self._attach(connection, session)
        world = self.world
        ready: Payload = {
            "v": 10,
            "user": {**world.bot.payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g), "unavailable": True} for g in world.guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self._resume_url(),
            "application": {"id": str(world.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "_trace": ["discord-stand-in"],
        }
        if "shard" in data:
            ready["shard"] = data["shard"]
        session.push("READY", ready)
        self.readies += 1
        for guild in world.guilds.values():
            session.push("GUILD_CREATE", world.guild_create_payload(guild))
        world.touch()

    async def _resume(self, connection: Connection, data: Payload) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or data.get("token") != self.world.token:
            connection.queue.put_nowait({"op": INVALID_SESSION, "d": False})
            return
        self.resumes += 1
        self._attach(connection, session)
        since = int(data.get("seq") or 0)
        for payload in session.buffer:
            if payload["s"] > since:
                connection.queue.put_nowait(payload)
        session.push("RESUMED", {"_trace": ["discord-stand-in"]})
        self.world.touch()

    def _attach(self, connection: Connection, session: Session) -> None:
        old = session.connection
        if old is not None and old is not connection:
            old.queue.put_nowait(None)
        session.connection = connection
        connection.session = session
        self.current = session

    def _members_chunk(self, data: Payload) -> None:
        guild = self.world.guilds.get(int(data.get("guild_id", 0)))
        if guild is None:
            return
        self.dispatch(
            "GUILD_MEMBERS_CHUNK",
            {
                "guild_id": str(guild.id),
                "members": [m.payload() for m in guild.members.values()],
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": [],
                "nonce": data.get("nonce"),
            },
        )

    def ops_received(self, op: int) -> list[Payload]:
        return [p for p in self.received if p.get("op") == op]
