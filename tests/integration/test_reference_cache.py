"""Catalog objects and scope names are read from the process's cache (issue 19) and never
outlive a change: one made through this process is seen by the next read at once, one made
by another process as soon as its announcement arrives on the EventBus."""

from __future__ import annotations

import asyncio

from domain.catalog import services as catalog
from domain.policies.model import PolicyScope, ResourcePolicy
from domain.tenancy import services as tenancy
from infra.bootstrap import build_container
from infra.events import InProcessEventBus
from infra.settings import Settings
from tests.support.api import SYSTEM, unique


async def test_a_change_reaches_the_next_read_here_at_once_and_elsewhere_by_the_bus(database_url: str) -> None:
    bus = InProcessEventBus()  # both processes' EventBus (Redis in production)
    here = build_container(Settings(database_url=database_url, demo=False), database_url, events=bus)
    there = build_container(Settings(database_url=database_url, demo=False), database_url, events=bus)
    follow = asyncio.create_task(there.uow.references.follow(bus))
    try:
        await asyncio.sleep(0.05)  # subscribed
        async with here.uow() as uow:
            offering = await catalog.offering_create(
                uow, SYSTEM, here.ids, here.clock, vendor="NVIDIA", name=unique("cache"), vram_mib=1024,
                min_cuda="11.0", hourly_rate_micro=1000,
            )  # fmt: skip
            org = await tenancy.organization_create(uow, SYSTEM, here.ids, here.clock, name=unique("Cache"))
            await uow.commit()
        for c in (here, there):  # both keep it
            for _ in range(2):
                async with c.uow() as uow:
                    assert (await uow.catalog.get_offering(offering.id)).hourly_rate_micro == 1000  # type: ignore[union-attr]
                    assert (await uow.tenancy.get_organization(org.id)).name == org.name  # type: ignore[union-attr]
        hits = here.uow.references.hits
        async with here.uow() as uow:
            await uow.catalog.get_offering(offering.id)
        assert here.uow.references.hits == hits + 1

        async with here.uow() as uow:
            changed = await catalog.offering_update(uow, SYSTEM, offering.id, hourly_rate_micro=2000)
            assert (await uow.catalog.get_offering(offering.id)).hourly_rate_micro == 2000  # type: ignore[union-attr]
            await uow.commit()
        assert changed.hourly_rate_micro == 2000
        async with here.uow() as uow:  # this process: at once
            assert (await uow.catalog.get_offering(offering.id)).hourly_rate_micro == 2000  # type: ignore[union-attr]
        for _ in range(100):  # the other: once the announcement arrived
            async with there.uow() as uow:
                if (await uow.catalog.get_offering(offering.id)).hourly_rate_micro == 2000:  # type: ignore[union-attr]
                    break
            await asyncio.sleep(0.02)
        else:
            raise AssertionError("the other process kept the old offering")

        # a scope's policies: none is kept as none; a new one is seen here at once, there by the bus
        scope = PolicyScope.organization(org.id)
        for c in (here, there):
            assert await c.credits.policies.get(scope) is None
        await here.credits.policies.put(ResourcePolicy(scope, max_concurrent_sessions=3))
        assert (await here.credits.policies.get(scope)).max_concurrent_sessions == 3  # type: ignore[union-attr]
        for _ in range(100):
            if await there.credits.policies.get(scope) is not None:
                break
            await asyncio.sleep(0.02)
        else:
            raise AssertionError("the other process kept no policy")
        await there.credits.policies.delete(scope)
        assert await there.credits.policies.get(scope) is None

        async with here.uow() as uow:  # a deleted organisation takes its groups: everything is forgotten
            await uow.tenancy.delete_organization(org.id)
            await uow.commit()
        async with here.uow() as uow:
            assert await uow.tenancy.get_organization(org.id) is None
    finally:
        follow.cancel()
        await here.aclose()
        await there.aclose()
