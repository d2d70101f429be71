"""Several processes on one database. ``command_queue``: the commands a gateway hands to the workers, applied in order
within a game (``done_at`` and ``outcome`` once applied, for the gateway that waits). ``deadlines.claimed_until``: the
process firing a deadline holds it until then (another takes it over if that process dies); ``deadlines.reminded``:
the reminders already sent for the step, so each goes out once whichever process sends it."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"

ROW_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "command_queue",
        sa.Column("id", ROW_ID, primary_key=True, autoincrement=True),
        sa.Column("game_id", ROW_ID, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("enqueued_at", sa.Double, nullable=False),
        sa.Column("done_at", sa.Double),
        sa.Column("outcome", sa.Text),
        sqlite_autoincrement=True,
    )
    op.create_index(
        "command_queue_pending",
        "command_queue",
        ["game_id", "id"],
        sqlite_where=sa.text("done_at IS NULL"),
        postgresql_where=sa.text("done_at IS NULL"),
    )
    # The next command to claim, in order, without walking the commands already done.
    op.create_index(
        "command_queue_next",
        "command_queue",
        ["id"],
        sqlite_where=sa.text("done_at IS NULL"),
        postgresql_where=sa.text("done_at IS NULL"),
    )
    op.add_column("deadlines", sa.Column("claimed_until", sa.Double))
    op.add_column("deadlines", sa.Column("reminded", sa.Text, nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("deadlines") as batch:
        batch.drop_column("reminded")
        batch.drop_column("claimed_until")
    op.drop_index("command_queue_next", "command_queue")
    op.drop_index("command_queue_pending", "command_queue")
    op.drop_table("command_queue")
