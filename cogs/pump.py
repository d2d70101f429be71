"""A worker's publishing, when several processes share one PostgreSQL database: whichever worker holds the publish
lock (a PostgreSQL advisory lock of its schema, on a connection of its own) publishes everything the outbox holds,
each game in order, whoever committed it. Channel posts and DMs thus leave one process at a time, within Discord's
global limit; if that worker dies, its connection closes, the lock is free, and another worker, whose connection waits
for the lock in the server (``wait_for_lock``: no statement while it waits), takes over at once.

The lock alone is assumed, not checked: a worker whose lock connection was cut keeps sending what it holds while
another takes the lock. So the holder also takes the ``publisher`` lease (``app/leases.py``), whose epoch grows with
each new holder, and the publisher asks before every send whether this worker still holds it at its epoch
(``Publisher._fence`` calls ``OutboxPump.may_send``, read on the lock's own connection: a cut connection answers no as
well). A worker that lost it stops before its next send (``LostLease``).

The check holds for a short window. A yes lets sends go without asking again for ``FENCE_WINDOW_S``, timed from
*before* its read was sent; and a worker that takes the lease waits ``TAKE_OVER_PAUSE_S`` (the window and a margin)
after its take committed before its first send. This is as safe as a read before every send:

- Let the new holder's take commit at C. A read of the old holder served after C sees the new epoch and answers no
  (so does one on a cut connection); a read that answered yes was therefore served, and sent, before C, and its
  window ends before C + ``FENCE_WINDOW_S``. The new holder's first send comes after C + ``TAKE_OVER_PAUSE_S``
  (timed once its take's commit came back, which is after C), later by the margin. So every check the old holder
  passes on a window, without reading, ends before the new holder's first send; one that reads is answered as a read
  per send is. With a read per send and no pause, a yes read just before C could come back, and be acted on, after
  the new holder's first send; the pause leaves a margin for that too.
- What remains is the caveat both share: a process paused between passing its check and its send (a stalled host, a
  long garbage collection, a yes slow to come back) can send after the new holder did; no fence read can prevent
  that, since the send needs no further word from the database. The outbox's marks of what is sent bound the harm.
- Both windows are durations measured by each process's own ``time.monotonic()``; clocks of two hosts run at rates
  within parts per million of each other, far inside the margin. A yes is also never used past the lease's own
  expiry as this worker last renewed it, as a read would answer no then.

Checks asked at once share one read (a burst's posts ask together). A no is not kept: the next check reads again.

The holder drains the outbox as a single process does at start-up (``Publisher.drain``), over and over. What it keeps
in memory (the phase each channel saw last, its open text message, the status text, the games it published last) is
safe to lose: a new holder starts without it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from app.database import Session, lock_key, schema_of, session_on
from app.leases import (
    LEASE_S,
    PUBLISHER,
    Lease,
    process_holder,
    process_info,
    renew,
    still_holds,
    take,
    wait_for_lock,
)
from app.listen import Listener
from app.queue import OUTBOX
from cogs.publisher import Publisher

log = logging.getLogger("westeros.pump")

PUBLISH_LOCK = f"lease:{PUBLISHER}"  # the advisory lock of the one publishing worker (``lock_key`` of its schema)
# How often the holder looks at the outbox unasked: commits announce themselves (revision 0019's trigger), and so does
# each reconnection of the listening connection (what was announced while it was away is lost). The look is the net
# under a connection dead without a word, and retries what failed (``FAILED_PAUSE_S`` after it failed, or at the next
# look after that); it renews the lease too. It was every second, a read and a commit each, forever.
POLL_S = 5.0
TAKE_OVER_S = 1.0  # the pause of a worker whose turn ended (or whose lock connection failed) before it connects again
GATHER_S = 0.02  # a wake-up's wait before the drain, so that a burst's commits announced meanwhile share its read
FENCE_WINDOW_S = 0.25  # a yes of the fence lets sends go without asking again for this long (from before its read)
# A new holder's wait after its take, before its first send: the previous holder's last yes has run out by then.
TAKE_OVER_PAUSE_S = FENCE_WINDOW_S + 0.25
RENEWALS_PER_LEASE = 6  # the holder renews its lease every sixth of its life (5 s of LEASE_S's 30) while it drains


class OutboxPump:
    """Holds the publish lock and lease (or waits for them), and while it holds them drains the outbox whenever a
    commit announces itself (the outbox's trigger, revision 0019) or every ``POLL_S``, renewing the lease at each idle
    look and every ``RENEWALS_PER_LEASE``-th of its life."""

    def __init__(self, publisher: Publisher, url: str, *, ttl: float = LEASE_S, holder: str | None = None) -> None:
        self.wake = asyncio.Event()
        self.listener = Listener(url, OUTBOX, lambda _: self.wake.set(), self.wake.set)
        self.publisher = publisher
        self.url = url
        self.ttl = ttl
        self.holder = holder or process_holder()
        self.holding = False
        self.lease: Lease | None = None
        self.lock_session: Session | None = None  # statements on the lock's connection
        self.lock_pid: int | None = None  # the lock connection's server process (tests cut it)
        self.task: asyncio.Task[None] | None = None
        self.turn = 0  # counts this worker's turns as the holder (a yes is good for its own turn only)
        self.sends_from = 0.0  # ``time.monotonic()`` before which this turn sends nothing (``TAKE_OVER_PAUSE_S``)
        self.confirmed_until = 0.0  # ``time.monotonic()`` until which the turn's last yes lets sends go
        self.asking: tuple[int, asyncio.Task[bool]] | None = None  # the fence's read under way, and its turn
        self.fence_reads = 0  # reads the fence sent (tests: the window spares most)
        self.lock_lost = False  # the fence found the lock's connection gone during this turn
        self.gather = GATHER_S  # a wake-up's wait before its drain (tests lengthen it)
        publisher.may_send = self.may_send
        publisher.retry_after = None  # what failed goes again at a drain once its pause is over (FAILED_PAUSE_S)

    def start(self) -> None:
        self.listener.start()
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        await self.listener.stop()
        for task in (self.task, self.asking[1] if self.asking is not None else None):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    def look_every(self) -> float:
        """How long the holder waits for a wake-up before it looks at the outbox itself: ``POLL_S``, or less when its
        lease lives so short that it must be renewed more often (each idle look renews it)."""
        return min(POLL_S, self.ttl / RENEWALS_PER_LEASE)

    async def may_send(self) -> bool:
        """Whether this worker still holds the publisher lease at the epoch it took (no: stop before sending): a read
        on the lock's connection, or a yes read less than ``FENCE_WINDOW_S`` ago (the module's docstring says why
        this is as safe). A turn's first sends wait until ``TAKE_OVER_PAUSE_S`` after its take."""
        if self.lease is None or self.lock_session is None:
            return False
        while (pause := self.sends_from - time.monotonic()) > 0:  # a new turn's wait, whichever turn it is by then
            await asyncio.sleep(pause)
        lease, session, turn = self.lease, self.lock_session, self.turn  # again: the turn may have ended meanwhile
        if lease is None or session is None:
            return False
        if time.monotonic() < self.confirmed_until and time.time() < lease.expires_at:
            return True
        if self.asking is None or self.asking[0] != turn or self.asking[1].done():
            self.asking = (turn, asyncio.get_running_loop().create_task(self._ask(turn, session, lease)))
        # Shielded: a check cancelled meanwhile leaves the read to the others asking.
        held = await asyncio.shield(self.asking[1])
        return held and self.turn == turn  # not if the turn ended while the read was under way

    async def _ask(self, turn: int, session: Session, lease: Lease) -> bool:
        import psycopg

        asked_at = time.monotonic()  # the window runs from before the read is sent
        self.fence_reads += 1
        try:
            held = await still_holds(session, lease.name, lease.holder, lease.epoch)
        except (psycopg.Error, OSError):  # the lock's connection is gone, and the lock with it
            held = False
            if turn == self.turn:  # the turn ends: the holder's loop takes the lock again, or waits for it
                self.lock_lost = True
                self.wake.set()
        if turn == self.turn:  # a read of an ended turn sets nothing for the next
            self.confirmed_until = max(self.confirmed_until, asked_at + FENCE_WINDOW_S) if held else 0.0
        return held

    async def _run(self) -> None:
        import psycopg

        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as lock:
                    key = lock_key(PUBLISH_LOCK, await schema_of(lock))
                    self.lock_pid = lock.info.backend_pid
                    # Waits in the server, sending nothing, while another worker publishes; takes over the moment
                    # that worker's lock connection ends (it died, or its connection was cut).
                    await wait_for_lock(lock, key)
                    session = session_on(lock)
                    # The lock says no other worker publishes now: the lease changes hands whatever its row says,
                    # and its new epoch stops the previous holder before its next send.
                    lease = await take(
                        session, PUBLISHER, self.holder, ttl=self.ttl, info=process_info("worker"), force=True
                    )
                    assert lease is not None
                    # The previous holder's last yes may still let it send for ``FENCE_WINDOW_S``: this turn's sends
                    # wait until it has run out (``may_send``); its drain's reads need not.
                    self.turn += 1
                    self.lock_lost = False
                    self.sends_from, self.confirmed_until = time.monotonic() + TAKE_OVER_PAUSE_S, 0.0
                    self.lease, self.lock_session, self.holding = lease, session, True
                    self.publisher.new_turn()  # another holder may have published, or failed, since this one's last
                    log.info("this worker publishes the outbox (epoch %s)", lease.epoch)
                    renewed_at = time.monotonic()
                    while True:
                        self.wake.clear()
                        await self.publisher.drain(at_start=False)
                        idle = False
                        try:
                            await asyncio.wait_for(self.wake.wait(), timeout=self.look_every())
                            # The commits announced in the next moment go with this one: a burst woke a drain, and
                            # its read of the whole outbox, for nearly every commit.
                            await asyncio.sleep(self.gather)
                        except TimeoutError:
                            idle = True
                        if self.lock_lost:  # the fence's read found the lock's connection gone: the lock with it
                            log.warning("lost the publish lock's connection; trying again")
                            break
                        # Renewed at each idle look, and a few times a lease's life while commits keep waking it (a
                        # burst woke it at each commit of the outbox, and each renewal was a commit of its own).
                        # Every send asks the fence first, on this connection, which tells a cut one too.
                        if not idle and time.monotonic() - renewed_at < self.ttl / RENEWALS_PER_LEASE:
                            continue
                        renewed_at = time.monotonic()
                        renewed = await renew(session, lease, ttl=self.ttl)
                        if renewed is None:
                            log.error("the publisher lease changed hands (epoch %s): this worker stops", lease.epoch)
                            break
                        lease = self.lease = renewed
            except psycopg.Error:
                log.warning("lost the publish lock's connection; trying again")
            except Exception:
                # Whatever else failed, this worker must not stop publishing for good (the only worker of a
                # deployment would leave every game silent): the lock goes with its connection, and is tried again.
                log.exception("the outbox's drain failed; this worker lets the publish lock go and tries again")
            finally:
                self.publisher.end_turn()
                self.holding = False
                self.lease = self.lock_session = None
                self.turn += 1  # whatever this turn read no longer counts
                self.confirmed_until = 0.0
            await asyncio.sleep(TAKE_OVER_S)
