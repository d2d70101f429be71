"""What a game's channel shows, kept with its publications (issue X): ``publisher_state``, one row per game.

- ``channel``: the layout the publisher plans the next lines into (which message holds which lines: the phase's
  message growing by edits, the battle's, the bidding's; the log thread's last message and its text; the grouped line
  it ends with; the phase whose header was told). Written in the commit that marks a publication's channel part sent,
  so a publisher restarted after a crash, or another worker taking the publishing lease, plans the next lines exactly
  as the crashed one would have, instead of starting new messages from nothing.
- ``status_text``: the pinned status's text as last shown; ``status_due``: the version of the latest publication
  whose status edit is not known to be out (written with the publication's end): a restart edits those statuses.

A game's row goes with the game (``ON DELETE CASCADE``, and ``/mod delete`` and the retention remove it too)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"

ROW_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "publisher_state",
        sa.Column("game_id", ROW_ID, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("channel", sa.Text),
        sa.Column("status_text", sa.Text),
        sa.Column("status_due", sa.Integer),
        sa.PrimaryKeyConstraint("game_id", name="publisher_state_pkey"),
    )


def downgrade() -> None:
    op.drop_table("publisher_state")
