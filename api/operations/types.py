from __future__ import annotations

from datetime import datetime

import strawberry

from domain.operations.model import JobRun as JobRunModel
from domain.operations.model import JobStatus
from domain.operations.model import RunOutcome as RunOutcomeModel

BackgroundJobOutcome = strawberry.enum(
    RunOutcomeModel,
    name="BackgroundJobOutcome",
    description=(
        "PENDING: claimed, waiting for a worker; RUNNING: an attempt started; SUCCEEDED; FAILED: the last "
        "attempt failed (retries may follow); COALESCED: folded into a later period after an outage."
    ),
)


@strawberry.type(name="BackgroundJobCount", description="One number of a run's summary, by name.")
class BackgroundJobCount:
    name: str
    value: str = strawberry.field(description="A number as text (credits keep their decimals).")


@strawberry.type(name="BackgroundJobRun", description="One period of a periodic job.")
class BackgroundJobRun:
    period_start: datetime
    period_end: datetime
    outcome: BackgroundJobOutcome  # type: ignore[valid-type]
    claimed_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    duration_seconds: float | None
    attempts: int = strawberry.field(description="Executions started for this period (retries and redeliveries).")
    error: str | None
    summary: str | None = strawberry.field(description="What the run did, in one line (English).")
    counts: list[BackgroundJobCount] = strawberry.field(
        description="The summary's numbers by name, from which a console says it in its language "
        "(empty for runs recorded before they were kept)."
    )

    @classmethod
    def of(cls, run: JobRunModel | None) -> BackgroundJobRun | None:
        if run is None:
            return None
        return cls(
            period_start=run.period.start,
            period_end=run.period.end,
            outcome=run.outcome,
            claimed_at=run.claimed_at,
            started_at=run.started_at,
            finished_at=run.finished_at,
            duration_seconds=run.duration.total_seconds() if run.duration is not None else None,
            attempts=run.attempts,
            error=run.error,
            summary=run.summary,
            counts=[BackgroundJobCount(name=k, value=v) for k, v in run.counts.items()],
        )


@strawberry.type(name="BackgroundJob", description="A periodic job run by the workers, once per period.")
class BackgroundJob:
    name: str
    description: str
    period: str = strawberry.field(description='The cadence in words, e.g. "every 1 min".')
    period_seconds: int
    last_run: BackgroundJobRun | None = strawberry.field(description="The most recent period that started.")
    last_success: BackgroundJobRun | None
    next_due_at: datetime = strawberry.field(description="When the next period is claimed (now when overdue).")

    @strawberry.field(description="The last run's outcome (null before the first run).")
    def last_outcome(self) -> BackgroundJobOutcome | None:  # type: ignore[valid-type]
        return self.last_run.outcome if self.last_run is not None else None

    @strawberry.field(description="The last run's error, when it failed.")
    def last_error(self) -> str | None:
        return self.last_run.error if self.last_run is not None else None

    @classmethod
    def of(cls, status: JobStatus) -> BackgroundJob:
        job = status.job
        return cls(
            name=job.name,
            description=job.description,
            period=job.cadence.label,
            period_seconds=job.cadence.seconds,
            last_run=BackgroundJobRun.of(status.last_run),
            last_success=BackgroundJobRun.of(status.last_success),
            next_due_at=status.next_due,
        )
