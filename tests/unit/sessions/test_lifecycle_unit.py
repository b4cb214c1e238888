"""Session lifecycle on in-memory adapters: status reports, pause, resume, stop, extend,
approve and reject, and the queue drain; states, reasons, holds and cluster calls exactly."""

from __future__ import annotations

from datetime import timedelta
from uuid import UUID

import pytest

from domain.common.errors import DomainError
from domain.credits.model import HoldStatus
from domain.inventory.model import GpuKind
from domain.inventory.ports import EndpointUrl, StatusReport, WorkloadPhase
from domain.policies.model import PolicyScope, ResourcePolicy
from domain.sessions import services as s
from domain.sessions.model import Expiry, SessionState
from tests.unit.sessions.world import SessionsWorld
from tests.unit.tenancy.world import NOW

S = SessionState


@pytest.fixture
async def w() -> SessionsWorld:
    return await SessionsWorld.build()


def report(sid: UUID, phase: WorkloadPhase, at_s: float = 1, **kw: object) -> StatusReport:
    return StatusReport(sid, phase, NOW + timedelta(seconds=at_s), **kw)  # type: ignore[arg-type]


async def running(w: SessionsWorld, preset: str = "L", actor: str = "member", **kw: object) -> object:
    x = await s.session_create(w.svc, w.actor(actor), w.request(preset, **kw))
    url = EndpointUrl("jupyterlab", "https://lab.example/x")
    got = await s.handle_status_reports(
        w.svc, "c1", [report(x.id, WorkloadPhase.STARTING, 1), report(x.id, WorkloadPhase.RUNNING, 2, endpoints=(url,))]
    )
    assert [g.state for g in got] == [S.STARTING, S.RUNNING]  # type: ignore[union-attr]
    return got[-1]


async def refusal(call: object) -> tuple[str, str | None, str]:
    with pytest.raises(DomainError) as err:
        await call  # type: ignore[misc]
    return (err.value.code.value, err.value.field, err.value.message)


async def test_status_reports_move_a_session_and_ignore_what_is_not_theirs(w: SessionsWorld) -> None:
    x = await running(w)
    assert (x.state, x.running_since, x.started_at, x.endpoints.jupyterlab) == (  # type: ignore[attr-defined]
        S.RUNNING, NOW + timedelta(seconds=2), NOW + timedelta(seconds=2), "https://lab.example/x",
    )  # fmt: skip
    again = await s.handle_status_report(w.svc, "c1", report(x.id, WorkloadPhase.RUNNING, 3))  # type: ignore[attr-defined]
    assert again == w.state.sessions[x.id]  # type: ignore[attr-defined]  # repeated: changes nothing
    assert await s.handle_status_report(w.svc, "other", report(x.id, WorkloadPhase.FAILED)) is None  # type: ignore[attr-defined]
    assert await s.handle_status_report(w.svc, "c1", report(UUID(int=4), WorkloadPhase.RUNNING)) is None
    failed = await s.handle_status_report(w.svc, "c1", report(x.id, WorkloadPhase.FAILED, 10, message="OOMKilled"))  # type: ignore[attr-defined]
    assert failed is not None and (failed.state, failed.state_reason, failed.placement) == (S.FAILED, "OOMKilled", None)
    assert failed.billed_seconds == 8  # RUNNING from 2 s to 10 s
    assert w.state.capacity.allocations == []
    assert (await w.ledger.get_hold(failed.hold_id)).status is HoldStatus.RELEASED  # type: ignore[union-attr]
    notes = [n for n in w.state.notifications.values() if n.user_id == failed.owner_id]
    assert [(n.kind, n.message) for n in notes] == [("session_failed", "session nb failed: OOMKilled")]


async def test_a_workload_that_stops_by_itself_frees_everything(w: SessionsWorld) -> None:
    x = await running(w)
    done = await s.handle_status_report(w.svc, "c1", report(x.id, WorkloadPhase.STOPPED, 5))  # type: ignore[attr-defined]
    assert done is not None and (done.state, done.state_reason, done.placement, done.cluster_id) == (
        S.STOPPED, "the workload stopped", None, "c1",
    )  # fmt: skip
    assert w.state.capacity.allocations == [] and w.billing.calls[-1][1:] == ((x.id,), True)  # type: ignore[attr-defined]
    blank = await s.session_create(w.svc, w.actor("member"), w.request(name="quiet"))
    failed = await s.handle_status_report(w.svc, "c1", report(blank.id, WorkloadPhase.FAILED, 5))
    assert failed is not None and failed.state_reason == "the workload failed"


