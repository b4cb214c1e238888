"""Fresh, migrated PostgreSQL databases for tests (real server or embedded pgserver)."""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import os
import tempfile
import threading
import uuid
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import asyncpg


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


def _plain(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


async def _admin(url: str, *statements: str) -> None:
    conn = await asyncpg.connect(_plain(url), timeout=10)
    try:
        for sql in statements:  # one by one: CREATE DATABASE runs in no transaction block
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


_template_lock = threading.Lock()
_templates: dict[str, str] = {}  # server URL → this process's migrated template database


def _drop_template(base: str, name: str) -> None:
    with contextlib.suppress(OSError, asyncpg.PostgresError):  # the server went first: nothing to drop
        asyncio.run(_admin(base, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def migrated_template(base: str) -> str:
    """A database on `base` migrated to head by the real migrations once per test process, that
    `create_test_database` copies (`CREATE DATABASE … TEMPLATE`: a file copy, a fraction of the
    migrations' time). Dropped when the process exits. Nothing ever connects to it after the
    migrations (PostgreSQL refuses to copy a database someone is connected to)."""
    with _template_lock:
        name = _templates.get(base)
        if name is None:
            from infra.db.migrate import upgrade

            name = f"gshare_tmpl_{os.getpid()}_{uuid.uuid4().hex[:8]}"
            asyncio.run(_admin(base, f'CREATE DATABASE "{name}"'))
            try:
                upgrade(_with_database(base, name))
            except BaseException:
                _drop_template(base, name)
                raise
            atexit.register(_drop_template, base, name)
            _templates[base] = name
        return name


def create_test_database(prefix: str = "gshare_test", migrate: bool = True, *, durable: bool = False) -> TestDatabase:
    """Create a uniquely named database on the test server and migrate it to head.

    On a named server (`GSHARE_TEST_DATABASE_URL`) a migrated database is a copy of the run's
    template (`migrated_template`: the real migrations, run once per process); the migration
    tests (tests/integration/test_migrations.py, test_cli.py) ask for `migrate=False` and run
    the migrations themselves. `GSHARE_TEST_DATABASE_TEMPLATE` names a database already
    migrated to head to copy instead (`make mutation` runs the billing tests once per SQL
    mutant on a template of its own).

    `durable=True` keeps the server's commit durability (synchronous_commit as configured):
    benchmarks ask for it, since what they measure includes the WAL flush of each commit
    (tests/bench/admission.py's group commit amortises exactly that)."""
    base, embedded = server_url()
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    template = None
    if migrate:
        template = os.environ.get("GSHARE_TEST_DATABASE_TEMPLATE")
        if template is None and embedded is None:
            try:
                template = migrated_template(base)
            except (OSError, asyncpg.PostgresError) as exc:
                raise RuntimeError(f"test PostgreSQL server is unreachable at {base}: {exc}") from exc
    create = f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else "")
    # A test database need not outlive a server crash (each run makes its own): its commits do
    # not wait for the WAL flush (~2.5 ms each on this machine's disk, thousands per run). What
    # clients see is the same but for durability across a crash of the server, which the tests
    # that crash PostgreSQL check on a private server of their own (PrivatePostgres in
    # tests/integration/workers/conftest.py), never on this one.
    fast = [] if durable else [f'ALTER DATABASE "{name}" SET synchronous_commit = off']
    try:
        asyncio.run(_admin(base, create, *fast))
    except (OSError, asyncpg.PostgresError) as exc:
        raise RuntimeError(f"test PostgreSQL server is unreachable at {base}: {exc}") from exc
    db = TestDatabase(_with_database(base, name), base, name, embedded)
    if migrate and not template:  # an embedded server of its own: nothing to copy from
        from infra.db.migrate import upgrade

        upgrade(db.url)
    return db
