"""dramatiq actors. Each is idempotent (delivery is at least once) and thin: take the process's
container, call a use case, record the outcome.

Actors are declared on a broker by `declare_periodic_actors` when a runtime starts, not at
import time, so importing this module neither picks a broker nor opens a connection. A
periodic job's actor is named after the job and takes the period (ISO start and end) as its
message, so (actor, period) is the idempotency key of every delivery.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import dramatiq

from domain.operations.model import JobSummary, Period
from domain.operations.services import JobBusy, run_period
from infra.bootstrap import Container
from infra.periodic.runs import SqlJobRuns
from workers import metrics
from workers.middleware import maybe_kill
from workers.registry import PeriodicJob

log = logging.getLogger(__name__)


@dataclass
class ProcessContext:
    """What the actors of this process share: one container, one run store."""

    container: Container
    runs: SqlJobRuns


_context: ProcessContext | None = None


def set_process_context(context: ProcessContext | None) -> None:
    global _context
    _context = context


def process_context() -> ProcessContext:
    if _context is None:
        raise RuntimeError("no worker runtime is running in this process")
    return _context


def _periodic_actor_fn(job: PeriodicJob) -> Any:
    async def run_periodic_job(period_start: str, period_end: str) -> None:
        ctx = process_context()
        period = Period(datetime.fromisoformat(period_start), datetime.fromisoformat(period_end))

        async def work() -> str | JobSummary:
            summary = await job.run(ctx.container)
            maybe_kill("after_work", job.name)  # test-only fault injection; a no-op otherwise
            return summary

        try:
            result = await run_period(ctx.runs, ctx.container.clock, job.definition, period, work)
        except JobBusy as busy:
            metrics.PERIODIC_RUNS.labels(job.name, "busy").inc()
            # expected while another process runs the period: retried with backoff by the Retries
            # middleware (logged at INFO), not an unhandled-exception traceback at ERROR
            raise dramatiq.Retry(str(busy)) from busy
        except Exception:
            metrics.PERIODIC_RUNS.labels(job.name, "failed").inc()
            raise
        if not result.ran:
            metrics.PERIODIC_RUNS.labels(job.name, "duplicate").inc()
            log.info("%s %s already succeeded: duplicate delivery ignored", job.name, period.key)
            return
        metrics.PERIODIC_RUNS.labels(job.name, "succeeded").inc()
        metrics.PERIODIC_LAST_SUCCESS.labels(job.name).set(time.time())
        # every job runs each minute or more often: its routine summary is DEBUG, failures and
        # retries are logged by the middleware at WARNING and above
        log.debug("%s %s attempt %s: %s", job.name, period.key, result.attempt, result.summary)

    run_periodic_job.__qualname__ = run_periodic_job.__name__ = f"periodic_{job.name.replace('.', '_')}"
    return run_periodic_job


def declare_periodic_actors(
    broker: dramatiq.Broker, jobs: Sequence[PeriodicJob]
) -> dict[str, dramatiq.Actor[Any, Any]]:
    return {
        job.name: dramatiq.Actor(
            _periodic_actor_fn(job),
            broker=broker,
            actor_name=job.name,
            queue_name=job.queue,
            priority=0,
            options={
                "max_retries": job.max_retries,
                "min_backoff": 500,
                "max_backoff": 30_000,
                "time_limit": job.time_limit_seconds * 1000,
            },
        )
        for job in jobs
    }
