"""Shared fixtures: a fresh PostgreSQL database per test run, migrated to head.

`GSHARE_TEST_DATABASE_URL` names a server (CI points it at the machine's PostgreSQL); the run
creates its own database there and drops it at the end. Without it, an embedded server
(pgserver) is started in a temporary folder, so the suite also runs on a bare laptop. Under
`CI=true` an unreachable server fails the run instead of skipping.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator

import pytest

from tests.support.database import TestDatabase, create_test_database

if os.environ.get("GSHARE_MUTATION_RUN"):
    # `make mutation` (tests/mutation/run.py sets it) judges each mutant by one run of the tests
    # that reach it: Hypothesis draws the same examples every time (derandomize), so a verdict
    # does not depend on the run's luck and a re-run reproduces it; no deadline (mutants run
    # two at a time beside other work) and no example database (each mutant's failures would
    # be replayed against the next, unrelated mutants). The number of examples is each test's own.
    from hypothesis import HealthCheck, settings

    settings.register_profile(
        "mutation", derandomize=True, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
    )
    settings.load_profile("mutation")


@pytest.fixture(scope="session")
def test_database() -> Iterator[TestDatabase]:
    db = create_test_database(prefix="gshare_test")
    try:
        yield db
    finally:
        if os.environ.get("GSHARE_TEST_KEEP_DATABASE"):  # to record a fill, see tests/support/migrations.py
            print(f"\nkept test database {db.name}")
        else:
            db.drop()


@pytest.fixture(scope="session")
def database_url(test_database: TestDatabase) -> str:
    """URL of a migrated, empty-of-business-data database shared by the whole run."""
    return test_database.url


@pytest.fixture
def redis_url() -> str:
    from tests.support.services import require_redis

    return require_redis()


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[object]:
    from infra.db.base import make_engine

    eng = make_engine(database_url, pool_size=5, max_overflow=60)
    yield eng
    await eng.dispose()


def pytest_report_header() -> list[str]:
    target = os.environ.get("GSHARE_TEST_DATABASE_URL", "embedded pgserver")
    return [f"gshare test database server: {target}"]


@pytest.fixture(scope="session")
async def container(database_url: str) -> AsyncIterator[object]:
    """A production-wired container (in-process event bus) on the test database."""
    from infra.bootstrap import build_container
    from infra.settings import Settings

    c = build_container(Settings(database_url=database_url, demo=False), database_url)
    yield c
    await c.aclose()


@pytest.fixture(scope="session")
async def app(container: object) -> object:
    from api.app import create_app

    return create_app(container)  # type: ignore[arg-type]


@pytest.fixture
async def http(app: object) -> AsyncIterator[object]:
    import httpx

    transport = httpx.ASGITransport(app=app)  # type: ignore[arg-type]
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as client:
        yield client


@pytest.fixture(scope="session")
async def world(container: object) -> object:
    from tests.support.api import build_world

    return await build_world(container)  # type: ignore[arg-type]


@pytest.fixture
async def fresh_world(container: object) -> object:
    """A world of its own for one test (a parametrised matrix's case must not see what
    another case changed: its verdict would depend on the order)."""
    from tests.support.api import build_world

    return await build_world(container)  # type: ignore[arg-type]
