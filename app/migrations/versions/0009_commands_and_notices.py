"""Every command is idempotent and tells the channel durably. ``commands``: the key of every command that changed a
game's table without logging an entry (a pause, an extension...; a logged entry keeps its key in
``answers.command_key``): a second command with the same key is refused. ``notices``: channel lines that no version
implies (a moderator's audit line, a deadline's news, a vacation), written in the transaction of the change they tell
and posted after the publication of ``after_version``, then deleted."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"

ROW_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "commands",
        sa.Column("game_id", ROW_ID, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("key", sa.Text, nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("by_user", sa.BigInteger),
        sa.Column("at", sa.Double, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "key", name="commands_pkey"),
    )
    op.create_table(
        "notices",
        sa.Column("id", ROW_ID, primary_key=True, autoincrement=True),
        sa.Column("game_id", ROW_ID, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("after_version", sa.Integer, nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("created_at", sa.Double, nullable=False),
        sqlite_autoincrement=True,
    )
    op.create_index("notices_by_game", "notices", ["game_id", "id"])


def downgrade() -> None:
    op.drop_table("notices")
    op.drop_table("commands")
