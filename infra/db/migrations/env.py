"""Alembic environment: async engine, whole metadata, one transaction per migration.

The schema is released: every change is a new revision written by hand or from
`alembic revision --autogenerate` and reviewed. Autogenerate cannot see triggers and functions
(tables name theirs in `info`); a revision that needs one writes it with `op.execute`.
`tests/integration/test_migrations.py` checks that the migrated schema equals the models."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

import infra.db.models  # noqa: F401  (registers every table on Base.metadata)
from infra.db.base import Base, make_engine

config = context.config
target_metadata = Base.metadata


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        transaction_per_migration=True,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _main() -> None:
    engine = make_engine(config.get_main_option("sqlalchemy.url") or "", pool_size=1)
    async with engine.connect() as connection:
        await connection.run_sync(_run)
        await connection.commit()
    await engine.dispose()


if context.is_offline_mode():
    raise SystemExit("offline migrations are not supported; run against a database")

connection = config.attributes.get("connection")
if connection is not None:
    _run(connection)
else:
    asyncio.run(_main())
