"""64-bit points columns; matches.scoring: "ledger" (settled onto accounts) or "local"

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

# Every column that holds 悟性 points, by table (a 32-bit column overflowed at 2³¹).
POINTS = {"accounts": ["balance"], "ledger": ["delta", "balance_after"]}


def _retype(old: sa.types.TypeEngine[int], new: sa.types.TypeEngine[int]) -> None:
    for table, columns in POINTS.items():
        with op.batch_alter_table(table, schema=None) as batch_op:
            for column in columns:
                batch_op.alter_column(column, existing_type=old, type_=new, existing_nullable=False)


def upgrade() -> None:
    _retype(sa.Integer(), sa.BigInteger())
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("scoring", sa.String(length=8), nullable=False, server_default="ledger")
        )


def downgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_column("scoring")
    _retype(sa.BigInteger(), sa.Integer())
