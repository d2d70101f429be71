"""Alembic's entry point for this project's one migration history (SQLite and PostgreSQL alike).

``app.migrate`` runs it with a connection of its own (``config.attributes["connection"]``), inside the transaction
that holds the migration lock; ``alembic -c app/migrations/alembic.ini ...`` (a developer adding a revision) runs it
on the address of ``sqlalchemy.url`` or ``DATABASE_URL``.
"""

from __future__ import annotations

import os

import sqlalchemy as sa
from alembic import context

from app.migrate import sqlalchemy_url


def run(connection: sa.Connection) -> None:
    context.configure(connection=connection, target_metadata=None, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


given = context.config.attributes.get("connection")
if given is not None:
    run(given)
else:
    address = os.environ.get("DATABASE_URL") or context.config.get_main_option("sqlalchemy.url") or ""
    engine = sa.create_engine(sqlalchemy_url(address), poolclass=sa.NullPool)
    with engine.begin() as connection:
        run(connection)
    engine.dispose()
