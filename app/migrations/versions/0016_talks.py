"""Private negotiation threads between houses (issue 40, "the table talks"): one row per game and unordered pair of
houses (``house_a`` sorts before ``house_b``), with the Discord thread that holds their talk. A game's talks go with
the game (``ON DELETE CASCADE``); the members of a thread are Discord's to keep, not the table's."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"

ROW_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "talks",
        sa.Column("game_id", ROW_ID, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("house_a", sa.Text, nullable=False),
        sa.Column("house_b", sa.Text, nullable=False),
        sa.Column("thread_id", sa.BigInteger, nullable=False),
        sa.Column("opened_at", sa.Double, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "house_a", "house_b", name="talks_pkey"),
        sa.CheckConstraint("house_a < house_b", name="talks_pair_ordered"),
    )


def downgrade() -> None:
    op.drop_table("talks")
