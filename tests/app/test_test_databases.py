"""The suite's databases start at the newest revision without Alembic running for each test (tests/conftest.py): a
SQLite file migrated once and copied, or on PostgreSQL the statements of one migration sent again. Either must be the
schema Alembic builds, or every store test would prove something about another schema."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import psycopg
import pytest

from app import migrate
from testing import postgres
from tests.conftest import require_postgres

# What a schema is made of, read from PostgreSQL's catalogs, in the schema the connection's search_path names first.
CATALOG = {
    "columns": """SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns
                  WHERE table_schema = current_schema() ORDER BY 1, 2""",
    "constraints": """SELECT rel.relname, con.conname, pg_get_constraintdef(con.oid) FROM pg_constraint con
                      JOIN pg_class rel ON rel.oid = con.conrelid
                      WHERE con.connamespace = current_schema()::regnamespace ORDER BY 1, 2""",
    "indexes": """SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()
                  ORDER BY 1, 2""",
    "triggers": """SELECT event_object_table, trigger_name, event_manipulation, action_statement
                   FROM information_schema.triggers WHERE trigger_schema = current_schema() ORDER BY 1, 2, 3""",
    "functions": """SELECT p.proname, pg_get_functiondef(p.oid) FROM pg_proc p
                    WHERE p.pronamespace = current_schema()::regnamespace ORDER BY 1""",
    "sequences": """SELECT sequence_name, data_type, start_value FROM information_schema.sequences
                    WHERE sequence_schema = current_schema() ORDER BY 1""",
    "revision": "SELECT version_num FROM alembic_version",
}


def described(url: str) -> dict[str, list[tuple[Any, ...]]]:
    with psycopg.connect(url) as connection:
        schema = connection.execute("SELECT current_schema()").fetchone()
        assert schema is not None
        # Names that carry the schema (a default's sequence, a function's body) are compared without it.
        return {
            part: [tuple(str(v).replace(f"{schema[0]}.", "") for v in row) for row in connection.execute(query)]
            for part, query in CATALOG.items()
        }


def test_a_replayed_postgres_schema_is_the_one_alembic_builds() -> None:
    require_postgres()
    with postgres.fresh_schema("alembic") as by_alembic, postgres.migrated_schema("replayed") as replayed:
        migrate.upgrade(by_alembic)
        expected, got = described(by_alembic), described(replayed)
    assert got["revision"] == [(migrate.HEAD,)]
    assert len(got["columns"]) > 50 and got["triggers"] and got["functions"]
    assert got == expected


def test_a_copied_sqlite_file_is_at_the_newest_revision(migrated_sqlite: Path, tmp_path: Path) -> None:
    fresh = tmp_path / "alembic.sqlite3"
    migrate.upgrade(fresh)

    def schema(path: Path) -> list[tuple[Any, ...]]:
        with sqlite3.connect(path) as connection:
            return connection.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name").fetchall()

    assert schema(migrated_sqlite) == schema(fresh)
    assert migrate.current_revision(migrated_sqlite) == migrate.HEAD


@pytest.mark.empty_database
async def test_a_test_marked_empty_database_gets_an_empty_one(database: Path | str) -> None:
    assert migrate.current_revision(database) is None
