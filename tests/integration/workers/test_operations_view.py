"""What operators see: the `backgroundJobs` query (super_admin only) and `/metrics`, after the
embedded runner (StubBroker + dramatiq Worker in this process) ran a good and a failing job."""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime

import httpx
import pytest
import strawberry
from starlette.applications import Starlette
from starlette.routing import Route

from api.operations.metrics import metrics_endpoint
from api.operations.queries import OperationsQuery
from domain.common.clock import FrozenClock
from domain.common.errors import DomainError
from domain.operations.model import Every, JobDefinition, RunOutcome
from domain.tenancy.model import Actor
from infra.bootstrap import Container, build_container
from infra.settings import Settings
from workers.registry import PERIODIC_JOBS, PeriodicJob
from workers.runtime import WorkerRuntime, build_broker

pytestmark = pytest.mark.timeout(60)

QUERY = """{ backgroundJobs { name description period periodSeconds lastOutcome lastError nextDueAt
  lastRun { periodStart periodEnd outcome startedAt finishedAt durationSeconds attempts error summary counts { name value } }
  lastSuccess { periodStart } } }"""


async def broken(_: Container) -> str:
    raise RuntimeError("cluster API unreachable")


BROKEN = PeriodicJob(JobDefinition("test.broken", Every(60), "always fails"), broken, max_retries=0)


@dataclass
class FakeContext:
    container: Container
    actor: Actor | None

    def require_actor(self) -> Actor:
        if self.actor is None:
            raise DomainError("UNAUTHENTICATED", "sign in first")  # type: ignore[arg-type]
        return self.actor


@pytest.fixture
async def container(fresh_database_url: str) -> AsyncIterator[Container]:
    url = fresh_database_url
    c = build_container(
        Settings(database_url=url, demo=False), url, clock=FrozenClock(datetime(2026, 5, 4, 10, 0, 30, tzinfo=UTC))
    )
    yield c
    await c.aclose()


async def test_background_jobs_and_metrics(container: Container, monkeypatch: pytest.MonkeyPatch) -> None:
    jobs = (*PERIODIC_JOBS, BROKEN)
    monkeypatch.setattr("api.operations.queries.DEFINITIONS", tuple(j.definition for j in jobs))
    rt = WorkerRuntime(container, build_broker(None), jobs, threads=2, scheduler=False)
    await rt.start()
    try:
        await rt.scheduler.tick()
        await asyncio.to_thread(rt.broker.join, "periodic", timeout=20_000, fail_fast=False)  # type: ignore[attr-defined]
        await asyncio.to_thread(rt.worker.join)  # type: ignore[union-attr]
    finally:
        await rt.stop(timeout_seconds=10)

    schema = strawberry.Schema(query=OperationsQuery)
    admin = Actor(user_id=uuid.uuid4(), username="root", is_super_admin=True)
    result = await schema.execute(QUERY, context_value=FakeContext(container, admin))
    assert result.errors is None, result.errors
    assert result.data is not None
    by_name = {j["name"]: j for j in result.data["backgroundJobs"]}
    assert set(by_name) == {j.name for j in PERIODIC_JOBS} | {"test.broken"}
    assert {"credits.refills", "tenancy.purge_login_sessions", "sessions.meter"} <= set(by_name)

    refills = by_name["credits.refills"]
    assert refills["period"] == "every 1 min" and refills["periodSeconds"] == 60
    assert refills["lastOutcome"] == "SUCCEEDED" and refills["lastError"] is None
    assert refills["lastRun"]["periodStart"] == "2026-05-04T10:00:00+00:00"
    assert refills["lastRun"]["attempts"] == 1 and refills["lastRun"]["durationSeconds"] == 0.0
    assert refills["lastRun"]["summary"] == "0 schedule(s) applied, 0 transfer(s)"
    assert {c["name"]: c["value"] for c in refills["lastRun"]["counts"]} == {
        "applied": "0",
        "transfers": "0",
        "failed": "0",
    }
    assert refills["lastSuccess"]["periodStart"] == "2026-05-04T10:00:00+00:00"
    assert refills["nextDueAt"] == "2026-05-04T10:01:00+00:00"

    bad = by_name["test.broken"]
    assert bad["lastOutcome"] == RunOutcome.FAILED.name
    assert bad["lastError"] == "RuntimeError: cluster API unreachable"
    assert bad["lastSuccess"] is None

    member = Actor(user_id=uuid.uuid4(), username="m")
    denied = await schema.execute(QUERY, context_value=FakeContext(container, member))
    assert denied.errors and isinstance(denied.errors[0].original_error, DomainError)
    assert denied.errors[0].original_error.code == "PERMISSION_DENIED"

    app = Starlette(routes=[Route("/metrics", metrics_endpoint)])
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as client:
        response = await client.get("/metrics")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/plain")
    text = response.text
    assert 'gshare_worker_actor_failures_total{actor="test.broken",queue="periodic"}' in text
    assert 'gshare_worker_message_duration_seconds_count{actor="credits.refills",queue="periodic"}' in text
    assert 'gshare_worker_queue_lag_seconds_count{queue="periodic"}' in text
    assert 'gshare_worker_queue_lag_last_seconds{queue="periodic"}' in text
    assert 'gshare_periodic_job_last_success_timestamp_seconds{job="credits.refills"}' in text
    assert 'gshare_periodic_job_last_success_timestamp_seconds{job="test.broken"}' not in text


