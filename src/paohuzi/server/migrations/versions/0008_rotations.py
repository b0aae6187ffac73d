"""Duplicate tournaments that play each deal once: tournaments.rotations

How many times each player plays each deal (3: in each seat rotation at a fixed table,
as every tournament before this revision did; 1: once, at mixed tables).

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


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("rotations", sa.Integer(), nullable=False, server_default="3"))


def downgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("rotations")
