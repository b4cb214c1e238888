"""Every state a session reaches carries its reason as a code and the code's parameters by name
(what an API client says in its own language), beside the English reason: on in-memory
adapters, one step at a time."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from domain.inventory.ports import WorkloadPhase
from domain.policies.model import PolicyScope, ResourcePolicy
from domain.sessions import services as s
from domain.sessions.model import SessionKind, SessionState
from tests.support.memory_sessions import SessionsUnitOfWork
from tests.unit.sessions.test_lifecycle_unit import lost, report, running
from tests.unit.sessions.world import SessionsWorld

S = SessionState
P = WorkloadPhase


@pytest.fixture
async def w() -> SessionsWorld:
    return await SessionsWorld.build()


def code(x: Any) -> tuple[str, str, dict[str, str]]:
    return (x.state.value, x.state_reason_code, dict(x.state_reason_params))


async def test_a_session_from_placement_to_its_stop(w: SessionsWorld) -> None:
    x = await s.session_create(w.svc, w.actor("member"), w.request())
    assert code(x) == ("SCHEDULED", "PLACED", {"node": "hami-1"})
    starting = await s.handle_status_report(w.svc, "c1", report(x.id, P.STARTING, 1))
    assert code(starting) == ("STARTING", "STARTING", {})
    up = await s.handle_status_report(w.svc, "c1", report(x.id, P.RUNNING, 2))
    assert code(up) == ("RUNNING", "RUNNING", {})
    assert code(await s.session_pause(w.svc, w.actor("member"), x.id)) == ("PAUSING", "PAUSING", {})
    paused = await s.handle_status_report(w.svc, "c1", report(x.id, P.STOPPED, 3))
    assert code(paused) == ("PAUSED", "PAUSED", {})
    await s.session_resume(w.svc, w.actor("member"), x.id)
    await s.handle_status_report(w.svc, "c1", report(x.id, P.RUNNING, 4))
    ended = await s.handle_status_report(w.svc, "c1", report(x.id, P.STOPPED, 5))
    assert code(ended) == ("STOPPED", "WORKLOAD_STOPPED", {})


async def test_waiting_and_stopping_without_a_pod(w: SessionsWorld) -> None:
    for name in ("a", "b"):
        await s.session_create(w.svc, w.actor("member"), w.request("whole", name=name))
    waiting = await s.session_create(w.svc, w.actor("member"), w.request("whole", name="waiting"))
    assert code(waiting) == (
        "QUEUED",
        "WAITING_FOR_CAPACITY",
        {"shortfall": "GPU_TAKEN", "model": "A100-80GB", "cards": "1"},
    )  # the shortfall by name
    paused = await s.session_pause(w.svc, w.actor("member"), waiting.id)
    assert code(paused) == ("PAUSED", "PAUSED_WHILE_WAITING", {})
    await w.policies.put(ResourcePolicy(PolicyScope.group(w.t.g1.id), allowed_clusters=frozenset({"c2"})))
    again = await s.session_resume(w.svc, w.actor("member"), waiting.id)
    assert code(again) == (
        "QUEUED",
        "WAITING_FOR_CAPACITY",
        {"shortfall": "GPU_TAKEN", "model": "A100-80GB", "cards": "1"},
    )
    stopped = await s.session_stop(w.svc, w.actor("member"), waiting.id)
    assert code(stopped) == ("STOPPED", "STOPPED", {})


async def test_approval_rejection_and_a_failed_hand_off(w: SessionsWorld) -> None:
    await w.policies.put(ResourcePolicy(PolicyScope.user(w.t.users["member"].id), approval_required=True))
    pending = await s.session_create(w.svc, w.actor("member"), w.request())
    assert code(pending) == ("PENDING_APPROVAL", "WAITING_FOR_APPROVAL", {})
    rejected = await s.session_reject(w.svc, w.actor("gadmin"), pending.id, reason=" not  now ")
    assert code(rejected) == ("REJECTED", "REJECTED", {"reason": "not now"})
    other = await s.session_create(w.svc, w.actor("member"), w.request(name="other"))
    await w.policies.put(ResourcePolicy(PolicyScope.group(w.t.g1.id), allowed_clusters=frozenset({"c2"})))
    approved = await s.session_approve(w.svc, w.actor("gadmin"), other.id)
    assert code(approved) == (
        "QUEUED",
        "APPROVED_WAITING_FOR_CAPACITY",
        {"shortfall": "GPU_TAKEN", "model": "A100-80GB"},
    )
    w.cluster.fail_apply = RuntimeError("refused")
    await w.policies.put(ResourcePolicy(PolicyScope.group(w.t.g1.id)))
    await w.policies.put(ResourcePolicy(PolicyScope.user(w.t.users["member"].id)))
    failed = await s.session_create(w.svc, w.actor("member"), w.request(name="failed"))
    assert code(w.state.sessions[failed.id]) == ("FAILED", "HANDOFF_FAILED", {})


async def test_how_a_workload_ends(w: SessionsWorld) -> None:
    job = await s.session_create(w.svc, w.actor("member"), w.request("whole", kind=SessionKind.JOB, name="j"))
    await s.handle_status_report(w.svc, "c1", report(job.id, P.RUNNING, 1))
    done = await s.handle_status_report(w.svc, "c1", report(job.id, P.SUCCEEDED, 2))
    assert code(done) == ("SUCCEEDED", "COMPLETED", {})
    job2 = await s.session_create(w.svc, w.actor("member"), w.request("whole", kind=SessionKind.JOB, name="j2"))
    await s.handle_status_report(w.svc, "c1", report(job2.id, P.RUNNING, 3))
    stopped = await s.handle_status_report(w.svc, "c1", report(job2.id, P.STOPPED, 4))
    assert code(stopped) == ("STOPPED", "COMPLETED", {})
    x: Any = await running(w)
    failed = await s.handle_status_report(w.svc, "c1", report(x.id, P.FAILED, 5, message="OOMKilled"))
    assert code(failed) == ("FAILED", "WORKLOAD_FAILED", {})


async def test_a_lost_place_says_how_it_was_lost(w: SessionsWorld) -> None:
    x: Any = await running(w)
    node_lost = await s.handle_status_report(w.svc, "c1", lost(x.id, 5))
    assert code(node_lost) == ("QUEUED", "NODE_LOST", {"node": "hami-1"})
    for reason, want in [("Evicted", "EVICTED"), ("PodLost", "POD_VANISHED")]:
        await w.report_nodes(ready="hami-1")
        y: Any = await running(w, name=reason)
        # its node takes no new work (cordoned by hand): the session waits, saying why
        nodes = [replace(n, schedulable=n.id != "hami-1") for n in w.state.capacity.nodes.values()]
        await SessionsUnitOfWork(w.state).capacity.replace_nodes("c1", nodes)
        back = await s.handle_status_report(w.svc, "c1", lost(y.id, 9, reason=reason))
        assert code(back) == ("QUEUED", want, {})


async def test_a_preempted_sessions_pod_gone_and_an_expiry(w: SessionsWorld) -> None:
    from datetime import timedelta

    from domain.sessions import jobs
    from domain.sessions.model import Expiry
    from tests.unit.sessions.test_jobs_unit import Notices
    from tests.unit.tenancy.world import NOW

    x: Any = await running(w)
    w.state.sessions[x.id] = replace(w.state.sessions[x.id], state=S.PREEMPTED, placement=None)
    back = await s.handle_status_report(w.svc, "c1", report(x.id, P.STOPPED, 5))
    assert code(back) == ("QUEUED", "PREEMPTED_REQUEUED", {})
    y: Any = await running(w, name="y", expiry=Expiry.H1)
    w.t.clock.set(NOW + timedelta(hours=2))
    await jobs.expire_sessions(w.svc, Notices())
    assert code(w.state.sessions[y.id]) == ("EXPIRED", "EXPIRED", {})