async def test_pause_then_resume_then_stop(w: SessionsWorld) -> None:
    x = await running(w)
    w.t.clock.advance(30)
    paused = await s.session_pause(w.svc, w.actor("member"), x.id)  # type: ignore[attr-defined]
    assert (paused.state, paused.state_reason, paused.placement, paused.running_since) == (
        S.PAUSING,
        "pausing",
        None,
        None,
    )
    assert w.cluster.paused == [x.id] and w.state.capacity.allocations == []  # type: ignore[attr-defined]
    assert (await s.session_pause(w.svc, w.actor("member"), x.id)).state is S.PAUSING  # type: ignore[attr-defined]  # idempotent
    gone = await s.handle_status_report(w.svc, "c1", report(x.id, WorkloadPhase.STOPPED, 40))  # type: ignore[attr-defined]
    assert gone is not None and (gone.state, gone.state_reason, gone.cluster_id) == (S.PAUSED, "paused", None)
    assert (await w.ledger.get_hold(x.hold_id)).status is HoldStatus.RELEASED  # type: ignore[attr-defined,union-attr]
    resumed = await s.session_resume(w.svc, w.actor("member"), x.id)  # type: ignore[attr-defined]
    assert (resumed.state, resumed.hold_seq, resumed.placement["node_id"]) == (S.SCHEDULED, 2, "hami-1")
    hold = await w.ledger.get_hold(resumed.hold_id)
    assert hold is not None and hold.status is HoldStatus.OPEN and resumed.hold_id != x.hold_id  # type: ignore[attr-defined]
    assert (await s.session_resume(w.svc, w.actor("member"), x.id)).state is S.SCHEDULED  # type: ignore[attr-defined]
    stopping = await s.session_stop(w.svc, w.actor("member"), x.id)  # type: ignore[attr-defined]
    assert (stopping.state, stopping.state_reason) == (S.STOPPING, "stopped") and w.cluster.deleted == [x.id]  # type: ignore[attr-defined]
    assert (await s.session_stop(w.svc, w.actor("member"), x.id)).state is S.STOPPING  # type: ignore[attr-defined]
    stopped = await s.handle_status_report(w.svc, "c1", report(x.id, WorkloadPhase.STOPPED, 99))  # type: ignore[attr-defined]
    assert stopped is not None and (stopped.state, stopped.state_reason) == (S.STOPPED, "stopped")
    assert await refusal(s.session_resume(w.svc, w.actor("member"), x.id)) == (  # type: ignore[attr-defined]
        "ILLEGAL_TRANSITION", "id", "a STOPPED session cannot become RESUMING",
    )  # fmt: skip
    assert await refusal(s.session_pause(w.svc, w.actor("gadmin"), UUID(int=8))) == (
        "NOT_FOUND",
        "id",
        "session not found",
    )
    assert await refusal(s.session_stop(w.svc, w.actor("guest"), x.id)) == ("NOT_FOUND", "id", "session not found")  # type: ignore[attr-defined]


async def test_a_queued_session_pauses_and_stops_without_a_pod(w: SessionsWorld) -> None:
    for i in range(2):
        await s.session_create(w.svc, w.actor("member"), w.request("whole", name=f"w{i}"))
    q = await s.session_create(w.svc, w.actor("member"), w.request("whole", name="q"))
    assert q.state is S.QUEUED
    paused = await s.session_pause(w.svc, w.actor("member"), q.id)
    assert (paused.state, paused.state_reason) == (S.PAUSED, "paused while waiting") and w.state.capacity.queue == []
    assert w.cluster.paused == []
    stopped = await s.session_stop(w.svc, w.actor("member"), q.id, reason="not needed")
    assert (stopped.state, stopped.state_reason) == (S.STOPPED, "not needed") and w.cluster.deleted == []


