"""Close-by warnings by opt-in: seat_locations

A seated player's rough position in an open room (whole cells of 1/200 degree), kept only
while the player shares it and the room is open (nearby.py).

Revision ID: 0007_location
Revises: 0006_ready
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_location"
down_revision = "0006_ready"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seat_locations",
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("lat_cell", sa.Integer(), nullable=False),
        sa.Column("lon_cell", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"]),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"]),
        sa.PrimaryKeyConstraint("room_id", "account_id"),
    )


def downgrade() -> None:
    op.drop_table("seat_locations")
