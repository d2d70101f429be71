"""Leases: which process holds which role in a deployment (table ``leases``, revision 0014).

A lease has a name (``publisher``, ``gateway:<shard>``, ``one-process``), a holder (one running process), an epoch that
grows at every change of holder (a fencing token: whoever acts under a lease checks that holder and epoch are still
its own before each send, ``still_holds``; the publishing worker lets a yes stand for a fraction of a second, and a new
holder waits that out before its first send, ``cogs/pump.py``) and the time it runs out unless renewed: a process that
dies frees its leases by itself.

On PostgreSQL a live holder also keeps an advisory lock per lease (``lock_key("lease:<name>", schema)``) on a
connection of its own: the server lets go of it as soon as the process dies, so a successor takes over at once instead
of waiting for the expiry; while the lock is held, only an expiry the holder let pass un-renewed (a process cut off
with its connection still open) hands the lease on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app.database import Session, lock_key, schema_of, session_on, socket_ready

if TYPE_CHECKING:
    import psycopg

log = logging.getLogger("westeros.leases")

LEASE_S = 30.0  # a lease not renewed for this long is free (LEASE_S)
PUBLISHER = "publisher"  # the worker that publishes the outbox
ONE_PROCESS = "one-process"  # ``bot.py`` alone (``--role all``) on PostgreSQL: no gateway, worker or other beside it
WATCH_S = 0.25  # how often a process waiting for a lease looks at it


def gateway_lease(shard: int) -> str:
    return f"gateway:{shard}"


@dataclass(frozen=True)
class Lease:
    name: str
    holder: str
    epoch: int
    expires_at: float
    info: str = ""


class LostLease(BaseException):
    """This process no longer holds the lease it acts under: stop before the next send. A BaseException, as
    ``CancelledError`` is: the sending code catches ``Exception`` as a failed send to note and try again, and this is
    no failure of a send (nothing went out) but the end of this process's turn."""


class LeaseHeld(Exception):
    """Another live process holds a lease this one needs to start: the message says which and who."""

    def __init__(self, lease: Lease, wanted: str) -> None:
        self.lease = lease
        super().__init__(
            f"refusing to start: {wanted} needs the lease {lease.name!r}, held by {lease.info or lease.holder}"
            f" (renewed until {time.strftime('%H:%M:%S', time.localtime(lease.expires_at))});"
            " stop that process first, or see docs/deploy.md"
        )


def process_holder() -> str:
    """A holder name no other process (here or on another host, now or later) has."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


def process_info(role: str) -> str:
    """How a refusal names a holder to the operator: its role, its process id and its host."""
    return f"{role} (pid {os.getpid()} on {socket.gethostname()})"


def _lease(row: Sequence[Any]) -> Lease:
    return Lease(str(row[0]), str(row[1]), int(row[2]), float(row[3]), str(row[4] or ""))


async def current(session: Session, name: str) -> Lease | None:
    row = await session.fetchone("SELECT name, holder, epoch, expires_at, info FROM leases WHERE name = ?", (name,))
    return _lease(row) if row is not None else None


async def take(
    session: Session, name: str, holder: str, *, ttl: float = LEASE_S, info: str = "", force: bool = False
) -> Lease | None:
    """Take (or keep) the lease: it is free, run out, or already ``holder``'s (``force``: whoever holds it; the caller
    knows the holder is gone). The epoch grows when the holder changes. None: another holds it."""
    now = time.time()
    row = await session.fetchone(
        "INSERT INTO leases (name, holder, epoch, expires_at, info) VALUES (?, ?, 1, ?, ?)"
        " ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at,"
        " info = excluded.info,"
        " epoch = CASE WHEN leases.holder = excluded.holder THEN leases.epoch ELSE leases.epoch + 1 END"
        " WHERE leases.holder = excluded.holder OR leases.expires_at < ? OR ?"
        " RETURNING name, holder, epoch, expires_at, info",
        (name, holder, now + ttl, info, now, force),
    )
    return _lease(row) if row is not None else None


async def renew(session: Session, lease: Lease, *, ttl: float = LEASE_S) -> Lease | None:
    """The lease, held longer; None if it is no longer this holder's at this epoch."""
    expires_at = time.time() + ttl
    changed = await session.execute(
        "UPDATE leases SET expires_at = ? WHERE name = ? AND holder = ? AND epoch = ?",
        (expires_at, lease.name, lease.holder, lease.epoch),
    )
    return Lease(lease.name, lease.holder, lease.epoch, expires_at, lease.info) if changed == 1 else None


async def release(session: Session, lease: Lease) -> None:
    """Give the lease up at once (its row stays, with its epoch: the next holder's is higher)."""
    await session.execute(
        "UPDATE leases SET expires_at = 0 WHERE name = ? AND holder = ? AND epoch = ?",
        (lease.name, lease.holder, lease.epoch),
    )


