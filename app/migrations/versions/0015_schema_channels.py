"""One deployment per schema (issue X, fault 11): a NOTIFY channel is the whole database's, so the triggers of
revision 0012 announce changed rows on the channel of their own schema (``westeros_changed_`` and eight hex digits of
the schema's md5, ``app.database.channel_in``), and a deployment in another schema of the same database hears nothing
of them. SQLite has one process: nothing to announce."""

from __future__ import annotations

from alembic import op

revision = "0015"
down_revision = "0014"

BY_GAME = {"games": "id", "seats": "game_id", "deadlines": "game_id", "missed_deadlines": "game_id"}
BY_USER = {"dm_status": "user_id", "user_locales": "user_id"}


def function(name: str, prefix: str, column: str, channel: str) -> str:
    return f"""
    CREATE OR REPLACE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'DELETE' THEN
            PERFORM pg_notify({channel}, '{prefix}:' || OLD.{column});
        ELSE
            PERFORM pg_notify({channel}, '{prefix}:' || NEW.{column});
        END IF;
        RETURN NULL;
    END
    $$
    """


def replace_functions(channel: str) -> None:
    if op.get_context().dialect.name != "postgresql":
        return
    for table, column in [*BY_GAME.items(), *BY_USER.items()]:
        op.execute(function(f"{table}_changed", "g" if table in BY_GAME else "u", column, channel))


def upgrade() -> None:
    replace_functions("'westeros_changed_' || left(md5(TG_TABLE_SCHEMA::text), 8)")


def downgrade() -> None:
    replace_functions("'westeros_changed'")
