"""Throwaway PostgreSQL schemas for tests and benchmarks: each gets a schema of its own in one database, so runs in
parallel (pytest-xdist's workers) never see each other's tables, and dropping the schema removes everything.

``WESTEROS_TEST_POSTGRES`` names the server (default: the one the development and CI machines run,
``postgresql://postgres@127.0.0.1:5432/test``).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any
from urllib.parse import quote

import psycopg

from app.config import shown_database

DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/test"


def server_url() -> str:
    return os.environ.get("WESTEROS_TEST_POSTGRES") or DEFAULT_URL


@cache
def unreachable() -> str | None:
    """Why the test server cannot be used (None: it can), asked once per process."""
    try:
        with psycopg.connect(server_url(), connect_timeout=3) as connection:
            connection.execute("SELECT 1")
    except psycopg.Error as err:
        return f"PostgreSQL is not reachable at {shown_database(server_url())}: {str(err).strip().splitlines()[0]}"
    return None


def in_schema(url: str, schema: str, *, durable: bool = False) -> str:
    """The address of ``url`` whose connections see ``schema`` first (libpq's ``options``). Tests do not wait for
    each commit to reach the disk (``durable``: they do, as the bot does in production)."""
    separator = "&" if "?" in url else "?"
    options = f"-csearch_path={schema}" + ("" if durable else " -csynchronous_commit=off")
    return f"{url}{separator}options={quote(options)}"


@contextmanager
def fresh_schema(prefix: str = "t", *, durable: bool = False) -> Iterator[str]:
    """An address whose connections work in a new, empty schema, dropped with all it holds afterwards."""
    schema = f"{prefix}_{secrets.token_hex(6)}"
    with psycopg.connect(server_url(), autocommit=True) as connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield in_schema(server_url(), schema, durable=durable)
    finally:
        with psycopg.connect(server_url(), autocommit=True) as connection:
            connection.execute(f'DROP SCHEMA "{schema}" CASCADE')


@contextmanager
def migrated_schema(prefix: str = "t") -> Iterator[str]:
    """``fresh_schema``, already at the newest revision: the statements one migration of an empty schema sent are
    sent again, in one transaction, where Alembic would take a second or more per schema. Only for an empty
    schema, which is where those statements came from; tests/app/test_test_databases.py holds the result to a schema
    Alembic migrated."""
    statements = migration_statements()
    with fresh_schema(prefix) as url, psycopg.connect(url, autocommit=True) as connection:
        with connection.transaction():
            for statement, parameters in statements:
                connection.execute(statement, parameters)
        yield url


@cache
def migration_statements() -> tuple[tuple[str, Any], ...]:
    """What ``app.migrate.upgrade`` sends to migrate an empty schema to the newest revision (once per process),
    recorded by SQLAlchemy's documented ``before_cursor_execute`` event on every engine."""
    import sqlalchemy as sa

    from app import migrate

    sent: list[tuple[str, Any]] = []

    def record(
        connection: sa.Connection, cursor: Any, statement: str, parameters: Any, context: Any, executemany: bool
    ) -> None:
        assert not executemany, "a migration of an empty schema sends one row at a time"
        sent.append((statement, parameters or None))

    with fresh_schema("template") as url:
        sa.event.listen(sa.Engine, "before_cursor_execute", record)
        try:
            migrate.upgrade(url)
        finally:
            sa.event.remove(sa.Engine, "before_cursor_execute", record)
    return tuple(sent)
