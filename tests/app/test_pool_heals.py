"""Issue X, fault 7: connections heal. A connection the server dropped is never handed to a statement (the pool checks
it first and opens another), and a LISTEN connection the server ended listens again."""

from __future__ import annotations

import asyncio

import psycopg

from app.database import CHECK_AFTER_IDLE_S, PostgresDatabase, notify_sql
from app.listen import Listener
from testing import postgres
from tests.conftest import require_postgres


async def pool_pids(db: PostgresDatabase, count: int) -> set[int]:
    """The server processes of ``count`` connections the pool holds at once."""
    pids: set[int] = set()
    async with asyncio.TaskGroup() as group:
        for _ in range(count):

            async def one() -> None:
                async with db.pool.connection() as connection:
                    pids.add(connection.info.backend_pid)
                    await asyncio.sleep(0.2)

            group.create_task(one())
    return pids


def terminate(pids: set[int]) -> None:
    with psycopg.connect(postgres.server_url(), autocommit=True) as admin:
        for pid in pids:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))


async def test_statements_after_the_server_cut_every_other_pooled_connection_all_succeed() -> None:
    require_postgres()
    with postgres.fresh_schema("heal") as url:
        db = await PostgresDatabase.open(url, pool_size=(4, 4))
        try:
            await db.execute("CREATE TABLE probe (n INTEGER)")
            held = await pool_pids(db, 4)
            assert len(held) == 4
            cut = set(sorted(held)[::2])
            terminate(cut)
            await asyncio.sleep(0.2)
            failures = 0
            for n in range(200):
                try:
                    await db.execute("INSERT INTO probe (n) VALUES (?)", (n,))
                    async with db.transaction() as session:
                        await session.fetchone("SELECT count(*) FROM probe")
                except psycopg.Error:
                    failures += 1
            assert failures == 0
            assert await db.fetchone("SELECT count(*) FROM probe") == (200,)
            # The cut connections were replaced: none of the pool's connections now is one the server ended.
            assert not (await pool_pids(db, 4)) & cut
        finally:
            await db.close()


async def test_every_pooled_connection_cut_while_idle_and_answers_in_parallel_all_succeed() -> None:
    require_postgres()
    with postgres.fresh_schema("heal") as url:
        db = await PostgresDatabase.open(url, pool_size=(2, 6))
        try:
            terminate(await pool_pids(db, 6))
            await asyncio.sleep(0.2)
            results = await asyncio.gather(*(db.fetchone("SELECT ?::int", (n,)) for n in range(60)))
            assert results == [(n,) for n in range(60)]
        finally:
            await db.close()


async def test_a_listener_whose_connection_the_server_ended_listens_again() -> None:
    require_postgres()
    with postgres.fresh_schema("heal") as url:
        db = await PostgresDatabase.open(url, pool_size=(1, 2))
        heard: list[str] = []
        connects = 0

        def connected() -> None:
            nonlocal connects
            connects += 1

        listener = Listener(url, "westeros_probe", heard.append, connected)
        listener.start()
        try:
            for round_ in range(3):
                while connects <= round_:
                    await asyncio.sleep(0.05)
                await db.execute(f"SELECT {notify_sql('?')}", ("westeros_probe", f"hello {round_}"))
                while len(heard) <= round_:
                    await asyncio.sleep(0.05)
                # The listener's own connection is the one ended here (the pool's are idle in another schema's
                # count, but cutting them too does no harm: the pool heals).
                with psycopg.connect(postgres.server_url(), autocommit=True) as admin:
                    admin.execute(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                        " WHERE query LIKE 'LISTEN %%' AND state = 'idle' AND pid <> pg_backend_pid()"
                        " AND query LIKE %s",
                        (f"%{listener_channel_suffix(url)}%",),
                    )
            assert heard == ["hello 0", "hello 1", "hello 2"]
            assert connects >= 3
        finally:
            await listener.stop()
            await db.close()


