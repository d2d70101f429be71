"""The pinned status message of each game, edited in place."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"


def upgrade() -> None:
    op.add_column("games", sa.Column("status_message_id", sa.BigInteger))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("status_message_id")
