"""Deadlines, one open deadline per game (the database is the source of truth for the scheduler), and runs of
missed deadlines."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"

GAME_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
TIME: sa.Double[float] = sa.Double()


def upgrade() -> None:
    op.create_table(
        "deadlines",
        sa.Column("game_id", GAME_ID, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("step_key", sa.Text, nullable=False),
        sa.Column("category", sa.Text, nullable=False),
        sa.Column("opened_at", TIME, nullable=False),
        sa.Column("due_at", TIME, nullable=False),
        sa.Column("paused_remaining", TIME),
    )
    op.create_table(
        "missed_deadlines",
        sa.Column("game_id", GAME_ID, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("house", sa.Text, nullable=False),
        sa.Column("in_a_row", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "house"),
    )


def downgrade() -> None:
    op.drop_table("missed_deadlines")
    op.drop_table("deadlines")
