"""Exactly once, whatever fails (issue X).

- ``games.broken_reason`` / ``games.broken_at``: a game whose stored state no longer loads is quarantined with the
  reason; start-up, publishing and deadlines leave it alone and go on for every other game.
- ``games.create_key``: ``/game new`` carries its interaction's id, so a second gateway (or a retried request) that
  receives the same interaction finds the lobby the first one made instead of making another.
- ``outbox_sends``: each message a version's publication sent (a post, an edit, a DM), keyed by its place in the
  publication and marked as soon as Discord accepted it, with the message's id: a part is never sent again because a
  later one failed.
- ``leases``: which process holds which role (the publisher, a gateway shard, the one-process bot), with an epoch
  that grows at every change of holder (a fencing token each send checks) and the time it runs out unless renewed.
- ``command_queue.gateway`` / ``told_at`` / ``reply``: the gateway that enqueued a command, when its player was told
  the outcome, and how to reach him (the interaction to edit while its token lives, his locale): a gateway that
  restarts tells every player it left waiting.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"

ROW_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("broken_reason", sa.Text))
        batch.add_column(sa.Column("broken_at", sa.Double))
        batch.add_column(sa.Column("create_key", sa.Text))
    op.create_index(
        "games_by_create_key",
        "games",
        ["create_key"],
        unique=True,
        sqlite_where=sa.text("create_key IS NOT NULL"),
        postgresql_where=sa.text("create_key IS NOT NULL"),
    )
    op.create_table(
        "outbox_sends",
        sa.Column("game_id", ROW_ID, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("part", sa.Text, nullable=False),
        sa.Column("message_id", sa.BigInteger),
        sa.Column("at", sa.Double, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "version", "kind", "part", name="outbox_sends_pkey"),
    )
    op.create_table(
        "leases",
        sa.Column("name", sa.Text, primary_key=True),
        sa.Column("holder", sa.Text, nullable=False),
        sa.Column("epoch", sa.BigInteger, nullable=False),
        sa.Column("expires_at", sa.Double, nullable=False),
        sa.Column("info", sa.Text, nullable=False, server_default=""),
    )
    with op.batch_alter_table("command_queue") as batch:
        batch.add_column(sa.Column("gateway", sa.Text))
        batch.add_column(sa.Column("told_at", sa.Double))
        batch.add_column(sa.Column("reply", sa.Text))


def downgrade() -> None:
    with op.batch_alter_table("command_queue") as batch:
        batch.drop_column("reply")
        batch.drop_column("told_at")
        batch.drop_column("gateway")
    op.drop_table("leases")
    op.drop_table("outbox_sends")
    op.drop_index("games_by_create_key", "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("create_key")
        batch.drop_column("broken_at")
        batch.drop_column("broken_reason")
