"""Issue X, faults 3 and 11: leases are checked, not assumed, and one database holds several deployments (one per
schema), each with its own advisory locks and NOTIFY channels."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import psycopg
import pytest

from app import leases
from app.database import PostgresDatabase, lock_key, notify_sql
from app.leases import LeaseHeld, LeaseKeeper, LostLease
from app.listen import Listener
from app.migrate import upgrade
from cogs.publisher import Publisher
from cogs.pump import PUBLISH_LOCK, OutboxPump
from testing import postgres
from tests.conftest import require_postgres


async def wait_until(check: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)


def migrated(url: str) -> str:
    upgrade(url)
    return url


class Drains:
    """Stands in for the Discord side of a Publisher (not under test here): counts the pump's drains."""

    def __init__(self, failures: int = 0) -> None:
        self.drains = 0
        self.turns = 0
        self.ended = 0  # turns ended: what it committed meanwhile is no longer kept as applied
        self.failures = failures  # the first drains fail with an error nobody expected
        self.may_send: Any = None

    async def drain(self, *, at_start: bool = True) -> list[int]:
        self.drains += 1
        if self.drains <= self.failures:
            raise RuntimeError("a drain that failed unexpectedly")
        return []

    def new_turn(self) -> None:
        self.turns += 1

    def end_turn(self) -> None:
        self.ended += 1


async def test_a_lease_changes_hands_only_when_free_and_its_epoch_grows_each_time() -> None:
    require_postgres()
    with postgres.fresh_schema("lease") as url:
        db = await PostgresDatabase.open(migrated(url), pool_size=(1, 2))
        try:
            first = await leases.take(db, "publisher", "a", ttl=30)
            assert first is not None and first.epoch == 1
            assert await leases.take(db, "publisher", "b", ttl=30) is None  # a holds it
            again = await leases.take(db, "publisher", "a", ttl=30)
            assert again is not None and again.epoch == 1  # the same holder keeps its epoch
            assert await leases.still_holds(db, "publisher", "a", 1)
            taken = await leases.take(db, "publisher", "b", ttl=30, force=True)
            assert taken is not None and taken.epoch == 2
            assert not await leases.still_holds(db, "publisher", "a", 1)  # fenced off
            assert await leases.renew(db, first) is None
            await leases.release(db, taken)
            assert not await leases.still_holds(db, "publisher", "b", 2)
            third = await leases.take(db, "publisher", "a", ttl=30)  # released: free at once
            assert third is not None and third.epoch == 3
            expiring = await leases.take(db, "gateway:0", "a", ttl=0.2)
            assert expiring is not None
            await asyncio.sleep(0.3)
            assert not await leases.still_holds(db, "gateway:0", "a", expiring.epoch)
            after = await leases.take(db, "gateway:0", "b", ttl=30)
            assert after is not None and after.epoch == expiring.epoch + 1
        finally:
            await db.close()


async def test_the_publisher_fence_stops_a_send_once_the_lease_is_lost() -> None:
    publisher = Publisher.__new__(Publisher)  # only the fence: no Discord behind it
    answers = [True, False]

    async def may_send() -> bool:
        return answers.pop(0)

    publisher.may_send = may_send
    await publisher._fence()
    with pytest.raises(LostLease):
        await publisher._fence()


@asynccontextmanager
async def two_workers(url: str) -> AsyncIterator[tuple[list[OutboxPump], Drains, Drains]]:
    """Two workers' pumps on one migrated schema: the first holds the publish lock, the second has started after it."""
    migrated(url)
    first, second = Drains(), Drains()
    pumps = [OutboxPump(first, url, holder="first"), OutboxPump(second, url, holder="second")]  # type: ignore[arg-type]
    pumps[0].start()
    try:
        await wait_until(lambda: pumps[0].holding)
        pumps[1].start()
        yield pumps, first, second
    finally:
        for pump in pumps:
            await pump.stop()


