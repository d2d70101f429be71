"""Several processes on one PostgreSQL database: the worker that publishes (``cogs/pump.py``) listens on the outbox's
channel of its schema (``westeros_outbox_`` and eight hex digits of the schema's md5, ``app.database.channel_in``, as
revision 0015's). A trigger on ``outbox`` and ``notices`` announces there every statement that writes what it drains
(``Publisher.drain``: the outbox's versions, the notices), so no commit can forget to wake it and none pays a round
trip of its own for it: the notification leaves with the commit (none if it rolls back), and a transaction's
identical notifications are sent once. A statement trigger, not a row trigger: one notification per statement is
enough (the payload is empty; the publisher reads the outbox). SQLite has one process: nothing to announce."""

from __future__ import annotations

from alembic import op

revision = "0019"
down_revision = "0018"

TABLES = ("outbox", "notices")  # what the publisher drains

FUNCTION = """
    CREATE FUNCTION outbox_written() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        PERFORM pg_notify('westeros_outbox_' || left(md5(TG_TABLE_SCHEMA::text), 8), '');
        RETURN NULL;
    END
    $$
"""


def upgrade() -> None:
    if op.get_context().dialect.name != "postgresql":
        return
    op.execute(FUNCTION)
    for table in TABLES:
        op.execute(
            f"CREATE TRIGGER {table}_written AFTER INSERT ON {table}"
            " FOR EACH STATEMENT EXECUTE FUNCTION outbox_written()"
        )


def downgrade() -> None:
    if op.get_context().dialect.name != "postgresql":
        return
    for table in TABLES:
        op.execute(f"DROP TRIGGER {table}_written ON {table}")
    op.execute("DROP FUNCTION outbox_written()")
