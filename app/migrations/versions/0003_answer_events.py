"""The public events each answer caused, for /game log (private events are never stored here)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    op.add_column("answers", sa.Column("events", sa.Text, nullable=False, server_default="[]"))


def downgrade() -> None:
    with op.batch_alter_table("answers") as batch:
        batch.drop_column("events")