async def test_a_publisher_whose_lock_connection_is_cut_stops_sending_while_another_takes_over() -> None:
    require_postgres()
    with postgres.fresh_schema("fence") as url:
        async with two_workers(url) as (pumps, first, second):
            assert await first.may_send() and not await second.may_send()
            await asyncio.sleep(1.5)
            assert not pumps[1].holding  # one publisher at a time
            # The first's lock connection is cut: the second takes lock and lease, and from then on the first
            # (still in the middle of its drain) is refused its next send.
            assert pumps[0].lock_pid is not None
            with psycopg.connect(postgres.server_url(), autocommit=True) as admin:
                admin.execute("SELECT pg_terminate_backend(%s)", (pumps[0].lock_pid,))
            await wait_until(lambda: pumps[1].holding)
            assert await second.may_send()
            assert not await first.may_send()
            assert pumps[1].lease is not None and pumps[1].lease.epoch == 2
            drained = second.drains
            await wait_until(lambda: second.drains > drained)
            assert not pumps[0].holding and not await first.may_send()
            # Each take begins a new turn of the publisher: what it remembers of its last one is not trusted.
            assert (first.turns, second.turns) == (1, 1)


async def test_a_drain_that_fails_unexpectedly_lets_the_lock_go_and_publishing_goes_on() -> None:
    """The only worker of a deployment whose drain raised an error nobody expected (not the database's) once stopped
    publishing for good: every game silent. It lets the lock go with its connection, takes it again, and drains."""
    require_postgres()
    with postgres.fresh_schema("failing") as url:
        migrated(url)
        drains = Drains(failures=2)
        worker = OutboxPump(drains, url, holder="only")  # type: ignore[arg-type]
        worker.start()
        try:
            await wait_until(lambda: drains.drains > 3, timeout=15)
            assert worker.holding and drains.turns == 3  # a turn per failed drain, and the one that drains on
            assert drains.ended == 2  # each failed turn ended: its publisher keeps nothing it committed meanwhile
        finally:
            await worker.stop()


async def test_two_deployments_in_two_schemas_both_publish_and_hear_only_their_own_notifications() -> None:
    require_postgres()
    with postgres.fresh_schema("one") as one, postgres.fresh_schema("two") as two:
        pumps = [OutboxPump(Drains(), migrated(url)) for url in (one, two)]  # type: ignore[arg-type]
        heard: dict[str, list[str]] = {one: [], two: []}
        listeners = [Listener(url, "westeros_outbox", heard[url].append) for url in (one, two)]
        for listener in listeners:
            listener.start()
        for pump in pumps:
            pump.start()
        db = await PostgresDatabase.open(one, pool_size=(1, 1))
        try:
            await wait_until(lambda: all(pump.holding for pump in pumps))  # both hold their schema's publish lock
            assert all(pump.lease is not None and pump.lease.epoch == 1 for pump in pumps)
            await asyncio.sleep(1.0)  # the listeners are connected
            await db.execute(f"SELECT {notify_sql('?')}", ("westeros_outbox", "for one"))
            await wait_until(lambda: heard[one] == ["for one"])
            await asyncio.sleep(0.5)
            assert heard[two] == []
            # The database's changed-row triggers (revision 0015) announce on their own schema's channel too.
            changed: dict[str, list[str]] = {one: [], two: []}
            watchers = [Listener(url, "westeros_changed", changed[url].append) for url in (one, two)]
            for watcher in watchers:
                watcher.start()
            await asyncio.sleep(1.0)
            await db.execute("INSERT INTO user_locales (user_id, locale, updated_at) VALUES (?, ?, 0)", (7, "ru"))
            await wait_until(lambda: changed[one] == ["u:7"])
            await asyncio.sleep(0.5)
            assert changed[two] == []
            for watcher in watchers:
                await watcher.stop()
        finally:
            await db.close()
            for listener in listeners:
                await listener.stop()
            for pump in pumps:
                await pump.stop()


def test_lock_keys_and_channels_differ_by_schema_and_stay_short() -> None:
    assert lock_key(PUBLISH_LOCK, "a") != lock_key(PUBLISH_LOCK, "b")
    assert lock_key(PUBLISH_LOCK, "a") == lock_key(PUBLISH_LOCK, "a")
    from app.database import channel_in

    assert len(channel_in("westeros_changed", "x" * 63).encode()) <= 63


