"""Periodic jobs' exact rules: cadence labels, boundary counts, the refusals' messages, a
long error cut to its bound, and the housekeeping purge (kills mutmut's survivors of
domain/operations, issue 20)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta, timezone

import pytest

from domain.common.clock import FrozenClock
from domain.operations.housekeeping import purge_expired_login_sessions
from domain.operations.model import Every, JobDefinition, Period, due
from domain.operations.services import MAX_ERROR_LENGTH, describe_error, job_statuses, run_period
from domain.tenancy.model import Actor
from infra.periodic.memory import InMemoryJobRuns

T0 = datetime(2026, 3, 31, 23, 59, 30, tzinfo=UTC)


def test_a_cadence_is_labelled_in_its_largest_whole_unit() -> None:
    assert Every(86400).label == "every 1 d"
    assert Every(2 * 86400).label == "every 2 d"
    assert Every(7200).label == "every 2 h"
    assert Every(90 * 60).label == "every 90 min"
    assert Every(60).label == "every 1 min"
    assert Every(90).label == "every 90 s"
    assert Every(1).label == "every 1 s"


def test_boundaries_between_two_instants_are_counted_half_open() -> None:
    minute = Every(60)
    start = datetime(2026, 4, 1, tzinfo=UTC)
    assert minute.periods_between(start, start) == 0
    assert minute.periods_between(start, start + timedelta(seconds=59)) == 0
    assert minute.periods_between(start, start + timedelta(seconds=60)) == 1
    assert minute.periods_between(start + timedelta(seconds=59), start + timedelta(seconds=60)) == 1
    assert minute.periods_between(start, start + timedelta(minutes=5, seconds=1)) == 5
    assert minute.periods_between(start + timedelta(minutes=5), start) == 0  # never negative
    assert Every(3600, offset_seconds=300).periods_between(start, start + timedelta(minutes=5)) == 1


def test_a_period_key_is_its_start_in_utc_to_the_second() -> None:
    nine = timezone(timedelta(hours=9))
    p = Period(datetime(2026, 4, 1, 9, 0, 5, tzinfo=nine), datetime(2026, 4, 1, 9, 1, 5, tzinfo=nine))
    assert p.key == "20260401T000005Z"


def test_the_refusals_say_what_is_wrong() -> None:
    with pytest.raises(ValueError, match=r"^a period is at least one second$"):
        Every(0)
    assert Every(1).seconds == 1
    with pytest.raises(ValueError, match=r"^the offset must be within one period$"):
        Every(60, offset_seconds=-1)
    with pytest.raises(ValueError, match=r"^the offset must be within one period$"):
        Every(60, offset_seconds=60)
    assert Every(60, offset_seconds=59).offset_seconds == 59
    with pytest.raises(ValueError, match=r"^periods are computed from aware datetimes$"):
        Every(60).period_at(datetime(2026, 1, 1))


def test_job_names_are_dotted_identifiers_of_at_most_100_characters() -> None:
    assert JobDefinition("billing.tick_v2", Every(60)).name == "billing.tick_v2"
    assert JobDefinition("a" * 100, Every(60)).name == "a" * 100
    for bad in ("", "a" * 101, "bad name", "a-b", "a/b"):
        with pytest.raises(ValueError, match=r"^job names are dotted identifiers: ") as err:
            JobDefinition(bad, Every(60))
        assert str(err.value) == f"job names are dotted identifiers: {bad!r}"


def test_missed_periods_count_the_whole_periods_folded_into_the_current_one() -> None:
    job = JobDefinition("test.minutely", Every(60))
    claimed = Every(60).period_at(T0).start  # 23:59
    d = due(job, claimed + timedelta(minutes=2), claimed)  # 00:01: 00:00 was missed
    assert d is not None and d.missed == 1
    d = due(job, claimed + timedelta(minutes=1), claimed)  # 00:00: nothing missed
    assert d is not None and d.missed == 0


def test_an_error_is_named_by_its_type_and_cut_to_its_bound() -> None:
    assert describe_error(KeyError("x")) == "KeyError: 'x'"
    exact = "e" * (MAX_ERROR_LENGTH - len("ValueError: "))
    assert describe_error(ValueError(exact)) == f"ValueError: {exact}"  # exactly at the bound: whole
    long = describe_error(ValueError(exact + "tail"))
    assert len(long) == MAX_ERROR_LENGTH == 2000
    assert long == f"ValueError: {exact}"[: MAX_ERROR_LENGTH - 1] + "…"


async def test_a_failed_run_records_the_described_error_and_the_time_it_ended() -> None:
    runs, clock = InMemoryJobRuns(), FrozenClock(T0)
    job = JobDefinition("test.minutely", Every(60))
    period = Every(60).period_at(T0)

    async def boom() -> str:
        clock.advance(3)
        raise ValueError("x" * 3000)

    with pytest.raises(ValueError):
        await run_period(runs, clock, job, period, boom)
    row = runs.rows[(job.name, period.start)]
    assert row.error == describe_error(ValueError("x" * 3000)) and row.summary is None
    assert row.started_at == T0 and row.finished_at == T0 + timedelta(seconds=3)

    async def ok() -> str:
        clock.advance(2)
        return "done"

    await run_period(runs, clock, job, period, ok)
    row = runs.rows[(job.name, period.start)]
    assert row.summary == "done" and row.error is None and row.finished_at == T0 + timedelta(seconds=5)


async def test_statuses_cover_every_job_with_its_own_runs() -> None:
    runs, clock = InMemoryJobRuns(), FrozenClock(T0)
    ran, idle = JobDefinition("test.ran", Every(60)), JobDefinition("test.idle", Every(3600))
    period = Every(60).period_at(T0)

    async def ok() -> str:
        return "ok"

    await run_period(runs, clock, ran, period, ok)
    admin = Actor(user_id=uuid.uuid4(), username="a", is_super_admin=True)
    first, second = await job_statuses(admin, runs, clock, [ran, idle])
    assert first.job is ran and first.last_run is not None and first.last_run.job == "test.ran"
    assert first.next_due == period.end
    assert second.job is idle and second.last_run is None and second.last_success is None
    assert second.next_due == T0  # never claimed: due now


async def test_the_purge_removes_sessions_expired_by_now_and_commits() -> None:
    seen: list[datetime] = []

    class Credentials:
        async def purge_expired_login_sessions(self, now: datetime) -> int:
            seen.append(now)
            return 3

    class Uow:
        credentials = Credentials()
        committed = 0

        async def __aenter__(self) -> Uow:
            return self

        async def __aexit__(self, *exc: object) -> None:
            return None

        async def commit(self) -> None:
            self.committed += 1

    uow = Uow()
    assert await purge_expired_login_sessions(uow, FrozenClock(T0)) == 3  # type: ignore[arg-type]
    assert seen == [T0] and uow.committed == 1


def test_job_periods_are_tuned_by_name_and_an_unknown_name_is_refused() -> None:
    from domain.operations.catalog import BY_NAME, PERIODIC, configured, parse_periods

    known = {"a.b", "c.d", "e.f"}
    assert parse_periods(None, known) == {} and parse_periods("", known) == {} and parse_periods(" , ", known) == {}
    assert parse_periods(" a.b = 5 ,c.d=7,", known) == {"a.b": 5, "c.d": 7}
    assert parse_periods("a.b=5, ,c.d=7", known) == {"a.b": 5, "c.d": 7}  # a blank part is skipped, not the end
    with pytest.raises(ValueError, match="invalid literal for int"):
        parse_periods("a.b=5=6", known)
    with pytest.raises(ValueError, match=r"^GSHARE_WORKER_JOB_PERIODS names unknown jobs: x\.y, z$"):
        parse_periods("z=1,a.b=2,x.y=3", known)
    assert configured(None) == PERIODIC
    tuned = configured("sessions.meter=5,credits.refills=7")
    assert [d.name for d in tuned] == [d.name for d in PERIODIC]
    by_name = {d.name: d for d in tuned}
    assert by_name["sessions.meter"].cadence == Every(5) and by_name["credits.refills"].cadence == Every(7)
    assert by_name["sessions.meter"].description == BY_NAME["sessions.meter"].description
    assert all(d == BY_NAME[d.name] for d in tuned if d.name not in {"sessions.meter", "credits.refills"})
    base = (JobDefinition("a.b", Every(60)),)
    assert configured("a.b=2", base) == (JobDefinition("a.b", Every(2)),)
    with pytest.raises(ValueError, match=r"unknown jobs: sessions\.meter$"):
        configured("sessions.meter=5", base)


def test_the_catalog_names_each_job_once_with_its_cadence() -> None:
    from domain.operations.catalog import BY_NAME, METER_TICK_SECONDS, PERIODIC

    assert len(BY_NAME) == len(PERIODIC) == 10 and METER_TICK_SECONDS == 60
    assert {name: (d.cadence.seconds, d.cadence.offset_seconds) for name, d in BY_NAME.items()} == {
        "credits.refills": (60, 0),
        "sessions.meter": (60, 0),
        "sessions.expire": (60, 20),
        "sessions.idle_reclaim": (60, 30),
        "sessions.drain_queue": (15, 0),
        "sessions.sweep_residue": (60, 50),
        "credits.budget_alerts": (300, 40),
        "usage.prometheus": (15, 0),
        "usage.history": (60, 10),
        "tenancy.purge_login_sessions": (3600, 120),
    }
    assert BY_NAME["sessions.drain_queue"].description == "Admit queued sessions that fit now."


def test_periods_are_exact_integer_seconds_even_centuries_ahead() -> None:
    # seconds since the epoch as a float lose the microseconds past 2^33 s (year 2242)
    boundary = datetime(9000, 1, 1, tzinfo=UTC)
    just_before = Every(60).period_at(boundary - timedelta(microseconds=1))
    assert just_before == Period(boundary - timedelta(minutes=1), boundary)
    assert Every(60).period_at(boundary).start == boundary


def test_a_job_name_needs_a_letter_or_digit() -> None:
    for bad in (".", "...", "_", "__", "._."):
        with pytest.raises(ValueError, match=r"^job names are dotted identifiers: "):
            JobDefinition(bad, Every(60))


async def test_a_busy_job_and_a_member_asking_for_statuses_are_refused_in_words() -> None:
    from domain.common.errors import DomainError
    from domain.operations.services import JobBusy

    runs, clock = InMemoryJobRuns(), FrozenClock(T0)
    job = JobDefinition("test.minutely", Every(60))
    runs.busy.add(job.name)

    async def work() -> str:
        return "never"

    with pytest.raises(JobBusy, match=r"^test\.minutely is running in another process$"):
        await run_period(runs, clock, job, Every(60).period_at(T0), work)
    with pytest.raises(DomainError) as err:
        await job_statuses(Actor(user_id=uuid.uuid4(), username="m"), runs, clock, [job])
    assert err.value.message == "only a super_admin may see background jobs"


async def test_a_run_records_its_summary_and_its_numbers_as_text() -> None:
    from domain.operations.model import JobSummary

    assert JobSummary.of("billed 3 sessions", sessions=3, credits=1.5) == JobSummary(
        "billed 3 sessions", {"sessions": "3", "credits": "1.5"}
    )
    assert JobSummary("plain").counts == {}
    runs, clock = InMemoryJobRuns(), FrozenClock(T0)
    job = JobDefinition("test.minutely", Every(60))
    period = Every(60).period_at(T0)

    async def work() -> JobSummary:
        return JobSummary.of("purged 2", purged=2)

    result = await run_period(runs, clock, job, period, work)
    assert result.summary == "purged 2"
    row = runs.rows[(job.name, period.start)]
    assert (row.summary, dict(row.counts)) == ("purged 2", {"purged": "2"})
