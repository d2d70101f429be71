"""The two databases the store runs on, behind one small interface: SQLite (aiosqlite, the default: one file, one
process) and PostgreSQL (psycopg with its connection pool, for a bot of several processes).

The store writes its SQL once, with ``?`` placeholders and the syntax both accept (``ON CONFLICT``, ``RETURNING``);
the PostgreSQL side turns the placeholders into psycopg's. Rows come back as plain tuples. An integrity failure of
either raises ``IntegrityError`` with the database's own message, so the store tells its cases apart in one place.
The schema is not made here: ``app.migrate`` brings either database to the current revision first.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import sqlite3
import sys
import time
import weakref
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import aiosqlite

if TYPE_CHECKING:  # imported when a PostgreSQL database is opened: the SQLite default never loads them
    import psycopg
    import psycopg_pool

log = logging.getLogger("westeros.database")

Row = tuple[Any, ...]
Params = Sequence[Any]

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
POOL_SIZE = (2, 8)  # PostgreSQL connections of one process: kept open, at most
LISTEN_BACKOFF_S = (0.5, 30.0)  # a lost LISTEN connection is opened again after this, doubling up to the second
CHECK_AFTER_IDLE_S = 0.1  # a pooled connection idle this long is checked with a round trip before it is handed out
CAREFUL_FOR_S = 10.0  # after a connection was seen to drop, every hand-out is checked for this long


def schema_hash(schema: str) -> str:
    """Eight hex digits naming a schema, the same in Python and in SQL (``left(md5(schema), 8)``)."""
    return hashlib.md5(schema.encode()).hexdigest()[:8]


def channel_in(base: str, schema: str) -> str:
    """The NOTIFY channel ``base`` of the deployment in ``schema``: a channel is the whole database's, and one database
    may hold several deployments (one per schema), so each listens on its own. A channel name is an identifier of at
    most 63 bytes, so the schema is named by its hash, not spelt out."""
    return f"{base}_{schema_hash(schema)}"


def is_connection_lost(error: BaseException) -> bool:
    """A dropped or unobtainable connection (a restart, ``pg_terminate_backend``, a pool that timed out): the statement
    it carried may or may not have committed, so the outcome is read again, never guessed."""
    psycopg = sys.modules.get("psycopg")
    return psycopg is not None and isinstance(error, psycopg.OperationalError | psycopg.InterfaceError)


def notify_sql(payload_sql: str = "''") -> str:
    """``pg_notify`` on the channel whose base name is the statement's next ``?``, in the connection's own schema:
    the SQL twin of ``channel_in``."""
    return f"pg_notify(? || '_' || left(md5(current_schema()), 8), {payload_sql})"


def lock_key(purpose: str, schema: str) -> int:
    """A stable 64-bit advisory lock key for ``purpose`` (``"publish"``, ``"migrate"``, ``"lease:<name>"``) in the
    deployment of ``schema``: advisory locks are the whole database's, so two deployments in two schemas of one
    database must not share one."""
    return int.from_bytes(hashlib.blake2b(f"{purpose}:{schema}".encode(), digest_size=8).digest(), "big", signed=True)


class IntegrityError(Exception):
    """A statement broke a key, a reference or a check (or the store's commit found the game moved on). Its text is
    the database's first line (SQLite names the columns of the broken key, PostgreSQL the constraint), never the
    statement's context, which names other columns."""

    @staticmethod
    def of_postgres(err: psycopg.errors.IntegrityError) -> IntegrityError:
        return IntegrityError(err.diag.message_primary or str(err).splitlines()[0])


def is_database_error(error: BaseException) -> bool:
    """A failure of a database: what a command answers with "nothing was recorded, try again"."""
    if isinstance(error, sqlite3.Error | IntegrityError):
        return True
    postgres = sys.modules.get("psycopg")
    return postgres is not None and isinstance(error, postgres.Error)


def name_connections(role: str) -> None:
    """Every PostgreSQL connection this process opens from now on (its pool's, its listener's) names the process
    ``westeros-<role>`` to the server, in pg_stat_activity and the server's log, unless the host named it: libpq
    reads PGAPPNAME when a connection opens."""
    os.environ.setdefault("PGAPPNAME", f"westeros-{role}")


def is_postgres(target: str | Path) -> bool:
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


def sqlite_path(target: str | Path) -> Path:
    """The file of a SQLite target: a path, or a ``sqlite:///relative`` or ``sqlite:////absolute`` address."""
    text = str(target)
    return Path(text.removeprefix("sqlite:///")) if text.startswith("sqlite:///") else Path(text)


class Session(ABC):
    """Statements inside one transaction."""

    @abstractmethod
    async def execute(self, sql: str, params: Params = ()) -> int: ...

    @abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Params]) -> None: ...

    @abstractmethod
    async def fetchone(self, sql: str, params: Params = ()) -> Row | None: ...

    @abstractmethod
    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]: ...


