"""Several processes on one PostgreSQL database keep caches of the rows every interaction reads (a game, its seats,
its deadline, its runs of missed deadlines, a user's DM status and locale): every change to those rows, whoever makes
it, is announced on ``westeros_changed`` (``g:<game>`` or ``u:<user>``) so that each process drops what it kept. A
trigger announces it, so no statement can forget to. SQLite has one process: nothing to announce."""

from __future__ import annotations

from alembic import op

revision = "0012"
down_revision = "0011"

BY_GAME = {"games": "id", "seats": "game_id", "deadlines": "game_id", "missed_deadlines": "game_id"}
BY_USER = {"dm_status": "user_id", "user_locales": "user_id"}


def function(name: str, prefix: str, column: str) -> str:
    return f"""
    CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'DELETE' THEN
            PERFORM pg_notify('westeros_changed', '{prefix}:' || OLD.{column});
        ELSE
            PERFORM pg_notify('westeros_changed', '{prefix}:' || NEW.{column});
        END IF;
        RETURN NULL;
    END
    $$
    """


def upgrade() -> None:
    if op.get_context().dialect.name != "postgresql":
        return
    for table, column in [*BY_GAME.items(), *BY_USER.items()]:
        prefix = "g" if table in BY_GAME else "u"
        op.execute(function(f"{table}_changed", prefix, column))
        op.execute(
            f"CREATE TRIGGER {table}_changed AFTER INSERT OR UPDATE OR DELETE ON {table}"
            f" FOR EACH ROW EXECUTE FUNCTION {table}_changed()"
        )


def downgrade() -> None:
    if op.get_context().dialect.name != "postgresql":
        return
    for table in [*BY_GAME, *BY_USER]:
        op.execute(f"DROP TRIGGER {table}_changed ON {table}")
        op.execute(f"DROP FUNCTION {table}_changed()")
