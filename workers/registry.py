"""Every periodic job, one entry each. Adding a job is adding an entry here: the scheduler
claims its periods, an actor of the same name is declared on the broker, and the operations
view lists it.

Still to come with session billing (issue 7), each one entry:
  PeriodicJob(JobDefinition("sessions.meter", Every(60), "bill running sessions"), jobs.meter, queue="billing"),
  PeriodicJob(JobDefinition("sessions.expire", Every(60), ...), jobs.expire_sessions),
  PeriodicJob(JobDefinition("sessions.idle_reclaim", Every(60), ...), jobs.reclaim_idle),
  PeriodicJob(JobDefinition("credits.budget_rollup", Every(300), ...), jobs.roll_up_budgets),
and the queue drain as an event-driven actor (see workers/actors.py) with a periodic safety net.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace

from domain.operations.model import Every, JobDefinition
from infra.bootstrap import Container
from workers import jobs

PERIODS_ENV = "GSHARE_WORKER_JOB_PERIODS"  # "credits.refills=30,tenancy.purge_login_sessions=600"


@dataclass(frozen=True, slots=True)
class PeriodicJob:
    definition: JobDefinition
    run: Callable[[Container], Awaitable[str]]  # idempotent work; returns a one-line summary
    queue: str = "periodic"
    max_retries: int = 3
    time_limit_seconds: int = 300

    @property
    def name(self) -> str:
        return self.definition.name


PERIODIC_JOBS: tuple[PeriodicJob, ...] = (
    PeriodicJob(
        JobDefinition("credits.refills", Every(60), "Apply refill schedules whose period has begun."),
        jobs.apply_refills,
    ),
    PeriodicJob(
        JobDefinition("tenancy.purge_login_sessions", Every(3600, offset_seconds=120), "Delete expired sign-ins."),
        jobs.purge_login_sessions,
    ),
)


def with_periods(base: Sequence[PeriodicJob], spec: str | None) -> tuple[PeriodicJob, ...]:
    """Override cadences from `name=seconds,…` (operations tuning, and short periods in tests)."""
    if not spec:
        return tuple(base)
    seconds: dict[str, int] = {}
    for part in spec.split(","):
        if not part.strip():
            continue
        name, _, value = part.partition("=")
        seconds[name.strip()] = int(value)
    unknown = set(seconds) - {j.name for j in base}
    if unknown:
        raise ValueError(f"{PERIODS_ENV} names unknown jobs: {', '.join(sorted(unknown))}")
    return tuple(
        replace(j, definition=replace(j.definition, cadence=Every(seconds[j.name]))) if j.name in seconds else j
        for j in base
    )


def configured_jobs() -> tuple[PeriodicJob, ...]:
    return with_periods(PERIODIC_JOBS, os.environ.get(PERIODS_ENV))