async def test_a_second_holder_is_refused_naming_the_first_and_a_dead_ones_lease_is_taken_at_once() -> None:
    require_postgres()
    with postgres.fresh_schema("keep") as url:
        migrated(url)
        first = LeaseKeeper(url, info="the first bot", ttl=1.5)
        await first.acquire(["one-process", "gateway:0"], wanted="bot.py --role all", excluded=["gateway:"])
        first.start()
        second = LeaseKeeper(url, info="the second bot", ttl=1.5)
        try:
            started = time.monotonic()
            with pytest.raises(LeaseHeld, match="the first bot"):
                await second.acquire(["one-process"], wanted="bot.py --role all")
            assert time.monotonic() - started < 3.0  # refused once it saw the holder renew, not after its expiry
            gateway = LeaseKeeper(url, info="a gateway", ttl=1.5)
            with pytest.raises(LeaseHeld, match="gateway:0"):
                await gateway.acquire(["gateway:0"], wanted="bot.py --role gateway", excluded=["one-process"])
            await gateway.close()
            # The first dies without a word (its connection closes, its renewals stop): the next takes over at once.
            assert first.task is not None and first.connection is not None
            first.task.cancel()
            await first.connection.close()
            started = time.monotonic()
            await second.acquire(["one-process"], wanted="bot.py --role all")
            assert time.monotonic() - started < 1.0
            assert second.held["one-process"].epoch == 2
        finally:
            await second.close()
            first.held.clear()
            await first.close()


async def test_commits_announced_together_share_one_drain_of_the_outbox() -> None:
    """A burst of commits woke the publishing worker's drain, and its read of the whole outbox, for nearly every
    commit (61 drains in ``bench/scale.py``'s burst of 300 answers). A wake-up waits a moment (``GATHER_S``) for the
    commits announced after it: they share one drain. Lengthened here, so that a loaded machine keeps the test's five
    announcements inside it."""
    require_postgres()
    with postgres.fresh_schema("gather") as url:
        migrated(url)
        drains = Drains()
        pump = OutboxPump(drains, url, holder="only")  # type: ignore[arg-type]
        pump.gather = 0.5
        pump.start()
        db = await PostgresDatabase.open(url, pool_size=(1, 1))
        try:
            await wait_until(lambda: pump.holding and drains.drains >= 1)
            await asyncio.sleep(0.6)  # the first drain's own wait is over
            before = drains.drains
            for commit in range(5):  # five commits, each announced on its own
                await db.execute(f"SELECT {notify_sql('?')}", ("westeros_outbox", str(commit)))
                await asyncio.sleep(0.02)
            await asyncio.sleep(0.7)  # the wait and its drain are over
            # One drain for the five (and at most one more: the pump's look of every POLL_S may fall in the window).
            assert 1 <= drains.drains - before <= 2
        finally:
            await db.close()
            await pump.stop()


async def test_an_idle_holder_looks_at_the_outbox_every_few_seconds_and_at_each_reconnection_of_its_listener() -> None:
    """Commits announce themselves (the outbox's trigger), so the holder's own look is a net: every ``POLL_S`` (it was
    every second, a read of the outbox and a renewal of the lease each, while nothing happened), and at each
    reconnection of its listening connection, since what was announced while it was away is lost."""
    from cogs import pump as pumps
    from tests.app.test_queue import schema_hash

    require_postgres()
    with postgres.fresh_schema("idle") as url:
        migrated(url)
        drains = Drains()
        pump = OutboxPump(drains, url, holder="only")  # type: ignore[arg-type]
        assert pump.look_every() == pumps.POLL_S == 5.0  # a lease of LEASE_S is renewed every sixth of its life
        assert OutboxPump(drains, url, ttl=1.2).look_every() == pytest.approx(0.2)  # type: ignore[arg-type]
        pump.start()
        try:
            await wait_until(lambda: pump.holding and drains.drains >= 1)
            looked = drains.drains
            await wait_until(lambda: drains.drains > looked, timeout=pumps.POLL_S + 2)  # an idle look
            looked = drains.drains
            await asyncio.sleep(1.5)
            assert drains.drains == looked  # it drained every second
            with psycopg.connect(url) as own:
                row = own.execute("SELECT current_schema()").fetchone()
            assert row is not None
            with psycopg.connect(postgres.server_url(), autocommit=True) as admin:
                cut = admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN %%'"
                    " AND query LIKE %s",
                    (f'%"westeros_outbox_{schema_hash(row[0])}"%',),
                ).fetchall()
            assert cut == [(True,)]
            started = time.monotonic()
            await wait_until(lambda: drains.drains > looked, timeout=pumps.POLL_S)
            assert time.monotonic() - started < 2.0  # the listener's first backoff is 0.5 s
        finally:
            await pump.stop()
