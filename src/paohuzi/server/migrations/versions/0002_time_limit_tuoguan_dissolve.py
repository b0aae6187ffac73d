"""rooms.time_limit, room_seats.tuoguan, matches.dissolve

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(sa.Column("time_limit", sa.Float(), nullable=True))
    with op.batch_alter_table("room_seats", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("tuoguan", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.add_column(sa.Column("dissolve", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_column("dissolve")
    with op.batch_alter_table("room_seats", schema=None) as batch_op:
        batch_op.drop_column("tuoguan")
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("time_limit")