async def test_a_stop_frees_the_card_for_the_queue(w: SessionsWorld) -> None:
    first = await s.session_create(w.svc, w.actor("member"), w.request("whole", name="a"))
    await s.session_create(w.svc, w.actor("member"), w.request("whole", name="b"))
    waiting = await s.session_create(w.svc, w.actor("member"), w.request("whole", name="c"))
    await s.session_stop(w.svc, w.actor("member"), first.id)
    await s.handle_status_report(w.svc, "c1", report(first.id, WorkloadPhase.STOPPED, 9))
    admitted = w.state.sessions[waiting.id]
    assert (admitted.state, admitted.placement["node_id"], admitted.hold_seq) == (
        S.SCHEDULED,
        "excl-1",
        1,
    )  # its first hold: a queued request holds nothing while it waits (issue 19: none is reserved)
    hold = await w.ledger.get_hold(admitted.hold_id)
    assert hold is not None and hold.status is HoldStatus.OPEN  # reserved again when admitted
    assert waiting.id in [spec.session_id for spec in w.cluster.applied]
    assert await s.drain_queue(w.svc) == []  # nothing else waits


async def test_extend_within_the_policy(w: SessionsWorld) -> None:
    x = await running(w)
    w.t.clock.advance(600)
    longer = await s.session_extend(w.svc, w.actor("member"), x.id, Expiry.H4)  # type: ignore[attr-defined]
    assert (longer.expiry, longer.expires_at, longer.updated_at) == (
        Expiry.H4, w.t.clock.now() + timedelta(hours=4), w.t.clock.now(),
    )  # fmt: skip
    never = await s.session_extend(w.svc, w.actor("member"), x.id, Expiry.NONE)  # type: ignore[attr-defined]
    assert never.expires_at is None
    await w.policies.put(ResourcePolicy(PolicyScope.group(w.t.g1.id), max_session_seconds=7200))
    limit = (NOW + timedelta(seconds=7200)).isoformat()
    for e in (Expiry.H4, Expiry.NONE):
        assert await refusal(s.session_extend(w.svc, w.actor("member"), x.id, e)) == (  # type: ignore[attr-defined]
            "EXTENSION_OVER_POLICY", "expiry", f"sessions here may last at most 2:00:00 in all (until {limit})",
        )  # fmt: skip
    assert (await s.session_extend(w.svc, w.actor("member"), x.id, Expiry.H1)).expiry is Expiry.H1  # type: ignore[attr-defined]
    await s.session_stop(w.svc, w.actor("member"), x.id)  # type: ignore[attr-defined]
    await s.handle_status_report(w.svc, "c1", report(x.id, WorkloadPhase.STOPPED, 700))  # type: ignore[attr-defined]
    assert await refusal(s.session_extend(w.svc, w.actor("member"), x.id, Expiry.H1)) == (  # type: ignore[attr-defined]
        "ILLEGAL_TRANSITION", "id", "a STOPPED session cannot be extended",
    )  # fmt: skip


