"""`JobRuns` in memory, for unit tests and simulations (one process, no broker). The
PostgreSQL adapter is the one both run modes use; the shared contract tests hold both to the
same semantics."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import datetime

from domain.operations.model import TERMINAL, JobRun, Period, RunOutcome


class InMemoryJobRuns:
    def __init__(self) -> None:
        self.rows: dict[tuple[str, datetime], JobRun] = {}
        self.busy: set[str] = set()  # jobs whose lease is held
        self._lock = asyncio.Lock()

    def claim(self, job: str, period: Period, now: datetime) -> bool:
        if (job, period.start) in self.rows:
            return False
        self.rows[(job, period.start)] = JobRun(job, period, RunOutcome.PENDING, now, enqueued_at=now)
        return True

    async def begin(self, job: str, period: Period, now: datetime) -> int | None:
        row = self.rows.get((job, period.start))
        if row is None:
            row = JobRun(job, period, RunOutcome.PENDING, now, enqueued_at=now)
        elif row.outcome in TERMINAL:
            return None
        row = replace(row, outcome=RunOutcome.RUNNING, started_at=now, finished_at=None, attempts=row.attempts + 1)
        self.rows[(job, period.start)] = row
        return row.attempts

    async def finish(
        self,
        job: str,
        period: Period,
        now: datetime,
        outcome: RunOutcome,
        *,
        error: str | None = None,
        summary: str | None = None,
        counts: Mapping[str, str] | None = None,
    ) -> None:
        row = self.rows.get((job, period.start))
        if row is not None:
            self.rows[(job, period.start)] = replace(
                row, outcome=outcome, finished_at=now, error=error, summary=summary, counts=dict(counts or {})
            )

    @asynccontextmanager
    async def exclusive(self, job: str) -> AsyncIterator[bool]:
        async with self._lock:
            got = job not in self.busy
            if got:
                self.busy.add(job)
        try:
            yield got
        finally:
            if got:
                self.busy.discard(job)

    async def last_claimed(self, jobs: Sequence[str]) -> Mapping[str, datetime]:
        out: dict[str, datetime] = {}
        for job, start in self.rows:
            if job in jobs and (job not in out or start > out[job]):
                out[job] = start
        return out

    def _newest(self, jobs: Sequence[str], *, success: bool) -> dict[str, JobRun]:
        out: dict[str, JobRun] = {}
        for (job, _), row in sorted(self.rows.items(), key=lambda kv: kv[0][1]):
            if job not in jobs:
                continue
            if success and row.outcome is not RunOutcome.SUCCEEDED:
                continue
            if not success and row.started_at is None:
                continue
            out[job] = row
        return out

    async def latest(self, jobs: Sequence[str]) -> Mapping[str, JobRun]:
        return self._newest(jobs, success=False)

    async def last_successes(self, jobs: Sequence[str]) -> Mapping[str, JobRun]:
        return self._newest(jobs, success=True)

    async def runs(self, job: str, limit: int = 1000) -> list[JobRun]:
        return sorted((r for (j, _), r in self.rows.items() if j == job), key=lambda r: r.period.start, reverse=True)[
            :limit
        ]
