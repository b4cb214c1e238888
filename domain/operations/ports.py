"""Ports of the operations context (adapters in infra/periodic)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import Protocol

from domain.operations.model import JobRun, Period, RunOutcome


class JobRuns(Protocol):
    """The record of every claimed period of every periodic job."""

    async def begin(self, job: str, period: Period, now: datetime) -> int | None:
        """Record an attempt starting; returns its number, or None when the period already
        succeeded (or was coalesced): a redelivered or duplicate message then does nothing."""
        ...

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
    ) -> None: ...

    def exclusive(self, job: str) -> AbstractAsyncContextManager[bool]:
        """Hold the job's execution lease while inside; yields False when another process
        runs the same job right now (at most one execution of a job at a time)."""
        ...

    async def last_claimed(self, jobs: Sequence[str]) -> Mapping[str, datetime]: ...

    async def latest(self, jobs: Sequence[str]) -> Mapping[str, JobRun]:
        """The most recent run that started, per job."""
        ...

    async def last_successes(self, jobs: Sequence[str]) -> Mapping[str, JobRun]: ...
