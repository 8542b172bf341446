"""The gateway websocket: HELLO, heartbeats, IDENTIFY/READY, RESUME, dispatch, test hooks.

Sessions outlive connections, as on Discord: events dispatched while the bot is between
connections are buffered with their sequence numbers and replayed on RESUME. Each connection
writes through one queue, so events reach the bot in sequence order and a zlib-stream or
zstd-stream (one compression context for the whole connection, as Discord offers both) stays
consistent.

Shards, as Discord has them (the "Sharding" topic of the developer docs): an IDENTIFY may
carry ``shard: [shard_id, num_shards]``; that session then hears only of the guilds with
``(guild_id >> 22) % num_shards == shard_id`` (its READY lists only those, and only those get
a GUILD_CREATE), and DMs, with the interactions from them, go to shard 0 only. A session
without ``shard`` is shard 0 of 1 and hears of everything. A shard that is not
``0 <= shard_id < num_shards`` is closed with 4010 ("Invalid shard"). Several sessions, one a
shard (as several bot processes hold them), are served at once; a new IDENTIFY of a shard
replaces that shard's earlier session.
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
HEARTBEAT_ACK_AFTER = 0.02  # seconds: a round trip to Discord's gateway

GUILDS = 1 << 0
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15

AUTHENTICATION_FAILED = 4004
NOT_AUTHENTICATED = 4003
UNKNOWN_OPCODE = 4001
INVALID_SHARD = 4010

# What a message event loses without the message content intent.
_NO_CONTENT: Payload = {"content": "", "embeds": [], "components": [], "attachments": []}

# Events about a guild itself name it ``id``; every other guild event names it ``guild_id``.
_GUILD_ITSELF = ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE")


def shard_of(guild_id: int | None, num_shards: int) -> int:
    """The shard that hears of ``guild_id`` (Discord's formula); DMs are shard 0's."""
    return 0 if guild_id is None else (guild_id >> 22) % num_shards


def guild_of_event(event: str, data: Payload) -> int | None:
    """The guild an event is about (None: a DM, or nothing of a guild)."""
    raw = data.get("id") if event in _GUILD_ITSELF else data.get("guild_id")
    return int(raw) if raw is not None else None


@dataclass
class Connection:
    """One websocket; everything it sends goes through ``queue`` in order."""

    ws: web.WebSocketResponse
    request: web.Request
    compress: str | None  # "zlib-stream", "zstd-stream" or None, as the bot asked
    queue: asyncio.Queue[Payload | None] = field(default_factory=asyncio.Queue)
    session: Session | None = None
    _zlib: Any = field(default_factory=zlib.compressobj)
    _zstd: Any = None

    def encode_and_send(self, payload: Payload) -> Any:
        text = json.dumps(payload)
        if self.compress == "zstd-stream":
            if self._zstd is None:
                self._zstd = _zstd_stream()
            data = self._zstd.compress(text.encode()) + self._zstd.flush(_ZSTD_FLUSH_BLOCK)
            return self.ws.send_bytes(data)
        if self.compress:
            data = self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
            return self.ws.send_bytes(data)
        return self.ws.send_str(text)


_ZSTD_FLUSH_BLOCK = 1  # zstandard.COMPRESSOBJ_FLUSH_BLOCK: the frame stays open, as Discord's


def _zstd_stream() -> Any:
    """One zstd stream for a whole connection, each event flushed as a block (Discord's
    zstd-stream); discord.py asks for it when zstandard is installed."""
    import zstandard

    return zstandard.ZstdCompressor().compressobj()


def _compression(asked: str | None) -> str | None:
    if asked == "zstd-stream":
        try:
            import zstandard  # noqa: F401
        except ModuleNotFoundError:
            return None  # answered uncompressed: a bot asking for it could decode it
        return asked
    return asked if asked == "zlib-stream" else None


@dataclass
class Session:
    id: str
    intents: int
    shard: tuple[int, int] = (0, 1)  # [shard_id, num_shards] of its IDENTIFY
    seq: int = 0
    buffer: list[Payload] = field(default_factory=list)
    connection: Connection | None = None

    def hears_of(self, guild_id: int | None) -> bool:
        """Whether this session's shard is the one Discord sends ``guild_id``'s events to."""
        shard_id, num_shards = self.shard
        return shard_of(guild_id, num_shards) == shard_id

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
        self.current: Session | None = None  # the session attached last
        self.shards: dict[tuple[int, int], Session] = {}  # each shard's session now
        self.connections: list[Connection] = []
        self.received: list[Payload] = []  # every op the bot sent, token redacted
        self.identifies = 0
        self.resumes = 0
        self.readies = 0

    # Dispatch -------------------------------------------------------------------------------

    def receivers(self, guild_id: int | None) -> list[Session]:
        """The sessions Discord would send an event of ``guild_id`` (None: a DM) to."""
        return [s for s in self.shards.values() if s.hears_of(guild_id)]

    def dispatch(self, event: str, data: Payload, *, intent: int | None = None) -> None:
        """Send an event to the session of its guild's shard, if its intents ask for it."""
        for session in self.receivers(guild_of_event(event, data)):
            if intent is None or session.intents & intent:
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
        in_dm = channel_type is ChannelType.DM
        privileged = in_dm or author_id == self.world.bot.id or mentions_bot
        for session in self.receivers(guild_of_event(event, data)):
            if not session.intents & (DIRECT_MESSAGES if in_dm else GUILD_MESSAGES):
                continue
            if not privileged and not session.intents & MESSAGE_CONTENT:
                session.push(event, {**data, **_NO_CONTENT})
            else:
                session.push(event, data)

    # Test hooks ----------------------------------------------------------------------------

    def _live(self, shard: tuple[int, int] | None = None) -> Connection:
        """The connection of ``shard``'s session, or of the session attached last."""
        session = self.current if shard is None else self.shards.get(shard)
        if session is None or session.connection is None:
            raise RuntimeError("no bot is connected to the gateway")
        return session.connection

    async def request_reconnect(self, *, shard: tuple[int, int] | None = None) -> None:
        """Op 7: the bot should close and RESUME."""
        self._live(shard).queue.put_nowait({"op": RECONNECT, "d": None})

    async def invalidate_session(
        self, *, resumable: bool = False, shard: tuple[int, int] | None = None
    ) -> None:
        """Op 9; a non-resumable session is forgotten, so the bot must IDENTIFY again."""
        connection = self._live(shard)
        if not resumable and connection.session is not None:
            self.sessions.pop(connection.session.id, None)
        connection.queue.put_nowait({"op": INVALID_SESSION, "d": resumable})

    async def drop(self, *, code: int | None = None, shard: tuple[int, int] | None = None) -> None:
        """Lose the connection: a close frame with ``code``, or the TCP link cut without one."""
        connection = self._live(shard)
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
        connection = Connection(ws, request, _compression(request.query.get("compress")))
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
            # Answered after a network's round trip, as Discord's is: answered at once on
            # loopback, the ACK could reach discord.py before its keep-alive thread had noted
            # the beat as sent, and it logged "websocket is 41.3s behind" (the interval).
            asyncio.get_running_loop().call_later(
                HEARTBEAT_ACK_AFTER, connection.queue.put_nowait, {"op": HEARTBEAT_ACK}
            )
        elif op == IDENTIFY:
            await self._identify(connection, data)
        elif op == RESUME:
            await self._resume(connection, data)
        elif connection.session is None:
            await connection.ws.close(code=NOT_AUTHENTICATED, message=b"Not authenticated.")
        elif op == REQUEST_MEMBERS:
            self._members_chunk(connection.session, data)
        elif op in (PRESENCE, VOICE):
            pass
        else:
            await connection.ws.close(code=UNKNOWN_OPCODE, message=b"Unknown opcode.")

    async def _identify(self, connection: Connection, data: Payload) -> None:
        if data.get("token") != self.world.token:
            await connection.ws.close(code=AUTHENTICATION_FAILED, message=b"Authentication failed.")
            return
        shard = _shard(data.get("shard", [0, 1]))
        if shard is None:
            await connection.ws.close(code=INVALID_SHARD, message=b"Invalid shard.")
            return
        self.identifies += 1
        session = Session(uuid.uuid4().hex, int(data.get("intents", 0)), shard)
        self.sessions[session.id] = session
        replaced = self.shards.get(shard)
        if replaced is not None:
            self.sessions.pop(replaced.id, None)  # that shard identified anew: a new session
        self.shards[shard] = session
        self._attach(connection, session)
        world = self.world
        guilds = [g for g in world.guilds.values() if session.hears_of(g.id)]
        ready: Payload = {
            "v": 10,
            "user": {**world.bot.payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
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
        for guild in guilds:
            session.push("GUILD_CREATE", world.guild_create_payload(guild))
        world.touch()

    async def _resume(self, connection: Connection, data: Payload) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if (
            session is None
            or data.get("token") != self.world.token
            or self.shards.get(session.shard) is not session
        ):
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

    def _members_chunk(self, session: Session, data: Payload) -> None:
        """The chunk goes to the session that asked, and only for a guild of its shard."""
        guild = self.world.guilds.get(int(data.get("guild_id", 0)))
        if guild is None or not session.hears_of(guild.id):
            return
        session.push(
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


def _shard(value: object) -> tuple[int, int] | None:
    """``[shard_id, num_shards]`` as Discord accepts it, else None (closed with 4010)."""
    if not isinstance(value, list | tuple) or len(value) != 2:
        return None
    shard_id, num_shards = value
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in (shard_id, num_shards)):
        return None
    if not 0 <= shard_id < num_shards:
        return None
    return shard_id, num_shards