async def still_holds(session: Session, name: str, holder: str, epoch: int) -> bool:
    """Whether ``holder`` holds the lease at ``epoch``, unexpired: one read by the primary key, before a send (or the
    sends of a short window after it, ``cogs/pump.py``)."""
    row = await session.fetchone(
        "SELECT 1 FROM leases WHERE name = ? AND holder = ? AND epoch = ? AND expires_at > ?",
        (name, holder, epoch, time.time()),
    )
    return row is not None


LOCK_WAIT_S = 30.0  # the server ends a wait for an advisory lock after this long (lock_timeout); it is asked again
LOCK_WAIT_MARGIN_S = 10.0  # past the server's own end of a wait: the connection is taken for dead
_LOCK_WAIT_OVER = {"55P03", "57014"}  # lock_not_available (lock_timeout), query_canceled (a host's statement_timeout)


async def wait_for_lock(connection: psycopg.AsyncConnection[Any], key: int, *, wait_s: float = LOCK_WAIT_S) -> None:
    """Take the session advisory lock ``key`` on ``connection``, waiting in the server for as long as another session
    holds it: a waiter sends no statement until the lock is free, and takes it the moment its holder's session ends.

    The wait is read off the connection's socket through psycopg's documented low-level ``pgconn``: psycopg's own
    ``execute`` wakes every 0.1 s while a statement runs (``psycopg.waiting``), which cost 3 ms of CPU a second, five
    times a try of ``pg_try_advisory_lock`` every second. The server ends each wait after ``wait_s`` (the connection's
    ``lock_timeout``, which its later statements keep) and it is asked again: a connection that answers nothing for
    ``LOCK_WAIT_MARGIN_S`` longer is dead (``OperationalError``), as is one whose socket closed. Cancelled (the process
    stops), the statement is cancelled in the server too, so that no server process waits on for a client gone."""
    import psycopg
    from psycopg import pq

    await connection.execute(f"SET lock_timeout = '{int(wait_s * 1000)}ms'")
    pgconn = connection.pgconn
    query, params = b"SELECT pg_advisory_lock($1)", [str(key).encode()]
    while True:
        pgconn.send_query_params(query, params)
        try:
            while pgconn.flush():  # what the socket did not take at once (a nonblocking connection)
                await _socket_ready(connection, writable=True, timeout=wait_s + LOCK_WAIT_MARGIN_S)
            results = await _results(connection, timeout=wait_s + LOCK_WAIT_MARGIN_S)
        except BaseException:
            # Cancelled, or no answer: the statement is cancelled in the server, and its end read, so that the
            # connection can be used again (a dead one raises here too, and its owner closes it). A lock granted just
            # before the cancel arrived is let go: whoever gave up waiting does not hold it.
            with contextlib.suppress(Exception):
                await connection.cancel_safe(timeout=2.0)
                ended = await _results(connection, timeout=2.0)
                if ended and ended[0].status == pq.ExecStatus.TUPLES_OK:
                    await connection.execute("SELECT pg_advisory_unlock(%s)", (key,))
            raise
        if results and results[0].status == pq.ExecStatus.TUPLES_OK:
            return
        state = results[0].error_field(pq.DiagnosticField.SQLSTATE) if results else None
        if state is not None and state.decode() in _LOCK_WAIT_OVER:
            continue
        message = results[0].error_message.decode(errors="replace") if results else "no result"
        raise psycopg.OperationalError(f"waiting for an advisory lock failed: {message.strip()}")


async def _results(connection: psycopg.AsyncConnection[Any], *, timeout: float) -> list[Any]:
    """The results of the statement under way on the connection, read off its socket as they arrive."""
    pgconn = connection.pgconn
    while True:
        pgconn.consume_input()
        if not pgconn.is_busy():
            break
        await _socket_ready(connection, writable=False, timeout=timeout)
    results = []
    while (result := pgconn.get_result()) is not None:
        results.append(result)
    return results


async def _socket_ready(connection: psycopg.AsyncConnection[Any], *, writable: bool, timeout: float) -> None:
    """Wait until the connection's socket can be read (or written); ``OperationalError`` after ``timeout``."""
    import psycopg

    ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    if not await socket_ready(connection.fileno(), ready, timeout=timeout, writable=writable):
        raise psycopg.OperationalError("the server did not answer a wait for an advisory lock")


