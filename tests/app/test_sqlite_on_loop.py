"""SQLite runs on the event loop's thread (``app.database.SQLiteDatabase``): what could stop the loop does not. A
statement that finds another connection's write lock waits by sleeping its coroutine while the loop goes on; the
WAL's checkpoints run on a connection of their own in a thread; a transaction whose COMMIT fails is rolled back, so
the next one starts cleanly."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from app import database
from app.database import IntegrityError, SQLiteDatabase


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[SQLiteDatabase]:
    opened = await SQLiteDatabase.open(tmp_path / "loop.db")
    await opened.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
    try:
        yield opened
    finally:
        await opened.close()


async def ticking(ticks: list[float], stop: asyncio.Event) -> None:
    """The loop's heartbeat: a tick every millisecond while it is free."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        ticks.append(loop.time())
        await asyncio.sleep(0.001)


@pytest.mark.parametrize("how", ["statement", "transaction"])
async def test_a_write_waits_for_another_connections_lock_without_stopping_the_loop(
    db: SQLiteDatabase, tmp_path: Path, how: str
) -> None:
    other = sqlite3.connect(tmp_path / "loop.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    other.execute("INSERT INTO notes (text) VALUES ('theirs')")
    ticks: list[float] = []
    stop = asyncio.Event()
    heartbeat = asyncio.create_task(ticking(ticks, stop))

    async def write() -> None:
        if how == "statement":
            await db.execute("INSERT INTO notes (text) VALUES ('ours')")
        else:
            async with db.transaction() as session:
                await session.execute("INSERT INTO notes (text) VALUES ('ours')")

    writing = asyncio.create_task(write())
    await asyncio.sleep(0.3)
    assert not writing.done()  # still waiting for the lock...
    assert len(ticks) > 30  # ...while the loop went on (a busy handler on the loop would have stopped it)
    other.execute("COMMIT")
    await asyncio.wait_for(writing, 2)
    stop.set()
    await heartbeat
    other.close()
    assert await db.fetchall("SELECT text FROM notes ORDER BY id") == [("theirs",), ("ours",)]


async def test_a_write_gives_up_after_the_busy_wait(
    db: SQLiteDatabase, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(database, "BUSY_WAIT_S", 0.1)
    other = sqlite3.connect(tmp_path / "loop.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            await db.execute("INSERT INTO notes (text) VALUES ('ours')")
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert await db.fetchall("SELECT text FROM notes") == []
    await db.execute("INSERT INTO notes (text) VALUES ('later')")  # nothing was left half done
    assert await db.fetchall("SELECT text FROM notes") == [("later",)]


async def test_the_wal_is_checkpointed_off_the_loop(db: SQLiteDatabase, monkeypatch: pytest.MonkeyPatch) -> None:
    # The loop's own connection never checkpoints in a commit: SQLite's automatic checkpoint is off on it.
    assert await db.fetchone("PRAGMA wal_autocheckpoint") == (0,)
    monkeypatch.setattr(database, "CHECKPOINT_AFTER_WRITES", 20)
    for number in range(45):
        await db.execute("INSERT INTO notes (text) VALUES (?)", (f"note {number}",))
    assert db.checkpoints.running is not None
    await db.checkpoints.running
    assert db.checkpoints.made >= 1
    await db.checkpoints.close()
    assert db.checkpoints.connection is None
    assert (await db.fetchone("SELECT count(*) FROM notes")) == (45,)


async def test_a_transaction_whose_commit_fails_is_rolled_back(db: SQLiteDatabase) -> None:
    # A deferred foreign key is checked at COMMIT: the one failure SQLite reports there rather than at a statement.
    await db.execute("CREATE TABLE owners (id INTEGER PRIMARY KEY)")
    await db.execute(
        "CREATE TABLE pets (id INTEGER PRIMARY KEY, owner INTEGER REFERENCES owners (id) DEFERRABLE INITIALLY DEFERRED)"
    )
    with pytest.raises(IntegrityError, match="FOREIGN KEY"):
        async with db.transaction() as session:
            await session.execute("INSERT INTO notes (text) VALUES ('with the pet')")
            await session.execute("INSERT INTO pets (owner) VALUES (7)")
    assert not db.connection.in_transaction
    assert await db.fetchall("SELECT text FROM notes") == []
    async with db.transaction() as session:  # the next transaction begins cleanly
        await session.execute("INSERT INTO notes (text) VALUES ('after')")
    assert await db.fetchall("SELECT text FROM notes") == [("after",)]


async def test_each_statement_lets_the_loops_other_tasks_run_first(db: SQLiteDatabase) -> None:
    # A trip to a thread let a burst's acknowledgements in between two statements of the work behind them; a
    # statement on the loop's own thread yields to them as well, so none waits for more than one statement.
    order: list[str] = []

    async def reading() -> None:
        for _ in range(4):
            await db.fetchone("SELECT count(*) FROM notes")
            order.append("read")

    async def acknowledging() -> None:
        for _ in range(4):
            order.append("ack")
            await asyncio.sleep(0)

    await asyncio.gather(reading(), acknowledging())
    assert order == ["ack", "read"] * 4
