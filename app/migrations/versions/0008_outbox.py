"""The outbox. The statement that commits a version also records that what it implies (channel lines and images,
decision DMs, the pinned status) is still to be published; the publisher deletes the row once all of it is out and
notes the parts already sent in ``sent``, and at start-up it publishes every row left, so a crash after a commit loses
no message and sends none twice. ``kind``: ``step`` (a version committed) or ``reset`` (an undo brought the game back
to this version: every decision open there is sent afresh). Each answer keeps the idempotency key of its command."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"


SQLITE_VIEW = """
    CREATE VIEW answer_commits AS SELECT
        NULL AS game_id, NULL AS expected_version, NULL AS new_version, NULL AS state, NULL AS status,
        NULL AS house, NULL AS user_id, NULL AS prompt_id, NULL AS answer, NULL AS source, NULL AS at,
        NULL AS events, NULL AS snapshot, NULL AS ends_run_of, NULL AS command_key
    WHERE 0
"""
SQLITE_TRIGGER = """
    CREATE TRIGGER answer_commits_insert INSTEAD OF INSERT ON answer_commits BEGIN
        SELECT RAISE(ABORT, 'version-conflict')
            WHERE NOT EXISTS (SELECT 1 FROM games WHERE id = NEW.game_id AND version = NEW.expected_version);
        UPDATE games SET state = NEW.state, version = NEW.new_version, updated_at = NEW.at,
            status = COALESCE(NEW.status, status)
            WHERE id = NEW.game_id;
        INSERT INTO answers (game_id, version, house, user_id, prompt_id, answer, source, at, events, command_key)
            VALUES (NEW.game_id, NEW.new_version, NEW.house, NEW.user_id, NEW.prompt_id, NEW.answer, NEW.source,
                NEW.at, NEW.events, NEW.command_key);
        INSERT OR REPLACE INTO snapshots (game_id, version, state)
            SELECT NEW.game_id, NEW.new_version, NEW.state WHERE NEW.snapshot;
        DELETE FROM missed_deadlines WHERE game_id = NEW.game_id AND house = NEW.ends_run_of;
        INSERT OR REPLACE INTO outbox (game_id, version, created_at) VALUES (NEW.game_id, NEW.new_version, NEW.at);
    END
"""

POSTGRES_VIEW = """
    CREATE VIEW answer_commits AS SELECT
        NULL::bigint AS game_id, NULL::integer AS expected_version, NULL::integer AS new_version, NULL::text AS state,
        NULL::text AS status, NULL::text AS house, NULL::bigint AS user_id, NULL::text AS prompt_id,
        NULL::text AS answer, NULL::text AS source, NULL::double precision AS at, NULL::text AS events,
        NULL::boolean AS snapshot, NULL::text AS ends_run_of, NULL::text AS command_key
    WHERE false
"""
POSTGRES_FUNCTION = """
    CREATE OR REPLACE FUNCTION answer_commits_insert() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        UPDATE games SET state = NEW.state, version = NEW.new_version, updated_at = NEW.at,
            status = COALESCE(NEW.status, status)
            WHERE id = NEW.game_id AND version = NEW.expected_version;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'version-conflict' USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        INSERT INTO answers (game_id, version, house, user_id, prompt_id, answer, source, at, events, command_key)
            VALUES (NEW.game_id, NEW.new_version, NEW.house, NEW.user_id, NEW.prompt_id, NEW.answer, NEW.source,
                NEW.at, NEW.events, NEW.command_key);
        IF NEW.snapshot THEN
            INSERT INTO snapshots (game_id, version, state) VALUES (NEW.game_id, NEW.new_version, NEW.state)
                ON CONFLICT (game_id, version) DO UPDATE SET state = EXCLUDED.state;
        END IF;
        DELETE FROM missed_deadlines WHERE game_id = NEW.game_id AND house = NEW.ends_run_of;
        INSERT INTO outbox (game_id, version, created_at) VALUES (NEW.game_id, NEW.new_version, NEW.at)
            ON CONFLICT (game_id, version, kind) DO UPDATE SET sent = '', created_at = EXCLUDED.created_at;
        RETURN NEW;
    END
    $$
"""
POSTGRES_TRIGGER = """
    CREATE TRIGGER answer_commits_insert INSTEAD OF INSERT ON answer_commits
        FOR EACH ROW EXECUTE FUNCTION answer_commits_insert()
"""


def upgrade() -> None:
    op.create_table(
        "outbox",
        sa.Column(
            "game_id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("kind", sa.Text, nullable=False, server_default="step"),
        sa.Column("sent", sa.Text, nullable=False, server_default=""),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "version", "kind"),
    )
    op.add_column("answers", sa.Column("command_key", sa.Text))
    op.create_index(
        "answers_by_command_key",
        "answers",
        ["game_id", "command_key"],
        unique=True,
        sqlite_where=sa.text("command_key IS NOT NULL"),
        postgresql_where=sa.text("command_key IS NOT NULL"),
    )
    op.execute("DROP VIEW answer_commits")  # on PostgreSQL its trigger goes with it; the function is replaced
    if op.get_context().dialect.name == "postgresql":
        for statement in (POSTGRES_VIEW, POSTGRES_FUNCTION, POSTGRES_TRIGGER):
            op.execute(statement)
    else:
        op.execute(SQLITE_VIEW)
        op.execute(SQLITE_TRIGGER)


def downgrade() -> None:
    from importlib import import_module

    previous = import_module("app.migrations.versions.0007_answer_commits")
    op.execute("DROP VIEW answer_commits")
    if op.get_context().dialect.name == "postgresql":
        op.execute("DROP FUNCTION answer_commits_insert()")
        op.execute(previous.POSTGRES[0])
        op.execute(previous.POSTGRES[1])
        op.execute(previous.POSTGRES[2])
    else:
        op.execute(previous.SQLITE[0])
        op.execute(previous.SQLITE[1])
    op.drop_index("answers_by_command_key", "answers")
    with op.batch_alter_table("answers") as batch:
        batch.drop_column("command_key")
    op.drop_table("outbox")
