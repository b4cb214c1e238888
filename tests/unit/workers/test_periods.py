"""Periods and the "is this period due" rule, on a controllable clock (no sleeping)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from domain.common.clock import FrozenClock
from domain.common.errors import DomainError
from domain.operations.model import (
    TERMINAL,
    Every,
    JobDefinition,
    JobRun,
    Period,
    RunOutcome,
    due,
    next_due,
)
from domain.operations.services import JobBusy, job_statuses, run_period
from domain.tenancy.model import Actor
from infra.periodic.memory import InMemoryJobRuns

T0 = datetime(2026, 3, 31, 23, 59, 30, tzinfo=UTC)
MINUTE = JobDefinition("test.minutely", Every(60))


def test_periods_are_aligned_to_the_epoch_and_half_open() -> None:
    p = Every(60).period_at(T0)
    assert p == Period(datetime(2026, 3, 31, 23, 59, tzinfo=UTC), datetime(2026, 4, 1, tzinfo=UTC))
    assert Every(60).period_at(p.end).start == p.end  # the end belongs to the next period
    assert Every(60).period_at(p.end - timedelta(microseconds=1)) == p
    assert Every(3600).period_at(T0).start == datetime(2026, 3, 31, 23, tzinfo=UTC)
    assert Every(86400).period_at(T0).start == datetime(2026, 3, 31, tzinfo=UTC)
    assert p.key == "20260331T235900Z"


def test_offset_shifts_the_boundaries() -> None:
    hourly_at_five = Every(3600, offset_seconds=300)
    assert hourly_at_five.period_at(T0).start == datetime(2026, 3, 31, 23, 5, tzinfo=UTC)
    assert hourly_at_five.period_at(datetime(2026, 4, 1, 0, 4, tzinfo=UTC)).start == datetime(
        2026, 3, 31, 23, 5, tzinfo=UTC
    )


def test_every_process_computes_the_same_period_from_other_timezones() -> None:
    from datetime import timezone

    local = T0.astimezone(timezone(timedelta(hours=9)))
    assert Every(60).period_at(local) == Every(60).period_at(T0)


def test_invalid_cadences_and_names_are_refused() -> None:
    with pytest.raises(ValueError):
        Every(0)
    with pytest.raises(ValueError):
        Every(60, offset_seconds=60)
    with pytest.raises(ValueError):
        Every(60).period_at(datetime(2026, 1, 1))  # naive
    with pytest.raises(ValueError):
        JobDefinition("bad name!", Every(60))


def test_first_period_is_due_at_once() -> None:
    d = due(MINUTE, T0, None)
    assert d is not None and d.period == Every(60).period_at(T0) and d.missed == 0


def test_a_claimed_period_is_not_due_again_until_the_next_boundary() -> None:
    clock = FrozenClock(T0)
    claimed = Every(60).period_at(T0).start
    for _ in range(29):
        clock.advance(1)
        assert due(MINUTE, clock.now(), claimed) is None
    clock.advance(1)  # 00:00:00, the next period
    d = due(MINUTE, clock.now(), claimed)
    assert d is not None and d.period.start == datetime(2026, 4, 1, tzinfo=UTC) and d.missed == 0


def test_downtime_is_caught_up_once_not_once_per_missed_period() -> None:
    claimed = Every(60).period_at(T0).start
    later = T0 + timedelta(minutes=90, seconds=5)
    d = due(MINUTE, later, claimed)
    assert d is not None
    assert d.period == Every(60).period_at(later)
    assert d.missed == 89  # 23:59 claimed; 00:00 … 01:28 folded into 01:29
    assert due(MINUTE, later, d.period.start) is None


def test_next_due() -> None:
    current = Every(60).period_at(T0)
    assert next_due(MINUTE, T0, None) == T0
    assert next_due(MINUTE, T0, current.start) == current.end
    assert next_due(MINUTE, T0, current.start - timedelta(minutes=5)) == T0


def test_run_duration() -> None:
    p = Every(60).period_at(T0)
    run = JobRun("j", p, RunOutcome.SUCCEEDED, T0, T0, T0, T0 + timedelta(seconds=2), 1)
    assert run.duration == timedelta(seconds=2)
    assert JobRun("j", p, RunOutcome.PENDING, T0).duration is None
    assert RunOutcome.SUCCEEDED in TERMINAL and RunOutcome.FAILED not in TERMINAL


async def test_a_period_runs_once_even_when_delivered_twice() -> None:
    runs, clock, calls = InMemoryJobRuns(), FrozenClock(T0), []
    period = Every(60).period_at(T0)

    async def work() -> str:
        calls.append(clock.now())
        return "did it"

    first = await run_period(runs, clock, MINUTE, period, work)
    second = await run_period(runs, clock, MINUTE, period, work)
    assert first.ran and first.attempt == 1 and first.summary == "did it"
    assert not second.ran
    assert len(calls) == 1


async def test_a_failed_attempt_is_recorded_and_the_retry_runs() -> None:
    runs, clock = InMemoryJobRuns(), FrozenClock(T0)
    period = Every(60).period_at(T0)

    async def boom() -> str:
        raise RuntimeError("database went away")

    with pytest.raises(RuntimeError):
        await run_period(runs, clock, MINUTE, period, boom)
    row = runs.rows[(MINUTE.name, period.start)]
    assert row.outcome is RunOutcome.FAILED and row.error == "RuntimeError: database went away"

    async def ok() -> str:
        return "ok"

    clock.advance(5)
    result = await run_period(runs, clock, MINUTE, period, ok)
    assert result.ran and result.attempt == 2
    assert runs.rows[(MINUTE.name, period.start)].outcome is RunOutcome.SUCCEEDED


async def test_a_job_running_elsewhere_is_busy() -> None:
    runs, clock = InMemoryJobRuns(), FrozenClock(T0)
    runs.busy.add(MINUTE.name)

    async def work() -> str:
        raise AssertionError("must not run")

    with pytest.raises(JobBusy):
        await run_period(runs, clock, MINUTE, Every(60).period_at(T0), work)


async def test_statuses_are_for_super_admins_only() -> None:
    import uuid

    runs, clock = InMemoryJobRuns(), FrozenClock(T0)
    member = Actor(user_id=uuid.uuid4(), username="m")
    with pytest.raises(DomainError) as info:
        await job_statuses(member, runs, clock, [MINUTE])
    assert info.value.code == "PERMISSION_DENIED"

    async def ok() -> str:
        return "ok"

    period = Every(60).period_at(T0)
    await run_period(runs, clock, MINUTE, period, ok)
    admin = Actor(user_id=uuid.uuid4(), username="a", is_super_admin=True)
    [status] = await job_statuses(admin, runs, clock, [MINUTE])
    assert status.last_run is not None and status.last_run.outcome is RunOutcome.SUCCEEDED
    assert status.last_success == status.last_run
    assert status.next_due == period.end
