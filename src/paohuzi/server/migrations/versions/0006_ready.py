"""准备 between rounds: rooms.ready_seconds, rounds.started; 再来一局: rooms.next_room_id

A round after the first is dealt only once every seat pressed 准备 (or the room's
``ready_seconds`` ran out); ``rounds.started`` says it was, so a restart rebuilds a match
whose next round waits with its 结算 still open. Existing rows count as dealt.
``rooms.next_room_id``: the room a finished room's seats moved on to (再来一局).

Revision ID: 0006_ready
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_ready"
down_revision = "0006_analysis"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(sa.Column("ready_seconds", sa.Float(), nullable=True))
        batch_op.add_column(sa.Column("next_room_id", sa.Integer(), nullable=True))
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("started", sa.Boolean(), nullable=False, server_default=sa.true())
        )


def downgrade() -> None:
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.drop_column("started")
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("next_room_id")
        batch_op.drop_column("ready_seconds")
