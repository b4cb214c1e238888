"""Refills applied by the periodic job on schedule, driven by a controllable clock: the real
scheduler claims periods in PostgreSQL, the real actors run on dramatiq's StubBroker and a
dramatiq Worker in this process (the embedded runner), and nothing sleeps for time to pass."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from domain.common.clock import FrozenClock
from domain.operations.model import RunOutcome
from infra.bootstrap import Container, build_container
from infra.settings import Settings
from tests.integration.workers.support import C, balance, members, refill_transfers, refill_world
from workers.registry import PERIODIC_JOBS
from workers.runtime import WorkerRuntime, build_broker

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
async def clock() -> FrozenClock:
    return FrozenClock(datetime(2026, 1, 15, 12, 0, 7, tzinfo=UTC))


@pytest.fixture
async def container(fresh_database_url: str, clock: FrozenClock) -> AsyncIterator[Container]:
    url = fresh_database_url  # its own database: period claims are global facts
    c = build_container(Settings(database_url=url, demo=False), url, clock=clock)
    yield c
    await c.aclose()


@pytest.fixture
async def runtime(container: Container) -> AsyncIterator[WorkerRuntime]:
    rt = WorkerRuntime(container, build_broker(None), PERIODIC_JOBS, threads=2, scheduler=False)
    await rt.start()
    yield rt
    await rt.stop(timeout_seconds=10)


async def settle(rt: WorkerRuntime) -> None:
    """Wait until every enqueued message (and retry) is processed."""
    assert rt.worker is not None
    await asyncio.to_thread(rt.broker.join, "periodic", fail_fast=True, timeout=20_000)  # type: ignore[attr-defined]
    await asyncio.to_thread(rt.worker.join)


async def tick(rt: WorkerRuntime) -> list[str]:
    claimed = await rt.scheduler.tick()
    await settle(rt)
    return [name for name, _ in claimed]


async def test_one_refill_per_member_per_month_however_often_the_job_runs(
    runtime: WorkerRuntime, container: Container, clock: FrozenClock
) -> None:
    engine = container.engine
    w, schedule_id = await refill_world(engine, clock)

    # mid-January: the job runs (its first period is due at once) but January is already the
    # schedule's creation period, so nothing moves
    assert "credits.refills" in await tick(runtime)
    assert await refill_transfers(engine, schedule_id) == {}
    assert await tick(runtime) == []  # same minute: not due again

    # across the month boundary: exactly one refill per member
    clock.set(datetime(2026, 2, 1, 0, 0, 3, tzinfo=UTC))
    assert "credits.refills" in await tick(runtime)
    feb = await refill_transfers(engine, schedule_id)
    assert len(feb) == 3 and set(feb.values()) == {1}
    for user in members(w):
        assert await balance(engine, user) == 500 * C

    # the job keeps running every minute in February: nothing changes
    for minutes in (1, 2, 60, 60 * 24 * 10):
        clock.set(datetime(2026, 2, 1, 0, 0, 3, tzinfo=UTC) + timedelta(minutes=minutes))
        assert "credits.refills" in await tick(runtime)
    assert await refill_transfers(engine, schedule_id) == feb

    # a redelivered February message (at-least-once delivery) changes nothing either
    feb_period = runtime.jobs[0].definition.cadence.period_at(datetime(2026, 2, 1, 0, 0, 3, tzinfo=UTC))
    await runtime.enqueue("credits.refills", feb_period)
    await settle(runtime)
    assert await refill_transfers(engine, schedule_id) == feb

    # a long outage: the workers come back on 3 March; March is applied once (catch up once)
    clock.set(datetime(2026, 3, 3, 9, 30, tzinfo=UTC))
    assert "credits.refills" in await tick(runtime)
    after = await refill_transfers(engine, schedule_id)
    assert len(after) == 6
    for user in members(w):
        assert await balance(engine, user) == 1000 * C

    runs = await runtime.runs.runs("credits.refills")
    assert all(r.outcome is RunOutcome.SUCCEEDED and r.attempts == 1 for r in runs)
    assert len(runs) == 7  # Jan 15, Feb 1 00:00, +1 min, +2 min, +1 h, +10 d, Mar 3
