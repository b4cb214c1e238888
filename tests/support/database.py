"""Fresh, migrated PostgreSQL databases for tests (real server or embedded pgserver)."""

from __future__ import annotations

import asyncio
import os
import tempfile
import uuid
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import asyncpg


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


def _plain(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


async def _admin(url: str, sql: str) -> None:
    conn = await asyncpg.connect(_plain(url), timeout=10)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@dataclass
class TestDatabase:
    __test__ = False  # not a pytest test class

    url: str
    server_url: str
    name: str
    _embedded_dir: tempfile.TemporaryDirectory[str] | None = None

    def drop(self) -> None:
        try:
            asyncio.run(_admin(self.server_url, f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)'))
        finally:
            if self._embedded_dir is not None:
                import pgserver  # type: ignore[import-untyped,unused-ignore]

                pgserver.get_server(self._embedded_dir.name).cleanup()
                self._embedded_dir.cleanup()


def server_url() -> tuple[str, tempfile.TemporaryDirectory[str] | None]:
    url = os.environ.get("GSHARE_TEST_DATABASE_URL")
    if url:
        return url, None
    if os.environ.get("CI") == "true":
        raise RuntimeError("CI=true but GSHARE_TEST_DATABASE_URL is not set")
    import pgserver  # type: ignore[import-untyped,unused-ignore]

    tmp = tempfile.TemporaryDirectory(prefix="gshare-test-pg-")
    server = pgserver.get_server(tmp.name, cleanup_mode=None)
    return server.get_uri(), tmp


def create_test_database(prefix: str = "gshare_test", migrate: bool = True) -> TestDatabase:
    """Create a uniquely named database on the test server and migrate it to head.

    `GSHARE_TEST_DATABASE_TEMPLATE` names a database already migrated to head to copy instead
    (`make mutation` runs the billing tests once per SQL mutant: a copy takes a fraction of
    the migrations' time)."""
    base, embedded = server_url()
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    template = os.environ.get("GSHARE_TEST_DATABASE_TEMPLATE") if migrate else None
    create = f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else "")
    try:
        asyncio.run(_admin(base, create))
    except (OSError, asyncpg.PostgresError) as exc:
        raise RuntimeError(f"test PostgreSQL server is unreachable at {base}: {exc}") from exc
    db = TestDatabase(_with_database(base, name), base, name, embedded)
    if migrate and not template:
        from infra.db.migrate import upgrade

        upgrade(db.url)
    return db
