"""The houses players choose in a lobby, one per player and each house once (the start deals the houses nobody
chose). A pick belongs to a lobby seat: a player who leaves the lobby frees his house in the same statement."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"


def upgrade() -> None:
    op.create_table(
        "lobby_picks",
        sa.Column(
            "game_id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("user_id", sa.BigInteger, nullable=False),
        sa.Column("house", sa.Text, nullable=False),
        sa.Column("picked_at", sa.Double, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "user_id"),
        sa.UniqueConstraint("game_id", "house", name="lobby_picks_house_taken"),
        sa.ForeignKeyConstraint(
            ["game_id", "user_id"], ["lobby.game_id", "lobby.user_id"], name="lobby_picks_seat", ondelete="CASCADE"
        ),
    )


def downgrade() -> None:
    op.drop_table("lobby_picks")