async def test_approval_and_rejection(w: SessionsWorld) -> None:
    await w.policies.put(ResourcePolicy(PolicyScope.user(w.t.users["member"].id), approval_required=True))
    pending = await s.session_create(w.svc, w.actor("member"), w.request())
    assert await refusal(s.session_approve(w.svc, w.actor("member"), pending.id)) == (
        "PERMISSION_DENIED", None, "only an admin of the session's group may approve it",
    )  # fmt: skip
    approved = await s.session_approve(w.svc, w.actor("gadmin"), pending.id, gpu_kind=GpuKind.EXCLUSIVE)
    assert (approved.state, approved.approved_by, approved.placement["kind"]) == (
        S.SCHEDULED, w.t.users["gadmin"].id, "exclusive",
    )  # fmt: skip
    assert approved.gpu is not None and (approved.gpu.forced_kind, approved.gpu.exclusive, approved.gpu.cards) == (
        "exclusive", True, 1,
    )  # fmt: skip
    assert (await s.session_approve(w.svc, w.actor("gadmin"), pending.id)).approved_by == w.t.users["gadmin"].id
    other = await s.session_create(w.svc, w.actor("member"), w.request(name="second"))
    assert await refusal(s.session_reject(w.svc, w.actor("member"), other.id, reason="x")) == (
        "PERMISSION_DENIED", None, "only an admin of the session's group may reject it",
    )  # fmt: skip
    assert await refusal(s.session_reject(w.svc, w.actor("gadmin"), other.id, reason=" ")) == (
        "INVALID_VALUE", "reason", "reason must not be empty",
    )  # fmt: skip
    rejected = await s.session_reject(w.svc, w.actor("gadmin"), other.id, reason=" use a CPU preset ")
    assert (rejected.state, rejected.state_reason) == (S.REJECTED, "use a CPU preset")
    assert (await w.ledger.get_hold(other.hold_id)).status is HoldStatus.RELEASED  # type: ignore[union-attr]
    assert (await s.session_reject(w.svc, w.actor("gadmin"), other.id, reason="again")).state is S.REJECTED
    note = [n for n in w.state.notifications.values() if n.kind == "session_rejected"]
    assert [n.message for n in note] == ["session second was rejected: use a CPU preset"]
    assert await refusal(s.session_approve(w.svc, w.actor("gadmin"), other.id)) == (
        "APPROVAL_NOT_PENDING", "id", "session is REJECTED, not pending approval",
    )  # fmt: skip
    x = await running(w, actor="gadmin")
    assert await refusal(s.session_reject(w.svc, w.actor("gadmin"), x.id, reason="late")) == (  # type: ignore[attr-defined]
        "APPROVAL_NOT_PENDING", "id", "session is RUNNING, not pending approval",
    )  # fmt: skip
    cpu = await s.session_create(w.svc, w.actor("member"), w.request("cpu", offering_id=None, name="cpu"))
    assert await refusal(s.session_approve(w.svc, w.actor("gadmin"), cpu.id, gpu_kind=GpuKind.HAMI)) == (
        "INVALID_VALUE", "gpuKind", "a CPU-only session has no GPU kind to assign",
    )  # fmt: skip


async def test_a_failed_hand_off_fails_the_session_and_frees_it(w: SessionsWorld) -> None:
    w.cluster.fail_apply = RuntimeError("admission webhook refused the pod")
    x = await s.session_create(w.svc, w.actor("member"), w.request())
    stored = w.state.sessions[x.id]
    assert (stored.state, stored.state_reason, stored.placement) == (
        S.FAILED, "step 8 (hand-off): admission webhook refused the pod", None,
    )  # fmt: skip
    assert w.state.capacity.allocations == [] and (await w.ledger.get_hold(x.hold_id)).status is HoldStatus.RELEASED  # type: ignore[union-attr]


# ---------------------------------------------------------------- a lost node or an evicted pod re-places


def lost(sid: UUID, at_s: float, lost_s: float | None = None, reason: str = "NodeLost") -> StatusReport:
    return report(
        sid,
        WorkloadPhase.FAILED,
        at_s,
        reason=reason,
        message=f"{reason}: node hami-1 is gone",
        lost_at=None if lost_s is None else NOW + timedelta(seconds=lost_s),
    )


