"""Billing tests run on a database of their own (a tick bills every RUNNING session of the
database, so other modules' sessions must not be in it) with a container on a FrozenClock and
a simulated cluster that reports at that clock's time, at once: time moves only when a test
says so, and a session is RUNNING from exactly the second the test started it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any
from uuid import UUID

import pytest

from domain.catalog import services as catalog
from domain.catalog.model import GpuTier, ImageScope
from domain.common.clock import FrozenClock
from domain.inventory.ports import StatusReport
from domain.sessions import services as sessions
from domain.sessions.model import Expiry, SessionState
from domain.tenancy.services import load_actor
from tests.support.api import SYSTEM, World, build_world, fund_user, make_user, unique
from tests.support.database import create_test_database

START = datetime(2026, 3, 2, 8, 0, 0, tzinfo=UTC)
# an awkward rate, so that flooring to the micro-credit matters: 1.000007 credits per card-hour
RATE_MICRO = 1_000_007


@pytest.fixture(scope="session")
def billing_database_url() -> Iterator[str]:
    db = create_test_database(prefix="gshare_billing")
    try:
        yield db.url
    finally:
        db.drop()


@dataclass
class Billed:
    """The billing test world: a container on a frozen clock, its cluster, a catalog."""

    c: Any
    clock: FrozenClock
    cluster: Any
    world: World
    image_id: UUID
    offering_id: UUID
    presets: dict[GpuTier, UUID]

    async def user(self, credits_: int = 100) -> Any:
        uid, _ = await make_user(self.c, self.world.org_a, unique("bill"), groups=[self.world.g1])
        if credits_:
            await fund_user(self.c, self.world.org_a, self.world.g1, uid, credits_)
        async with self.c.uow() as uow:
            actor = await load_actor(uow, uid)
        assert actor is not None
        return replace(actor, active_group_id=self.world.g1)

    async def start(self, actor: Any, tier: GpuTier = GpuTier.L, expiry: Expiry = Expiry.D1) -> Any:
        req = sessions.SessionRequest(
            name=unique("s"),
            image_id=self.image_id,
            preset_id=self.presets[tier],
            offering_id=self.offering_id,
            expiry=expiry,
        )
        s = await sessions.session_create(self.c.sessions, actor, req)
        return await self.wait(s.id, SessionState.RUNNING)

    async def wait(self, sid: UUID, *states: SessionState, within: float = 10) -> Any:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        while True:
            async with self.c.uow() as uow:
                s = await uow.sessions.get(sid)
            if s is not None and s.state in states:
                return s
            if loop.time() > deadline:
                raise AssertionError(f"session stayed {s.state if s else None}, wanted {states}")
            await asyncio.sleep(0.01)

    async def get(self, sid: UUID) -> Any:
        async with self.c.uow() as uow:
            return await uow.sessions.get(sid)


def ratio_of(tier: GpuTier) -> Fraction:
    return {
        GpuTier.XL: Fraction(1, 2),
        GpuTier.L: Fraction(1, 4),
        GpuTier.M: Fraction(1, 8),
        GpuTier.S: Fraction(1, 16),
    }[tier]


@pytest.fixture(scope="session")
async def billed(billing_database_url: str) -> AsyncIterator[Billed]:
    from infra.bootstrap import build_container
    from infra.cluster.simulated import SimulatedCluster
    from infra.runtime import register_cluster_inventory
    from infra.settings import Settings

    clock = FrozenClock(START)
    c = build_container(Settings(database_url=billing_database_url, demo=False), billing_database_url, clock=clock)

    async def on_status(report: StatusReport) -> None:
        await sessions.handle_status_report(c.sessions, cluster.cluster_id, report)

    cluster = SimulatedCluster.demo(on_status, clock=clock, start_delay=0)
    await register_cluster_inventory(c, cluster, kind="simulated")
    c.clusters.add(cluster)
    world = await build_world(c)
    async with c.uow() as uow:
        off = await catalog.offering_create(
            uow,
            SYSTEM,
            c.ids,
            c.clock,
            vendor="NVIDIA",
            name="A100-80GB",
            vram_mib=81920,
            min_cuda="11.0",
            hourly_rate_micro=RATE_MICRO,
        )
        presets = {}
        for tier in (GpuTier.XL, GpuTier.L, GpuTier.M, GpuTier.S):
            p = await catalog.preset_create(
                uow,
                SYSTEM,
                c.ids,
                c.clock,
                name=unique(tier.value),
                cpu_millicores=1000,
                memory_mib=2048,
                disk_gib=10,
                shm_mib=256,
                tier=tier,
            )
            presets[tier] = p.id
        image = await catalog.image_create(
            uow,
            SYSTEM,
            c.ids,
            c.clock,
            name=unique("torch"),
            reference="nvcr.io/nvidia/pytorch:24.05-py3",
            cuda_version="12.4",
            scope=ImageScope.GLOBAL,
        )
        await uow.commit()
    yield Billed(c, clock, cluster, world, image.id, off.id, presets)
    await cluster.close()
    await c.aclose()
