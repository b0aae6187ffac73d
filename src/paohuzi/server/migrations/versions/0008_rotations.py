"""Duplicate tournaments that play each deal once: tournaments.rotations; one at a time

How many times each player plays each deal (3: in each seat rotation at a fixed table,
as every tournament before this revision did; 1: once, at mixed tables). And a unique
index on a club's tournament being played: the one-at-a-time check alone let concurrent
creates all in.

Revision ID: 0008_rotations
Revises: 0007_location
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_rotations"
down_revision = "0007_location"
branch_labels = None
depends_on = None


PLAYING = sa.text("status = 'playing'")


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("rotations", sa.Integer(), nullable=False, server_default="3"))
    # (a database made before this revision may hold two playing in one club: only the
    # newest of them stays playing)
    op.execute(
        "UPDATE tournaments SET status = 'finished' WHERE status = 'playing' AND id < "
        "(SELECT MAX(t.id) FROM tournaments t WHERE t.club_id = tournaments.club_id"
        " AND t.status = 'playing')"
    )
    op.create_index(
        "uq_tournament_playing", "tournaments", ["club_id"], unique=True,
        sqlite_where=PLAYING, postgresql_where=PLAYING,
    )  # fmt: skip


def downgrade() -> None:
    op.drop_index("uq_tournament_playing", table_name="tournaments")
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("rotations")
