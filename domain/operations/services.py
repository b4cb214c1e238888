"""Operations use cases: run one period of a job exactly once, and report job status."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from domain.common.clock import Clock
from domain.common.errors import PermissionDeniedError
from domain.operations.model import JobDefinition, JobStatus, JobSummary, Period, RunOutcome, next_due
from domain.operations.ports import JobRuns
from domain.tenancy.model import Actor

MAX_ERROR_LENGTH = 2000


class JobBusy(Exception):
    """Another process runs this job right now; try again shortly."""


@dataclass(frozen=True, slots=True)
class RunResult:
    ran: bool  # False: the period had already succeeded (a duplicate or redelivered message)
    attempt: int | None = None
    summary: str | None = None


def describe_error(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}"
    return text if len(text) <= MAX_ERROR_LENGTH else text[: MAX_ERROR_LENGTH - 1] + "…"


async def run_period(
    runs: JobRuns,
    clock: Clock,
    job: JobDefinition,
    period: Period,
    work: Callable[[], Awaitable[str | JobSummary]],
) -> RunResult:
    """Run `work` for one period of `job`, at most once successfully.

    Delivery is at least once, so this is idempotent at two levels: a period that already
    succeeded is skipped here, and `work` itself is idempotent by its own keys (a worker killed
    after `work` committed and before the run was recorded redoes `work` as a no-op).
    At most one execution of a job runs at a time across all processes (JobBusy otherwise).
    """
    async with runs.exclusive(job.name) as acquired:
        if not acquired:
            raise JobBusy(f"{job.name} is running in another process")
        attempt = await runs.begin(job.name, period, clock.now())
        if attempt is None:
            return RunResult(False)
        try:
            done = await work()
        except Exception as exc:
            await runs.finish(job.name, period, clock.now(), RunOutcome.FAILED, error=describe_error(exc))
            raise
        summary = done if isinstance(done, JobSummary) else JobSummary(done)
        await runs.finish(
            job.name, period, clock.now(), RunOutcome.SUCCEEDED, summary=summary.text, counts=summary.counts
        )
        return RunResult(True, attempt, summary.text)


async def job_statuses(actor: Actor, runs: JobRuns, clock: Clock, jobs: Sequence[JobDefinition]) -> list[JobStatus]:
    """Every periodic job with its last run, last success and next due time (super_admin)."""
    if not actor.is_super_admin:
        raise PermissionDeniedError("only a super_admin may see background jobs")
    names = [j.name for j in jobs]
    latest, successes, claimed = (
        await runs.latest(names),
        await runs.last_successes(names),
        await runs.last_claimed(names),
    )
    now = clock.now()
    return [
        JobStatus(j, latest.get(j.name), successes.get(j.name), next_due(j, now, claimed.get(j.name))) for j in jobs
    ]
