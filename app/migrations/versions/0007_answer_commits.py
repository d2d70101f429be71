"""An answer is committed by one INSERT into ``answer_commits``, whose trigger does all of it: one statement is one
atomic transaction, and one trip to the database instead of four (BEGIN, UPDATE, INSERT, COMMIT). A game that ends
(by its last answer or by a moderator) drops the snapshots between its first and its last in the same statement: the
first (and any repair's) and the log replay every point, and the final state stays in the games row.

The two databases say it in their own trigger languages; the statement the store sends is the same.
"""

from __future__ import annotations

from alembic import op

revision = "0007"
down_revision = "0006"

SQLITE = [
    """
    CREATE VIEW answer_commits AS SELECT
        NULL AS game_id, NULL AS expected_version, NULL AS new_version, NULL AS state, NULL AS status,
        NULL AS house, NULL AS user_id, NULL AS prompt_id, NULL AS answer, NULL AS source, NULL AS at,
        NULL AS events, NULL AS snapshot, NULL AS ends_run_of
    WHERE 0
    """,
    """
    CREATE TRIGGER answer_commits_insert INSTEAD OF INSERT ON answer_commits BEGIN
        SELECT RAISE(ABORT, 'version-conflict')
            WHERE NOT EXISTS (SELECT 1 FROM games WHERE id = NEW.game_id AND version = NEW.expected_version);
        UPDATE games SET state = NEW.state, version = NEW.new_version, updated_at = NEW.at,
            status = COALESCE(NEW.status, status)
            WHERE id = NEW.game_id;
        INSERT INTO answers (game_id, version, house, user_id, prompt_id, answer, source, at, events)
            VALUES (NEW.game_id, NEW.new_version, NEW.house, NEW.user_id, NEW.prompt_id, NEW.answer, NEW.source,
                NEW.at, NEW.events);
        INSERT OR REPLACE INTO snapshots (game_id, version, state)
            SELECT NEW.game_id, NEW.new_version, NEW.state WHERE NEW.snapshot;
        DELETE FROM missed_deadlines WHERE game_id = NEW.game_id AND house = NEW.ends_run_of;
    END
    """,
    """
    CREATE TRIGGER games_ended_prune_snapshots AFTER UPDATE OF status ON games
    WHEN NEW.status = 'ended' BEGIN
        DELETE FROM snapshots WHERE game_id = NEW.id
            AND version > (SELECT MIN(version) FROM snapshots WHERE game_id = NEW.id)
            AND version < NEW.version
            AND version NOT IN (SELECT version FROM answers WHERE game_id = NEW.id AND prompt_id = 'repair');
    END
    """,
]

# The view's columns are typed here (an untyped NULL would be text); the UPDATE's row lock orders two racing commits
# of one game, and the loser finds the version moved on.
POSTGRES = [
    """
    CREATE VIEW answer_commits AS SELECT
        NULL::bigint AS game_id, NULL::integer AS expected_version, NULL::integer AS new_version, NULL::text AS state,
        NULL::text AS status, NULL::text AS house, NULL::bigint AS user_id, NULL::text AS prompt_id,
        NULL::text AS answer, NULL::text AS source, NULL::double precision AS at, NULL::text AS events,
        NULL::boolean AS snapshot, NULL::text AS ends_run_of
    WHERE false
    """,
    """
    CREATE FUNCTION answer_commits_insert() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        UPDATE games SET state = NEW.state, version = NEW.new_version, updated_at = NEW.at,
            status = COALESCE(NEW.status, status)
            WHERE id = NEW.game_id AND version = NEW.expected_version;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'version-conflict' USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        INSERT INTO answers (game_id, version, house, user_id, prompt_id, answer, source, at, events)
            VALUES (NEW.game_id, NEW.new_version, NEW.house, NEW.user_id, NEW.prompt_id, NEW.answer, NEW.source,
                NEW.at, NEW.events);
        IF NEW.snapshot THEN
            INSERT INTO snapshots (game_id, version, state) VALUES (NEW.game_id, NEW.new_version, NEW.state)
                ON CONFLICT (game_id, version) DO UPDATE SET state = EXCLUDED.state;
        END IF;
        DELETE FROM missed_deadlines WHERE game_id = NEW.game_id AND house = NEW.ends_run_of;
        RETURN NEW;
    END
    $$
    """,
    """
    CREATE TRIGGER answer_commits_insert INSTEAD OF INSERT ON answer_commits
        FOR EACH ROW EXECUTE FUNCTION answer_commits_insert()
    """,
    """
    CREATE FUNCTION games_ended_prune_snapshots() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        DELETE FROM snapshots WHERE game_id = NEW.id
            AND version > (SELECT MIN(version) FROM snapshots WHERE game_id = NEW.id)
            AND version < NEW.version
            AND version NOT IN (SELECT version FROM answers WHERE game_id = NEW.id AND prompt_id = 'repair');
        RETURN NULL;
    END
    $$
    """,
    """
    CREATE TRIGGER games_ended_prune_snapshots AFTER UPDATE OF status ON games
        FOR EACH ROW WHEN (NEW.status = 'ended') EXECUTE FUNCTION games_ended_prune_snapshots()
    """,
]


def upgrade() -> None:
    for statement in POSTGRES if op.get_context().dialect.name == "postgresql" else SQLITE:
        op.execute(statement)


def downgrade() -> None:
    if op.get_context().dialect.name == "postgresql":
        op.execute("DROP TRIGGER games_ended_prune_snapshots ON games")
        op.execute("DROP FUNCTION games_ended_prune_snapshots()")
        op.execute("DROP VIEW answer_commits")
        op.execute("DROP FUNCTION answer_commits_insert()")
    else:
        op.execute("DROP TRIGGER games_ended_prune_snapshots")
        op.execute("DROP VIEW answer_commits")
