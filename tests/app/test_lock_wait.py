"""A worker waiting for the publish lock waits in the server (``app.leases.wait_for_lock``): it sends no statement
while another worker publishes, where it tried the lock every second, and it takes over the moment the holder's lock
connection ends. Real PostgreSQL, real connections."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import psycopg
import pytest

from app.database import lock_key, schema_of
from app.leases import wait_for_lock
from testing import postgres
from tests.app.test_leases import two_workers, wait_until
from tests.conftest import require_postgres


def activity(pid: int | None) -> tuple[Any, ...] | None:
    """The server process's state, what it waits for, and when its statement began (None: it is gone)."""
    with psycopg.connect(postgres.server_url(), autocommit=True) as admin:
        return admin.execute(
            "SELECT state, wait_event_type, wait_event, query_start FROM pg_stat_activity WHERE pid = %s", (pid,)
        ).fetchone()


def terminate(pid: int | None) -> None:
    with psycopg.connect(postgres.server_url(), autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))


def waits_for_the_lock(pid: int | None) -> bool:
    row = activity(pid)
    return row is not None and row[:3] == ("active", "Lock", "advisory")


async def test_a_waiting_worker_sends_nothing_until_the_lock_is_free_and_then_takes_over_at_once() -> None:
    require_postgres()
    with postgres.fresh_schema("lockwait") as url:
        async with two_workers(url) as (pumps, _, _):
            await wait_until(lambda: waits_for_the_lock(pumps[1].lock_pid))
            began = activity(pumps[1].lock_pid)
            await asyncio.sleep(2.5)
            # One statement, still waiting: the worker that tried every second had sent two more by now.
            assert activity(pumps[1].lock_pid) == began
            assert not pumps[1].holding
            # Its connection cut while it waits: it connects again and waits again.
            cut = pumps[1].lock_pid
            terminate(cut)
            await wait_until(lambda: pumps[1].lock_pid != cut and waits_for_the_lock(pumps[1].lock_pid))
            assert pumps[0].holding and not pumps[1].holding
            # The holder's lock connection ends: the waiter has the lock, and the lease, at once.
            terminate(pumps[0].lock_pid)
            ended = time.monotonic()
            await wait_until(lambda: pumps[1].holding)
            assert time.monotonic() - ended < 0.5
            assert pumps[1].lease is not None and pumps[1].lease.epoch == 2


async def test_a_wait_the_server_ends_is_asked_again_and_a_cancelled_wait_leaves_no_server_process_waiting() -> None:
    require_postgres()
    with postgres.fresh_schema("lockwait") as url:
        async with (
            await psycopg.AsyncConnection.connect(url, autocommit=True) as holder,
            await psycopg.AsyncConnection.connect(url, autocommit=True) as waiter,
        ):
            key = lock_key("lease:test", await schema_of(holder))
            await holder.execute("SELECT pg_advisory_lock(%s)", (key,))
            pid = waiter.info.backend_pid
            waiting = asyncio.ensure_future(wait_for_lock(waiter, key, wait_s=0.2))
            await wait_until(lambda: waits_for_the_lock(pid))
            first = activity(pid)
            await asyncio.sleep(0.7)
            again = activity(pid)
            # The server ended the wait (lock_timeout) at least twice, and each time it was asked again.
            assert not waiting.done() and first is not None and again is not None and again[3] > first[3]
            await holder.execute("SELECT pg_advisory_unlock(%s)", (key,))
            await asyncio.wait_for(waiting, 1.0)
            row = await (await holder.execute("SELECT pg_try_advisory_lock(%s)", (key,))).fetchone()
            assert row is not None and not row[0]  # the waiter holds it now
            await waiter.execute("SELECT pg_advisory_unlock(%s)", (key,))

            # A wait cancelled (the worker stops) is cancelled in the server as well: nobody waits there for a
            # client gone, to take the lock the moment it is free.
            await holder.execute("SELECT pg_advisory_lock(%s)", (key,))
            waiting = asyncio.ensure_future(wait_for_lock(waiter, key))
            await wait_until(lambda: waits_for_the_lock(pid))
            waiting.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiting
            await wait_until(lambda: not waits_for_the_lock(pid), timeout=3.0)
            assert (await (await waiter.execute("SELECT 1")).fetchone()) == (1,)  # the connection is usable again

            # Cancelled just as the lock was granted (its row waits unread on the socket): it is let go, not kept by
            # a waiter that gave up. The lock is let go from a connection that does not wait on the loop, and the loop
            # is held still meanwhile, so that the waiter cannot read its grant before it is cancelled.
            await holder.execute("SELECT pg_advisory_unlock(%s)", (key,))
            with psycopg.connect(url, autocommit=True) as still:
                still.execute("SELECT pg_advisory_lock(%s)", (key,))
                waiting = asyncio.ensure_future(wait_for_lock(waiter, key))
                await wait_until(lambda: waits_for_the_lock(pid))
                still.execute("SELECT pg_advisory_unlock(%s)", (key,))
                time.sleep(0.3)  # the grant reaches the waiter's socket
                waiting.cancel()
                with pytest.raises(asyncio.CancelledError):
                    await waiting
                row = still.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()
                assert row is not None and row[0]
                still.execute("SELECT pg_advisory_unlock(%s)", (key,))
            await holder.execute("SELECT pg_advisory_lock(%s)", (key,))

            # A waiting connection cut: the wait ends with the error, not in silence.
            waiting = asyncio.ensure_future(wait_for_lock(waiter, key))
            await wait_until(lambda: waits_for_the_lock(pid))
            terminate(pid)
            with pytest.raises(psycopg.OperationalError):
                await asyncio.wait_for(waiting, 3.0)
