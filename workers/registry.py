"""Every periodic job, one entry each. Adding a job is adding an entry here: the scheduler
claims its periods, an actor of the same name is declared on the broker, and the operations
view lists it.

Session billing (issue 7): metering on its own queue, so a slow housekeeping job never delays
a tick; the queue drain runs periodically too, so queued sessions are admitted promptly in any
process even when the process that freed the capacity died before draining.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace

from domain.operations.model import Every, JobDefinition
from infra.bootstrap import Container
from workers import jobs


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
        JobDefinition(
            "sessions.meter",
            Every(jobs.METER_TICK_SECONDS),
            "Bill running sessions up to now, renew holds one window ahead, pause when a hold runs out.",
        ),
        jobs.meter_sessions,
        queue="billing",
    ),
    PeriodicJob(
        JobDefinition(
            "sessions.expire",
            Every(60, offset_seconds=20),
            "Warn at 90 % of a session's duration; expire it at the end.",
        ),
        jobs.expire_sessions,
    ),
    PeriodicJob(
        JobDefinition(
            "sessions.idle_reclaim",
            Every(60, offset_seconds=30),
            "Pause GPU sessions idle beyond their policy's timeout.",
        ),
        jobs.reclaim_idle,
    ),
    PeriodicJob(
        JobDefinition("sessions.drain_queue", Every(15), "Admit queued sessions that fit now."),
        jobs.drain_queue,
    ),
    PeriodicJob(
        JobDefinition(
            "sessions.sweep_residue",
            Every(60, offset_seconds=50),
            "Release holds no session names, hand stalled admissions off again (or fail them), free stray capacity.",
        ),
        jobs.sweep_residue,
    ),
    PeriodicJob(
        JobDefinition(
            "credits.budget_alerts",
            Every(300, offset_seconds=40),
            "Notify budget thresholds crossed (once per period).",
        ),
        jobs.budget_alerts,
    ),
    PeriodicJob(
        JobDefinition(
            "usage.prometheus",
            Every(15),
            "Live usage of the clusters that have a Prometheus (per-pod cAdvisor, HAMi and DCGM series).",
        ),
        jobs.poll_prometheus,
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
        raise ValueError(f"GSHARE_WORKER_JOB_PERIODS names unknown jobs: {', '.join(sorted(unknown))}")
    return tuple(
        replace(j, definition=replace(j.definition, cadence=Every(seconds[j.name]))) if j.name in seconds else j
        for j in base
    )


def configured_jobs(periods: str | None) -> tuple[PeriodicJob, ...]:
    """The jobs with the cadences of the setting `worker_job_periods`."""
    return with_periods(PERIODIC_JOBS, periods)
