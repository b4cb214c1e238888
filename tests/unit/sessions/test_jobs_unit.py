"""The sessions' periodic jobs on in-memory adapters: metering's pauses and warnings from the
billing lines, expiry (warn once at 90 %, then stop), idle reclaim, budget alerts once per
recipient and period."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from uuid import UUID

import pytest

from domain.credits import services as credits
from domain.credits.budgets import BudgetAction, BudgetScope, BudgetScopeKind
from domain.credits.model import AccountRef
from domain.inventory.ports import StatusReport, UsageSample, WorkloadPhase
from domain.policies.model import PolicyScope, ResourcePolicy, ScopeChain
from domain.sessions import jobs
from domain.sessions import services as s
from domain.sessions.model import Expiry, SessionState
from domain.sessions.ports import BillingLine, BillingResult, Notification
from tests.unit.sessions.world import SessionsWorld
from tests.unit.tenancy.world import NOW

S = SessionState


@pytest.fixture
async def w() -> SessionsWorld:
    return await SessionsWorld.build()


async def running(w: SessionsWorld, name: str = "nb", actor: str = "member", **kw: object) -> object:
    x = await s.session_create(w.svc, w.actor(actor), w.request(name=name, **kw))
    await s.handle_status_report(w.svc, "c1", StatusReport(x.id, WorkloadPhase.RUNNING, NOW))
    return w.state.sessions[x.id]


@dataclass
class Notices:
    stored: dict[UUID, Notification] = field(default_factory=dict)

    async def add_once(self, notifications: list[Notification]) -> list[Notification]:
        new = [n for n in notifications if n.id not in self.stored]
        self.stored.update({n.id: n for n in new})
        return new


class Scripted:
    """Billing answers set by the test: the tick's lines and the sweep's."""

    def __init__(self, tick: BillingResult, sweep: BillingResult | None = None) -> None:
        self.tick, self.sweep = tick, sweep or BillingResult(0, 0, 0)
        self.calls: list[tuple[object, bool]] = []

    async def bill(self, now: datetime, session_ids: object, *, close: bool) -> BillingResult:
        self.calls.append((session_ids, close))
        if session_ids is not None:
            return BillingResult(0, 0, 0)
        return self.sweep if close else self.tick


def line(sid: UUID, owner: UUID, **kw: object) -> BillingLine:
    args: dict[str, object] = dict(
        charged_micro=10,
        unpaid_micro=0,
        hold_micro=1_000_000,
        renewal_short_micro=0,
        first_shortfall=False,
        closed=False,
    )
    args.update(kw)
    return BillingLine(sid, owner, **args)  # type: ignore[arg-type]


async def test_metering_pauses_sessions_whose_hold_runs_out_and_warns_short_wallets_once(w: SessionsWorld) -> None:
    broke, short, fine = [await running(w, f"s{i}") for i in range(3)]
    owner = w.t.users["member"].id
    tick = BillingResult(
        3, 3, 30,
        (
            # short of the next window, and less left than a minute of a quarter card (15 000)
            line(broke.id, owner, hold_micro=100, renewal_short_micro=500_000),
            line(short.id, owner, renewal_short_micro=250_000, first_shortfall=True),
            line(fine.id, owner, renewal_short_micro=1),  # short again: told already
        ),
    )  # fmt: skip
    w.svc.billing = Scripted(tick, BillingResult(2, 0, 0))
    out = await jobs.meter(w.svc)
    assert (out.paused, out.warned) == ((broke.id,), (short.id,))
    assert w.state.sessions[broke.id].state is S.PAUSING and w.state.sessions[short.id].state is S.RUNNING
    assert out.summary() == (
        "3 running session(s) billed, 3 charge(s), 0.00003 credits; 2 lost settlement(s) closed; "
        "1 wallet(s) short of the next hold window; 1 session(s) paused, their hold ran out"
    )
    notes = sorted((n.kind, n.message) for n in w.state.notifications.values())
    assert notes == [
        (
            "credits_low",
            "your wallet cannot reserve the next hour of session s1 (0.25 credits short); it will be paused when its hold runs out",
        ),
        ("session_paused_credits", "session s0 was paused: your credits ran out (resume it after a top-up)"),
    ]
    (entry,) = [e for e in w.state.audit if e.operation == "sessionPause"]
    assert (entry.actor_username, entry.success, entry.target_id, entry.details) == (
        "gshare-system", True, str(broke.id), {"reason": "credits_exhausted", "holdMicro": "100", "unpaidMicro": "0"},
    )  # fmt: skip
    assert f"wallet:{owner}" in [t for t, _ in w.state.events]


async def test_a_quiet_tick_changes_nothing() -> None:
    w = await SessionsWorld.build()
    x = await running(w)
    w.svc.billing = Scripted(BillingResult(1, 0, 0, (line(x.id, x.owner_id, unpaid_micro=0),)))  # type: ignore[attr-defined]
    out = await jobs.meter(w.svc)
    assert (out.paused, out.warned, out.summary()) == ((), (), "1 running session(s) billed, 0 charge(s), 0 credits")
    assert w.state.notifications == {} and w.state.sessions[x.id].state is S.RUNNING  # type: ignore[attr-defined]
    unpaid = Scripted(BillingResult(1, 1, 5, (line(x.id, x.owner_id, unpaid_micro=1),)))  # type: ignore[attr-defined]
    w.svc.billing = unpaid
    assert (await jobs.meter(w.svc)).paused == (x.id,)  # type: ignore[attr-defined]  # something unpaid already


def test_a_hold_runs_out_when_it_cannot_pay_the_next_tick() -> None:
    from tests.unit.sessions.test_remaining_time import session

    cpu = session(S.RUNNING)
    assert jobs.hold_runs_out(cpu, 0, 0, 60) is False
    assert jobs.notice_id("k", UUID(int=1)) == jobs.notice_id("k", UUID(int=1)) != jobs.notice_id("k", UUID(int=2))


async def test_expiry_warns_once_at_90_percent_then_stops_the_session(w: SessionsWorld) -> None:
    x = await running(w, expiry=Expiry.H1)
    notices = Notices()
    w.t.clock.set(NOW + timedelta(minutes=53))
    assert await jobs.expire_sessions(w.svc, notices) == jobs.ExpiryOutcome(0, ())
    w.t.clock.set(NOW + timedelta(minutes=54, seconds=30))
    assert await jobs.expire_sessions(w.svc, notices) == jobs.ExpiryOutcome(1, ())
    (warning,) = notices.stored.values()
    assert (warning.kind, warning.message) == (
        "session_expiring", "session nb expires in 5 min, at 2026-02-01 01:00 UTC (extend it to keep it)",
    )  # fmt: skip
    assert await jobs.expire_sessions(w.svc, notices) == jobs.ExpiryOutcome(0, ())  # told once
    w.t.clock.set(NOW + timedelta(hours=1))
    assert await jobs.expire_sessions(w.svc, notices) == jobs.ExpiryOutcome(0, (x.id,))  # type: ignore[attr-defined]
    gone = w.state.sessions[x.id]  # type: ignore[attr-defined]
    assert (gone.state, gone.state_reason, gone.placement) == (S.EXPIRED, "expired", None)
    assert w.cluster.deleted == [x.id] and w.state.capacity.allocations == []  # type: ignore[attr-defined]
    (entry,) = [e for e in w.state.audit if e.operation == "sessionExpire"]
    assert entry.details == {"reason": "expired", "expiresAt": (NOW + timedelta(hours=1)).isoformat()}
    assert [n.message for n in w.state.notifications.values() if n.kind == "session_expired"] == [
        "session nb expired and was stopped; volumes are kept"
    ]
    assert await jobs.expire_sessions(w.svc, notices) == jobs.ExpiryOutcome(0, ())


class Samples:
    def __init__(self) -> None:
        self.by_session: dict[UUID, list[UsageSample]] = {}

    async def recent(self, session_id: UUID, seconds: int = 300) -> list[UsageSample]:
        return self.by_session.get(session_id, [])


def quiet(sid: UUID, start: datetime, n: int, util: float = 0.0, mem: int = 10) -> list[UsageSample]:
    return [UsageSample(sid, start + timedelta(seconds=60 * i), 50, 100, util, mem) for i in range(n)]


async def test_idle_gpu_sessions_are_paused_after_their_policy_timeout(w: SessionsWorld) -> None:
    x = await running(w)
    busy = await running(w, "busy")
    await w.policies.put(ResourcePolicy(PolicyScope.group(w.t.g1.id), idle_timeout_seconds=600))
    usage, tracker = Samples(), jobs.IdleTracker()
    usage.by_session[x.id] = quiet(x.id, NOW, 5)  # type: ignore[attr-defined]
    usage.by_session[busy.id] = quiet(busy.id, NOW, 5, util=50.0)  # type: ignore[attr-defined]
    w.t.clock.set(NOW + timedelta(minutes=5))
    assert await jobs.reclaim_idle(w.svc, usage, tracker) == []
    assert tracker.idle_since == {x.id: NOW}  # type: ignore[attr-defined]
    w.t.clock.set(NOW + timedelta(minutes=10))
    usage.by_session[x.id] = quiet(x.id, NOW + timedelta(minutes=6), 5)  # type: ignore[attr-defined]
    assert await jobs.reclaim_idle(w.svc, usage, tracker) == [x.id]  # type: ignore[attr-defined]
    assert w.state.sessions[x.id].state is S.PAUSING and tracker.idle_since == {}  # type: ignore[attr-defined]
    assert [n.message for n in w.state.notifications.values() if n.kind == "session_idle_paused"] == [
        "session nb was paused after 10 min without GPU use; its settings and volumes are kept"
    ]
    (entry,) = [e for e in w.state.audit if e.operation == "sessionPause"]
    assert entry.details == {
        "reason": "idle",
        "idleSince": NOW.isoformat(),
        "idleTimeoutSeconds": "600",
        "cardEquivalents": "0.25",  # the preset's quarter card
        "expiresAt": (NOW + timedelta(hours=1)).isoformat(),
    }
    assert w.state.sessions[busy.id].state is S.RUNNING  # type: ignore[attr-defined]


async def test_cpu_only_sessions_are_judged_by_cpu_and_reported_without_data_too(w: SessionsWorld) -> None:
    idle = await running(w, "cpu-idle", preset="cpu", offering_id=None)
    busy = await running(w, "cpu-busy", preset="cpu", offering_id=None)
    silent = await running(w, "cpu-silent", preset="cpu", offering_id=None)
    assert idle.gpu is None  # type: ignore[attr-defined]
    await w.policies.put(ResourcePolicy(PolicyScope.group(w.t.g1.id), idle_timeout_seconds=600))
    usage, tracker, notices = Samples(), jobs.IdleTracker(), Notices()
    usage.by_session[idle.id] = quiet(idle.id, NOW, 5, mem=0)  # type: ignore[attr-defined]
    usage.by_session[busy.id] = [  # type: ignore[attr-defined]
        UsageSample(busy.id, NOW + timedelta(minutes=i), 900, 100, 0.0, 0)  # type: ignore[attr-defined]
        for i in range(5)
    ]
    w.t.clock.set(NOW + timedelta(minutes=5))
    await jobs.idle_reclaim(w.svc, usage, tracker, jobs.IdleSettings(), notices)
    assert set(tracker.idle_since) == {idle.id}  # type: ignore[attr-defined]
    w.t.clock.set(NOW + timedelta(minutes=11))
    usage.by_session[idle.id] = quiet(idle.id, NOW + timedelta(minutes=7), 5, mem=0)  # type: ignore[attr-defined]
    usage.by_session[busy.id] = [  # type: ignore[attr-defined]
        UsageSample(busy.id, NOW + timedelta(minutes=7 + i), 900, 100, 0.0, 0)  # type: ignore[attr-defined]
        for i in range(5)
    ]
    outcome = await jobs.idle_reclaim(w.svc, usage, tracker, jobs.IdleSettings(), notices)
    assert outcome.paused == (idle.id,) and outcome.no_data == (silent.id,)  # type: ignore[attr-defined]
    assert w.state.sessions[busy.id].state is S.RUNNING  # type: ignore[attr-defined]
    assert [n.message for n in w.state.notifications.values() if n.kind == "session_idle_paused"] == [
        "session cpu-idle was paused after 10 min without CPU use; its settings and volumes are kept"
    ]
    (entry,) = [e for e in w.state.audit if e.operation == "sessionPause"]
    assert "cardEquivalents" not in entry.details  # it gave back no GPU


async def test_the_owner_is_warned_once_before_the_idle_pause(w: SessionsWorld) -> None:
    x = await running(w)
    await w.policies.put(ResourcePolicy(PolicyScope.group(w.t.g1.id), idle_timeout_seconds=1200))
    usage, tracker, notices = Samples(), jobs.IdleTracker(), Notices()
    settings = jobs.IdleSettings(warning_seconds=300)
    sid = x.id  # type: ignore[attr-defined]

    async def at(minutes: int) -> jobs.IdleOutcome:
        w.t.clock.set(NOW + timedelta(minutes=minutes))
        usage.by_session[sid] = quiet(sid, NOW + timedelta(minutes=minutes - 4), 5)
        return await jobs.idle_reclaim(w.svc, usage, tracker, settings, notices)

    assert await at(5) == jobs.IdleOutcome()  # idle since 00:01: 4 min of 20
    assert await at(14) == jobs.IdleOutcome()  # 13 min: not yet in the last 5
    assert await at(16) == jobs.IdleOutcome(warned=1)  # 15 min idle: 5 to go
    (warning,) = notices.stored.values()
    assert (warning.kind, warning.user_id, warning.session_id, warning.message) == (
        "session_idle_warning",
        x.owner_id,  # type: ignore[attr-defined]
        sid,
        "session nb has not used its GPU since 00:01 UTC and will be paused in 5 min, at 00:21 UTC, unless it does",
    )
    assert await at(18) == jobs.IdleOutcome()  # told once
    assert await at(21) == jobs.IdleOutcome(paused=(sid,))
    assert [n.kind for n in notices.stored.values()] == ["session_idle_warning"]
    assert [n.kind for n in w.state.notifications.values()] == ["session_idle_paused"]


async def test_a_running_session_without_samples_is_reported_as_no_data_not_idle(w: SessionsWorld) -> None:
    x = await running(w)
    await w.policies.put(ResourcePolicy(PolicyScope.group(w.t.g1.id), idle_timeout_seconds=600))
    usage, tracker, notices = Samples(), jobs.IdleTracker(), Notices()
    sid = x.id  # type: ignore[attr-defined]
    w.t.clock.set(NOW + timedelta(minutes=9))
    assert await jobs.idle_reclaim(w.svc, usage, tracker, jobs.IdleSettings(), notices) == jobs.IdleOutcome()
    w.t.clock.set(NOW + timedelta(minutes=11))  # running 11 min, not one sample: no data
    outcome = await jobs.idle_reclaim(w.svc, usage, tracker, jobs.IdleSettings(), notices)
    assert outcome == jobs.IdleOutcome(no_data=(sid,))
    assert outcome.summary() == "0 idle session(s) paused, 0 warned, 1 without usage data (not judged idle)"
    (note,) = notices.stored.values()
    assert (note.kind, note.session_id) == ("session_usage_no_data", sid)
    assert note.message == (
        "session nb has reported no usage for over 10 min, so it is not judged idle "
        "(the cluster's node agent or Prometheus sends nothing for it)"
    )
    # samples that stopped 6 minutes ago are no data too; the owner was told once
    w.t.clock.set(NOW + timedelta(minutes=30))
    usage.by_session[sid] = quiet(sid, NOW + timedelta(minutes=20), 5)
    assert (await jobs.idle_reclaim(w.svc, usage, tracker, jobs.IdleSettings(), notices)).no_data == (sid,)
    assert len(notices.stored) == 1 and w.state.sessions[sid].state is S.RUNNING
    # fresh samples: judged again (busy here)
    usage.by_session[sid] = quiet(sid, NOW + timedelta(minutes=26), 5, util=80.0)
    assert await jobs.idle_reclaim(w.svc, usage, tracker, jobs.IdleSettings(), notices) == jobs.IdleOutcome()


async def test_the_admin_sees_the_gpu_hours_idle_reclaim_returned(w: SessionsWorld) -> None:
    from domain.audit.model import AuditEntry

    x = await running(w, expiry=Expiry.H4)
    sid = x.id  # type: ignore[attr-defined]
    cards = float(x.gpu.ratio)  # type: ignore[attr-defined]
    await w.policies.put(ResourcePolicy(PolicyScope.group(w.t.g1.id), idle_timeout_seconds=600))
    usage, tracker = Samples(), jobs.IdleTracker()
    usage.by_session[sid] = quiet(sid, NOW, 5)
    w.t.clock.set(NOW + timedelta(minutes=5))
    await jobs.reclaim_idle(w.svc, usage, tracker)
    w.t.clock.set(NOW + timedelta(minutes=10))
    usage.by_session[sid] = quiet(sid, NOW + timedelta(minutes=6), 5)
    assert await jobs.reclaim_idle(w.svc, usage, tracker) == [sid]
    (pause,) = [e for e in w.state.audit if e.operation == "sessionPause"]
    assert pause.details["cardEquivalents"] == f"{cards:g}"
    assert pause.details["expiresAt"] == (NOW + timedelta(hours=4)).isoformat()

    async def report(actor: str, hours: float = 1.0) -> jobs.IdleReclaimReport:
        async with w.svc.uow() as uow:
            return await jobs.idle_reclaim_report(uow.audit, w.actor(actor), NOW, pause.at + timedelta(hours=hours))

    # paused since: one hour of its cards given back
    assert (await report("orgadmin")).paused_sessions == 1
    assert (await report("orgadmin")).gpu_hours_returned == round(cards, 3)
    # never past its expiry (it would have ended there)
    assert (await report("orgadmin", hours=10)).gpu_hours_returned == round(cards * (4 - 10 / 60), 3)
    # resumed after 30 minutes: half an hour
    w.state.audit.append(
        AuditEntry(
            w.svc.ids.new_id(), pause.at + timedelta(minutes=30), x.owner_id, "member", "sessionResume",  # type: ignore[attr-defined]
            "Session", str(sid), True, "OK", 5, pause.organization_id, pause.group_id,
        )
    )  # fmt: skip
    assert (await report("orgadmin")).gpu_hours_returned == round(cards / 2, 3)
    assert (await report("member")) == jobs.IdleReclaimReport(NOW, pause.at + timedelta(hours=1), 0, 0.0)


def test_what_counts_as_no_data() -> None:
    sid, settings = UUID(int=1), jobs.IdleSettings(window_seconds=300, no_data_seconds=600)
    now = NOW + timedelta(hours=1)
    assert jobs.has_no_data([], now, now - timedelta(seconds=599), settings) is False  # not long enough
    assert jobs.has_no_data([], now, now - timedelta(seconds=600), settings) is True
    assert jobs.has_no_data(quiet(sid, now - timedelta(seconds=301), 1), now, NOW, settings) is True
    assert jobs.has_no_data(quiet(sid, now - timedelta(seconds=300), 1), now, NOW, settings) is False


def test_what_counts_as_idle() -> None:
    sid, t0 = UUID(int=1), NOW
    settings = jobs.IdleSettings()
    assert jobs.is_idle([], settings) is False
    assert jobs.is_idle(quiet(sid, t0, 3, util=4.9), settings) is True
    assert jobs.is_idle(quiet(sid, t0, 3, util=5.0), settings) is False
    # a CPU-only session is judged by its CPU whatever its samples say of a GPU
    assert jobs.is_idle(quiet(sid, t0, 3, util=80.0), settings, cpu_only=True) is True
    assert jobs.is_idle([UsageSample(sid, t0, 900, 100, 0.0, 0)], settings, cpu_only=True) is False
    no_gpu = [UsageSample(sid, t0, 99, 10, 0.0, 0)]
    assert jobs.is_idle(no_gpu, settings) is True
    assert jobs.is_idle([UsageSample(sid, t0, 100, 10, 0.0, 0)], settings) is False


async def test_budget_alerts_go_once_to_the_scopes_admins(w: SessionsWorld) -> None:
    scope = BudgetScope(BudgetScopeKind.GROUP, w.t.g1.id)
    await credits.set_budget(
        w.t.root,
        w.budgets,
        w.directory,
        w.t.clock,
        w.t.ids,
        scope=scope,
        limit_micro=1_000_000,
        action=BudgetAction.WARN,
    )
    await credits.charge_wallet(
        w.ledger, w.t.clock, w.t.ids, wallet=AccountRef.user(w.t.users["member"].id),
        chain=ScopeChain(w.t.users["member"].id, w.t.g1.id, w.t.org_a.id), amount_micro=900_000,
        idempotency_key="spend",
    )  # fmt: skip
    notices = Notices()
    sent = await jobs.notify_budget_alerts(w.svc, notices, w.budgets, w.ledger)
    admins = sorted([w.t.users["gadmin"].id, w.t.users["orgadmin"].id])
    got = sorted((n.user_id, n.message.split(":")[0]) for n in notices.stored.values())
    # 0.9 of 1 credit spent: the 50 % and 80 % thresholds, each to both admins of the group
    assert sent == 4 and got == sorted((u, f"budget alert, {p}% reached") for u in admins for p in (50, 80))
    assert await jobs.notify_budget_alerts(w.svc, notices, w.budgets, w.ledger) == 0
