"""Acknowledge decision clicks the moment their gateway event is read.

Discord fails an interaction that is not acknowledged within 3 s. discord.py acknowledges through its
general request path (aiohttp, about 0.4 ms of CPU per request), from a task that runs behind every other
ready task. When fifty tables answer at once, 300 clicks arrive together and the last acknowledgement
waited over 100 ms. Here, the click's acknowledgement is written on a kept-alive connection while its event
is being read (tens of microseconds), before discord.py builds the interaction.

Only clicks whose acknowledgement follows from the custom id alone are taken this way (the cogs register
them); the handler then calls ``acknowledge()``, which confirms the early acknowledgement or, if it failed
or was never sent, defers through discord.py as usual. Nothing depends on the early path working.
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
import re
import ssl
from dataclasses import dataclass
from typing import Any

import discord
import h11
import yarl

log = logging.getLogger("westeros.early_ack")

ALREADY_ACKNOWLEDGED = 40060
DEFERRED_CHANNEL_MESSAGE = 5  # "thinking"; the answer comes as a followup
DEFERRED_UPDATE_MESSAGE = 6  # the clicked message will be edited
EPHEMERAL = 64
COMPONENT = 3
# Connections for acknowledgements, all kept open: 300 simultaneous clicks measured p99 46-75 ms with 64
# kept open, 61-104 ms with 32 opened on demand (bench/bot.py, 50 tables). Each is one idle socket.
CONNECTIONS = 64


class CallbackPool:
    """POSTs over a few kept-alive HTTP/1.1 connections (h11 does the protocol; TLS for https)."""

    def __init__(
        self, base: str, *, user_agent: str, max_connections: int = 32, keep_open: int = 0, timeout: float = 5.0
    ) -> None:
        url = yarl.URL(base)
        assert url.host is not None
        self.host, self.port, self.prefix = url.host, url.port or (443 if url.scheme == "https" else 80), url.path
        self.authority = self.host if url.is_default_port() else f"{self.host}:{self.port}"  # the Host header
        self.ssl = ssl.create_default_context() if url.scheme == "https" else None
        self.user_agent = user_agent
        self.max_connections = max_connections
        self.timeout = timeout
        self._idle: list[_Connection] = []
        self._open = 0
        self._queue: collections.deque[_Request] = collections.deque()
        self.connections_made = 0
        # Connections kept open even when idle, so that a burst starts writing at once instead of connecting
        # (servers close idle ones after a while: they are reopened, with a growing pause if that fails).
        self.keep_open = min(keep_open, max_connections)
        self._retry_after = 1.0
        self.closed = False

    def top_up(self) -> None:
        """Open connections until ``keep_open`` are open (or opening)."""
        if self.closed:
            return
        for _ in range(self.keep_open - self._open):
            self._open += 1
            asyncio.get_running_loop().create_task(self._connect())

    def post(self, path: str, body: bytes) -> asyncio.Future[int]:
        """Send at once on an idle connection (or queue it); the future gets the response status."""
        request = _Request(self.prefix + path, body, asyncio.get_running_loop().create_future())
        if self._idle:
            self._idle.pop().send(request)
        else:
            self._queue.append(request)
            if self._open < self.max_connections:
                self._open += 1
                asyncio.get_running_loop().create_task(self._connect())
        return request.future

    async def _connect(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            hostname = self.host if self.ssl else None
            await loop.create_connection(
                lambda: _Connection(self), self.host, self.port, ssl=self.ssl, server_hostname=hostname
            )
            self.connections_made += 1
            self._retry_after = 1.0
        except OSError as err:
            self._open -= 1
            if self._open == 0:  # nobody left to serve the queue: let every waiting click fall back
                while self._queue:
                    request = self._queue.popleft()
                    if not request.future.done():
                        request.future.set_exception(err)
            if self.keep_open:
                loop.call_later(self._retry_after, self.top_up)
                self._retry_after = min(60.0, self._retry_after * 2)

    def _ready(self, connection: _Connection) -> None:
        if self._queue:
            connection.send(self._queue.popleft())
        else:
            self._idle.append(connection)

    def _lost(self, connection: _Connection) -> None:
        self._open -= 1
        if connection in self._idle:
            self._idle.remove(connection)
        if self.closed:
            return
        if self._queue and self._open < self.max_connections:
            self._open += 1
            asyncio.get_running_loop().create_task(self._connect())
        elif self._open < self.keep_open:
            asyncio.get_running_loop().call_later(self._retry_after, self.top_up)

    def close(self) -> None:
        self.closed = True
        for connection in list(self._idle):
            connection.close()


@dataclass
class _Request:
    target: str
    body: bytes
    future: asyncio.Future[int]


class _Connection(asyncio.Protocol):
    def __init__(self, pool: CallbackPool) -> None:
        self.pool = pool
        self.h11 = h11.Connection(h11.CLIENT)
        self.transport: asyncio.Transport | None = None
        self.current: _Request | None = None
        self.status = 0
        self.timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        if self.pool.closed:
            transport.close()
        else:
            self.pool._ready(self)

    def send(self, request: _Request) -> None:
        assert self.transport is not None
        self.current = request
        headers = [
            ("Host", self.pool.authority),
            ("User-Agent", self.pool.user_agent),
            ("Content-Type", "application/json"),
            ("Content-Length", str(len(request.body))),
        ]
        data = self.h11.send(h11.Request(method="POST", target=request.target, headers=headers))
        data = (data or b"") + (self.h11.send(h11.Data(data=request.body)) or b"")
        self.transport.write(data + (self.h11.send(h11.EndOfMessage()) or b""))
        self.timer = asyncio.get_running_loop().call_later(self.pool.timeout, self.close)

    def data_received(self, data: bytes) -> None:
        try:
            self.h11.receive_data(data)
            while True:
                event = self.h11.next_event()
                if event is h11.NEED_DATA:
                    return
                if isinstance(event, h11.Response):
                    self.status = event.status_code
                elif isinstance(event, h11.EndOfMessage):
                    self._finished()
                    return
                elif isinstance(event, h11.ConnectionClosed):
                    self.close()
                    return
        except h11.ProtocolError:
            self.close()

    def _finished(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        request, self.current = self.current, None
        if request is not None and not request.future.done():
            request.future.set_result(self.status)
        if self.h11.our_state is h11.DONE and self.h11.their_state is h11.DONE:
            self.h11.start_next_cycle()
            self.pool._ready(self)
        else:
            self.close()  # the server asked to close

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.timer is not None:
            self.timer.cancel()
        if self.current is not None and not self.current.future.done():
            self.current.future.set_exception(ConnectionError("the connection closed before the response"))
        self.current = None
        self.pool._lost(self)


@dataclass(frozen=True)
class _Rule:
    pattern: re.Pattern[str]
    thinking: bool
    ephemeral: bool

    def body(self) -> bytes:
        if self.thinking:
            payload: dict[str, Any] = {"type": DEFERRED_CHANNEL_MESSAGE}
            if self.ephemeral:
                payload["data"] = {"flags": EPHEMERAL}
        else:
            payload = {"type": DEFERRED_UPDATE_MESSAGE}
        return json.dumps(payload).encode()


class EarlyAcks:
    """The gateway hook, the rules saying which clicks it takes, and the outcome of each."""

    def __init__(self, *, wait: float = 2.0, forget_after: float = 30.0) -> None:
        self.rules: list[_Rule] = []
        self.pool: CallbackPool | None = None
        self.pending: dict[int, tuple[asyncio.Future[int], _Rule]] = {}
        self.wait = wait
        self.forget_after = forget_after
        self.sent = 0
        self.confirmed = 0
        self.fell_back = 0

    def when(self, pattern: str, *, thinking: bool, ephemeral: bool = True) -> None:
        """Acknowledge clicks on components whose custom id fully matches ``pattern``, as
        ``interaction.response.defer(ephemeral=..., thinking=...)`` would."""
        self.rules.append(_Rule(re.compile(pattern), thinking, ephemeral))

    def install(self, client: discord.Client) -> bool:
        """Take interaction events as discord.py reads them (its parser table is not public API: if it
        changes, the bot simply acknowledges the usual way, and says so in the log)."""
        parsers = getattr(getattr(client, "_connection", None), "parsers", None)
        if not isinstance(parsers, dict) or "INTERACTION_CREATE" not in parsers:
            log.warning("discord.py's gateway parsers are not where expected; early acknowledgements are off")
            return False
        agent = client.http.user_agent
        self.pool = CallbackPool(
            discord.http.Route.BASE, user_agent=agent, max_connections=CONNECTIONS, keep_open=CONNECTIONS
        )
        self.pool.top_up()
        parse = parsers["INTERACTION_CREATE"]

        def parse_interaction(data: dict[str, Any]) -> None:
            if self.on_event(data):
                # Build the interaction a moment later, so that every click already read is acknowledged first.
                asyncio.get_running_loop().call_soon(parse, data)
            else:
                parse(data)

        parsers["INTERACTION_CREATE"] = parse_interaction
        return True

    def on_event(self, data: dict[str, Any]) -> bool:
        """Send the early acknowledgement if a rule takes this click; says whether it did."""
        if self.pool is None or data.get("type") != COMPONENT:
            return False
        custom_id = str((data.get("data") or {}).get("custom_id", ""))
        rule = next((r for r in self.rules if r.pattern.fullmatch(custom_id)), None)
        if rule is None:
            return False
        interaction_id = int(data["id"])
        path = f"/interactions/{interaction_id}/{data['token']}/callback"
        self.pending[interaction_id] = (self.pool.post(path, rule.body()), rule)
        self.sent += 1
        # A click that never reaches a handler (a malformed id, say) must not be remembered forever.
        asyncio.get_running_loop().call_later(self.forget_after, self.pending.pop, interaction_id, None)
        return True

    async def acknowledge(
        self, interaction: discord.Interaction[Any], *, thinking: bool, ephemeral: bool = True
    ) -> None:
        """Make sure the click is acknowledged: by the early path if it succeeded, else by deferring now
        (``thinking`` and ``ephemeral`` say how, as for ``interaction.response.defer``)."""
        early = self.pending.pop(interaction.id, None)
        if early is not None:
            sent, rule = early
            try:
                if not sent.done():
                    async with asyncio.timeout(self.wait):
                        await asyncio.shield(sent)
                status = sent.result()
            except (OSError, TimeoutError) as err:
                log.info("early acknowledgement of %s failed (%s); deferring", interaction.id, err)
            else:
                if 200 <= status < 300:
                    self.confirmed += 1
                    _mark_deferred(interaction, rule.thinking)  # as sent, whatever this caller would have done
                    return
                log.info("early acknowledgement of %s got HTTP %s; deferring", interaction.id, status)
            self.fell_back += 1
        if interaction.response.is_done():
            return
        try:
            await interaction.response.defer(ephemeral=ephemeral, thinking=thinking)
        except discord.HTTPException as err:
            if err.code != ALREADY_ACKNOWLEDGED:  # the early one did arrive after all
                raise
            _mark_deferred(interaction, thinking)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()


def _mark_deferred(interaction: discord.Interaction[Any], thinking: bool) -> None:
    """Tell discord.py the interaction was deferred, as its own defer() would have (private attribute)."""
    kind = (
        discord.InteractionResponseType.deferred_channel_message
        if thinking
        else discord.InteractionResponseType.deferred_message_update
    )
    interaction.response._response_type = kind
