"""The PostgreSQL claim and run record under concurrency (the guard for "once per period"):
many schedulers racing for one period, a broker that refuses, the sweep, the per-job lease."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from domain.common.clock import FrozenClock
from domain.operations.model import Every, JobDefinition, Period, RunOutcome
from domain.operations.services import RunResult, run_period
from infra.db.base import make_engine
from infra.db.models.operations import PeriodicRunRow
from infra.periodic.runs import SqlJobRuns
from tests.support.database import create_test_database

pytestmark = pytest.mark.timeout(60)

T0 = datetime(2026, 6, 1, 12, 0, 0, tzinfo=UTC)
EVERY = Every(60)


@pytest.fixture
async def engine(module_database_url: str) -> AsyncIterator[AsyncEngine]:
    eng = make_engine(module_database_url, pool_size=5, max_overflow=40)
    yield eng
    await eng.dispose()


async def test_twenty_schedulers_racing_for_one_period_enqueue_it_once(engine: AsyncEngine) -> None:
    runs = SqlJobRuns(engine)
    period = EVERY.period_at(T0)
    sent: list[str] = []

    async def claim(i: int) -> bool:
        async def enqueue() -> None:
            await asyncio.sleep(0.05)  # hold the claim's transaction open while "sending"
            sent.append(f"scheduler-{i}")

        return await runs.claim("race.job", period, T0, f"scheduler-{i}", enqueue)

    won = await asyncio.gather(*(claim(i) for i in range(20)))
    assert won.count(True) == 1 and len(sent) == 1
    [run] = await runs.runs("race.job")
    assert run.outcome is RunOutcome.PENDING and run.enqueued_at == T0 and run.attempts == 0


async def test_a_refused_enqueue_keeps_the_claim_and_the_sweep_sends_only_the_newest(engine: AsyncEngine) -> None:
    runs = SqlJobRuns(engine)

    async def broker_down() -> None:
        raise ConnectionError("Redis is down")

    p1, p2, p3 = (EVERY.period_at(T0 + timedelta(minutes=i)) for i in range(3))
    assert await runs.claim("sweep.job", p1, T0, "a", broker_down)
    assert await runs.claim("sweep.job", p2, T0 + timedelta(minutes=1), "a", broker_down)
    # another scheduler tries p2 again: already claimed, nothing sent
    assert not await runs.claim("sweep.job", p2, T0 + timedelta(minutes=1), "b", broker_down)
    older = {r.period: r for r in await runs.runs("sweep.job")}
    assert older[p1].enqueued_at is None and older[p1].error == "broker: ConnectionError: Redis is down"

    sent: list[tuple[str, Period]] = []

    async def enqueue(job: str, period: Period) -> None:
        sent.append((job, period))

    coalesced, resent = await runs.sweep(T0 + timedelta(minutes=2), timedelta(minutes=5), enqueue)
    assert (coalesced, resent) == (1, 1) and sent == [("sweep.job", p2)]  # (other jobs' claims are fresh)
    after = {r.period: r for r in await runs.runs("sweep.job")}
    assert after[p1].outcome is RunOutcome.COALESCED
    assert after[p2].outcome is RunOutcome.PENDING and after[p2].enqueued_at is not None
    # nothing left to sweep until the message may have been lost (redeliver_after)
    sent.clear()
    await runs.sweep(T0 + timedelta(minutes=3), timedelta(minutes=5), enqueue)
    assert sent == []
    # a newer period claimed normally: the lost p2 message is folded into it
    assert await runs.claim("sweep.job", p3, T0 + timedelta(minutes=9), "a", lambda: asyncio.sleep(0))
    sent.clear()
    await runs.sweep(T0 + timedelta(minutes=9), timedelta(minutes=5), enqueue)
    assert [p for job, p in sent if job == "sweep.job"] == []  # (the sweep spans every job)
    assert {r.period: r.outcome for r in await runs.runs("sweep.job")}[p2] is RunOutcome.COALESCED


async def test_the_job_lease_admits_one_execution_at_a_time(engine: AsyncEngine, module_database_url: str) -> None:
    other = make_engine(module_database_url, pool_size=2)  # another process, as far as PostgreSQL knows
    try:
        a, b = SqlJobRuns(engine), SqlJobRuns(other)
        async with a.exclusive("lease.job") as got_a:
            assert got_a
            async with b.exclusive("lease.job") as got_b:
                assert not got_b
            async with b.exclusive("another.job") as got_other:
                assert got_other
        async with b.exclusive("lease.job") as got_b:
            assert got_b  # released on exit
    finally:
        await other.dispose()


async def test_abandoned_running_periods_are_closed_behind_a_newer_one(engine: AsyncEngine) -> None:
    runs = SqlJobRuns(engine)
    p1, p2 = EVERY.period_at(T0), EVERY.period_at(T0 + timedelta(minutes=1))
    await runs.begin("gone.job", p1, T0)  # its worker died, the broker lost the message

    async def enqueue(job: str, period: Period) -> None:
        raise AssertionError("nothing to send")

    await runs.sweep(T0 + timedelta(hours=2), timedelta(minutes=5), enqueue)
    assert (await runs.runs("gone.job"))[0].outcome is RunOutcome.RUNNING  # no newer period: keep
    await runs.begin("gone.job", p2, T0 + timedelta(hours=2))
    await runs.finish("gone.job", p2, T0 + timedelta(hours=2), RunOutcome.SUCCEEDED)
    await runs.sweep(T0 + timedelta(hours=2), timedelta(minutes=5), enqueue)
    old = {r.period: r for r in await runs.runs("gone.job")}[p1]
    assert old.outcome is RunOutcome.FAILED and old.error is not None and old.error.startswith("abandoned")


@pytest.fixture
def other_database_url() -> Iterator[str]:
    """A second database on the same server, with only the run table."""
    db = create_test_database(prefix="gshare_workers_other", migrate=False)
    try:
        yield db.url
    finally:
        db.drop()


async def test_two_databases_on_one_server_run_the_same_job_in_the_same_period(
    engine: AsyncEngine, other_database_url: str
) -> None:
    """Two gshare deployments (or two test databases) on one PostgreSQL server do not block each
    other's periodic jobs: PostgreSQL scopes an advisory lock to the database it is taken in
    (the lock tag holds the database's OID; `pg_locks.database`), so the job's lease key needs
    no database name. This pins that: if the lease ever moves to something server-wide, one
    deployment's run would make the other's raise JobBusy for as long as it runs."""
    other = make_engine(other_database_url, pool_size=2)
    try:
        async with other.begin() as conn:
            await conn.run_sync(lambda sync: PeriodicRunRow.__table__.create(sync))
        job = JobDefinition("two.databases.job", EVERY)
        period = EVERY.period_at(T0)
        clock = FrozenClock(T0)
        first_running, second_done = asyncio.Event(), asyncio.Event()

        async def first_work() -> str:
            first_running.set()
            await asyncio.wait_for(second_done.wait(), 10)  # still running while the other one runs
            return "first"

        async def second_work() -> str:
            return "second"

        async def second() -> RunResult:
            await first_running.wait()
            try:
                return await run_period(SqlJobRuns(other), clock, job, period, second_work)
            finally:
                second_done.set()

        a, b = await asyncio.gather(run_period(SqlJobRuns(engine), clock, job, period, first_work), second())
        assert (a.ran, a.summary) == (True, "first") and (b.ran, b.summary) == (True, "second")
    finally:
        await other.dispose()
