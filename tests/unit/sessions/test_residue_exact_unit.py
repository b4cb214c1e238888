"""The crash-residue sweep to the letter: what each repair's audit entry says (the session it
touched, its scope, the repair and its numbers), the exact edges of the grace and the give-up
deadline, the reasons the owner reads, and the live views told of freed capacity."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from uuid import UUID

import pytest

from domain.sessions import residue
from domain.sessions import services as s
from domain.sessions.model import SessionState
from tests.unit.sessions.test_residue_unit import GIVE_UP, GRACE, orphan_hold, running_session, sweep
from tests.unit.sessions.world import SessionsWorld

S = SessionState


@pytest.fixture
async def w() -> SessionsWorld:
    return await SessionsWorld.build()


def entries(
    w: SessionsWorld,
) -> list[tuple[str | None, str | None, UUID | None, UUID | None, bool, str, dict[str, str]]]:
    return [
        (e.target_type, e.target_id, e.organization_id, e.group_id, e.success, e.result_code, e.details)
        for e in w.state.audit
        if e.operation == residue.AUDIT_OPERATION
    ]


async def test_a_released_hold_its_session_no_longer_names_is_audited_with_its_amount(w: SessionsWorld) -> None:
    x = await s.session_create(w.svc, w.actor("member"), w.request())
    w.state.sessions[x.id] = replace(w.state.sessions[x.id], hold_id=None)
    w.t.clock.advance(GRACE * 2)
    hold = await w.ledger.get_hold(x.hold_id)  # type: ignore[arg-type]
    assert hold is not None
    outcome = await sweep(w)
    assert (outcome.holds_released, outcome.released_micro) == ((x.hold_id,), hold.amount_micro)
    assert [e for e in entries(w) if e[6]["repair"] == "hold released"] == [
        ("Session", str(x.id), w.t.org_a.id, w.t.g1.id, True, "OK",
         {"repair": "hold released", "hold": str(x.hold_id), "amountMicro": str(hold.amount_micro)}),
    ]  # fmt: skip


async def test_holds_of_two_lost_admissions_are_both_released_and_summed(w: SessionsWorld) -> None:
    first = await orphan_hold(w, 1000)
    w.t.clock.advance(GRACE * 2)
    outcome = await sweep(w)
    assert (outcome.holds_released, outcome.released_micro) == ((first,), 1000)
    assert entries(w) == []  # no session to audit it against


async def test_a_stalled_session_waits_out_the_grace_exactly_then_the_give_up_deadline_exactly(
    w: SessionsWorld,
) -> None:
    x = await s.session_create(w.svc, w.actor("member"), w.request())
    w.cluster.applied.clear()
    w.t.clock.advance(GRACE)  # exactly the grace: not yet
    assert (await sweep(w)).handed_off_again == ()
    w.t.clock.advance(timedelta(seconds=1))
    assert (await sweep(w)).handed_off_again == (x.id,)
    w.t.clock.advance(GIVE_UP - GRACE - timedelta(seconds=1))  # exactly the give-up deadline: handed again
    outcome = await sweep(w)
    assert (outcome.handed_off_again, outcome.failed) == ((x.id,), ())
    w.t.clock.advance(timedelta(seconds=1))
    assert (await sweep(w)).failed == (x.id,)
    reason = "no cluster progress for 1801 s after SCHEDULED (crash residue)"
    assert w.state.sessions[x.id].state_reason == reason
    assert [e[6] for e in entries(w)] == [
        {"repair": "handed off again", "stalledSeconds": "121"},
        {"repair": "handed off again", "stalledSeconds": "1800"},
        {"repair": "failed", "reason": reason},
    ]


async def test_a_stop_never_confirmed_is_asked_again_after_the_grace_and_ended_in_words(w: SessionsWorld) -> None:
    sid = await running_session(w)
    await s.session_stop(w.svc, w.actor("member"), sid)
    w.t.clock.advance(GRACE)
    assert (await sweep(w)).asked_again == ()
    w.t.clock.advance(timedelta(seconds=5))
    assert (await sweep(w)).asked_again == (sid,)
    w.t.clock.advance(GIVE_UP)
    assert (await sweep(w)).ended == (sid,)
    message = "no answer from the cluster for 1925 s after STOPPING (crash residue)"
    assert [e[6] for e in entries(w)] == [
        {"repair": "stopping asked again", "waitedSeconds": "125"},
        {"repair": "ended", "reason": message},
    ]
    stopped = w.state.sessions[sid]
    assert (stopped.state, stopped.cluster_id) == (S.STOPPED, "c1")


async def test_a_stalled_start_its_cluster_refuses_again_is_tried_on_the_next_sweep(w: SessionsWorld) -> None:
    x = await s.session_create(w.svc, w.actor("member"), w.request())
    await s.handle_status_report(w.svc, "c1", s.StatusReport(x.id, s.WorkloadPhase.STARTING, w.t.clock.now()))
    w.cluster.fail_apply = RuntimeError("api server down")
    w.t.clock.advance(GRACE * 2)
    assert (await sweep(w)).handed_off_again == ()
    assert w.state.sessions[x.id].state is S.STARTING  # not failed before the deadline
    w.cluster.fail_apply = None
    assert (await sweep(w)).handed_off_again == (x.id,)


async def test_a_stalled_session_of_a_cluster_with_no_adapter_here_waits_for_the_next_sweep(w: SessionsWorld) -> None:
    """A restarted embedded serve runs its first sweep before its cluster adapters are added:
    a session placed and never handed off (SCHEDULED) or forgotten while starting is left for
    the next sweep, not failed as if the cluster had refused it."""
    placed = await s.session_create(w.svc, w.actor("member"), w.request())
    starting = await s.session_create(w.svc, w.actor("member"), w.request())
    await s.handle_status_report(w.svc, "c1", s.StatusReport(starting.id, s.WorkloadPhase.STARTING, w.t.clock.now()))
    w.cluster.applied.clear()
    registry = w.svc.clusters
    ports = dict(registry.ports)  # type: ignore[attr-defined]
    registry.ports.clear()  # type: ignore[attr-defined]
    w.t.clock.advance(GRACE * 2)
    outcome = await sweep(w)
    assert (outcome.handed_off_again, outcome.failed) == ((), ())
    assert [w.state.sessions[x.id].state for x in (placed, starting)] == [S.SCHEDULED, S.STARTING]
    assert w.cluster.applied == [] and entries(w) == []
    registry.ports.update(ports)  # type: ignore[attr-defined]
    outcome = await sweep(w)
    assert sorted(outcome.handed_off_again) == sorted([placed.id, starting.id]) and outcome.failed == ()
    assert sorted(a.session_id for a in w.cluster.applied) == sorted([placed.id, starting.id])
    assert w.state.sessions[placed.id].state is S.SCHEDULED  # handed off, waiting for the cluster's report


async def test_capacity_and_queue_entries_of_ended_sessions_are_freed_and_the_live_views_told(
    w: SessionsWorld,
) -> None:
    placed = await s.session_create(w.svc, w.actor("member"), w.request("whole", name="placed"))
    await s.session_create(w.svc, w.actor("member"), w.request("whole", name="second"))  # both cards taken
    waiting = await s.session_create(w.svc, w.actor("member"), w.request("whole", name="waiting"))
    assert (placed.state, waiting.state) == (S.SCHEDULED, S.QUEUED)
    live = await s.session_create(w.svc, w.actor("gadmin"), w.request(name="live"))
    w.state.sessions[waiting.id] = replace(w.state.sessions[waiting.id], state=S.STOPPED)
    w.state.events.clear()
    outcome = await sweep(w)
    assert (outcome.capacity_freed, outcome.queue_withdrawn) == ((), (str(waiting.id),))
    assert ("capacity", {"reason": "residue"}) in w.state.events and ("queue", {"reason": "residue"}) in w.state.events
    # a live session's place, or its turn in the queue, is never taken from it
    assert [e["request"]["workload_id"] for e in w.state.capacity.queue] == [str(live.id)]
    assert str(placed.id) in {a["request"]["workload_id"] for a in w.state.capacity.allocations}
    # a session whose row is gone frees its place too
    del w.state.sessions[placed.id]
    assert (await sweep(w)).capacity_freed == (str(placed.id),)


def test_a_hold_key_names_its_session_or_nothing() -> None:
    sid = UUID(int=5)
    assert residue.session_of_hold(f"session:{sid}:hold:2") == sid
    assert residue.session_of_hold("session:not-a-uuid:hold:1") is None
    assert residue.session_of_hold("transfer:x") is None
    assert (residue._is_uuid(str(sid)), residue._is_uuid("cpu-queue")) == (True, False)