async def test_a_lost_node_re_queues_the_session_at_the_head_keeping_its_hold(w: SessionsWorld) -> None:
    x = await running(w)  # L on hami-1, RUNNING from 2 s
    others = [await s.session_create(w.svc, w.actor("gadmin"), w.request(name=f"o{i}")) for i in range(3)]
    waiting = await s.session_create(w.svc, w.actor("gadmin"), w.request(name="waiting"))
    assert [o.state for o in others] == [S.SCHEDULED] * 3 and waiting.state is S.QUEUED  # four quarters of one card
    w.t.clock.advance(70)
    back = await s.handle_status_report(w.svc, "c1", lost(x.id, 70, lost_s=10))  # type: ignore[attr-defined]
    assert back is not None
    assert (back.state, back.placement, back.cluster_id) == (S.QUEUED, None, None)
    assert back.state_reason == "node hami-1 was lost; re-queued at the head of its priority"
    assert back.billed_seconds == 8 and back.running_since is None  # 2 s to 10 s: not a second after the loss
    assert back.hold_id == x.hold_id and back.hold_seq == x.hold_seq  # type: ignore[attr-defined]
    assert (await w.ledger.get_hold(back.hold_id)).status is HoldStatus.OPEN  # type: ignore[union-attr]
    assert [m.volume_id for m in back.mounts] == [m.volume_id for m in x.mounts]  # type: ignore[attr-defined]
    # ahead of the request that waited before it, and nothing of it runs where it was
    assert [e["request"]["workload_id"] for e in w.state.capacity.queue] == [str(x.id), str(waiting.id)]  # type: ignore[attr-defined]
    assert w.cluster.deleted == [x.id]  # type: ignore[attr-defined]
    assert not w.state.capacity.nodes["hami-1"].schedulable  # no new work on the lost node
    assert all(a["request"]["workload_id"] != str(x.id) for a in w.state.capacity.allocations)  # type: ignore[attr-defined]
    notes = [n for n in w.state.notifications.values() if n.kind == "session_replaced"]
    assert [n.message for n in notes] == [
        "session nb: node hami-1 was lost; it is queued (its volumes and credit hold are kept, "
        "and the time it was not running is not billed)"
    ]
    # the same loss reported again changes nothing
    assert await s.handle_status_report(w.svc, "c1", lost(x.id, 71, lost_s=10)) is None  # type: ignore[attr-defined]
    assert w.state.sessions[x.id].state is S.QUEUED  # type: ignore[attr-defined]

    # the node comes back (the cluster's inventory says so): the session is placed first, once,
    # on its old hold; the others' places were never given to anyone twice
    await w.report_nodes(ready="hami-1")
    for o in others:
        await s.session_stop(w.svc, w.actor("gadmin"), o.id)
        await s.handle_status_report(w.svc, "c1", report(o.id, WorkloadPhase.STOPPED, 80))
    again = w.state.sessions[x.id]  # type: ignore[attr-defined]
    assert (again.state, again.placement["node_id"], again.hold_id, again.hold_seq) == (
        S.SCHEDULED, "hami-1", x.hold_id, x.hold_seq,  # type: ignore[attr-defined]
    )  # fmt: skip
    placed = [a["request"]["workload_id"] for a in w.state.capacity.allocations]
    assert placed.count(str(x.id)) == 1


async def test_an_evicted_pod_is_placed_again_at_once_ahead_of_the_queue(w: SessionsWorld) -> None:
    a = await s.session_create(w.svc, w.actor("member"), w.request("whole", name="a"))
    b = await s.session_create(w.svc, w.actor("member"), w.request("whole", name="b"))
    c = await s.session_create(w.svc, w.actor("gadmin"), w.request("whole", name="c"))
    assert (a.state, b.state, c.state) == (S.SCHEDULED, S.SCHEDULED, S.QUEUED)
    await s.handle_status_report(w.svc, "c1", report(a.id, WorkloadPhase.RUNNING, 1))
    w.t.clock.advance(30)
    back = await s.handle_status_report(w.svc, "c1", lost(a.id, 30, reason="Evicted"))
    assert back is not None and back.state is S.SCHEDULED and back.placement == a.placement
    assert back.billed_seconds == 29 and back.hold_id == a.hold_id
    assert w.state.sessions[c.id].state is S.QUEUED  # the evicted session went first
    assert [spec.session_id for spec in w.cluster.applied].count(a.id) == 2 and w.cluster.deleted == []
    assert all(n.placement and n.placement["node_id"] for n in (w.state.sessions[a.id], w.state.sessions[b.id]))


async def test_a_node_already_gone_from_the_inventory_leaves_no_placement(w: SessionsWorld) -> None:
    x = await running(w)
    await w.report_nodes(gone="hami-1")  # the inventory report came first
    w.t.clock.advance(20)
    back = await s.handle_status_report(w.svc, "c1", lost(x.id, 20, lost_s=12))  # type: ignore[attr-defined]
    assert back is not None and (back.state, back.billed_seconds) == (S.QUEUED, 10)
    assert w.state.capacity.allocations == []  # the conflicting placement row is gone
    stopped = await s.session_stop(w.svc, w.actor("member"), x.id)  # type: ignore[attr-defined]
    assert stopped.state is S.STOPPED
    assert (await w.ledger.get_hold(x.hold_id)).status is HoldStatus.RELEASED  # type: ignore[attr-defined,union-attr]


async def test_a_report_from_before_the_current_placement_is_ignored(w: SessionsWorld) -> None:
    x = await running(w)
    w.t.clock.advance(5)
    old = await s.handle_status_report(w.svc, "c1", lost(x.id, 1, lost_s=1))  # type: ignore[attr-defined]
    assert old is not None and old.state is S.RUNNING