def listener_channel_suffix(url: str) -> str:
    from app.database import schema_hash

    with psycopg.connect(url, autocommit=True) as probe:
        row = probe.execute("SELECT current_schema()").fetchone()
    assert row is not None
    return schema_hash(str(row[0]))


async def test_a_read_cut_during_its_statement_reads_again_and_a_write_is_left_to_its_caller() -> None:
    """A connection terminated *during* a plain SELECT (the pool's check cannot see that coming): the read runs again
    on another connection and answers. A write cut the same way is not run again behind its caller's back (it may have
    committed): it fails, and its caller decides (the gateway looks its enqueue up by the interaction's id)."""
    require_postgres()
    with postgres.fresh_schema("reread") as url:
        db = await PostgresDatabase.open(url, pool_size=(2, 2))
        try:
            await db.execute("CREATE TABLE probe (n INTEGER)")

            async def cut_the_sleeper() -> None:
                with psycopg.connect(postgres.server_url(), autocommit=True) as admin:
                    for _ in range(200):
                        rows = admin.execute(
                            "SELECT pid FROM pg_stat_activity WHERE state = 'active' AND query LIKE %s"
                            " AND pid <> pg_backend_pid()",
                            ("%pg_sleep(0.5)%",),
                        ).fetchall()
                        if rows:
                            admin.execute("SELECT pg_terminate_backend(%s)", (rows[0][0],))
                            return
                        await asyncio.sleep(0.01)
                raise AssertionError("the statement never ran")

            read, _ = await asyncio.gather(db.fetchone("SELECT 7, pg_sleep(0.5)"), cut_the_sleeper())
            assert read is not None and read[0] == 7
            write = db.fetchone("INSERT INTO probe (n) SELECT 1 FROM pg_sleep(0.5) RETURNING n")
            outcome = await asyncio.gather(write, cut_the_sleeper(), return_exceptions=True)
            assert isinstance(outcome[0], psycopg.OperationalError)
            assert await db.fetchone("SELECT count(*) FROM probe") == (0,)  # run once, cut, never again
        finally:
            await db.close()


async def test_a_connection_handed_back_a_moment_ago_is_not_checked_an_idle_one_is_and_after_a_drop_every_one() -> None:
    """The pool's check is a round trip: made for a connection idle ``CHECK_AFTER_IDLE_S`` or more, not for one handed
    back a moment ago (a burst's statements) nor for one just opened, and for every hand-out for ``CAREFUL_FOR_S``
    after a drop was seen."""
    require_postgres()
    with postgres.fresh_schema("heal") as url:
        db = await PostgresDatabase.open(url, pool_size=(1, 2))
        try:
            await asyncio.gather(*(db.fetchone("SELECT pg_sleep(0.05)") for _ in range(2)))  # the pool opens another
            # The one opened for the second statement was handed out as soon as it was open: not checked. (The first,
            # opened with the pool, is checked if the machine took longer than CHECK_AFTER_IDLE_S to reach it.)
            assert db.checks.made <= 1
            await db.close()
            db = await PostgresDatabase.open(url, pool_size=(1, 1))
            await db.fetchone("SELECT 1")
            before = db.checks.made
            for _ in range(20):  # one connection, handed back and out again at once
                await db.fetchone("SELECT 1")
            assert db.checks.made == before
            await asyncio.sleep(CHECK_AFTER_IDLE_S * 2)
            await db.fetchone("SELECT 1")
            assert db.checks.made == before + 1
            # The server drops the connection a moment after its last statement: the next statement (a read) meets
            # the drop, runs again, and from then on each hand-out is checked.
            terminate(await pool_pids(db, 1))
            assert await db.fetchone("SELECT 2") == (2,)
            checked = db.checks.made
            for _ in range(5):
                await db.execute("SELECT 1")
            assert db.checks.made == checked + 5
        finally:
            await db.close()
