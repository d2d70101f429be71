"""The gateway websocket: HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, RESUME, dispatch.

Each connection has an outgoing queue drained by one writer task, so events are
delivered in the order they were dispatched and compression state stays consistent.
Each identified session keeps a bounded buffer of its recent events for RESUME.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections import deque
from collections.abc import Callable
from typing import Any

from aiohttp import WSMsgType, web

from .codec import GatewayEncoder, UnsupportedCompression, encoder_for
from .models import FakeGuild
from .payloads import client_user_payload, guild_create_payload, member_payload
from .world import World

log = logging.getLogger(__name__)

OP_DISPATCH = 0
OP_HEARTBEAT = 1
OP_IDENTIFY = 2
OP_PRESENCE_UPDATE = 3
OP_VOICE_STATE_UPDATE = 4
OP_RESUME = 6
OP_RECONNECT = 7
OP_REQUEST_GUILD_MEMBERS = 8
OP_INVALID_SESSION = 9
OP_HELLO = 10
OP_HEARTBEAT_ACK = 11

INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15

CLOSE_UNKNOWN_OPCODE = 4001
CLOSE_DECODE_ERROR = 4002
CLOSE_NOT_AUTHENTICATED = 4003
CLOSE_AUTHENTICATION_FAILED = 4004
CLOSE_ALREADY_AUTHENTICATED = 4005

RESUME_BUFFER = 1000
MEMBERS_PER_CHUNK = 1000


class GatewayConnection:
    def __init__(
        self,
        ws: web.WebSocketResponse,
        encoder: GatewayEncoder,
        on_sent: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        self.ws = ws
        self.encoder = encoder
        self.on_sent = on_sent
        self.session: GatewaySession | None = None
        self.heartbeats = 0
        self._queue: asyncio.Queue[dict[str, Any] | asyncio.Future[None] | None] = asyncio.Queue()
        self._writer = asyncio.create_task(self._write_loop(), name="fake-discord-gateway-writer")

    def send(self, payload: dict[str, Any]) -> None:
        if not self.ws.closed:
            self._queue.put_nowait(payload)

    async def _write_loop(self) -> None:
        while True:
            item = await self._queue.get()
            if item is None:
                return
            if isinstance(item, asyncio.Future):
                if not item.done():
                    item.set_result(None)
                continue
            frame = self.encoder.encode(json.dumps(item, separators=(",", ":")))
            try:
                if isinstance(frame, bytes):
                    await self.ws.send_bytes(frame)
                else:
                    await self.ws.send_str(frame)
            except (ConnectionError, RuntimeError):
                return
            if self.on_sent is not None:
                self.on_sent(item)

    async def flush(self, timeout: float = 2.0) -> None:
        """Wait (bounded) until everything queued so far has been written."""
        if self._writer.done():
            return
        marker: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(marker)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(marker), timeout)

    async def close(self, code: int, message: str = "") -> None:
        await self.flush()
        self._queue.put_nowait(None)
        if not self.ws.closed:
            await self.ws.close(code=code, message=message.encode())
        self._writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._writer


class GatewaySession:
    def __init__(self, shard_id: int, shard_count: int, intents: int) -> None:
        self.id = secrets.token_hex(16)
        self.shard_id = shard_id
        self.shard_count = max(1, shard_count)
        self.intents = intents
        self.seq = 0
        self.buffer: deque[dict[str, Any]] = deque(maxlen=RESUME_BUFFER)
        self.connection: GatewayConnection | None = None

    def handles_guild(self, guild_id: int | None) -> bool:
        if guild_id is None:
            return self.shard_id == 0
        return (guild_id >> 22) % self.shard_count == self.shard_id

    def push(self, event: str, data: Any) -> None:
        self.seq += 1
        payload = {"op": OP_DISPATCH, "t": event, "s": self.seq, "d": data}
        self.buffer.append(payload)
        if self.connection is not None:
            self.connection.send(payload)


class Gateway:
    def __init__(self, world: World, *, token: str, heartbeat_interval_ms: int, url: Callable[[], str]) -> None:
        self.world = world
        self.token = token
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self._url = url
        self.connections: set[GatewayConnection] = set()
        self.sessions: dict[str, GatewaySession] = {}
        self.identify_count = 0
        self.resume_count = 0
        self.compression_seen: list[str | None] = []
        self.on_dispatch_sent: Callable[[dict[str, Any]], None] | None = None  # called after each frame is written

    # ------------------------------------------------------------- websocket
    async def handle(self, request: web.Request) -> web.StreamResponse:
        compress = request.query.get("compress")
        encoding = request.query.get("encoding", "json")
        self.compression_seen.append(compress)
        ws = web.WebSocketResponse(timeout=2.0, compress=False, max_msg_size=4 * 1024 * 1024)
        await ws.prepare(request)
        try:
            encoder = encoder_for(compress)
        except UnsupportedCompression as exc:
            await ws.close(code=CLOSE_DECODE_ERROR, message=str(exc).encode())
            return ws
        if encoding != "json":
            await ws.close(code=CLOSE_DECODE_ERROR, message=b"only encoding=json is supported")
            return ws
        conn = GatewayConnection(ws, encoder, self.on_dispatch_sent)
        self.connections.add(conn)
        conn.send({"op": OP_HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}, "s": None, "t": None})
        try:
            async for msg in ws:
                if msg.type in (WSMsgType.TEXT, WSMsgType.BINARY):
                    raw = msg.data if isinstance(msg.data, str) else msg.data.decode()
                    await self._on_message(conn, raw)
                elif msg.type == WSMsgType.ERROR:
                    break
        finally:
            self.connections.discard(conn)
            if conn.session is not None and conn.session.connection is conn:
                conn.session.connection = None
            await conn.close(1000)
            self.world.changed()
        return ws

    async def _on_message(self, conn: GatewayConnection, raw: str) -> None:
        try:
            message = json.loads(raw)
            op = message["op"]
            data = message.get("d")
        except (ValueError, KeyError, TypeError):
            await conn.close(CLOSE_DECODE_ERROR, "Decode error")
            return
        if op == OP_HEARTBEAT:
            conn.heartbeats += 1
            conn.send({"op": OP_HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == OP_IDENTIFY:
            await self._identify(conn, data or {})
        elif op == OP_RESUME:
            await self._resume(conn, data or {})
        elif conn.session is None:
            await conn.close(CLOSE_NOT_AUTHENTICATED, "Not authenticated")
        elif op == OP_REQUEST_GUILD_MEMBERS:
            self._request_members(conn.session, data or {})
        elif op in (OP_PRESENCE_UPDATE, OP_VOICE_STATE_UPDATE):
            pass
        else:
            await conn.close(CLOSE_UNKNOWN_OPCODE, f"Unknown opcode {op}")

    def _token_ok(self, token: Any) -> bool:
        if not isinstance(token, str):
            return False
        token = token.removeprefix("Bot ").strip()
        return secrets.compare_digest(token, self.token)

    async def _identify(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        if conn.session is not None:
            await conn.close(CLOSE_ALREADY_AUTHENTICATED, "Already authenticated")
            return
        if not self._token_ok(data.get("token")):
            await conn.close(CLOSE_AUTHENTICATION_FAILED, "Authentication failed")
            return
        shard_id, shard_count = (data.get("shard") or [0, 1])[:2]
        session = GatewaySession(int(shard_id), int(shard_count), int(data.get("intents") or 0))
        for old_id, old in list(self.sessions.items()):
            if old.connection is None and old.shard_id == session.shard_id:
                del self.sessions[old_id]
        self.sessions[session.id] = session
        session.connection = conn
        conn.session = session
        world = self.world
        guilds = [g for g in world.guilds.values() if session.handles_guild(g.id)]
        session.push(
            "READY",
            {
                "v": 10,
                "user": client_user_payload(world.bot),
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": session.id,
                "session_type": "normal",
                "resume_gateway_url": self._url(),
                "shard": [session.shard_id, session.shard_count],
                "application": {"id": str(world.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": [],
                "user_settings": {},
            },
        )
        all_members = bool(session.intents & INTENT_GUILD_MEMBERS)
        for guild in guilds:
            session.push("GUILD_CREATE", guild_create_payload(world, guild, all_members=all_members))
        self.identify_count += 1
        world.changed()

    async def _resume(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        seq = data.get("seq") or 0
        oldest = session.buffer[0]["s"] if session is not None and session.buffer else 1
        if (
            session is None
            or not self._token_ok(data.get("token"))
            or (session.connection is not None and session.connection is not conn)
            or seq + 1 < oldest
        ):
            conn.send({"op": OP_INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        session.connection = conn
        conn.session = session
        for payload in session.buffer:
            if payload["s"] > seq:
                conn.send(payload)
        session.push("RESUMED", {})
        self.resume_count += 1
        self.world.changed()

    def _request_members(self, session: GatewaySession, data: dict[str, Any]) -> None:
        guild_ids = data.get("guild_id")
        if not isinstance(guild_ids, list):
            guild_ids = [guild_ids]
        query = str(data.get("query") or "").lower()
        limit = int(data.get("limit") or 0)
        user_ids = {int(u) for u in data.get("user_ids") or []}
        for gid in guild_ids:
            guild = self.world.guilds.get(int(gid))
            if guild is None:
                continue
            members = [
                m
                for m in guild.members.values()
                if (not user_ids or m.user.id in user_ids) and m.user.name.lower().startswith(query)
            ]
            if limit:
                members = members[:limit]
            not_found = [str(u) for u in user_ids if u not in guild.members]
            chunks = [members[i : i + MEMBERS_PER_CHUNK] for i in range(0, len(members), MEMBERS_PER_CHUNK)] or [[]]
            for index, chunk in enumerate(chunks):
                payload: dict[str, Any] = {
                    "guild_id": str(guild.id),
                    "members": [member_payload(m) for m in chunk],
                    "chunk_index": index,
                    "chunk_count": len(chunks),
                    "not_found": not_found if index == 0 else [],
                }
                if data.get("nonce"):
                    payload["nonce"] = data["nonce"]
                session.push("GUILD_MEMBERS_CHUNK", payload)

    # -------------------------------------------------------------- dispatch
    def dispatch(self, event: str, data: Any, *, guild_id: int | None = None, intent: int | None = None) -> int:
        """Send an event to every session that would receive it. Returns how many did."""
        delivered = 0
        for session in self.sessions.values():
            if not session.handles_guild(guild_id):
                continue
            if intent is not None and not session.intents & intent:
                continue
            session.push(event, data)
            delivered += 1
        return delivered

    def dispatch_guild_create(self, guild: FakeGuild) -> None:
        for session in self.sessions.values():
            if session.handles_guild(guild.id):
                all_members = bool(session.intents & INTENT_GUILD_MEMBERS)
                session.push("GUILD_CREATE", guild_create_payload(self.world, guild, all_members=all_members))

    @property
    def connected_sessions(self) -> list[GatewaySession]:
        return [s for s in self.sessions.values() if s.connection is not None]

    # --------------------------------------------------------------- control
    async def disconnect_all(self, code: int = 4000) -> None:
        """Server-side close of every gateway connection (the client should RESUME)."""
        for conn in list(self.connections):
            await conn.close(code, "closed by fake_discord")

    def request_reconnect(self) -> None:
        """Send op 7 RECONNECT to every connection."""
        for conn in list(self.connections):
            conn.send({"op": OP_RECONNECT, "d": None, "s": None, "t": None})

    def invalidate_sessions(self) -> None:
        """Send op 9 INVALID_SESSION (not resumable) and forget all sessions: clients re-IDENTIFY."""
        for conn in list(self.connections):
            conn.send({"op": OP_INVALID_SESSION, "d": False, "s": None, "t": None})
            conn.session = None
        self.sessions.clear()

    async def close(self) -> None:
        for conn in list(self.connections):
            await conn.close(1001, "fake_discord shutting down")
        self.connections.clear()
        self.sessions.clear()
