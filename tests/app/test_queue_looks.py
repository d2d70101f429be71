"""When a worker looks at the queue without being woken (issue X: scale-out that pays for itself). Two idle workers
looked every half second, a claim of four round trips each time, forever: 16 round trips a second for nothing. A worker
now looks that often only while commands flow (``ACTIVE_S``), where the looks catch a command queued behind its game's
earlier one as that one's outcome was written (nobody was woken for it); an idle worker looks every ``IDLE_POLL_S``,
is woken by each reconnection of its listening connection (what was announced while it was away is lost), and looks
``HANDOFF_S`` after it heard of a command meant for another worker. Each test begins right after an idle look, so that
the next would come ``IDLE_POLL_S`` later: what it asks for must come from elsewhere."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest

from app.commands import Answer
from app.database import PostgresDatabase
from app.queue import ACTIVE_S, HANDOFF_S, IDLE_POLL_S, POLL_S, QUEUED, Workers, payload_of
from app.service import GameService
from app.store import Store
from testing import postgres
from tests.app.test_queue import first_answers, queue_of, schema_hash

pytestmark = pytest.mark.several_processes


async def wait_for(check: Any, timeout: float) -> float:
    """Seconds until ``check()`` holds; fails past ``timeout``."""
    started = time.monotonic()
    while not check():
        assert time.monotonic() - started < timeout, f"not within {timeout} s"
        await asyncio.sleep(0.02)
    return time.monotonic() - started


async def after_an_idle_look(worker: Workers) -> None:
    """Return just after the worker's next look at the queue, once it has been idle for ``ACTIVE_S``."""
    await asyncio.sleep(max(0.0, ACTIVE_S - (time.monotonic() - worker.active_at)) + 0.05)
    assert worker.look_every() == IDLE_POLL_S
    claims = worker.claims
    await wait_for(lambda: worker.claims > claims, timeout=IDLE_POLL_S + 2)
    await asyncio.sleep(0.05)  # its read is over


async def queue_unannounced(db: PostgresDatabase, command: Answer, for_worker: str | None = None) -> None:
    """Queue a command as an enqueue whose announcement was lost would leave it: nobody is woken."""
    await db.execute(
        "INSERT INTO command_queue (game_id, payload, enqueued_at, for_worker) VALUES (?, ?, ?, ?)",
        (command.game_id, payload_of(command), time.time(), for_worker),
    )


class Applying:
    def __init__(self, service: GameService) -> None:
        self.service = service
        self.keys: list[str] = []
        self.taking = 0.0  # how long applying a command takes besides its own work (a slow one)

    async def __call__(self, command: Answer) -> None:
        await asyncio.sleep(self.taking)
        await self.service.answer(command)
        self.keys.append(str(command.key))


@asynccontextmanager
async def idle_worker(database: Path | str, name: str, channels: range) -> AsyncIterator[tuple[Workers, list[Answer]]]:
    """A worker just after an idle look, and the first answer of a game started in each channel."""
    store = await Store.open(database, shared=True)
    worker = Workers(await queue_of(store), Applying(GameService(store)), name=name)
    try:
        commands = await first_answers(GameService(store), channels, name)
        worker.start()
        await after_an_idle_look(worker)
        yield worker, commands
    finally:
        await worker.stop()
        await store.close()


def applied(worker: Workers) -> list[str]:
    assert isinstance(worker.apply, Applying)
    return worker.apply.keys


async def test_an_idle_worker_looks_rarely_and_one_whose_commands_flow_every_half_second(database: Path | str) -> None:
    async with idle_worker(database, "w1", range(20, 22)) as (worker, (first, second)):
        store = worker.queue.db
        claims = worker.claims
        await asyncio.sleep(3.0)
        assert worker.claims - claims <= 1  # every half second, it made six

        # A command flows (announced), and a moment later one nobody was woken for: the looks of a worker that has
        # just written an outcome take it within POLL_S, as when an enqueue and that outcome crossed.
        await worker.queue.enqueue(first)
        await wait_for(lambda: applied(worker) == [first.key], timeout=3)
        await asyncio.sleep(0.1)
        await queue_unannounced(store, second)
        assert await wait_for(lambda: applied(worker) == [first.key, second.key], timeout=3) < POLL_S + 0.5


async def test_a_command_that_crossed_the_outcome_of_a_long_apply_is_taken_within_half_a_second(
    database: Path | str,
) -> None:
    """A worker applying a command counts as busy however long it takes: the outcome written at its end may cross an
    enqueue nobody was woken for, so the worker must be looking every POLL_S then, not in the middle of an idle wait."""
    async with idle_worker(database, "w1", range(50, 52)) as (worker, (first, second)):
        assert isinstance(worker.apply, Applying)
        worker.apply.taking = ACTIVE_S + IDLE_POLL_S / 2
        await worker.queue.enqueue(first)
        await wait_for(lambda: applied(worker) == [first.key], timeout=ACTIVE_S + IDLE_POLL_S)
        await asyncio.sleep(0.05)  # its outcome is written
        await queue_unannounced(worker.queue.db, second)
        worker.apply.taking = 0.0
        assert await wait_for(lambda: applied(worker) == [first.key, second.key], timeout=3) < POLL_S + 0.5


async def test_a_reconnection_of_an_idle_workers_listener_makes_it_look(database: Path | str) -> None:
    """What was announced while its listening connection was away is lost: the reconnection makes it look, not its
    next idle look, ``IDLE_POLL_S`` away."""
    async with idle_worker(database, "w1", range(30, 31)) as (worker, (command,)):
        await queue_unannounced(worker.queue.db, command)  # announced while nobody listened
        hashed = schema_hash(await worker.queue.schema())
        with psycopg.connect(postgres.server_url(), autocommit=True) as admin:
            cut = admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN %%' AND query LIKE %s",
                (f'%"{QUEUED}_{hashed}"%',),
            ).fetchall()
        assert cut == [(True,)]
        # The listener connects again after its first backoff (0.5 s), and the worker looks then.
        assert await wait_for(lambda: applied(worker) == [command.key], timeout=IDLE_POLL_S - 2) < IDLE_POLL_S - 2


async def test_an_idle_worker_that_hears_of_another_workers_command_takes_it_once_it_waited(
    database: Path | str,
) -> None:
    """A command meant for a worker that is gone (its game's last was applied there) is anyone's after ``HANDOFF_S``:
    an idle worker that heard of it looks then, not at its next idle look."""
    async with idle_worker(database, "w2", range(40, 41)) as (worker, (command,)):
        queued_at = time.monotonic()
        await worker.queue.enqueue(command, for_worker="w1")  # w1 never comes
        await wait_for(lambda: applied(worker) == [command.key], timeout=IDLE_POLL_S - 1.5)
        waited = time.monotonic() - queued_at
        assert HANDOFF_S * 0.9 <= waited < HANDOFF_S + 1.5, waited
