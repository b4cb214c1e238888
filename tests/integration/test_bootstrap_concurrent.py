"""Several `gshare serve` replicas starting together on an empty database (issue 14, the
production shape): each runs `ensure_bootstrap_admin`; exactly one creates the default
organisation and the `admin` account, the others find them, and none fails (found by the
production-shape test: the second replica died on uq_organizations_name)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from infra.bootstrap import build_container
from infra.settings import Settings
from infra.startup import ensure_bootstrap_admin
from tests.support.database import TestDatabase, create_test_database


@pytest.fixture
def empty_db() -> Iterator[TestDatabase]:
    db = create_test_database(prefix="gshare_bootstrap")
    yield db
    db.drop()


async def test_replicas_bootstrapping_at_once_create_one_admin_and_none_fails(empty_db: TestDatabase) -> None:
    settings = Settings(database_url=empty_db.url, demo=False, bootstrap_admin_password="replica-admin-password")
    containers = [build_container(settings, empty_db.url) for _ in range(4)]
    try:
        results = await asyncio.gather(*(ensure_bootstrap_admin(c) for c in containers), return_exceptions=True)
        failures = [r for r in results if isinstance(r, BaseException)]
        assert failures == [], failures
        assert sorted(r is not None for r in results) == [False, False, False, True]  # created once
        async with containers[0].uow() as uow:
            orgs, total = await uow.tenancy.list_organizations(None, 0, 100)
            admin = await uow.tenancy.get_user_by_username("admin")
        assert total == 1 and orgs[0].slug == "default"
        assert admin is not None and admin.is_super_admin
    finally:
        for c in containers:
            await c.aclose()
