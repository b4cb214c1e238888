"""Session lifecycle on in-memory adapters, to the letter: what an approver's GPU kind makes
of the ask, the bounds of a rejection's reason and of an extension, how a job ends (its exit
code and log tail), and what a relocated session's owner and the live views are told."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from fractions import Fraction
from typing import Any

import pytest

from domain.inventory.model import GpuKind
from domain.inventory.ports import StatusReport, WorkloadPhase
from domain.policies.model import PolicyScope, ResourcePolicy
from domain.sessions import services as s
from domain.sessions.model import Expiry, JobRun, SessionKind, SessionState
from tests.unit.sessions.test_lifecycle_unit import lost, refusal, report, running
from tests.unit.sessions.world import SessionsWorld
from tests.unit.tenancy.world import NOW

S = SessionState


@pytest.fixture
async def w() -> SessionsWorld:
    return await SessionsWorld.build()


async def _pending(w: SessionsWorld, name: str = "nb", preset: str = "L") -> Any:
    await w.policies.put(ResourcePolicy(PolicyScope.user(w.t.users["member"].id), approval_required=True))
    return await s.session_create(w.svc, w.actor("member"), w.request(preset, name=name))


async def test_an_approver_assigning_a_kind_changes_the_ask_as_that_kind_counts(w: SessionsWorld) -> None:
    shared = await _pending(w, "shared")
    got = await s.session_approve(w.svc, w.actor("gadmin"), shared.id, gpu_kind=GpuKind.SHARED)
    assert got.gpu is not None
    assert (got.gpu.forced_kind, got.gpu.exclusive, got.gpu.shared, got.gpu.cards, got.gpu.ratio) == (
        "shared", False, True, 1, Fraction(1, 4),
    )  # fmt: skip
    # no time-sliced card here: approved, and waiting in words
    assert got.state is S.QUEUED and got.state_reason.startswith("approved; waiting for capacity: ")
    hami = await _pending(w, "hami")
    w.state.events.clear()
    placed = await s.session_approve(w.svc, w.actor("gadmin"), hami.id, gpu_kind=GpuKind.HAMI)
    assert placed.gpu is not None and (placed.gpu.shared, placed.gpu.exclusive, placed.gpu.ratio) == (
        False, False, Fraction(1, 4),
    )  # fmt: skip
    assert placed.state is S.SCHEDULED and placed.placement is not None and placed.placement["node_id"] == "hami-1"
    assert ("capacity", {"reason": "approval"}) in w.state.events
    whole = await _pending(w, "whole")
    excl = await s.session_approve(w.svc, w.actor("gadmin"), whole.id, gpu_kind=GpuKind.EXCLUSIVE)
    assert excl.gpu is not None and (excl.gpu.cards, excl.gpu.ratio) == (1, Fraction(1))  # a whole card is billed


async def test_an_approval_places_only_on_the_clusters_the_scope_allows(w: SessionsWorld) -> None:
    pending = await _pending(w)
    await w.policies.put(ResourcePolicy(PolicyScope.group(w.t.g1.id), allowed_clusters=frozenset({"c2"})))
    got = await s.session_approve(w.svc, w.actor("gadmin"), pending.id)
    assert (got.state, got.placement) == (S.QUEUED, None)


async def test_a_rejection_gives_its_reason_of_at_most_500_characters_to_the_owner(w: SessionsWorld) -> None:
    pending = await _pending(w)
    assert await refusal(s.session_reject(w.svc, w.actor("gadmin"), pending.id, reason="x" * 501)) == (
        "INVALID_VALUE", "reason", "reason must be at most 500 characters",
    )  # fmt: skip
    got = await s.session_reject(w.svc, w.actor("gadmin"), pending.id, reason="y" * 500)
    assert got.state_reason == "y" * 500
    (note,) = [n for n in w.state.notifications.values() if n.kind == "session_rejected"]
    assert note.session_id == pending.id and note.user_id == pending.owner_id


async def test_an_extension_may_reach_the_policys_limit_exactly(w: SessionsWorld) -> None:
    x: Any = await running(w)
    await w.policies.put(ResourcePolicy(PolicyScope.group(w.t.g1.id), max_session_seconds=7200))
    w.t.clock.advance(3600)
    got = await s.session_extend(w.svc, w.actor("member"), x.id, Expiry.H1)
    assert got.expires_at == NOW + timedelta(seconds=7200) == x.created_at + timedelta(seconds=7200)


def ended(sid: Any, phase: WorkloadPhase, at_s: float, **kw: object) -> StatusReport:
    return report(sid, phase, at_s, **kw)


async def _job(w: SessionsWorld, name: str) -> Any:
    job = await s.session_create(
        w.svc, w.actor("member"), w.request("whole", kind=SessionKind.JOB, name=name, command=("train",))
    )
    await s.handle_status_report(w.svc, "c1", report(job.id, WorkloadPhase.RUNNING, 1))
    return job


async def test_a_job_keeps_how_it_ended(w: SessionsWorld) -> None:
    ok = await _job(w, "ok")
    done = await s.handle_status_report(w.svc, "c1", ended(ok.id, WorkloadPhase.SUCCEEDED, 5, log_tail="a\nb\n"))
    assert done is not None and done.job is not None
    assert (done.state, done.job.exit_code, done.job.log_tail, done.job.command) == (S.SUCCEEDED, 0, "a\nb", ("train",))
    bad = await _job(w, "bad")
    failed = await s.handle_status_report(
        w.svc, "c1", ended(bad.id, WorkloadPhase.FAILED, 5, exit_code=3, message="OOMKilled")
    )
    assert failed is not None and failed.job is not None
    assert (failed.state, failed.state_reason, failed.job.exit_code, failed.job.log_tail) == (
        S.FAILED, "exit code 3: OOMKilled", 3, "",
    )  # fmt: skip
    # a failure without an exit code has none, and a report without a log keeps the one it had
    quiet = await _job(w, "quiet")
    w.state.sessions[quiet.id] = replace(w.state.sessions[quiet.id], job=JobRun(("train",), log_tail="earlier"))
    gone = await s.handle_status_report(w.svc, "c1", ended(quiet.id, WorkloadPhase.FAILED, 5))
    assert gone is not None and gone.job is not None and (gone.job.exit_code, gone.job.log_tail) == (None, "earlier")
    # an interactive session has no job part, however it ends
    x: Any = await running(w, "L")
    plain = await s.handle_status_report(w.svc, "c1", ended(x.id, WorkloadPhase.FAILED, 5, exit_code=1, log_tail="z"))
    assert plain is not None and plain.job is None and plain.state_reason == "the workload failed"


async def test_an_evicted_session_is_told_where_it_went_and_the_live_views_why(w: SessionsWorld) -> None:
    a = await s.session_create(w.svc, w.actor("member"), w.request("whole", name="a"))
    await s.handle_status_report(w.svc, "c1", report(a.id, WorkloadPhase.RUNNING, 1))
    w.state.events.clear()
    # a loss reported at the very instant of the placement's last change is about this placement
    back = await s.handle_status_report(w.svc, "c1", lost(a.id, 1, reason="Evicted"))
    assert back is not None and back.state is S.SCHEDULED
    (note,) = [n for n in w.state.notifications.values() if n.kind == "session_replaced"]
    assert note.session_id == a.id
    assert note.message == (
        "session a: its pod was evicted; it is placed again on excl-1 (its volumes and credit hold are kept, "
        "and the time it was not running is not billed)"
    )
    assert ("capacity", {"reason": "relocation"}) in w.state.events
    assert ("queue", {"reason": "relocation"}) in w.state.events
    assert all(n.schedulable for n in w.state.capacity.nodes.values())  # an eviction cordons nothing


async def test_a_lost_node_is_the_only_one_cordoned(w: SessionsWorld) -> None:
    x: Any = await running(w)
    await s.handle_status_report(w.svc, "c1", lost(x.id, 5))
    nodes = w.state.capacity.nodes
    assert (nodes["hami-1"].schedulable, nodes["excl-1"].schedulable, nodes["cpu-1"].schedulable) == (
        False, True, True,
    )  # fmt: skip


async def test_a_lost_pod_whose_session_holds_no_place_fails_it(w: SessionsWorld) -> None:
    x: Any = await running(w)
    w.state.capacity.allocations = []  # its place is gone, and no conflict names it
    got = await s.handle_status_report(w.svc, "c1", lost(x.id, 5))
    assert got is not None and (got.state, got.state_reason) == (S.FAILED, "NodeLost: node hami-1 is gone")


async def test_services_without_billing_refuse_to_settle_rather_than_skip_charges() -> None:
    with pytest.raises(RuntimeError) as err:
        await s._NoBilling().bill(NOW, None, close=True)
    assert str(err.value) == "SessionServices.billing is not wired"
