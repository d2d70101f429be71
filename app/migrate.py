"""Bring a database to the newest schema with Alembic, the one migration history of both stores
(``app/migrations/versions``).

Every process of the bot calls ``upgrade`` as it starts. On PostgreSQL the whole upgrade is one transaction under an
advisory lock, so processes starting together migrate once and the others find the work done. A SQLite file made
before Alembic kept its schema's number in ``PRAGMA user_version`` (1 to 10, the same steps as revisions 0001 to 0010):
it is stamped with that revision first, then upgraded like any other.
"""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from app.database import is_postgres, sqlite_path

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
MIGRATION_LOCK = 0x57E57E05  # the advisory lock every process takes to migrate a PostgreSQL database


def sqlalchemy_url(target: str | Path) -> str:
    """SQLAlchemy's address for a target: psycopg for PostgreSQL, the standard library's sqlite3 for a file."""
    text = str(target)
    if is_postgres(text):
        return "postgresql+psycopg://" + text.split("://", 1)[1]
    return f"sqlite:///{sqlite_path(text)}"


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def head() -> str:
    """The newest revision."""
    revision = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert revision is not None
    return revision


def current(connection: sa.Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


def legacy_revision(connection: sa.Connection) -> str | None:
    """The revision a SQLite file from before Alembic stands at (None: Alembic keeps it, or it is new)."""
    if connection.dialect.name != "sqlite" or sa.inspect(connection).has_table("alembic_version"):
        return None
    number = int(connection.exec_driver_sql("PRAGMA user_version").scalar() or 0)
    return f"{number:04d}" if number else None


def upgrade(target: str | Path, revision: str = "head") -> None:
    """Migrate the database ``target`` names to ``revision`` (blocking: run it in a thread from async code)."""
    engine = sa.create_engine(sqlalchemy_url(target), poolclass=sa.NullPool)
    try:
        with engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
            config = alembic_config()
            config.attributes["connection"] = connection
            legacy = legacy_revision(connection)
            if legacy is not None:
                command.stamp(config, legacy)
            command.upgrade(config, revision)
    finally:
        engine.dispose()