class LeaseKeeper:
    """A process's leases on PostgreSQL: taken as it starts (refused with ``LeaseHeld`` while a live process holds
    one), renewed every third of ``ttl`` on a connection of their own that also keeps each lease's advisory lock, and
    given back as it stops. ``on_lost(lease)`` is called if another process took one meanwhile."""

    def __init__(
        self,
        url: str,
        *,
        holder: str | None = None,
        info: str = "",
        ttl: float = LEASE_S,
        on_lost: Callable[[Lease], None] | None = None,
    ) -> None:
        self.url = url
        self.holder = holder or process_holder()
        self.info = info
        self.ttl = ttl
        self.on_lost = on_lost
        self.held: dict[str, Lease] = {}
        self.connection: psycopg.AsyncConnection[Any] | None = None
        self.schema = ""
        self.relock = False  # a new connection: the leases' advisory locks are to be taken again
        self.task: asyncio.Task[None] | None = None

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        import psycopg

        if self.connection is None or self.connection.closed:
            self.connection = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
            self.schema = await schema_of(self.connection)
            self.relock = bool(self.held)
        return self.connection

    async def _try_lock(self, name: str) -> bool:
        connection = await self._connect()
        key = lock_key(f"lease:{name}", self.schema)
        row = await (await connection.execute("SELECT pg_try_advisory_lock(%s)", (key,))).fetchone()
        return bool(row and row[0])

    async def _holder_alive(self, lease: Lease) -> bool:
        """Whether the process holding ``lease`` lives: its advisory lock is held (by a connection of another)."""
        if not await self._try_lock(lease.name):
            return True
        connection = await self._connect()
        await connection.execute("SELECT pg_advisory_unlock(%s)", (lock_key(f"lease:{lease.name}", self.schema),))
        return False

    async def acquire(self, names: Sequence[str], *, wanted: str, excluded: Sequence[str] = ()) -> None:
        """Take every lease of ``names``, after making sure no live process holds one of ``excluded`` (exact names,
        or prefixes ending with ``:``); ``wanted`` names this process in the refusal."""
        session = session_on(await self._connect())
        for name in names:
            self.held[name] = await self._take_one(session, name, wanted)
        rows = await session.fetchall(
            "SELECT name, holder, epoch, expires_at, info FROM leases WHERE holder <> ? AND expires_at > ?",
            (self.holder, time.time()),
        )
        for other in map(_lease, rows):
            barred = any(other.name == x or (x.endswith(":") and other.name.startswith(x)) for x in excluded)
            if barred and other.name not in self.held and await self._holder_alive(other):
                raise LeaseHeld(other, wanted)

    async def _take_one(self, session: Session, name: str, wanted: str) -> Lease:
        if await self._try_lock(name):  # no live process holds it: take it whatever the row says
            taken = await take(session, name, self.holder, ttl=self.ttl, info=self.info, force=True)
            assert taken is not None
            return taken
        first = await current(session, name)
        started = time.time()
        while True:
            await asyncio.sleep(WATCH_S)
            if await self._try_lock(name):  # its holder died meanwhile
                return await self._take_one(session, name, wanted)
            now = await current(session, name)
            if now is not None and (
                first is None or now.holder != first.holder or now.expires_at > first.expires_at + WATCH_S / 2
            ):
                raise LeaseHeld(now, wanted)  # renewed, or taken: its holder lives
            # The lock's connection outlived its process (cut off, not closed): the lease's expiry decides.
            if now is None or time.time() > max(now.expires_at, started) + self.ttl:
                taken = await take(session, name, self.holder, ttl=self.ttl, info=self.info)
                if taken is not None:
                    return taken

    def start(self) -> None:
        """Renew the leases every third of their time until ``close``."""
        self.task = asyncio.get_running_loop().create_task(self._renew_forever())

    async def _renew_forever(self) -> None:
        import psycopg

        while self.held:
            await asyncio.sleep(self.ttl / 3)
            try:
                await self.renew_all()
            except (psycopg.Error, OSError) as err:
                # The connection dropped: its advisory locks went with it. Connect again, take them back, renew.
                log.warning("could not renew the leases (%s); trying again", str(err).strip().splitlines()[0])
                with contextlib.suppress(psycopg.Error, OSError):
                    if self.connection is not None:
                        await self.connection.close()
                self.connection = None

    async def renew_all(self) -> None:
        session = session_on(await self._connect())
        relock, self.relock = self.relock, False
        for name, lease in list(self.held.items()):
            if relock:  # the locks went with the dropped connection; one a successor took is its own now
                await self._try_lock(name)
            renewed = await renew(session, lease, ttl=self.ttl)
            if renewed is None:
                del self.held[name]
                taker = await current(session, name)
                log.error(
                    "lost the lease %r to %s: this process stops", name, taker.info if taker else "nobody (it expired)"
                )
                if self.on_lost is not None:
                    self.on_lost(lease)
            else:
                self.held[name] = renewed

    async def close(self) -> None:
        """Stop renewing and give every lease back, so a successor need not wait for them to run out."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        if self.connection is not None:
            with contextlib.suppress(Exception):
                session = session_on(self.connection)
                for lease in self.held.values():
                    await release(session, lease)
            with contextlib.suppress(Exception):
                await self.connection.close()
        self.held.clear()
