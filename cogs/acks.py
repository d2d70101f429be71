"""Acknowledge every click before doing the work behind any of them (plain asyncio, no library internals).

Discord fails an interaction that is not acknowledged within 3 s, and a burst of clicks (a whole table, or
fifty tables, answering at once) arrives together. In one event loop, each turn runs every task that is
ready, so without an order the acknowledgement of the last click waits behind the work of all the others.

``acknowledging()`` wraps the acknowledgement (``interaction.response.defer()``); ``working()`` wraps what
follows it. Work starts only when
no acknowledgement is pending (or after ``max_wait``, so that a steady stream of clicks cannot starve it),
and at most ``slots`` pieces of work run at once, which keeps each turn of the loop short.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

_in_work: contextvars.ContextVar[bool] = contextvars.ContextVar("in_work", default=False)


class AckFirst:
    def __init__(self, *, slots: int = 4, max_wait: float = 0.25) -> None:
        self.max_wait = max_wait
        self.pending = 0
        self._slots = asyncio.Semaphore(slots)
        self._no_pending = asyncio.Event()
        self._no_pending.set()

    @asynccontextmanager
    async def acknowledging(self) -> AsyncIterator[None]:
        self.pending += 1
        self._no_pending.clear()
        try:
            yield
        finally:
            self.pending -= 1
            if self.pending == 0:
                self._no_pending.set()

    @asynccontextmanager
    async def working(self) -> AsyncIterator[None]:
        """Hold a work slot. A task already holding one keeps it (nested calls would otherwise deadlock)."""
        if _in_work.get():
            yield
            return
        try:
            async with asyncio.timeout(self.max_wait):
                await self._no_pending.wait()
        except TimeoutError:
            pass  # clicks keep coming: work anyway, a slot at a time
        async with self._slots:
            token = _in_work.set(True)
            try:
                yield
            finally:
                _in_work.reset(token)
