"""rooms: a code unique among live rooms only, the invite key of private rooms

Finished and expired rooms let their six-digit code go (a partial unique index on the
open and playing rooms, on SQLite and PostgreSQL alike); a private room's invite key.

Revision ID: 0005
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

LIVE = sa.text("status IN ('open', 'playing')")
# The unnamed UNIQUE(code) of 0001: PostgreSQL names it rooms_code_key; SQLite gives it no
# name, so the batch copy names it by this convention to drop it.
NAMING = {"uq": "uq_%(table_name)s_%(column_0_name)s"}


def upgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    with op.batch_alter_table("rooms", schema=None, naming_convention=NAMING) as batch_op:
        batch_op.drop_constraint("rooms_code_key" if postgres else "uq_rooms_code", type_="unique")
        batch_op.add_column(sa.Column("invite_key", sa.String(length=32), nullable=True))
        batch_op.create_index("ix_rooms_code", ["code"], unique=False)
        batch_op.create_index("ix_rooms_host_status", ["host_id", "status"], unique=False)
        batch_op.create_index(
            "ix_rooms_live_code", ["code"], unique=True, sqlite_where=LIVE, postgresql_where=LIVE
        )


def downgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_index("ix_rooms_live_code")
        batch_op.drop_index("ix_rooms_host_status")
        batch_op.drop_index("ix_rooms_code")
        batch_op.drop_column("invite_key")
        # (fails if two finished rooms share a code: then there is no going back to 0003)
        batch_op.create_unique_constraint(
            "rooms_code_key" if postgres else "uq_rooms_code", ["code"]
        )
