"""Per-player vacations: deadlines that await a player on vacation wait until it ends."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    op.create_table(
        "vacations",
        sa.Column(
            "game_id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("house", sa.Text, nullable=False),
        sa.Column("until", sa.Double, nullable=False),
        sa.Column("days_used", sa.Double, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "house"),
    )


def downgrade() -> None:
    op.drop_table("vacations")