async def test_queue_depth_and_oldest_message_age_are_sampled_without_a_consumer(container: Container) -> None:
    from prometheus_client import REGISTRY

    from workers.actors import declare_periodic_actors

    rt = WorkerRuntime(container, build_broker(None), PERIODIC_JOBS, scheduler=False)
    rt.actors = declare_periodic_actors(rt.broker, rt.jobs)  # declared, but no Worker consumes
    message = rt.actors["credits.refills"].message("2026-05-04T10:00:00+00:00", "2026-05-04T10:01:00+00:00")
    rt.broker.enqueue(message.copy(message_timestamp=message.message_timestamp - 90_000))
    rt.broker.enqueue(message.copy(message_id=str(uuid.uuid4())))
    rt.sample_queues()
    rt.broker.close()
    depth = REGISTRY.get_sample_value("gshare_worker_queue_depth", {"queue": "periodic"})
    age = REGISTRY.get_sample_value("gshare_worker_queue_oldest_message_age_seconds", {"queue": "periodic"})
    assert depth == 2
    assert age is not None and 90 <= age < 120


async def test_a_period_busy_in_another_process_is_retried_quietly(
    container: Container, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """JobBusy (another process runs the period) is routine: the message is retried with backoff,
    counted as `busy`, and nothing is logged at ERROR (it used to be a traceback per retry)."""
    from prometheus_client import REGISTRY

    from domain.operations.services import JobBusy

    async def busy(*_: object) -> None:
        raise JobBusy("test.busy is running in another process")

    job = PeriodicJob(JobDefinition("test.busy", Every(60), "always busy"), broken, max_retries=1)
    monkeypatch.setattr("workers.actors.run_period", busy)
    before = REGISTRY.get_sample_value("gshare_periodic_runs_total", {"job": "test.busy", "outcome": "busy"}) or 0
    rt = WorkerRuntime(container, build_broker(None), (job,), threads=1, scheduler=False)
    await rt.start()
    try:
        with caplog.at_level("INFO"):
            rt.actors["test.busy"].send("2026-05-04T10:00:00+00:00", "2026-05-04T10:01:00+00:00")
            await asyncio.to_thread(rt.broker.join, "periodic", timeout=20_000, fail_fast=False)  # type: ignore[attr-defined]
            await asyncio.to_thread(rt.worker.join)  # type: ignore[union-attr]
    finally:
        await rt.stop(timeout_seconds=10)
    after = REGISTRY.get_sample_value("gshare_periodic_runs_total", {"job": "test.busy", "outcome": "busy"})
    assert after == before + 2  # the first delivery and its one retry
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records]
    assert any("Retrying message" in r.getMessage() for r in caplog.records)