class Database(Session):
    """A database: statements on their own (each commits by itself) and transactions."""

    dialect: str

    @abstractmethod
    def transaction(self) -> Any:
        """``async with db.transaction() as session``: all or nothing."""

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def set_read_only(self, read_only: bool) -> None:
        """Refuse every write from now on (True) or allow them again: a fault the tests inject."""


class SQLiteDatabase(Database):
    """One aiosqlite connection, in WAL mode. Writes are serialised by one lock: on a shared connection, a statement
    issued while another coroutine's transaction is open would silently join that transaction."""

    dialect = "sqlite"

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self.connection = connection
        self.write_lock = asyncio.Lock()

    @staticmethod
    async def open(path: Path) -> SQLiteDatabase:
        connection = await aiosqlite.connect(str(path), isolation_level=None)
        for pragma in ("journal_mode=WAL", "foreign_keys=ON", "synchronous=NORMAL", "busy_timeout=5000"):
            await connection.execute(f"PRAGMA {pragma}")
        return SQLiteDatabase(connection)

    async def execute(self, sql: str, params: Params = ()) -> int:
        async with self.write_lock:
            return await self._execute(sql, params)

    async def _execute(self, sql: str, params: Params) -> int:
        try:
            cursor = await self.connection.execute(sql, params)
        except sqlite3.IntegrityError as err:
            raise IntegrityError(str(err)) from err
        return cursor.rowcount

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        async with self.write_lock:
            await self._executemany(sql, rows)

    async def _executemany(self, sql: str, rows: Iterable[Params]) -> None:
        try:
            await self.connection.executemany(sql, rows)
        except sqlite3.IntegrityError as err:
            raise IntegrityError(str(err)) from err

    # A read is one hand-over to aiosqlite's thread (``execute_fetchall``), where a cursor took three: its statement,
    # its fetch and its close, each queued to the thread and called back on the loop (py-spy put a tenth of the loop's
    # GIL time there, though running SQLite on the loop itself saved no measurable CPU: docs/bot.md). Every
    # ``fetchone`` of the store's asks for one row at most.
    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        try:
            rows = list(await self.connection.execute_fetchall(sql, params))
        except sqlite3.IntegrityError as err:  # a RETURNING statement
            raise IntegrityError(str(err)) from err
        return tuple(rows[0]) if rows else None

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return [tuple(row) for row in await self.connection.execute_fetchall(sql, params)]

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Session]:
        async with self.write_lock:
            await self.connection.execute("BEGIN IMMEDIATE")
            try:
                yield _SQLiteSession(self)
            except BaseException:
                await self.connection.execute("ROLLBACK")
                raise
            await self.connection.execute("COMMIT")

    async def close(self) -> None:
        await self.connection.close()

    async def set_read_only(self, read_only: bool) -> None:
        await self.connection.execute(f"PRAGMA query_only = {'ON' if read_only else 'OFF'}")


class _SQLiteSession(Session):
    """Statements of the open transaction (the database's write lock is held)."""

    def __init__(self, db: SQLiteDatabase) -> None:
        self.db = db

    async def execute(self, sql: str, params: Params = ()) -> int:
        return await self.db._execute(sql, params)

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        await self.db._executemany(sql, rows)

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        return await self.db.fetchone(sql, params)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return await self.db.fetchall(sql, params)


@lru_cache(maxsize=512)
def psycopg_sql(sql: str) -> str:
    """The store's ``?`` placeholders as psycopg's ``%s`` (a literal ``%`` doubled); its SQL has no ``?`` in text."""
    return sql.replace("%", "%%").replace("?", "%s")


