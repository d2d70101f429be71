"""A worker's publishing, when several processes share one PostgreSQL database: whichever worker holds the publish
lock (a PostgreSQL advisory lock of its schema, on a connection of its own) publishes everything the outbox holds,
each game in order, whoever committed it. Channel posts and DMs thus leave one process at a time, within Discord's
global limit; if that worker dies, its connection closes, the lock is free, and another worker takes over within a
second.

The lock alone is assumed, not checked: a worker whose lock connection was cut keeps sending what it holds while
another takes the lock. So the holder also takes the ``publisher`` lease (``app/leases.py``), whose epoch grows with
each new holder, and the publisher asks before every send whether this worker still holds it at its epoch
(``Publisher.may_send``, read on the lock's own connection: a cut connection answers no as well). A worker that lost
it stops before its next send (``LostLease``).

The holder drains the outbox as a single process does at start-up (``Publisher.drain``), over and over. What it keeps
in memory (the phase each channel saw last, its open text message, the status text, the games it published last) is
safe to lose: a new holder starts without it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from app.database import Listener, Session, lock_key, schema_of, session_on
from app.leases import LEASE_S, PUBLISHER, Lease, process_holder, process_info, renew, still_holds, take
from app.queue import OUTBOX
from cogs.publisher import Publisher

log = logging.getLogger("westeros.pump")

PUBLISH_LOCK = f"lease:{PUBLISHER}"  # the advisory lock of the one publishing worker (``lock_key`` of its schema)
POLL_S = 1.0  # how often the holder looks at the outbox unasked (commits announce themselves: ``tell_publisher``)
TAKE_OVER_S = 1.0  # how often a worker without the lock tries to take it


class OutboxPump:
    """Holds the publish lock and lease (or waits for them), and while it holds them drains the outbox whenever a
    commit announces itself (``tell_publisher``) or every ``POLL_S``, renewing the lease each time."""

    def __init__(self, publisher: Publisher, url: str, *, ttl: float = LEASE_S, holder: str | None = None) -> None:
        self.wake = asyncio.Event()
        self.listener = Listener(url, OUTBOX, lambda _: self.wake.set())
        self.publisher = publisher
        self.url = url
        self.ttl = ttl
        self.holder = holder or process_holder()
        self.holding = False
        self.lease: Lease | None = None
        self.lock_session: Session | None = None  # statements on the lock's connection
        self.lock_pid: int | None = None  # the lock connection's server process (tests cut it)
        self.task: asyncio.Task[None] | None = None
        publisher.may_send = self.may_send

    def start(self) -> None:
        self.listener.start()
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        await self.listener.stop()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def may_send(self) -> bool:
        """Whether this worker still holds the publisher lease at the epoch it took (no: stop before sending)."""
        import psycopg

        lease, session = self.lease, self.lock_session
        if lease is None or session is None:
            return False
        try:
            return await still_holds(session, lease.name, lease.holder, lease.epoch)
        except (psycopg.Error, OSError):  # the lock's connection is gone, and the lock with it
            return False

    async def _run(self) -> None:
        import psycopg

        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as lock:
                    key = lock_key(PUBLISH_LOCK, await schema_of(lock))
                    self.lock_pid = lock.info.backend_pid
                    while not await self._take(lock, key):
                        await asyncio.sleep(TAKE_OVER_S)
                    session = session_on(lock)
                    # The lock says no other worker publishes now: the lease changes hands whatever its row says,
                    # and its new epoch stops the previous holder before its next send.
                    lease = await take(
                        session, PUBLISHER, self.holder, ttl=self.ttl, info=process_info("worker"), force=True
                    )
                    assert lease is not None
                    self.lease, self.lock_session, self.holding = lease, session, True
                    log.info("this worker publishes the outbox (epoch %s)", lease.epoch)
                    while True:
                        self.wake.clear()
                        await self.publisher.drain(at_start=False)
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(self.wake.wait(), timeout=POLL_S)
                        # Also keeps the lock's connection in use: the lock lives as long as it does.
                        renewed = await renew(session, lease, ttl=self.ttl)
                        if renewed is None:
                            log.error("the publisher lease changed hands (epoch %s): this worker stops", lease.epoch)
                            break
                        lease = self.lease = renewed
            except psycopg.Error:
                log.warning("lost the publish lock's connection; trying again")
            finally:
                self.holding = False
                self.lease = self.lock_session = None
            await asyncio.sleep(TAKE_OVER_S)

    @staticmethod
    async def _take(lock: Any, key: int) -> bool:
        row = await (await lock.execute("SELECT pg_try_advisory_lock(%s)", (key,))).fetchone()
        return bool(row and row[0])
