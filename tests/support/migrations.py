"""Databases filled with realistic data at a given Alembic revision, for migration tests.

The schema is released, so every revision must upgrade a database that holds real data.
`fixtures/fill_0001.sql.gz` is a recorded fill at revision `0001`: the test database after a
run of the sessions, billing, credits and policies integration tests (sessions in every state,
placements, queue entries, holds, meters, transfers, budgets, policies, templates, volumes,
audit entries), dumped data-only (the command is in the file's header). To record it again:
run those tests with `GSHARE_TEST_KEEP_DATABASE=1` and dump the kept database the same way.

`database_at(revision)` creates a fresh database, migrates it to `0001`, loads the fill and
migrates on to `revision`: a database "filled at" that revision. A revision's own test adds
rows its change is about at the previous head, upgrades, and checks what became of them.
"""

from __future__ import annotations

import asyncio
import gzip
from pathlib import Path

import asyncpg
from alembic.script import ScriptDirectory

from infra.db import migrate
from tests.support.database import TestDatabase, _plain, create_test_database

FILL_REVISION = "0001"
FILL = Path(__file__).with_name("fixtures") / "fill_0001.sql.gz"


def revisions_in_order() -> list[str]:
    """Every revision from the first to the head (the tree has a single head)."""
    script = ScriptDirectory.from_config(migrate.alembic_config("postgresql://unused"))
    return [rev.revision for rev in reversed(list(script.walk_revisions()))]


def previous_revision(revision: str) -> str:
    script = ScriptDirectory.from_config(migrate.alembic_config("postgresql://unused"))
    down = script.get_revision(revision).down_revision
    assert isinstance(down, str), f"{revision} has no single parent: {down!r}"
    return down


async def execute(url: str, sql: str) -> None:
    conn = await asyncpg.connect(_plain(url), timeout=10)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def fetch(url: str, sql: str) -> list[tuple[object, ...]]:
    conn = await asyncpg.connect(_plain(url), timeout=10)
    try:
        return [tuple(r) for r in await conn.fetch(sql)]
    finally:
        await conn.close()


async def row_counts(url: str) -> dict[str, int]:
    """Rows per table of the public schema (alembic's own table left out)."""
    conn = await asyncpg.connect(_plain(url), timeout=10)
    try:
        tables = await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'alembic_version'"
        )
        return {t["tablename"]: await conn.fetchval(f'SELECT count(*) FROM "{t["tablename"]}"') for t in tables}
    finally:
        await conn.close()


def database_at(revision: str = FILL_REVISION) -> TestDatabase:
    """A fresh database filled with the recorded data and migrated to `revision`; the caller drops it."""
    db = create_test_database(prefix="gshare_migr", migrate=False)
    try:
        migrate.upgrade(db.url, FILL_REVISION)
        asyncio.run(execute(db.url, gzip.decompress(FILL.read_bytes()).decode()))
        if revision != FILL_REVISION:
            migrate.upgrade(db.url, revision)
    except BaseException:
        db.drop()
        raise
    return db