class PostgresDatabase(Database):
    """A pool of psycopg connections in autocommit; each transaction holds one connection of its own, so transactions
    of one process run side by side as those of several processes do, and the database's locks order them."""

    dialect = "postgresql"

    def __init__(self, pool: psycopg_pool.AsyncConnectionPool, url: str) -> None:
        self.pool = pool
        self.url = url  # for connections of their own (LISTEN)
        self.read_only = False
        self.checks = PoolChecks()
        self.backends: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()  # connection -> server pid

    def is_own_backend(self, pid: int) -> bool:
        """Whether the server process ``pid`` serves a connection of this pool (a NOTIFY it sent is this process's)."""
        return pid in set(self.backends.values())

    @staticmethod
    async def open(url: str, *, pool_size: tuple[int, int] = POOL_SIZE) -> PostgresDatabase:
        import psycopg_pool

        backends: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()

        async def configure(connection: psycopg.AsyncConnection[Any]) -> None:
            await connection.set_autocommit(True)
            backends[connection] = connection.info.backend_pid
            await checks.returned(connection)  # just opened: as good as one handed back now

        # A connection is checked before it is handed out when it has been idle (``PoolChecks``), so one dropped
        # meanwhile (a restart, a failover, an idle timeout, pg_terminate_backend) is replaced, not given to a
        # statement; the pool opens new ones with a growing delay while the server is away.
        checks = PoolChecks()
        pool = psycopg_pool.AsyncConnectionPool(
            url,
            min_size=pool_size[0],
            max_size=pool_size[1],
            configure=configure,
            check=checks.check,
            reset=checks.returned,
            open=False,
        )
        db = PostgresDatabase(pool, url)
        db.checks = checks
        db.backends = backends
        await pool.open(wait=True, timeout=30)
        return db

    async def execute(self, sql: str, params: Params = ()) -> int:
        async with self._connection() as connection:
            cursor = await _run(connection, sql, params)
            return cursor.rowcount

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        async with self.transaction() as session:
            await session.executemany(sql, rows)

    async def execute_together(self, statements: Sequence[tuple[str, Params]]) -> None:
        """Several statements in one round trip, all or nothing: one query of the simple protocol, which PostgreSQL
        runs as one transaction, its values bound by psycopg on the client (``AsyncClientCursor``: psycopg's documented
        way to send several statements in one ``execute``). A transaction of its own took a round trip each for its
        ``BEGIN``, each statement and its ``COMMIT``."""
        import psycopg

        sql = "; ".join(psycopg_sql(statement) for statement, _ in statements)
        params = tuple(value for _, values in statements for value in values)
        async with self._connection() as connection:
            try:
                await psycopg.AsyncClientCursor(connection).execute(sql, params)
            except psycopg.errors.IntegrityError as err:
                raise IntegrityError.of_postgres(err) from err

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        for attempt in range(READ_TRIES):
            try:
                async with self._connection() as connection:
                    cursor = await _run(connection, sql, params)
                    return await cursor.fetchone()
            except Exception as err:
                if not _may_read_again(sql, err, attempt):
                    raise
        raise AssertionError("unreachable")

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        for attempt in range(READ_TRIES):
            try:
                async with self._connection() as connection:
                    cursor = await _run(connection, sql, params)
                    return await cursor.fetchall()
            except Exception as err:
                if not _may_read_again(sql, err, attempt):
                    raise
        raise AssertionError("unreachable")

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        import psycopg

        try:
            async with self._pooled() as connection:
                yield connection
        except psycopg.OperationalError:
            self.checks.saw_a_drop()
            raise

    @asynccontextmanager
    async def _pooled(self) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        async with self.pool.connection() as connection:
            if self.read_only:
                await connection.execute("SET default_transaction_read_only = on")
                try:
                    yield connection
                finally:
                    await connection.execute("SET default_transaction_read_only = off")
            else:
                yield connection

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Session]:
        async with self._connection() as connection, connection.transaction():
            yield _PostgresSession(connection)

    async def close(self) -> None:
        await self.pool.close()

    async def set_read_only(self, read_only: bool) -> None:
        self.read_only = read_only


class PoolChecks:
    """When the pool checks a connection before handing it out (its documented ``check`` and ``reset`` callbacks).

    The check is a round trip. Made at every hand-out it was 40 % of a worker's statements in a burst
    (``bench/scale.py``): a connection handed back a moment ago needs none, since the server dropping it in
    between is no likelier than in the instant between a check and the statement, which no check covers either
    (a read cut there runs again, ``READ_TRIES``). So a connection is checked when it has been idle for
    ``CHECK_AFTER_IDLE_S`` or more (the drops that happen while nobody looks: an idle timeout, a restart at
    night), or while a drop was seen in the last ``CAREFUL_FOR_S`` seconds (a storm of them: every hand-out is
    checked until it passes). A connection just opened counts as handed back then: it was checked by its opening
    (checking it again made a round trip for each connection a burst added to the pool)."""

    def __init__(self) -> None:
        self.handed_back: weakref.WeakKeyDictionary[Any, float] = weakref.WeakKeyDictionary()
        self.careful_until = 0.0
        self.made = 0  # checks made (tests and the benchmark)

    async def check(self, connection: psycopg.AsyncConnection[Any]) -> None:
        import psycopg_pool

        now = time.monotonic()
        back = self.handed_back.get(connection)
        if back is not None and now - back < CHECK_AFTER_IDLE_S and now >= self.careful_until:
            return
        self.made += 1
        try:
            await psycopg_pool.AsyncConnectionPool.check_connection(connection)
        except Exception:  # the pool replaces it; others dropped with it are checked too
            self.saw_a_drop()
            raise

    async def returned(self, connection: psycopg.AsyncConnection[Any]) -> None:
        self.handed_back[connection] = time.monotonic()

    def saw_a_drop(self) -> None:
        self.careful_until = time.monotonic() + CAREFUL_FOR_S


