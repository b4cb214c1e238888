"""What the workers do to sessions on their own is in the audit log, under the system actor:
the pause of an idle session, the pause of a session whose hold ran out, the stop at expiry.
Each is written once: a repeated run that finds nothing to do writes nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from uuid import UUID

from domain.audit.model import AuditEntry, AuditFilter, AuditVisibility
from domain.catalog.model import GpuTier
from domain.policies.model import PolicyScope, PolicyScopeKind, ResourcePolicy
from domain.sessions import jobs
from domain.sessions import services as sessions
from domain.sessions.model import Expiry, SessionState
from infra.billing.notices import SqlNoticeBox
from tests.integration.billing.conftest import Billed
from tests.integration.billing.test_jobs import feed
from tests.support.api import fund_user


async def entries_about(b: Billed, sid: UUID) -> list[AuditEntry]:
    async with b.c.uow() as uow:
        found, _ = await uow.audit.query(AuditVisibility(everything=True), AuditFilter(target_id=str(sid)), 0, 50)
    return found


def assert_system_entry(entry: AuditEntry, operation: str, s: Any, reason: str) -> None:
    assert entry.operation == operation
    assert entry.success and entry.result_code == "OK"
    assert entry.actor_user_id == jobs.SYSTEM_ACTOR.user_id
    assert entry.actor_username == jobs.SYSTEM_ACTOR.username == "gshare-system"
    assert (entry.target_type, entry.target_id) == ("Session", str(s.id))
    # in the session's scope, so the admins who may see the session see the entry
    assert (entry.organization_id, entry.group_id) == (s.organization_id, s.group_id)
    assert entry.details["reason"] == reason


async def test_an_idle_reclaim_pause_is_audited_under_the_system_actor(billed: Billed) -> None:
    b, c = billed, billed.c
    actor = await b.user(20)
    await c.credits.policies.put(
        ResourcePolicy(PolicyScope(PolicyScopeKind.USER, actor.user_id), idle_timeout_seconds=300)
    )
    s = await b.start(actor, GpuTier.S)
    tracker = jobs.IdleTracker()
    settings = jobs.IdleSettings(gpu_util_percent=5, cpu_millicores=100, window_seconds=120)
    paused: list[UUID] = []
    for _ in range(10):
        b.clock.advance(60)
        await feed(b, s.id, 60, gpu=1)
        paused = await jobs.reclaim_idle(c.sessions, c.usage, tracker, settings)
        if paused:
            break
    assert paused == [s.id]
    await b.wait(s.id, SessionState.PAUSED)
    [entry] = await entries_about(b, s.id)
    assert_system_entry(entry, "sessionPause", s, "idle")
    assert entry.details["idleTimeoutSeconds"] == "300"
    assert await jobs.reclaim_idle(c.sessions, c.usage, tracker, settings) == []  # nothing more to do
    assert len(await entries_about(b, s.id)) == 1
    cards = float(s.gpu.ratio)  # type: ignore[union-attr]
    assert entry.details["cardEquivalents"] == f"{cards:g}"

    # the admin's report, from the SQL audit log: resumed (through the API, audited) 30 min later
    async with c.uow() as uow:
        await uow.audit.append(
            AuditEntry(
                c.ids.new_id(), entry.at + timedelta(minutes=30), actor.user_id, actor.username, "sessionResume",
                "Session", str(s.id), True, "OK", 7, s.organization_id, s.group_id,
            )
        )  # fmt: skip
        await uow.commit()
    admin = jobs.SYSTEM_ACTOR  # a super admin reads every scope
    # the window opens at this pause: the billing database is shared by the session's tests, and
    # others (in any order) paused idle sessions earlier on the same frozen clock
    async with c.uow() as uow:
        report = await jobs.idle_reclaim_report(uow.audit, admin, entry.at, entry.at + timedelta(hours=2))
        mine = await jobs.idle_reclaim_report(uow.audit, actor, entry.at, entry.at + timedelta(hours=2))
    assert (report.paused_sessions, report.gpu_hours_returned) == (1, round(cards / 2, 3))
    assert (mine.paused_sessions, mine.gpu_hours_returned) == (0, 0.0)  # a member administers nothing
    await sessions.session_stop(c.sessions, actor, s.id)
    await b.wait(s.id, SessionState.STOPPED)


async def test_a_pause_when_the_hold_runs_out_is_audited_under_the_system_actor(billed: Billed) -> None:
    b, c = billed, billed.c
    actor = await b.user(0)
    await fund_user(c, b.world.org_a, b.world.g1, actor.user_id, 1)  # two hours of half a card
    s = await b.start(actor, GpuTier.XL, expiry=Expiry.D1)
    out = None
    for _ in range(10):
        b.clock.advance(1800)
        out = await jobs.meter(c.sessions)
        if out.paused:
            break
    assert out is not None and out.paused == (s.id,)
    await b.wait(s.id, SessionState.PAUSED)
    [entry] = await entries_about(b, s.id)
    assert_system_entry(entry, "sessionPause", s, "credits_exhausted")
    assert {"holdMicro", "unpaidMicro"} <= set(entry.details)
    await jobs.meter(c.sessions)  # paused: not billed, nothing to do
    assert len(await entries_about(b, s.id)) == 1
    await sessions.session_stop(c.sessions, actor, s.id)
    await b.wait(s.id, SessionState.STOPPED)


async def test_the_stop_at_expiry_is_audited_under_the_system_actor(billed: Billed) -> None:
    b, c = billed, billed.c
    box = SqlNoticeBox(c.engine)
    actor = await b.user(20)
    s = await b.start(actor, GpuTier.M, expiry=Expiry.H1)
    b.clock.advance(timedelta(minutes=30))
    await jobs.expire_sessions(c.sessions, box)
    assert await entries_about(b, s.id) == []  # a warning is not a change
    b.clock.set(s.expires_at)
    assert (await jobs.expire_sessions(c.sessions, box)).expired == (s.id,)
    assert (await b.get(s.id)).state == SessionState.EXPIRED
    [entry] = await entries_about(b, s.id)
    assert_system_entry(entry, "sessionExpire", s, "expired")
    assert entry.details["expiresAt"] == s.expires_at.isoformat()
    assert (await jobs.expire_sessions(c.sessions, box)).expired == ()
    assert len(await entries_about(b, s.id)) == 1
