"""Acknowledge every click before doing the work behind any of them, and answer the clicks before publishing what
their answers imply (plain asyncio, no library internals).

Discord fails an interaction that is not acknowledged within 3 s, and a burst of clicks (a whole table, or
fifty tables, answering at once) arrives together. In one event loop, each turn runs every task that is
ready, so without an order the acknowledgement of the last click waits behind the work of all the others.

Three lanes, each waiting for the ones above it:

1. ``acknowledging()`` wraps the acknowledgement (``interaction.response.defer()``).
2. ``working()`` wraps a click's own work after it (checking, committing and confirming an answer). It starts once
   no acknowledgement has been under way for ``quiet`` seconds: the clicks of a burst reach the bot a frame at a
   time, so "none pending at this instant" is true between two of them and would let work in mid-burst.
3. ``publishing()`` wraps what committed versions imply (the channel's posts, the decision DMs and their forms,
   the pinned status): it starts once, besides, no click's work waits or runs, so that a burst's receipts go out
   before its publications.

A click's work waits at most ``max_wait`` for the acknowledgements, and publishing at most ``max_publish_wait`` for both
(nobody waits for a post as for a receipt), so that a steady stream of clicks starves neither; at most ``slots`` pieces
of each lane's work run at once, which keeps each turn of the loop short.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

# Set while a task holds a slot of either lane: a nested call keeps it (waiting again would deadlock).
_in_work: contextvars.ContextVar[bool] = contextvars.ContextVar("in_work", default=False)


class AckFirst:
    def __init__(
        self, *, slots: int = 4, max_wait: float = 0.5, max_publish_wait: float = 2.0, quiet: float = 0.005
    ) -> None:
        self.max_wait = max_wait
        self.max_publish_wait = max_publish_wait
        self.quiet = quiet
        self.pending = 0  # acknowledgements under way
        self.clicks_working = 0  # clicks' work waiting for its turn or running
        self._slots = asyncio.Semaphore(slots)
        self._publish_slots = asyncio.Semaphore(slots)
        self._acks_quiet = asyncio.Event()  # no acknowledgement under way for ``quiet`` seconds
        self._acks_quiet.set()
        self._no_click_work = asyncio.Event()
        self._no_click_work.set()
        self._quiet_timer: asyncio.TimerHandle | None = None
        # Told True when clicks start to be acknowledged or worked on, False once both lanes are idle again (the AI
        # pauses its thinking meanwhile: app/ai.py).
        self.on_clicks: Callable[[bool], None] | None = None
        self._clicking = False

    def _tell(self) -> None:
        clicking = not (self._acks_quiet.is_set() and self._no_click_work.is_set())
        if clicking != self._clicking:
            self._clicking = clicking
            if self.on_clicks is not None:
                self.on_clicks(clicking)

    def _acks_now_quiet(self) -> None:
        self._acks_quiet.set()
        self._tell()

    @asynccontextmanager
    async def acknowledging(self) -> AsyncIterator[None]:
        self.pending += 1
        self._acks_quiet.clear()
        self._tell()
        if self._quiet_timer is not None:
            self._quiet_timer.cancel()
            self._quiet_timer = None
        try:
            yield
        finally:
            self.pending -= 1
            if self.pending == 0:
                self._quiet_timer = asyncio.get_running_loop().call_later(self.quiet, self._acks_now_quiet)

    @asynccontextmanager
    async def working(self) -> AsyncIterator[None]:
        """Hold a work slot once the acknowledgements are done. A task already holding a slot keeps it."""
        if _in_work.get():
            yield
            return
        self.clicks_working += 1
        self._no_click_work.clear()
        self._tell()
        try:
            await self._after(asyncio.get_running_loop().time() + self.max_wait, self._acks_quiet)
            async with self._slots:
                token = _in_work.set(True)
                try:
                    yield
                finally:
                    _in_work.reset(token)
        finally:
            self.clicks_working -= 1
            if self.clicks_working == 0:
                self._no_click_work.set()
                self._tell()

    @asynccontextmanager
    async def publishing(self) -> AsyncIterator[None]:
        """Hold a publishing slot once the acknowledgements and the clicks' work are done. A task already holding a
        slot keeps it."""
        if _in_work.get():
            yield
            return
        # The slot first, then the wait: only the few holding a slot wake each time the clicks' work comes and goes,
        # not every publication queued behind them. Their wait counts from when they asked.
        deadline = asyncio.get_running_loop().time() + self.max_publish_wait
        async with self._publish_slots:
            await self._after(deadline, self._acks_quiet, self._no_click_work)
            token = _in_work.set(True)
            try:
                yield
            finally:
                _in_work.reset(token)

    async def after_clicks(self, max_wait: float) -> None:
        """Wait, holding no slot, until no acknowledgement and no click's work is under way, or ``max_wait`` seconds:
        for work that is nobody's click and should go after a burst of them (the AI's thinking and answers)."""
        await self._after(asyncio.get_running_loop().time() + max_wait, self._acks_quiet, self._no_click_work)

    @staticmethod
    async def _after(deadline: float, *lanes: asyncio.Event) -> None:
        """Wait until every lane above is idle at once, or until ``deadline`` (the loop's time; then go anyway)."""
        try:
            async with asyncio.timeout_at(deadline):
                while not all(lane.is_set() for lane in lanes):
                    for lane in lanes:
                        await lane.wait()
        except TimeoutError:
            pass  # clicks keep coming: work anyway, a slot at a time
