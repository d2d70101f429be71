"""Issue X, fault 3, at less cost per answer: the publishing worker's fence lets a yes stand for ``FENCE_WINDOW_S`` and
a new holder of the publisher lease waits that out before its first send (``cogs/pump.py``); commits wake the
publisher through the outbox's trigger (revision 0019), with no statement of their own. Real PostgreSQL, real
connections; the Discord side of the publisher is a stand-in that sends (notes the time) whenever the fence lets it."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import psycopg
import pytest

from app import leases
from app.database import PostgresDatabase
from app.listen import Listener
from app.queue import OUTBOX
from app.store import Store
from cogs.pump import FENCE_WINDOW_S, TAKE_OVER_PAUSE_S, OutboxPump
from testing import postgres
from tests.conftest import require_postgres


async def wait_until(check: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


class Sender:
    """Stands in for the Discord side of a Publisher: from its pump's first drain on, ``tasks`` loops (a burst's posts)
    each send as often as the fence lets them; a send is the ``time.monotonic()`` it was let go at."""

    def __init__(self, tasks: int = 4) -> None:
        self.may_send: Any = None
        self.count = tasks
        self.sent: list[float] = []
        self.loops: list[asyncio.Task[None]] = []

    async def drain(self, *, at_start: bool = True) -> list[int]:
        if not self.loops:
            self.loops = [asyncio.get_running_loop().create_task(self._send()) for _ in range(self.count)]
        return []

    def new_turn(self) -> None:
        pass

    def end_turn(self) -> None:
        pass

    async def _send(self) -> None:
        while True:
            if await self.may_send():
                self.sent.append(time.monotonic())
            await asyncio.sleep(0.001)

    async def stop(self) -> None:
        for loop in self.loops:
            loop.cancel()
        await asyncio.gather(*self.loops, return_exceptions=True)


async def test_a_publisher_whose_lease_was_taken_over_sends_nothing_after_the_takers_first_send() -> None:
    require_postgres()
    # The waiting worker takes the lock the moment the cut one's connection ends (it waits in the server), while the
    # cut one's last yes still stands: the case the take-over pause is for.
    with postgres.migrated_schema("takeover") as url:
        first, second = Sender(), Sender()
        pumps = [OutboxPump(first, url, holder="first"), OutboxPump(second, url, holder="second")]  # type: ignore[arg-type]
        pumps[0].start()
        await wait_until(lambda: len(first.sent) > 50)
        pumps[1].start()
        try:
            await asyncio.sleep(0.3)
            assert not second.sent and not pumps[1].holding  # one publisher at a time
            # The first's lock connection is cut in the middle of its sends: the second takes lock and lease at once.
            assert pumps[0].lock_pid is not None
            with psycopg.connect(postgres.server_url(), autocommit=True) as admin:
                admin.execute("SELECT pg_terminate_backend(%s)", (pumps[0].lock_pid,))
            cut = time.monotonic()
            await wait_until(lambda: pumps[1].holding)
            taken = time.monotonic()
            await wait_until(lambda: bool(second.sent))
            await asyncio.sleep(0.5)  # any late send of the first would show by now
            assert pumps[1].lease is not None and pumps[1].lease.epoch == 2
            assert max(first.sent) < min(second.sent), (
                f"the first sent until {max(first.sent) - cut:.3f} s after the cut,"
                f" the second from {min(second.sent) - cut:.3f} s (took over at {taken - cut:.3f} s)"
            )
            # The first's yes stood for its window at most after the cut; the second waited out more than that.
            assert max(first.sent) < cut + FENCE_WINDOW_S
            assert min(second.sent) >= taken + TAKE_OVER_PAUSE_S - 0.05
        finally:
            for sender in (first, second):
                await sender.stop()
            for worker in pumps:
                await worker.stop()


async def test_the_fence_window_spares_reads_and_a_taken_lease_stops_the_sends_within_it() -> None:
    require_postgres()
    with postgres.migrated_schema("window") as url:
        sender = Sender(tasks=8)
        worker = OutboxPump(sender, url, holder="first")  # type: ignore[arg-type]
        worker.start()
        db = await PostgresDatabase.open(url, pool_size=(1, 1))
        try:
            await wait_until(lambda: bool(sender.sent))
            reads, sends, started = worker.fence_reads, len(sender.sent), time.monotonic()
            await asyncio.sleep(1.5)
            reads, sends = worker.fence_reads - reads, len(sender.sent) - sends
            elapsed = time.monotonic() - started
            # A read per window at most (eight loops asking at once share one), where a read per send made hundreds.
            assert reads <= elapsed / FENCE_WINDOW_S + 2, (reads, sends)
            assert sends >= 20 * reads, (reads, sends)
            # The lease is taken by force while the first's connection lives on (a worker cut off with its
            # connection open): its sends stop within one window of the take's commit.
            taken = await leases.take(db, "publisher", "second", ttl=30, force=True)
            committed = time.monotonic()
            assert taken is not None and taken.epoch == 2
            await asyncio.sleep(FENCE_WINDOW_S + 0.3)
            assert sender.sent and max(sender.sent) < committed + FENCE_WINDOW_S
            assert not await worker.may_send()
        finally:
            await sender.stop()
            await worker.stop()
            await db.close()


async def test_what_a_commit_writes_to_the_outbox_or_notices_wakes_the_publisher_once_at_commit() -> None:
    require_postgres()
    with postgres.migrated_schema("wake") as url, postgres.migrated_schema("other") as other:
        heard: dict[str, list[str]] = {url: [], other: []}
        connected = asyncio.Event()
        listeners = [
            Listener(target, OUTBOX, heard[target].append, connected.set if target == url else None)
            for target in (url, other)
        ]
        for listener in listeners:
            listener.start()
        store = await Store.open(url)
        try:
            await connected.wait()
            await asyncio.sleep(0.3)  # the other schema's listener too
            game_id = await store.create_game(guild_id=1, channel_id=2, name="g", created_by=3, settings={})
            # A transaction writing two versions and a notice: one notification, and only once it commits.
            async with store.transaction() as db:
                for version in (1, 2):
                    await db.execute(
                        "INSERT INTO outbox (game_id, version, kind, created_at) VALUES (?, ?, 'step', 0)",
                        (game_id, version),
                    )
                await db.execute(
                    "INSERT INTO notices (game_id, after_version, payload, created_at) VALUES (?, 2, '{}', 0)",
                    (game_id,),
                )
                await asyncio.sleep(0.3)
                assert heard[url] == []  # not before the commit
            await wait_until(lambda: heard[url] == [""])
            # A rolled-back write announces nothing.
            with pytest.raises(RuntimeError):
                async with store.transaction() as db:
                    await db.execute(
                        "INSERT INTO outbox (game_id, version, kind, created_at) VALUES (?, 3, 'step', 0)", (game_id,)
                    )
                    raise RuntimeError("roll back")
            # The store's own writes announce themselves (a notice here), each in its commit.
            await store.add_notices(game_id, [{"kind": "test"}])
            await wait_until(lambda: len(heard[url]) == 2)
            await asyncio.sleep(0.3)
            assert heard[url] == ["", ""] and heard[other] == []  # nothing for the rolled-back one, nor elsewhere
        finally:
            await store.close()
            for listener in listeners:
                await listener.stop()
