"""Read a store's tables from outside the bot, synchronously (a test's wait condition): a SQLite file or a
PostgreSQL address, as ``Store.open`` takes them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import psycopg

from app.database import is_postgres, psycopg_sql, sqlite_path


def peek(database: Path | str, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The rows of one query (``?`` placeholders, as the store writes them)."""
    if is_postgres(database):
        with psycopg.connect(str(database), autocommit=True) as connection:
            return connection.execute(psycopg_sql(sql), params).fetchall()
    import sqlite3

    with sqlite3.connect(sqlite_path(database)) as connection:
        return connection.execute(sql, params).fetchall()
