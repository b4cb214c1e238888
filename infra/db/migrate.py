"""Programmatic Alembic: upgrade, inspect the current revision, compare with the code's head."""

from __future__ import annotations

import asyncio
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection

from infra.db.base import make_engine

_INI = Path(__file__).with_name("alembic.ini")


def alembic_config(url: str) -> Config:
    cfg = Config(str(_INI))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config("postgresql://unused")).get_current_head()


def upgrade(url: str, revision: str = "head") -> None:
    """Blocking; run it from a thread when an event loop is running (Alembic drives its own)."""
    command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str) -> None:
    command.downgrade(alembic_config(url), revision)


async def current_revision(url: str) -> str | None:
    engine = make_engine(url, pool_size=1)
    try:
        async with engine.connect() as conn:

            def _read(sync_conn: Connection) -> str | None:
                return MigrationContext.configure(sync_conn).get_current_revision()

            return await conn.run_sync(_read)
    finally:
        await engine.dispose()


async def upgrade_async(url: str) -> None:
    await asyncio.to_thread(upgrade, url)
