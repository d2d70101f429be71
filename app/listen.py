"""PostgreSQL's announcements (``LISTEN``/``NOTIFY``) in one process: every channel the process listens on shares one
connection per database address.

A listening connection is a server process, and every ``NOTIFY`` in the database wakes each listening one to read
the announcement, whatever channel it listens on. A gateway and two workers listened on eight connections (the
store's changes in each process, the outcomes in the gateway, the queue in each worker, the outbox in the publishing
worker): in ``bench/scale.py``'s burst those eight server processes spent about an eighth of the database's CPU,
woken three or four times per answer. One connection per process wakes three.

A ``Listener`` is one subscriber: its channel, the callback of each announcement, and the callback of each
(re)connection (what was announced while the connection was away is lost). The shared connection listens on a new
subscriber's channel as soon as it arrives. Between its statements the connection waits on its socket itself and
reads the announcements off psycopg's libpq connection (``pgconn``, the documented low-level interface): psycopg's own
``notifies()`` wakes every 0.1 s while it waits (``psycopg.waiting``), 3 to 5 ms of CPU a second in each idle process
of a gateway and workers (``bench/idle.py``); this wakes when something arrives, or every ``TURN_S`` at most.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import Callable
from typing import Any

from app.database import LISTEN_BACKOFF_S, channel_in, schema_of, socket_ready

log = logging.getLogger("westeros.database")

TURN_S = 30.0  # the longest wait of the shared connection before it looks at its socket unasked


class Listener:
    """One subscriber to a channel of its deployment (``channel_in`` the connection's schema): ``on_notify(payload)``
    for each announcement, ``on_connect()`` once it listens and at each reconnection of the shared connection; an
    announcement sent by a server process ``is_own`` names (this process's own) goes to ``on_own_notify`` instead."""

    def __init__(
        self,
        url: str,
        channel: str,
        on_notify: Callable[[str], None],
        on_connect: Callable[[], None] | None = None,
        *,
        on_own_notify: Callable[[str], None] | None = None,
        is_own: Callable[[int], bool] | None = None,
    ) -> None:
        self.url = url
        self.channel = channel
        self.on_notify = on_notify
        self.on_connect = on_connect
        self.on_own_notify = on_own_notify
        self.is_own = is_own
        self._hub: _Hub | None = None

    def start(self) -> None:
        self._hub = _hub_for(self.url)
        self._hub.add(self)

    async def stop(self) -> None:
        hub, self._hub = self._hub, None
        if hub is not None:
            await hub.remove(self)

    def deliver(self, payload: str, pid: int) -> None:
        if self.on_own_notify is not None and self.is_own is not None and self.is_own(pid):
            self.on_own_notify(payload)
        else:
            self.on_notify(payload)


# The shared connections, per event loop and address (a test runs several loops, one after another).
_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, _Hub]] = weakref.WeakKeyDictionary()


def _hub_for(url: str) -> _Hub:
    hubs = _hubs.setdefault(asyncio.get_running_loop(), {})
    hub = hubs.get(url)
    if hub is None:
        hub = hubs[url] = _Hub(url)
    return hub


class _Hub:
    """The one listening connection of an address, opened again after a delay that grows while it fails."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.listeners: list[Listener] = []
        self.task: asyncio.Task[None] | None = None
        self.listening: set[str] = set()  # the channels the connection listens on
        # The subscribers told of the connection (``on_connect``), with their channels' names in its schema.
        self.told: dict[Listener, str] = {}
        self.arrived = False  # a subscriber arrived since the last turn: its channel is listened on at once
        self.waiting: asyncio.Future[None] | None = None  # the connection's wait under way, ended by a new subscriber
        self.wakes = 0  # the connection's waits that ended (tests: an idle one does not wake)

    def add(self, listener: Listener) -> None:
        self.listeners.append(listener)
        self.arrived = True
        self._wake()
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._run())

    async def remove(self, listener: Listener) -> None:
        with contextlib.suppress(ValueError):
            self.listeners.remove(listener)
        self.told.pop(listener, None)
        if self.listeners or self.task is None:
            return
        task, self.task = self.task, None
        hubs = _hubs.get(asyncio.get_running_loop(), {})
        if hubs.get(self.url) is self:
            del hubs[self.url]
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    async def _run(self) -> None:
        import psycopg

        delay = LISTEN_BACKOFF_S[0]
        while True:
            self.listening, self.told = set(), {}
            try:
                async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as connection:
                    # What psycopg reads while the connection runs a statement (its LISTENs) comes this way.
                    connection.add_notify_handler(self._deliver)
                    schema = await schema_of(connection)
                    delay = LISTEN_BACKOFF_S[0]
                    while True:
                        self.arrived = False
                        await self._listen_to_new(connection, schema)
                        self._read(connection)  # what came with the statements, or waits in libpq's buffer
                        await self._readable_or_arrived(connection)
            except (psycopg.Error, OSError):
                log.warning("lost the LISTEN connection; connecting again in %.1f s", delay)
            # Also when the server ended the connection without an error: whatever was announced meanwhile is lost.
            await asyncio.sleep(delay)
            delay = min(delay * 2, LISTEN_BACKOFF_S[1])

    def _deliver(self, notice: Any) -> None:
        for listener, channel in list(self.told.items()):
            if channel == notice.channel:
                listener.deliver(notice.payload, notice.pid)

    def _read(self, connection: Any) -> None:
        """Deliver every announcement the socket and libpq hold now, without waiting (a connection that broke
        raises ``psycopg.OperationalError``)."""
        import psycopg

        pgconn = connection.pgconn
        pgconn.consume_input()
        encoding = connection.info.encoding
        while (notice := pgconn.notifies()) is not None:
            self._deliver(psycopg.Notify(notice.relname.decode(encoding), notice.extra.decode(encoding), notice.be_pid))

    def _wake(self) -> None:
        if self.waiting is not None and not self.waiting.done():
            self.waiting.set_result(None)

    async def _readable_or_arrived(self, connection: Any) -> None:
        """Wait until the connection's socket has something to read (an announcement, or its end), a subscriber
        arrives, or ``TURN_S`` passes."""
        if self.arrived:  # one came while the last turn's statements ran
            return
        self.waiting = asyncio.get_running_loop().create_future()
        try:
            await socket_ready(connection.fileno(), self.waiting, timeout=TURN_S)
            self.wakes += 1
        finally:
            self.waiting = None

    async def _listen_to_new(self, connection: Any, schema: str) -> None:
        """Listen on the channels of subscribers that arrived since the last turn, then tell them it listens."""
        new = {
            listener: channel_in(listener.channel, schema) for listener in self.listeners if listener not in self.told
        }
        if not new:
            return
        channels = sorted(set(new.values()) - self.listening)
        if channels:
            await connection.execute("; ".join(f'LISTEN "{channel}"' for channel in channels))
            self.listening.update(channels)
        for listener, channel in new.items():
            self.told[listener] = channel
            if listener.on_connect is not None:
                listener.on_connect()
