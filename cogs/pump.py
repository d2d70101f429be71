"""A worker's publishing, when several processes share one PostgreSQL database: whichever worker holds the publish
lock (a PostgreSQL advisory lock on a connection of its own) publishes everything the outbox holds, each game in
order, whoever committed it. Channel posts and DMs thus leave one process at a time, within Discord's global limit;
if that worker dies, its connection closes, the lock is free, and another worker takes over within a second.

The holder drains the outbox as a single process does at start-up (``Publisher.drain``), over and over. What it keeps
in memory (the phase each channel saw last, its open text message, the status text, the games it published last) is
safe to lose: a new holder starts without it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from app.database import Listener
from app.queue import OUTBOX
from cogs.publisher import Publisher

log = logging.getLogger("westeros.pump")

PUBLISH_LOCK = 0x57E57E06  # the advisory lock of the one publishing worker
POLL_S = 1.0  # how often the holder looks at the outbox unasked (commits announce themselves: ``tell_publisher``)
TAKE_OVER_S = 1.0  # how often a worker without the lock tries to take it


class OutboxPump:
    """Holds the publish lock (or waits for it), and while it holds it drains the outbox whenever a commit announces
    itself (``tell_publisher``) or every ``POLL_S``."""

    def __init__(self, publisher: Publisher, url: str) -> None:
        self.wake = asyncio.Event()
        self.listener = Listener(url, OUTBOX, lambda _: self.wake.set())
        self.publisher = publisher
        self.url = url
        self.holding = False
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.listener.start()
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        await self.listener.stop()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def _run(self) -> None:
        import psycopg

        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as lock:
                    while not await self._take(lock):
                        await asyncio.sleep(TAKE_OVER_S)
                    self.holding = True
                    log.info("this worker publishes the outbox")
                    while True:
                        self.wake.clear()
                        await self.publisher.drain(at_start=False)
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(self.wake.wait(), timeout=POLL_S)
                        await lock.execute("SELECT 1")  # the lock lives as long as this connection
            except psycopg.Error:
                log.warning("lost the publish lock's connection; trying again")
            finally:
                self.holding = False
            await asyncio.sleep(TAKE_OVER_S)

    @staticmethod
    async def _take(lock: Any) -> bool:
        row = await (await lock.execute("SELECT pg_try_advisory_lock(%s)", (PUBLISH_LOCK,))).fetchone()
        return bool(row and row[0])
