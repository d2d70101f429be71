"""``command_queue.for_worker``: the worker a command is meant for, the one that applied its game's last command and
holds the game cached (issue X: scale-out that pays for itself). Its notification wakes that worker only; any worker
takes it once it waited ``app.queue.HANDOFF_S`` (that worker is busy or gone). NULL: any worker."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"


def upgrade() -> None:
    op.add_column("command_queue", sa.Column("for_worker", sa.Text))


def downgrade() -> None:
    with op.batch_alter_table("command_queue") as batch:
        batch.drop_column("for_worker")
