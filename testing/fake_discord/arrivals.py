"""When each request's bytes reached the fake, before its handler waited its turn.

Discord times an interaction from sending the event to receiving the callback. The fake is one process
serving hundreds of scripted players, so its own queue of handlers would otherwise be counted against
the bot. A thin protocol in front of aiohttp's notes the arrival time per connection (HTTP/1.1 keeps one
request in flight on a connection, so the latest bytes belong to the request being handled).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any


class Arrivals:
    def __init__(self) -> None:
        self._last: dict[asyncio.BaseTransport, float] = {}

    def of(self, transport: asyncio.BaseTransport | None) -> float | None:
        return self._last.get(transport) if transport is not None else None

    def shift(self, transport: asyncio.BaseTransport | None, seconds: float) -> None:
        """The request on this connection counts as arriving ``seconds`` later (injected latency)."""
        if transport is not None and transport in self._last:
            self._last[transport] += seconds

    def wrap(self, inner: asyncio.Protocol) -> asyncio.Protocol:
        return _Stamping(inner, self._last)


class _Stamping(asyncio.Protocol):
    """Forwards everything to aiohttp's request handler; notes the time data arrives."""

    def __init__(self, inner: asyncio.Protocol, last: dict[asyncio.BaseTransport, float]) -> None:
        self.inner = inner
        self.last = last
        self.transport: asyncio.BaseTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self.transport is not None:
            self.last[self.transport] = time.monotonic()
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.transport is not None:
            self.last.pop(self.transport, None)
        self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()

    def __getattr__(self, name: str) -> Any:  # anything else aiohttp may ask of its protocol
        return getattr(self.inner, name)
