"""Adapters for the shared contract tests: the in-memory set and the PostgreSQL set, each over
the same tenancy world (rows in the real tenancy tables for PostgreSQL)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any, cast

import pytest
from sqlalchemy import Table
from sqlalchemy.ext.asyncio import AsyncEngine

from infra.credits.sql import make_ledger_engine
from infra.credits.wiring import memory_adapters, sql_adapters
from infra.db.base import make_engine
from infra.db.models.tenancy import GroupRow, MembershipRow, OrganizationRow, UserRow
from tests.support.database import create_test_database
from tests.unit.credits.world import World


@dataclass
class Adapters:
    kind: str
    world: World
    ledger: Any
    refills: Any
    budgets: Any
    policies: Any
    directory: Any


async def seed_tenancy(engine: AsyncEngine, w: World) -> None:
    """Organisations, groups, users and memberships of `w` as real rows."""
    orgs = [w.org, w.other_org]
    groups = [(w.group, w.org), (w.other_group, w.org), (w.foreign_group, w.other_org)]
    users = [w.admin_user, w.alice, w.bob, w.carol]
    members = [(u, g) for g, us in w.directory.members.items() for u in us]
    t = {
        name: cast(Table, row.__table__)
        for name, row in [("o", OrganizationRow), ("g", GroupRow), ("u", UserRow), ("m", MembershipRow)]
    }
    async with engine.begin() as conn:
        await conn.execute(t["o"].insert(), [{"id": o, "name": f"org-{o}", "slug": o.hex} for o in orgs])
        await conn.execute(t["g"].insert(), [{"id": g, "organization_id": o, "name": f"group-{g}"} for g, o in groups])
        await conn.execute(
            t["u"].insert(),
            [{"id": u, "username": u.hex, "email": f"{u.hex}@example.org", "display_name": "x"} for u in users],
        )
        await conn.execute(
            t["m"].insert(),
            [
                {"user_id": u, "group_id": g, "organization_id": w.directory.group_orgs[g], "role": "member"}
                for u, g in members
            ],
        )


@pytest.fixture
async def pg_engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    engine = make_engine(database_url, pool_size=10, max_overflow=60)
    yield engine
    await engine.dispose()


@pytest.fixture(params=["memory", "postgres"])
async def adapters(request: pytest.FixtureRequest, database_url: str) -> AsyncIterator[Adapters]:
    w = World()
    if request.param == "memory":
        m = memory_adapters(w.directory)
        yield Adapters("memory", w, m.ledger, m.refills, m.budgets, m.policies, m.directory)
        return
    own = None
    if request.node.get_closest_marker("own_database") is not None:
        # the test reads every row of a table (e.g. all due refills): other tests' rows in
        # the shared database would change its verdict with the order of tests
        own = await asyncio.to_thread(create_test_database, "gshare_test_own")
        database_url = own.url
    engine = make_engine(database_url, pool_size=5, max_overflow=10)
    ledger_engine = make_ledger_engine(database_url, pool_size=5, max_overflow=10)
    try:
        await seed_tenancy(engine, w)
        p = sql_adapters(engine, ledger_engine=ledger_engine)
        yield Adapters("postgres", w, p.ledger, p.refills, p.budgets, p.policies, p.directory)
    finally:
        await engine.dispose()
        await ledger_engine.dispose()
        if own is not None:
            await asyncio.to_thread(own.drop)