READ_TRIES = 3  # a plain read whose connection was cut during its statement runs again on another


def _may_read_again(sql: str, error: Exception, attempt: int) -> bool:
    """Whether a statement whose connection dropped under it (a restart, ``pg_terminate_backend``) may simply run again:
    a plain SELECT changes nothing, so its retry is safe; anything that writes (an INSERT ... RETURNING, a NOTIFY, a
    lock) is left to its caller, who knows whether doing it twice is harmless. The pool's check catches connections
    dropped while idle; this catches one dropped during the statement."""
    import psycopg

    if attempt + 1 >= READ_TRIES or not isinstance(error, psycopg.OperationalError):
        return False
    words = sql.lstrip().upper()
    writes = ("INSERT", "UPDATE", "DELETE", "PG_NOTIFY", "FOR UPDATE", "NEXTVAL", "ADVISORY", "SET ")
    if not words.startswith("SELECT") or any(word in words for word in writes):
        return False
    log.warning("a read lost its connection (%s); reading again", str(error).splitlines()[0] if str(error) else error)
    return True


async def _run(connection: psycopg.AsyncConnection[Any], sql: str, params: Params) -> psycopg.AsyncCursor[Any]:
    import psycopg

    try:
        return await connection.execute(psycopg_sql(sql), params)
    except psycopg.errors.IntegrityError as err:
        raise IntegrityError.of_postgres(err) from err


class _PostgresSession(Session):
    def __init__(self, connection: psycopg.AsyncConnection[Any]) -> None:
        self.connection = connection

    async def execute(self, sql: str, params: Params = ()) -> int:
        return (await _run(self.connection, sql, params)).rowcount

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        import psycopg

        try:
            async with self.connection.cursor() as cursor:
                await cursor.executemany(psycopg_sql(sql), list(rows))
        except psycopg.errors.IntegrityError as err:
            raise IntegrityError.of_postgres(err) from err

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        return await (await _run(self.connection, sql, params)).fetchone()

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return await (await _run(self.connection, sql, params)).fetchall()


def session_on(connection: psycopg.AsyncConnection[Any]) -> Session:
    """The store's statements (``?`` placeholders) on a connection of one's own, in autocommit (a lock's)."""
    return _PostgresSession(connection)


async def socket_ready(fd: int, ready: asyncio.Future[None], *, timeout: float, writable: bool = False) -> bool:
    """Wait until the socket ``fd`` can be read (or written), or ``ready`` is resolved by someone else, for
    ``timeout`` at most; whether it came in time. For a wait on a psycopg connection's own socket: psycopg's own
    waits (``execute``, ``notifies()``) wake every 0.1 s to look for an interruption (``psycopg.waiting``)."""
    loop = asyncio.get_running_loop()

    def wake() -> None:
        if not ready.done():
            ready.set_result(None)

    (loop.add_writer if writable else loop.add_reader)(fd, wake)
    try:
        async with asyncio.timeout(timeout):
            await ready
        return True
    except TimeoutError:
        return False
    finally:
        (loop.remove_writer if writable else loop.remove_reader)(fd)


async def schema_of(connection: psycopg.AsyncConnection[Any]) -> str:
    """The schema a connection works in (the first of its ``search_path``): its deployment's."""
    row = await (await connection.execute("SELECT current_schema()")).fetchone()
    if row is None or row[0] is None:
        raise RuntimeError("the connection's search_path names no schema that exists")
    return str(row[0])


async def connect(target: str | Path, *, connections: int = POOL_SIZE[1]) -> Database:
    """The database a target names: a ``postgresql://`` address (a pool of at most ``connections``), or a SQLite file
    (a path or ``sqlite:///``)."""
    if is_postgres(target):
        return await PostgresDatabase.open(str(target), pool_size=(POOL_SIZE[0], connections))
    return await SQLiteDatabase.open(sqlite_path(target))
