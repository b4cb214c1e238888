"""Periodic jobs, their periods and run records.

A job's periods are fixed intervals aligned to the Unix epoch (plus an optional offset), so
every process computes the same boundaries from the clock alone, with no shared state: the
period containing `now` is the one that is due. A period is claimed once (by whichever
scheduler gets there first) and run at most once successfully.

Missed periods (no scheduler was alive, or the broker was down) are caught up *once*: only the
period containing `now` is claimed, never the gap behind it. Every job is written to do all the
work due "as of now" (apply the refills due now, purge the sessions expired by now, bill from
the last billed second to now), so one run after an outage does what the missed runs would
have done, and running N stale periods back to back would only repeat no-ops.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from enum import StrEnum

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True, slots=True, order=True)
class Period:
    """[start, end) in UTC."""

    start: datetime
    end: datetime

    @property
    def key(self) -> str:
        """The period's part of an idempotency key: its start, second precision, UTC."""
        return self.start.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


@dataclass(frozen=True, slots=True)
class Every:
    """A fixed period of `seconds`, aligned to the epoch shifted by `offset_seconds`."""

    seconds: int
    offset_seconds: int = 0

    def __post_init__(self) -> None:
        if self.seconds < 1:
            raise ValueError("a period is at least one second")
        if not 0 <= self.offset_seconds < self.seconds:
            raise ValueError("the offset must be within one period")

    def period_at(self, when: datetime) -> Period:
        if when.tzinfo is None:
            raise ValueError("periods are computed from aware datetimes")
        elapsed = (when - _EPOCH) // timedelta(seconds=1) - self.offset_seconds
        start = _EPOCH + timedelta(seconds=self.offset_seconds + (elapsed // self.seconds) * self.seconds)
        return Period(start, start + timedelta(seconds=self.seconds))

    def periods_between(self, earlier: datetime, later: datetime) -> int:
        """How many period boundaries lie in (earlier, later]."""
        a, b = self.period_at(earlier).start, self.period_at(later).start
        return max(0, (b - a) // timedelta(seconds=self.seconds))

    @property
    def label(self) -> str:
        s = self.seconds
        for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
            if s % size == 0:
                return f"every {s // size} {unit}"
        return f"every {s} s"


@dataclass(frozen=True, slots=True)
class JobDefinition:
    """A periodic job: its stable name (the claim and idempotency keys use it), cadence and
    what it does, in words for the operations view."""

    name: str
    cadence: Every
    description: str = ""

    def __post_init__(self) -> None:
        if not self.name or len(self.name) > 100 or not self.name.replace(".", "").replace("_", "").isalnum():
            raise ValueError(f"job names are dotted identifiers: {self.name!r}")


class RunOutcome(StrEnum):
    PENDING = "pending"  # claimed; waiting for the broker or in its queue
    RUNNING = "running"  # an attempt started (or its worker died; redelivery resumes it)
    SUCCEEDED = "succeeded"
    FAILED = "failed"  # the last attempt failed; retries may follow
    COALESCED = "coalesced"  # never delivered before a newer period of the job was; folded into it


TERMINAL = frozenset({RunOutcome.SUCCEEDED, RunOutcome.COALESCED})


@dataclass(frozen=True, slots=True)
class JobSummary:
    """What a run did: one English line (logs, API clients) and its numbers by name, from
    which a console says it in its own language (`counts`: name → a number as text)."""

    text: str
    counts: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, text: str, **counts: object) -> JobSummary:
        return cls(text, {k: str(v) for k, v in counts.items()})


@dataclass(frozen=True, slots=True)
class JobRun:
    job: str
    period: Period
    outcome: RunOutcome
    claimed_at: datetime
    enqueued_at: datetime | None = None
    started_at: datetime | None = None
    finished_at: datetime | None = None
    attempts: int = 0
    error: str | None = None
    summary: str | None = None
    counts: Mapping[str, str] = field(default_factory=dict)  # the summary's numbers by name

    @property
    def duration(self) -> timedelta | None:
        if self.started_at is None or self.finished_at is None:
            return None
        return self.finished_at - self.started_at


@dataclass(frozen=True, slots=True)
class Due:
    period: Period
    missed: int  # whole periods skipped since the last claim (caught up by this one run)


def due(job: JobDefinition, now: datetime, last_claimed_start: datetime | None) -> Due | None:
    """The period to claim now, or None when the current period is already claimed.

    After downtime only the current period is due (see the module docstring); `missed` says
    how many periods were folded into it, for the log and the operations view.
    """
    current = job.cadence.period_at(now)
    if last_claimed_start is None:
        return Due(current, 0)
    if last_claimed_start >= current.start:
        return None
    return Due(current, max(0, job.cadence.periods_between(last_claimed_start, now) - 1))


def next_due(job: JobDefinition, now: datetime, last_claimed_start: datetime | None) -> datetime:
    """When the next period becomes due: now if the current one is unclaimed, else its end."""
    current = job.cadence.period_at(now)
    if last_claimed_start is None or last_claimed_start < current.start:
        return now
    return current.end


@dataclass(frozen=True, slots=True)
class JobStatus:
    job: JobDefinition
    last_run: JobRun | None  # the most recent period that was started or finished
    last_success: JobRun | None
    next_due: datetime
