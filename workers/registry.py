"""Every periodic job's work, one entry each. Adding a job is adding its definition to
domain/operations/catalog.py (the operations view lists it from there) and its entry here: the
scheduler claims its periods and an actor of the same name is declared on the broker.

Session billing (issue 7): metering on its own queue, so a slow housekeeping job never delays
a tick; the queue drain runs periodically too, so queued sessions are admitted promptly in any
process even when the process that freed the capacity died before draining.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace

from domain.operations import catalog
from domain.operations.model import Every, JobDefinition, JobSummary
from infra.bootstrap import Container
from workers import jobs


@dataclass(frozen=True, slots=True)
class PeriodicJob:
    definition: JobDefinition
    run: Callable[[Container], Awaitable[str | JobSummary]]  # idempotent work; returns what it did
    queue: str = "periodic"
    max_retries: int = 3
    time_limit_seconds: int = 300

    @property
    def name(self) -> str:
        return self.definition.name


PERIODIC_JOBS: tuple[PeriodicJob, ...] = (
    PeriodicJob(catalog.BY_NAME["credits.refills"], jobs.apply_refills),
    PeriodicJob(catalog.BY_NAME["sessions.meter"], jobs.meter_sessions, queue="billing"),
    PeriodicJob(catalog.BY_NAME["sessions.expire"], jobs.expire_sessions),
    PeriodicJob(catalog.BY_NAME["sessions.idle_reclaim"], jobs.reclaim_idle),
    PeriodicJob(catalog.BY_NAME["sessions.drain_queue"], jobs.drain_queue),
    PeriodicJob(catalog.BY_NAME["sessions.sweep_residue"], jobs.sweep_residue),
    PeriodicJob(catalog.BY_NAME["credits.budget_alerts"], jobs.budget_alerts),
    PeriodicJob(catalog.BY_NAME["usage.prometheus"], jobs.poll_prometheus),
    PeriodicJob(catalog.BY_NAME["usage.history"], jobs.record_usage_history),
    PeriodicJob(catalog.BY_NAME["tenancy.purge_login_sessions"], jobs.purge_login_sessions),
)
if {j.name for j in PERIODIC_JOBS} != set(catalog.BY_NAME):  # pragma: no cover - a definition without work
    raise RuntimeError("every periodic job of domain.operations.catalog has its work here, and only those")


def with_periods(base: Sequence[PeriodicJob], spec: str | None) -> tuple[PeriodicJob, ...]:
    """Override cadences from `name=seconds,…` (operations tuning, and short periods in tests)."""
    seconds = catalog.parse_periods(spec, {j.name for j in base})
    return tuple(
        replace(j, definition=replace(j.definition, cadence=Every(seconds[j.name]))) if j.name in seconds else j
        for j in base
    )


def configured_jobs(periods: str | None) -> tuple[PeriodicJob, ...]:
    """The jobs with the cadences of the setting `worker_job_periods`."""
    return with_periods(PERIODIC_JOBS, periods)
