"""Alembic environment: runs the migrations on a blocking connection."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine, pool

from paohuzi.server.db import Base

config = context.config
engine = create_engine(config.get_main_option("sqlalchemy.url") or "", poolclass=pool.NullPool)
with engine.connect() as connection:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()
engine.dispose()
