"""Metering, expiry and budget alerts to the letter: which billing lines draw attention, the
hold that pays exactly one more tick, a pause that fails audited as failed, what the owner and
the live views are told (the session each notice is about, the event's fields), and the
minutes an expiry warning counts."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from uuid import UUID

import pytest

from domain.sessions import jobs
from domain.sessions import services as s
from domain.sessions.errors import SessionError, SessionErrorCode
from domain.sessions.model import Expiry, SessionState
from domain.sessions.ports import BillingResult
from tests.unit.sessions.test_jobs_unit import Notices, Scripted, line, running
from tests.unit.sessions.world import SessionsWorld
from tests.unit.tenancy.world import NOW

S = SessionState
UUID_1, UUID_2 = UUID(int=1), UUID(int=2)


@pytest.fixture
async def w() -> SessionsWorld:
    return await SessionsWorld.build()


async def test_a_running_session_without_a_hold_is_paused_and_only_a_shortfall_draws_attention(
    w: SessionsWorld,
) -> None:
    no_hold, closed, full, short = [await running(w, f"s{i}") for i in range(4)]
    gone: Any = await running(w, "gone")
    del w.state.sessions[gone.id]  # listed first: the lines after it are still looked at
    owner = w.t.users["member"].id
    tick = BillingResult(
        5, 0, 0,
        (
            line(gone.id, owner, hold_micro=0),
            line(no_hold.id, owner, hold_micro=0),  # running without an open hold
            line(closed.id, owner, hold_micro=0, closed=True),  # its hold was closed by this tick
            line(full.id, owner, hold_micro=100),  # renewed in full, nothing unpaid: not looked at
            line(short.id, owner, renewal_short_micro=1, first_shortfall=True),  # one micro-credit short
        ),
    )  # fmt: skip
    w.svc.billing = Scripted(tick)
    out = await jobs.meter(w.svc)
    assert (out.paused, out.warned) == ((no_hold.id,), (short.id,))  # type: ignore[attr-defined]
    notes = {n.kind: n for n in w.state.notifications.values()}
    assert notes["session_paused_credits"].session_id == no_hold.id  # type: ignore[attr-defined]
    assert notes["credits_low"].session_id == short.id  # type: ignore[attr-defined]
    n = notes["credits_low"]
    assert (f"notifications:{owner}", {"id": str(n.id), "kind": "credits_low", "message": n.message}) in w.state.events
    (entry,) = [e for e in w.state.audit if e.operation == "sessionPause"]
    assert (entry.target_type, entry.organization_id, entry.group_id, entry.result_code) == (
        "Session", w.t.org_a.id, w.t.g1.id, "OK",
    )  # fmt: skip
    assert 0 <= entry.duration_ms < 60_000


async def test_a_hold_that_pays_exactly_the_next_minute_is_kept(w: SessionsWorld) -> None:
    # a quarter card at 3.6 credits a card-hour: 15 000 micro-credits a minute
    enough, short = await running(w, "enough"), await running(w, "short")
    owner = w.t.users["member"].id
    tick = BillingResult(
        2, 0, 0,
        (line(enough.id, owner, hold_micro=15_000, renewal_short_micro=5),  # type: ignore[attr-defined]
         line(short.id, owner, hold_micro=14_999, renewal_short_micro=5)),  # type: ignore[attr-defined]
    )  # fmt: skip
    w.svc.billing = Scripted(tick)
    assert (await jobs.meter(w.svc)).paused == (short.id,)  # type: ignore[attr-defined]


async def test_the_charged_wallets_are_announced_by_owner(w: SessionsWorld) -> None:
    x: Any = await running(w)
    w.svc.billing = Scripted(BillingResult(1, 1, 10, (line(x.id, x.owner_id),)))
    await jobs.meter(w.svc)
    assert (f"wallet:{x.owner_id}", {"userId": str(x.owner_id)}) in w.state.events


async def test_a_pause_that_fails_is_audited_as_failed_with_its_code(w: SessionsWorld, monkeypatch: Any) -> None:
    x: Any = await running(w)

    async def refused(*args: object, **kw: object) -> None:
        raise SessionError(SessionErrorCode.ILLEGAL_TRANSITION, "a PAUSED session cannot become PAUSING", "id")

    monkeypatch.setattr(s, "session_pause", refused)
    w.svc.billing = Scripted(BillingResult(1, 0, 0, (line(x.id, x.owner_id, hold_micro=0),)))
    out = await jobs.meter(w.svc)
    assert out.paused == ()
    (entry,) = [e for e in w.state.audit if e.operation == "sessionPause"]
    assert (entry.success, entry.result_code, entry.target_id, entry.details) == (
        False, "ILLEGAL_TRANSITION", str(x.id), {"reason": "credits_exhausted", "holdMicro": "0", "unpaidMicro": "0"},
    )  # fmt: skip
    assert w.state.notifications == {}


async def test_an_expiry_warning_counts_whole_minutes_and_names_its_session(w: SessionsWorld) -> None:
    x: Any = await running(w, expiry=Expiry.H1)
    notices = Notices()
    w.t.clock.set(NOW + timedelta(minutes=54))  # 90 % of the hour: six minutes left
    assert await jobs.expire_sessions(w.svc, notices) == jobs.ExpiryOutcome(1, ())
    (warning,) = notices.stored.values()
    assert warning.session_id == x.id and warning.message.startswith("session nb expires in 6 min, at ")
    payload = {"id": str(warning.id), "kind": "session_expiring", "message": warning.message}
    assert (f"notifications:{x.owner_id}", payload) in w.state.events
    w.t.clock.set(NOW + timedelta(hours=1))
    assert (await jobs.expire_sessions(w.svc, notices)).expired == (x.id,)
    (note,) = [n for n in w.state.notifications.values() if n.kind == "session_expired"]
    assert note.session_id == x.id


async def test_a_session_not_yet_at_its_expiry_is_not_expired(w: SessionsWorld) -> None:
    x: Any = await running(w, expiry=Expiry.H1)
    w.t.clock.set(NOW + timedelta(minutes=59, seconds=59))
    assert await jobs._expire(w.svc, x.id) is False
    assert w.state.sessions[x.id].state is S.RUNNING


async def test_no_budget_no_alert(w: SessionsWorld) -> None:
    assert await jobs.notify_budget_alerts(w.svc, Notices(), w.budgets, w.ledger) == 0


def test_any_gpu_data_judges_a_session_by_its_gpu() -> None:
    from domain.inventory.ports import UsageSample

    sid, settings = UUID(int=1), jobs.IdleSettings()

    def one(util: float, gpu_memory: int, cpu: int = 900) -> list[UsageSample]:
        return [UsageSample(sid, NOW, cpu, 10, util, gpu_memory)]

    # some GPU memory in use, or a trace of utilisation, is GPU data: judged by the GPU (idle), not the busy CPU
    assert jobs.is_idle(one(0.0, 1), settings) is True
    assert jobs.is_idle(one(0.5, 0), settings) is True
    assert jobs.is_idle(one(0.0, 10), settings) is True
    # no GPU data at all: judged by the CPU
    assert jobs.is_idle(one(0.0, 0), settings) is False
    assert jobs.is_idle(one(0.0, 0, cpu=99), settings) is True


async def test_forgetting_a_session_never_marked_idle_is_harmless() -> None:
    tracker = jobs.IdleTracker({UUID_1: NOW})
    await tracker.clear([UUID_2, UUID_1])
    assert tracker.idle_since == {}


async def test_idle_reclaim_judges_by_the_settings_it_is_given(w: SessionsWorld) -> None:
    from domain.policies.model import PolicyScope, ResourcePolicy
    from tests.unit.sessions.test_jobs_unit import Samples, quiet

    x: Any = await running(w)
    await w.policies.put(ResourcePolicy(PolicyScope.group(w.t.g1.id), idle_timeout_seconds=600))
    usage, tracker = Samples(), jobs.IdleTracker()
    lenient = jobs.IdleSettings(gpu_util_percent=30.0)
    usage.by_session[x.id] = quiet(x.id, NOW, 11, util=20.0)  # 20 %: idle only by the lenient threshold
    w.t.clock.set(NOW + timedelta(minutes=10))
    assert await jobs.reclaim_idle(w.svc, usage, tracker) == []
    assert await jobs.reclaim_idle(w.svc, usage, tracker, lenient) == [x.id]
