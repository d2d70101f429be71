"""The thread under each game's channel where the step-by-step log is posted (issue U): the channel keeps a message
per phase, per battle and per bidding, the thread every line."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"


def upgrade() -> None:
    op.add_column("games", sa.Column("log_thread_id", sa.BigInteger))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("log_thread_id")
