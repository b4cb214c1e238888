"""The crash-residue sweep on in-memory adapters (issue 21): holds no session names are released
to the micro-credit after the grace, never before; stalled admissions are handed off again, then
failed past the give-up deadline; capacity no live session holds is freed; each repair audited."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from uuid import UUID

import pytest

from domain.credits import services as credits
from domain.credits.model import AccountRef, HoldStatus
from domain.inventory.ports import StatusReport, WorkloadPhase
from domain.policies.model import ScopeChain
from domain.sessions import residue
from domain.sessions import services as s
from domain.sessions.model import SessionState
from tests.unit.sessions.world import SessionsWorld

S = SessionState
GRACE = timedelta(seconds=120)
GIVE_UP = timedelta(seconds=1800)


@pytest.fixture
async def w() -> SessionsWorld:
    return await SessionsWorld.build()


async def available(w: SessionsWorld, name: str = "member") -> int:
    wallet = AccountRef.user(w.t.users[name].id)
    return (await w.ledger.balances([wallet]))[wallet].available_micro


async def sweep(w: SessionsWorld) -> residue.ResidueOutcome:
    return await residue.sweep(w.svc, grace=GRACE, give_up=GIVE_UP)


def audited(w: SessionsWorld) -> list[tuple[str, str]]:
    return [(e.operation, e.details.get("repair", "")) for e in w.state.audit if e.operation == residue.AUDIT_OPERATION]


async def orphan_hold(w: SessionsWorld, amount: int) -> UUID:
    """What a process killed between step 6 and step 7 leaves: a hold for a session id no row has."""
    member = w.t.users["member"]
    chain = ScopeChain(member.id, w.t.g1.id, w.t.org_a.id)
    result = await credits.reserve_hold(
        w.ledger, w.t.clock, w.t.ids, chain=chain, amount_micro=amount,
        idempotency_key=f"session:{UUID(int=77)}:hold:1", memo="session lost",
    )  # fmt: skip
    return result.hold.id


async def test_a_hold_without_its_session_is_released_exactly_after_the_grace(w: SessionsWorld) -> None:
    before = await available(w)
    hold = await orphan_hold(w, 1_234_567)
    assert await available(w) == before - 1_234_567
    w.t.clock.advance(GRACE - timedelta(seconds=1))
    assert (await sweep(w)).holds_released == ()  # an admission may still be writing its session
    w.t.clock.advance(timedelta(seconds=2))
    outcome = await sweep(w)
    assert (outcome.holds_released, outcome.released_micro) == ((hold,), 1_234_567)
    assert (await w.ledger.get_hold(hold)).status is HoldStatus.RELEASED  # type: ignore[union-attr]
    assert await available(w) == before
    assert (await sweep(w)).holds_released == ()  # idempotent


async def test_a_live_sessions_hold_is_left_alone_and_a_dropped_one_released(w: SessionsWorld) -> None:
    x = await s.session_create(w.svc, w.actor("member"), w.request())
    w.t.clock.advance(GRACE * 2)
    await s.handle_status_reports(
        w.svc,
        "c1",
        [
            StatusReport(x.id, WorkloadPhase.STARTING, w.t.clock.now()),
            StatusReport(x.id, WorkloadPhase.RUNNING, w.t.clock.now()),
        ],
    )
    assert (await sweep(w)).holds_released == ()
    # a crash after a queued request's commit and before its hold was released: the session no
    # longer names the hold
    current = w.state.sessions[x.id]
    w.state.sessions[x.id] = replace(current, hold_id=None)
    outcome = await sweep(w)
    assert outcome.holds_released == (x.hold_id,)
    assert audited(w) == [(residue.AUDIT_OPERATION, "hold released")]


async def test_a_session_placed_but_never_handed_off_is_handed_off_again_then_failed(w: SessionsWorld) -> None:
    before = await available(w)
    x = await s.session_create(w.svc, w.actor("member"), w.request())
    w.cluster.applied.clear()  # the process died after the commit, before step 8
    assert w.state.sessions[x.id].state is S.SCHEDULED
    w.t.clock.advance(GRACE / 2)
    assert (await sweep(w)).handed_off_again == ()
    w.t.clock.advance(GRACE)
    outcome = await sweep(w)
    assert outcome.handed_off_again == (x.id,) and [a.session_id for a in w.cluster.applied] == [x.id]
    # the cluster never answers: past the give-up deadline it fails, freeing capacity and credits
    w.t.clock.advance(GIVE_UP)
    outcome = await sweep(w)
    assert outcome.failed == (x.id,)
    failed = w.state.sessions[x.id]
    assert failed.state is S.FAILED and "no cluster progress" in (failed.state_reason or "")
    assert w.state.capacity.allocations == []
    assert (await w.ledger.get_hold(x.hold_id)).status is not HoldStatus.OPEN  # type: ignore[arg-type,union-attr]
    assert await available(w) == before
    assert audited(w) == [(residue.AUDIT_OPERATION, "handed off again"), (residue.AUDIT_OPERATION, "failed")]


async def test_a_starting_session_its_cluster_forgot_is_applied_again(w: SessionsWorld) -> None:
    x = await s.session_create(w.svc, w.actor("member"), w.request())
    await s.handle_status_report(w.svc, "c1", StatusReport(x.id, WorkloadPhase.STARTING, w.t.clock.now()))
    w.cluster.applied.clear()
    w.t.clock.advance(GRACE * 2)
    assert (await sweep(w)).handed_off_again == (x.id,)
    assert [a.session_id for a in w.cluster.applied] == [x.id]
    assert w.state.sessions[x.id].state is S.STARTING


async def test_capacity_no_live_session_holds_is_freed(w: SessionsWorld) -> None:
    x = await s.session_create(w.svc, w.actor("member"), w.request())
    assert [a["request"]["workload_id"] for a in w.state.capacity.allocations] == [str(x.id)]
    # residue: the row says stopped, the capacity still counts it
    w.state.sessions[x.id] = replace(w.state.sessions[x.id], state=S.STOPPED)
    outcome = await sweep(w)
    assert outcome.capacity_freed == (str(x.id),)
    assert w.state.capacity.allocations == []
    assert (await sweep(w)).capacity_freed == ()


async def running_session(w: SessionsWorld) -> UUID:
    x = await s.session_create(w.svc, w.actor("member"), w.request())
    now = w.t.clock.now()
    await s.handle_status_reports(
        w.svc, "c1", [StatusReport(x.id, WorkloadPhase.STARTING, now), StatusReport(x.id, WorkloadPhase.RUNNING, now)]
    )
    return x.id


async def test_a_stop_the_cluster_never_confirms_is_asked_again_then_ended(w: SessionsWorld) -> None:
    sid = await running_session(w)
    await s.session_stop(w.svc, w.actor("member"), sid)
    assert w.state.sessions[sid].state is S.STOPPING and w.cluster.deleted == [sid]
    w.t.clock.advance(GRACE * 2)
    assert (await sweep(w)).asked_again == (sid,)
    assert w.cluster.deleted == [sid, sid]  # delete is idempotent on every cluster
    w.t.clock.advance(GIVE_UP)
    outcome = await sweep(w)
    assert outcome.ended == (sid,)
    stopped = w.state.sessions[sid]
    assert stopped.state is S.STOPPED
    assert w.state.capacity.allocations == []
    assert (await w.ledger.get_hold(stopped.hold_id)).status is not HoldStatus.OPEN  # type: ignore[arg-type,union-attr]
    assert [d for _, d in audited(w)] == ["stopping asked again", "ended"]


async def test_a_pause_the_cluster_never_confirms_ends_paused(w: SessionsWorld) -> None:
    sid = await running_session(w)
    await s.session_pause(w.svc, w.actor("member"), sid)
    assert w.state.sessions[sid].state is S.PAUSING
    w.t.clock.advance(GRACE * 2)
    assert (await sweep(w)).asked_again == (sid,) and w.cluster.paused == [sid, sid]
    w.t.clock.advance(GIVE_UP)
    assert (await sweep(w)).ended == (sid,)
    assert w.state.sessions[sid].state is S.PAUSED
    assert w.state.capacity.allocations == []
