"""Idle reclaim, expiry and budget alerts, driven by advancing the frozen clock (no sleeping)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from uuid import UUID

from domain.catalog.model import GpuTier
from domain.common.money import cost_micro
from domain.credits.budgets import Budget, BudgetAction, BudgetScope, BudgetScopeKind
from domain.credits.model import Period
from domain.inventory.ports import UsageSample
from domain.policies.model import PolicyScope, PolicyScopeKind, ResourcePolicy
from domain.sessions import jobs
from domain.sessions import services as sessions
from domain.sessions.model import Expiry, SessionState
from infra.billing.notices import SqlNoticeBox
from tests.integration.billing.conftest import RATE_MICRO, Billed, ratio_of
from tests.integration.billing.support import assert_ledger_consistent


async def notes(b: Billed, user_id: UUID, kind: str) -> list[Any]:
    async with b.c.uow() as uow:
        found, _ = await uow.notifications.of_user(user_id, 0, 200)
    return [n for n in found if n.kind == kind]


async def feed(b: Billed, sid: UUID, seconds: int, *, gpu: float, cpu: int = 50, gpu_mem: int = 1024) -> None:
    """Per-second usage samples for the `seconds` before now."""
    now = b.clock.now()
    for i in range(seconds, 0, -1):
        await b.c.usage.append(UsageSample(sid, now - timedelta(seconds=i - 1), cpu, 2048, gpu, gpu_mem))


async def test_idle_gpu_sessions_are_paused_after_their_policy_timeout(billed: Billed) -> None:
    b, c = billed, billed.c
    idle_actor, busy_actor, cpu_actor = await b.user(20), await b.user(20), await b.user(20)
    for a in (idle_actor, busy_actor, cpu_actor):
        await c.credits.policies.put(
            ResourcePolicy(PolicyScope(PolicyScopeKind.USER, a.user_id), idle_timeout_seconds=600)
        )
    idle = await b.start(idle_actor, GpuTier.S)
    busy = await b.start(busy_actor, GpuTier.S)
    no_gpu_data = await b.start(cpu_actor, GpuTier.S)  # no GPU metrics: judged by CPU
    tracker = jobs.IdleTracker()
    settings = jobs.IdleSettings(gpu_util_percent=5, cpu_millicores=100, window_seconds=120)
    # 5 busy minutes for everyone, then the first goes quiet
    for _ in range(5):
        b.clock.advance(60)
        for s in (idle, busy):
            await feed(b, s.id, 60, gpu=60)
        await feed(b, no_gpu_data.id, 60, gpu=0, cpu=900, gpu_mem=0)
        assert await jobs.reclaim_idle(c.sessions, c.usage, tracker, settings) == []
    quiet_from = b.clock.now()
    paused_at = None
    for _ in range(15):
        b.clock.advance(60)
        await feed(b, idle.id, 60, gpu=1)
        await feed(b, busy.id, 60, gpu=40)
        await feed(b, no_gpu_data.id, 60, gpu=0, cpu=900, gpu_mem=0)
        paused = await jobs.reclaim_idle(c.sessions, c.usage, tracker, settings)
        if paused:
            assert paused == [idle.id]
            paused_at = b.clock.now()
            break
    assert paused_at is not None
    idle_for = (paused_at - quiet_from).total_seconds()
    assert 600 <= idle_for < 600 + 60 + 1, idle_for  # after the timeout, within one run
    s = await b.wait(idle.id, SessionState.PAUSED)
    assert s.placement is None
    assert len(await notes(b, idle_actor.user_id, "session_idle_paused")) == 1
    assert (await b.get(busy.id)).state == SessionState.RUNNING
    assert (await b.get(no_gpu_data.id)).state == SessionState.RUNNING
    for a, sess in ((busy_actor, busy), (cpu_actor, no_gpu_data), (idle_actor, idle)):
        await sessions.session_stop(c.sessions, a, sess.id)


async def test_expiry_warns_once_at_90_percent_then_expires_the_session(billed: Billed) -> None:
    b, c = billed, billed.c
    box = SqlNoticeBox(c.engine)
    actor = await b.user(20)
    s = await b.start(actor, GpuTier.L, expiry=Expiry.H1)
    b.clock.advance(timedelta(minutes=53))
    out = await jobs.expire_sessions(c.sessions, box)
    assert out.expired == () and not await notes(b, actor.user_id, "session_expiring")
    b.clock.advance(timedelta(minutes=1))  # 54 min = 90 % of the hour
    await jobs.expire_sessions(c.sessions, box)
    await jobs.expire_sessions(c.sessions, box)  # a repeated run tells nobody twice
    b.clock.advance(timedelta(minutes=3))
    await jobs.expire_sessions(c.sessions, box)
    assert len(await notes(b, actor.user_id, "session_expiring")) == 1
    await jobs.meter(c.sessions)
    b.clock.set(s.expires_at)
    out = await jobs.expire_sessions(c.sessions, box)
    assert out.expired == (s.id,)
    done = await b.get(s.id)
    assert done.state == SessionState.EXPIRED and done.placement is None
    assert done.billed_seconds == 3600
    assert done.charged_micro == cost_micro(RATE_MICRO, ratio_of(GpuTier.L), 3600)
    hold = await c.credits.ledger.get_hold(done.hold_id)
    assert hold.status.value == "settled" and hold.amount_micro == 0
    assert len(await notes(b, actor.user_id, "session_expired")) == 1
    assert (await jobs.expire_sessions(c.sessions, box)).expired == ()
    await assert_ledger_consistent(c.engine)


async def test_budget_alerts_go_out_once_per_threshold_and_period(billed: Billed) -> None:
    b, c = billed, billed.c
    box = SqlNoticeBox(c.engine)
    actor = await b.user(20)
    org_admin = b.world.users["org_admin"]
    per_hour = cost_micro(RATE_MICRO, ratio_of(GpuTier.XL), 3600)
    now = b.clock.now()
    await c.credits.budgets.put(
        Budget(
            c.ids.new_id(),
            BudgetScope(BudgetScopeKind.USER, actor.user_id),
            per_hour,  # a limit of one hour of this session
            BudgetAction.WARN,
            now,
            now,
            Period.DAILY,
            (50, 80, 100),
        )
    )
    s = await b.start(actor, GpuTier.XL)
    sent: list[int] = []
    for _ in range(7):  # 7 × 10 minutes: 50 % at 30 min, 80 % at 50 min, 100 % at 60 min
        b.clock.advance(timedelta(minutes=10))
        await jobs.meter(c.sessions)
        sent.append(await jobs.notify_budget_alerts(c.sessions, box, c.credits.budgets, c.credits.ledger))
    mine = await notes(b, actor.user_id, "budget_alert")
    assert sorted(int(n.message.split("%")[0].split()[-1]) for n in mine) == [50, 80, 100]
    assert len(await notes(b, org_admin, "budget_alert")) >= 3  # the scope's admins are told too
    assert sent[0] == 0 and sum(sent) >= 6
    await sessions.session_stop(c.sessions, actor, s.id)


async def test_idle_time_is_remembered_in_redis_across_a_worker_restart(billed: Billed, redis_url: str) -> None:
    """Issue 15: since when a session is idle lives in Redis, not in the worker process. A worker
    restarted half-way through the policy's timeout pauses the session at the timeout counted
    from the first idle sample, not a whole timeout after its restart."""
    from infra.usage import RedisIdleMarks

    b, c = billed, billed.c
    actor = await b.user(20)
    await c.credits.policies.put(
        ResourcePolicy(PolicyScope(PolicyScopeKind.USER, actor.user_id), idle_timeout_seconds=600)
    )
    s = await b.start(actor, GpuTier.S)
    settings = jobs.IdleSettings(gpu_util_percent=5, cpu_millicores=100, window_seconds=120)
    marks = RedisIdleMarks(redis_url)
    await marks.clear([s.id])
    quiet_from = b.clock.now()
    paused_at = None
    try:
        for minute in range(1, 16):
            b.clock.advance(60)
            await feed(b, s.id, 60, gpu=0.5)
            if minute == 5:  # the worker process is replaced: nothing of the old one is kept
                await marks.close()
                marks = RedisIdleMarks(redis_url)
            if await jobs.reclaim_idle(c.sessions, c.usage, marks, settings):
                paused_at = b.clock.now()
                break
        assert paused_at is not None
        idle_for = (paused_at - quiet_from).total_seconds()
        assert 600 <= idle_for < 600 + 60 + 1, idle_for
        assert s.id not in await marks.all()  # paused: its mark is gone
        await b.wait(s.id, SessionState.PAUSED)
    finally:
        await marks.clear([s.id])
        await marks.close()
        await sessions.session_stop(c.sessions, actor, s.id)
