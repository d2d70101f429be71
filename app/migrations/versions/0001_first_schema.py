"""The first schema: games, their lobby and seats, the answer log, snapshots, DM status."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None

ROW_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")  # SQLite's AUTOINCREMENT wants INTEGER exactly
SNOWFLAKE = sa.BigInteger()  # Discord's ids take 64 bits
TIME: sa.Double[float] = sa.Double()  # seconds since the epoch


def game_ref() -> sa.Column[int]:
    return sa.Column("game_id", ROW_ID, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False)


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", ROW_ID, primary_key=True, autoincrement=True),
        sa.Column("guild_id", SNOWFLAKE, nullable=False),
        sa.Column("channel_id", SNOWFLAKE, nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("created_by", SNOWFLAKE, nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("state", sa.Text),
        sa.Column("version", sa.Integer, nullable=False, server_default="0"),
        sa.Column("updated_at", TIME, nullable=False),
        sa.CheckConstraint("status IN ('lobby', 'running', 'paused', 'ended')", name="games_status"),
        sqlite_autoincrement=True,
    )
    op.create_index("games_by_channel", "games", ["channel_id", "status"])
    op.create_table(
        "lobby",
        game_ref(),
        sa.Column("user_id", SNOWFLAKE, nullable=False),
        sa.Column("joined_at", TIME, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "user_id"),
    )
    op.create_table(
        "seats",
        game_ref(),
        sa.Column("house", sa.Text, nullable=False),
        sa.Column("user_id", SNOWFLAKE),
        sa.PrimaryKeyConstraint("game_id", "house"),
    )
    op.create_index("seats_by_user", "seats", ["user_id"])
    op.create_table(
        "answers",
        sa.Column("id", ROW_ID, primary_key=True, autoincrement=True),
        game_ref(),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("house", sa.Text, nullable=False),
        sa.Column("user_id", SNOWFLAKE),
        sa.Column("prompt_id", sa.Text, nullable=False),
        sa.Column("answer", sa.Text, nullable=False),
        sa.Column("source", sa.Text, nullable=False),
        sa.Column("at", TIME, nullable=False),
        sa.UniqueConstraint("game_id", "version", name="answers_one_per_version"),
        sqlite_autoincrement=True,
    )
    op.create_table(
        "snapshots",
        game_ref(),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("state", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "version"),
    )
    op.create_table(
        "dm_status",
        sa.Column("user_id", SNOWFLAKE, primary_key=True, autoincrement=False),
        sa.Column("closed", sa.Integer, nullable=False),
        sa.Column("updated_at", TIME, nullable=False),
    )


def downgrade() -> None:
    for table in ("dm_status", "snapshots", "answers", "seats", "lobby", "games"):
        op.drop_table(table)
