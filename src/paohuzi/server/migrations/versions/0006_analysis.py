"""analyses: 复盘 of one seat of a finished match, kept with the match

Revision ID: 0006_analysis
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_analysis"
down_revision = "0006_clubs"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("match_id", sa.Integer(), sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=8), nullable=False),
        sa.Column("requested_by", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("match_id", "seat"),
    )
    op.create_index("ix_analyses_requested_by", "analyses", ["requested_by"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_analyses_requested_by", table_name="analyses")
    op.drop_table("analyses")
