"""The pure rules of the session jobs: idleness, a hold running out, notification dedupe ids,
and the registry's billing entries."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from fractions import Fraction
from uuid import uuid4

from domain.common.money import cost_micro
from domain.inventory.ports import UsageSample
from domain.sessions import jobs
from domain.sessions.model import Expiry, GpuAsk, Session, SessionKind, SessionState

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def samples(n: int, *, gpu: float, cpu: int = 50, gpu_mem: int = 1024) -> list[UsageSample]:
    sid = uuid4()
    return [UsageSample(sid, T0 + timedelta(seconds=i), cpu, 1024, gpu, gpu_mem) for i in range(n)]


def test_idle_is_judged_by_gpu_utilisation_when_there_is_gpu_data() -> None:
    settings = jobs.IdleSettings(gpu_util_percent=5, cpu_millicores=100)
    assert jobs.is_idle(samples(60, gpu=1, cpu=4000), settings)  # busy CPU does not keep a GPU session
    busy = samples(60, gpu=1)
    busy[30] = UsageSample(busy[30].session_id, busy[30].at, 50, 1024, 40, 1024)
    assert not jobs.is_idle(busy, settings)  # one busy second in the window is activity


def test_without_gpu_data_cpu_decides_and_no_data_is_not_idle() -> None:
    settings = jobs.IdleSettings(gpu_util_percent=5, cpu_millicores=100)
    assert not jobs.is_idle(samples(60, gpu=0, cpu=900, gpu_mem=0), settings)
    assert jobs.is_idle(samples(60, gpu=0, cpu=20, gpu_mem=0), settings)
    assert not jobs.is_idle([], settings)


def session(rate: int, ratio: Fraction) -> Session:
    gpu = GpuAsk(uuid4(), "A100", 20480, 25, 1, False, False, ratio, rate)
    return Session(
        uuid4(),
        "s",
        uuid4(),
        uuid4(),
        uuid4(),
        SessionKind.INTERACTIVE,
        SessionState.RUNNING,
        uuid4(),
        "img",
        None,
        1000,
        1024,
        128,
        10,
        gpu,
        Expiry.H4,
        T0,
        T0,
    )


def test_a_hold_runs_out_when_it_cannot_pay_the_next_tick() -> None:
    s = session(3_600_000, Fraction(1, 4))  # 250 micro-credits a second
    tick = cost_micro(3_600_000, Fraction(1, 4), 60)
    assert tick == 15_000
    assert not jobs.hold_runs_out(s, tick, 0, 60)
    assert jobs.hold_runs_out(s, tick - 1, 0, 60)
    assert jobs.hold_runs_out(s, 10**9, 1, 60)  # something already unpaid


def test_notice_ids_are_one_per_key_and_recipient() -> None:
    a, b = uuid4(), uuid4()
    assert jobs.notice_id("budget-alert:x:20260101:50", a) == jobs.notice_id("budget-alert:x:20260101:50", a)
    assert jobs.notice_id("budget-alert:x:20260101:50", a) != jobs.notice_id("budget-alert:x:20260101:50", b)
    assert jobs.notice_id("budget-alert:x:20260101:50", a) != jobs.notice_id("budget-alert:x:20260101:80", a)


def test_the_registry_runs_metering_on_its_own_queue_and_the_session_jobs() -> None:
    from workers.registry import PERIODIC_JOBS

    by_name = {j.name: j for j in PERIODIC_JOBS}
    assert by_name["sessions.meter"].queue == "billing"
    assert by_name["sessions.meter"].definition.cadence.seconds == 60
    for name in ("sessions.expire", "sessions.idle_reclaim", "sessions.drain_queue", "credits.budget_alerts"):
        assert name in by_name


def test_meter_keys_name_the_instant() -> None:
    from infra.billing.sql import _period_key

    assert _period_key(datetime(2026, 3, 2, 8, 1, 0, 123, tzinfo=UTC)) == "20260302T080100Z"
