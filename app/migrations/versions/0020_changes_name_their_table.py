"""A changed row of a game names its table (issue X: scale-out that pays for itself): the triggers of revisions 0012
and 0015 announce ``g:<game>:<table>`` where they announced ``g:<game>``, so that a process drops only what it cached
of that table. Every answer updates its game's row; the game's seats, deadline and runs of missed deadlines rarely
change, and another process (the gateway, the publishing worker) no longer reads them again after every answer. (An
upgrade stops every process first, docs/deploy.md: no process of the older code hears the new form.) SQLite has one
process: nothing to announce."""

from __future__ import annotations

from alembic import op

revision = "0020"
down_revision = "0019"

BY_GAME = {"games": "id", "seats": "game_id", "deadlines": "game_id", "missed_deadlines": "game_id"}
CHANNEL = "'westeros_changed_' || left(md5(TG_TABLE_SCHEMA::text), 8)"  # revision 0015's


def function(table: str, column: str, suffix: str) -> str:
    return f"""
    CREATE OR REPLACE FUNCTION {table}_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'DELETE' THEN
            PERFORM pg_notify({CHANNEL}, 'g:' || OLD.{column}{suffix});
        ELSE
            PERFORM pg_notify({CHANNEL}, 'g:' || NEW.{column}{suffix});
        END IF;
        RETURN NULL;
    END
    $$
    """


def upgrade() -> None:
    if op.get_context().dialect.name != "postgresql":
        return
    for table, column in BY_GAME.items():
        # The colon and the name apart: ":name" would be read as a bind parameter.
        op.execute(function(table, column, f" || ':' || '{table}'"))


def downgrade() -> None:
    if op.get_context().dialect.name != "postgresql":
        return
    for table, column in BY_GAME.items():
        op.execute(function(table, column, ""))
