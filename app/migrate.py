"""Bring a database to the newest schema with Alembic, the one migration history of both stores
(``app/migrations/versions``).

Every process of the bot calls ``upgrade`` as it starts. On PostgreSQL the whole upgrade is one transaction under an
advisory lock of its schema, so processes starting together migrate once and the others find the work done. A SQLite
file made before Alembic kept its schema's number in ``PRAGMA user_version`` (1 to 10, the same steps as revisions 0001
to 0010): it is stamped with that revision first, then upgraded like any other.

A database already at ``HEAD`` (nearly every start) is told by one query, without loading Alembic or SQLAlchemy:
the one-process bot on SQLite stays as small as it was.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from app.config import shown_database
from app.database import is_postgres, lock_key, sqlite_path

if TYPE_CHECKING:
    import sqlalchemy as sa
    from alembic.config import Config

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
MIGRATION_LOCK = "migrate"  # the advisory lock every process takes to migrate its schema (``lock_key`` of it)
HEAD = "0020"  # the newest revision (tests/app/test_service.py holds it equal to Alembic's)


def sqlalchemy_url(target: str | Path) -> str:
    """SQLAlchemy's address for a target: psycopg for PostgreSQL, the standard library's sqlite3 for a file."""
    text = str(target)
    if is_postgres(text):
        return "postgresql+psycopg://" + text.split("://", 1)[1]
    return f"sqlite:///{sqlite_path(text)}"


def alembic_config() -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def head() -> str:
    """The newest revision, as Alembic reads it from the revisions."""
    from alembic.script import ScriptDirectory

    revision = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert revision is not None
    return revision


def current_revision(target: str | Path) -> str | None:
    """The revision the database stands at, read without Alembic (None: none yet, or no such table)."""
    query = "SELECT version_num FROM alembic_version"
    if is_postgres(target):
        import psycopg

        try:
            with psycopg.connect(str(target), autocommit=True) as connection:
                row = connection.execute(query).fetchone()
        except psycopg.errors.UndefinedTable:
            return None
        return str(row[0]) if row else None
    path = sqlite_path(target)
    if not path.exists():
        return None
    file = sqlite3.connect(path)
    try:
        found = file.execute(query).fetchone()
    except sqlite3.OperationalError:  # no such table: a new file, or one from before Alembic
        return None
    finally:
        file.close()
    return str(found[0]) if found else None


def known_revisions() -> list[str]:
    """The revisions this code knows, oldest first (their files' names begin with them), read without Alembic."""
    return sorted(path.name[:4] for path in (MIGRATIONS / "versions").glob("[0-9][0-9][0-9][0-9]_*.py"))


class SchemaAhead(Exception):
    """The database stands at a revision this code does not know: a newer version of the bot migrated it."""


def refuse_if_ahead(target: str | Path, revision: str | None) -> None:
    """Raise ``SchemaAhead`` (one line, for the operator) if ``revision`` is newer than this code's."""
    if revision is not None and revision not in known_revisions():
        raise SchemaAhead(
            f"the database {shown_database(target)} is at schema revision {revision}, newer than this code's {HEAD}:"
            " run the newer version of the bot, or restore a backup taken before the upgrade (docs/deploy.md)"
        )


def legacy_revision(connection: sa.Connection) -> str | None:
    """The revision a SQLite file from before Alembic stands at (None: Alembic keeps it, or it is new)."""
    import sqlalchemy as sa

    if connection.dialect.name != "sqlite" or sa.inspect(connection).has_table("alembic_version"):
        return None
    number = int(connection.exec_driver_sql("PRAGMA user_version").scalar() or 0)
    return f"{number:04d}" if number else None


def upgrade(target: str | Path, revision: str = "head") -> None:
    """Migrate the database ``target`` names to ``revision`` (blocking: run it in a thread from async code)."""
    now = current_revision(target)
    if revision == "head" and now == HEAD:
        return
    refuse_if_ahead(target, now)
    import sqlalchemy as sa
    from alembic import command

    engine = sa.create_engine(sqlalchemy_url(target), poolclass=sa.NullPool)
    try:
        with engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                # Per schema: a deployment migrating in another schema of the database does not wait for this one.
                schema = str(connection.execute(sa.text("SELECT current_schema()")).scalar())
                connection.execute(
                    sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": lock_key(MIGRATION_LOCK, schema)}
                )
            config = alembic_config()
            config.attributes["connection"] = connection
            legacy = legacy_revision(connection)
            if legacy is not None:
                command.stamp(config, legacy)
            command.upgrade(config, revision)
    finally:
        engine.dispose()
