"""The `JobRuns` contract, run against the in-memory and the PostgreSQL adapters alike."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from domain.operations.model import Every, RunOutcome
from infra.db.base import make_engine
from infra.periodic.memory import InMemoryJobRuns
from infra.periodic.runs import SqlJobRuns

pytestmark = pytest.mark.timeout(30)

T0 = datetime(2026, 7, 1, 8, 0, tzinfo=UTC)
EVERY = Every(60)


@pytest.fixture(params=["memory", "postgres"])
async def runs(request: pytest.FixtureRequest, module_database_url: str) -> AsyncIterator[Any]:
    if request.param == "memory":
        yield InMemoryJobRuns()
        return
    engine = make_engine(module_database_url, pool_size=3)
    try:
        yield SqlJobRuns(engine)
    finally:
        await engine.dispose()


def job_name() -> str:
    return f"contract.j{uuid.uuid4().hex[:8]}"


async def test_begin_counts_attempts_until_the_period_succeeds(runs: Any) -> None:
    job, period = job_name(), EVERY.period_at(T0)
    assert await runs.begin(job, period, T0) == 1
    await runs.finish(job, period, T0 + timedelta(seconds=1), RunOutcome.FAILED, error="boom")
    assert await runs.begin(job, period, T0 + timedelta(seconds=2)) == 2
    await runs.finish(
        job, period, T0 + timedelta(seconds=3), RunOutcome.SUCCEEDED, summary="ok", counts={"applied": "2"}
    )
    assert await runs.begin(job, period, T0 + timedelta(seconds=4)) is None
    [run] = await runs.runs(job)
    assert (run.outcome, run.attempts, run.summary, run.error) == (RunOutcome.SUCCEEDED, 2, "ok", None)
    assert run.counts == {"applied": "2"}  # the summary's numbers by name
    assert run.duration == timedelta(seconds=1)


async def test_latest_last_success_and_last_claimed(runs: Any) -> None:
    job, other = job_name(), job_name()
    p1, p2 = EVERY.period_at(T0), EVERY.period_at(T0 + timedelta(minutes=1))
    assert await runs.latest([job]) == {} and await runs.last_successes([job]) == {}
    await runs.begin(job, p1, T0)
    await runs.finish(job, p1, T0, RunOutcome.SUCCEEDED)
    await runs.begin(job, p2, T0 + timedelta(minutes=1))
    await runs.finish(job, p2, T0 + timedelta(minutes=1), RunOutcome.FAILED, error="x")
    latest, success = (await runs.latest([job, other]))[job], (await runs.last_successes([job, other]))[job]
    assert (latest.period, latest.outcome, latest.error) == (p2, RunOutcome.FAILED, "x")
    assert (success.period, success.outcome) == (p1, RunOutcome.SUCCEEDED)
    assert await runs.last_claimed([job, other]) == {job: p2.start}


async def test_the_lease_is_exclusive_per_job_and_released(runs: Any) -> None:
    job = job_name()
    async with runs.exclusive(job) as first:
        assert first
        async with runs.exclusive(job) as second:
            assert not second
        async with runs.exclusive(job_name()) as unrelated:
            assert unrelated
    async with runs.exclusive(job) as again:
        assert again
