"""What each step of a session says (its reason in words) and tells the live views (the
capacity and queue topics, the owner's wallet and notifications), and how a cluster's report
ends a job or an interactive session: on in-memory adapters, to the letter."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from domain.inventory.model import Card, Node, SharingMode
from domain.inventory.ports import EndpointUrl, WorkloadPhase
from domain.policies.model import PolicyScope, ResourcePolicy
from domain.sessions import services as s
from domain.sessions.model import Endpoints, SessionKind, SessionState
from tests.support.memory_sessions import SessionsUnitOfWork
from tests.unit.sessions.test_lifecycle_unit import report, running
from tests.unit.sessions.world import A100, SessionsWorld

S = SessionState
P = WorkloadPhase


@pytest.fixture
async def w() -> SessionsWorld:
    return await SessionsWorld.build()


def told(w: SessionsWorld, topic: str, reason: str) -> bool:
    return (topic, {"reason": reason}) in w.state.events


async def test_each_step_says_why_and_tells_the_live_views(w: SessionsWorld) -> None:
    x = await s.session_create(w.svc, w.actor("member"), w.request())
    starting = await s.handle_status_report(w.svc, "c1", report(x.id, P.STARTING, 1))
    assert starting is not None and starting.state_reason == "starting"
    urls = tuple(EndpointUrl(n, f"https://{n}.example") for n in ("vscode", "jupyterlab", "terminal", "ssh"))
    up = await s.handle_status_report(w.svc, "c1", report(x.id, P.RUNNING, 2, endpoints=urls))
    assert up is not None and up.state_reason == "running"
    assert up.endpoints == Endpoints(
        "https://vscode.example", "https://jupyterlab.example", "https://terminal.example", "https://ssh.example"
    )
    w.state.events.clear()
    await s.session_pause(w.svc, w.actor("member"), x.id)
    assert told(w, "capacity", "release") and told(w, "queue", "release")
    paused = await s.handle_status_report(w.svc, "c1", report(x.id, P.STOPPED, 5))
    assert paused is not None and (paused.state, paused.state_reason, paused.cluster_id) == (S.PAUSED, "paused", None)
    w.state.events.clear()
    again = await s.session_resume(w.svc, w.actor("member"), x.id)
    assert again.state is S.SCHEDULED and told(w, "capacity", "resume")


async def test_a_resume_places_only_on_the_clusters_the_scope_allows_and_waits_in_words(w: SessionsWorld) -> None:
    x: Any = await running(w)
    await s.session_pause(w.svc, w.actor("member"), x.id)
    await s.handle_status_report(w.svc, "c1", report(x.id, P.STOPPED, 5))
    await w.policies.put(ResourcePolicy(PolicyScope.group(w.t.g1.id), allowed_clusters=frozenset({"c2"})))
    got = await s.session_resume(w.svc, w.actor("member"), x.id)
    assert (got.state, got.placement) == (S.QUEUED, None)
    assert got.state_reason.startswith("waiting for capacity: ")


async def test_a_stop_keeps_the_given_reason_until_the_cluster_confirms(w: SessionsWorld) -> None:
    x: Any = await running(w)
    stopping = await s.session_stop(w.svc, w.actor("member"), x.id, reason="no longer needed")
    assert (stopping.state, stopping.state_reason, stopping.placement) == (S.STOPPING, "no longer needed", None)
    done = await s.handle_status_report(w.svc, "c1", report(x.id, P.STOPPED, 5))
    assert done is not None and (done.state, done.state_reason, done.cluster_id) == (
        S.STOPPED,
        "no longer needed",
        "c1",
    )
    # a stop with no reason recorded is confirmed as "stopped"
    y: Any = await running(w, name="y")
    await s.session_stop(w.svc, w.actor("member"), y.id)
    w.state.sessions[y.id] = replace(w.state.sessions[y.id], state_reason="")
    gone = await s.handle_status_report(w.svc, "c1", report(y.id, P.STOPPED, 6))
    assert gone is not None and gone.state_reason == "stopped"


async def test_a_session_that_never_ran_settles_its_hold_and_tells_the_wallet(w: SessionsWorld) -> None:
    x = await s.session_create(w.svc, w.actor("member"), w.request())
    w.state.events.clear()
    await s.session_stop(w.svc, w.actor("member"), x.id)
    assert (f"wallet:{x.owner_id}", {"userId": str(x.owner_id)}) in w.state.events


async def test_a_preempted_session_stopped_before_its_pod_is_gone_is_stopped_at_once(w: SessionsWorld) -> None:
    x: Any = await running(w)
    w.state.sessions[x.id] = replace(w.state.sessions[x.id], state=S.PREEMPTED, placement=None)
    got = await s.session_stop(w.svc, w.actor("member"), x.id)
    assert got.state is S.STOPPED


async def test_a_preempted_sessions_pod_gone_puts_it_back_in_the_queue_in_words(w: SessionsWorld) -> None:
    x: Any = await running(w)
    w.state.sessions[x.id] = replace(w.state.sessions[x.id], state=S.PREEMPTED, placement=None)
    got = await s.handle_status_report(w.svc, "c1", report(x.id, P.STOPPED, 5))
    assert got is not None
    assert (got.state, got.state_reason, got.cluster_id) == (S.QUEUED, "preempted; waiting for capacity", None)


async def _job(w: SessionsWorld, name: str) -> Any:
    job = await s.session_create(
        w.svc, w.actor("member"), w.request("whole", kind=SessionKind.JOB, name=name, command=("train",))
    )
    await s.handle_status_report(w.svc, "c1", report(job.id, P.RUNNING, 1))
    return job


async def test_a_job_that_succeeds_is_told_and_freed(w: SessionsWorld) -> None:
    job = await _job(w, "train")
    w.state.events.clear()
    done = await s.handle_status_report(w.svc, "c1", report(job.id, P.SUCCEEDED, 9))
    assert done is not None
    assert (done.state, done.state_reason, done.placement) == (S.SUCCEEDED, "completed (exit code 0)", None)
    (note,) = [n for n in w.state.notifications.values() if n.kind == "job_succeeded"]
    assert (note.message, note.session_id) == ("job train completed", job.id)
    payload = {"id": str(note.id), "kind": "job_succeeded", "message": "job train completed"}
    assert (f"notifications:{job.owner_id}", payload) in w.state.events
    assert w.cluster.deleted == [job.id]


async def test_a_job_whose_pod_stopped_is_completed_and_an_interactive_success_is_a_stop(w: SessionsWorld) -> None:
    job = await _job(w, "j")
    got = await s.handle_status_report(w.svc, "c1", report(job.id, P.STOPPED, 9))
    assert got is not None and (got.state, got.state_reason) == (S.STOPPED, "completed")
    x: Any = await running(w)
    plain = await s.handle_status_report(w.svc, "c1", report(x.id, P.SUCCEEDED, 9))
    assert plain is not None and (plain.state, plain.state_reason) == (S.STOPPED, "the workload stopped")


async def test_a_failed_job_says_its_exit_code_and_is_deleted_an_interactive_session_is_not(w: SessionsWorld) -> None:
    job = await _job(w, "j")
    got = await s.handle_status_report(w.svc, "c1", report(job.id, P.FAILED, 9, exit_code=2))
    assert got is not None and got.state_reason == "exit code 2"
    assert w.cluster.deleted == [job.id]
    (note,) = [n for n in w.state.notifications.values() if n.kind == "session_failed"]
    assert (note.session_id, note.message) == (job.id, "session j failed: exit code 2")
    x: Any = await running(w)
    await s.handle_status_report(w.svc, "c1", report(x.id, P.FAILED, 9, message="OOMKilled"))
    assert w.cluster.deleted == [job.id]


async def test_a_stopping_session_that_fails_keeps_its_cluster(w: SessionsWorld) -> None:
    x: Any = await running(w)
    await s.session_stop(w.svc, w.actor("member"), x.id)
    got = await s.handle_status_report(w.svc, "c1", report(x.id, P.FAILED, 9, message="kill timed out"))
    assert got is not None and (got.state, got.cluster_id) == (S.FAILED, "c1")


async def test_an_ended_report_at_the_instant_of_the_placement_is_about_it(w: SessionsWorld) -> None:
    x = await s.session_create(w.svc, w.actor("member"), w.request())  # SCHEDULED at NOW
    got = await s.handle_status_report(w.svc, "c1", report(x.id, P.FAILED, 0, message="ImagePullBackOff"))
    assert got is not None and (got.state, got.state_reason) == (S.FAILED, "ImagePullBackOff")
    # a running session's end is never stale, whatever its time
    y: Any = await running(w, name="y")  # running from 2 s
    late = await s.handle_status_report(w.svc, "c1", report(y.id, P.STOPPED, 1))
    assert late is not None and late.state is S.STOPPED


async def test_a_failed_hand_off_is_told_to_the_owner_and_deleted_on_its_cluster(w: SessionsWorld) -> None:
    w.cluster.fail_apply = RuntimeError("webhook refused")
    x = await s.session_create(w.svc, w.actor("member"), w.request())
    (note,) = [n for n in w.state.notifications.values() if n.kind == "session_failed"]
    assert (note.session_id, note.message) == (x.id, "session nb: step 8 (hand-off): webhook refused")
    payload = {"id": str(note.id), "kind": "session_failed", "message": note.message}
    assert (f"notifications:{x.owner_id}", payload) in w.state.events
    assert w.cluster.deleted == [x.id]


async def test_a_drain_admits_what_fits_now_and_tells_the_live_views(w: SessionsWorld) -> None:
    for name in ("a", "b"):
        await s.session_create(w.svc, w.actor("member"), w.request("whole", name=name))
    waiting = await s.session_create(w.svc, w.actor("member"), w.request("whole", name="waiting"))
    assert waiting.state is S.QUEUED
    assert await s.drain_queue(w.svc) == []  # nothing fits yet
    nodes = list(w.state.capacity.nodes.values())
    extra = Node("excl-2", "excl-2", "c1", SharingMode.EXCLUSIVE, 32000, 131072, (Card("GPU-x2", A100, 81920),))
    await SessionsUnitOfWork(w.state).capacity.replace_nodes("c1", [*nodes, extra])
    w.state.events.clear()
    assert await s.drain_queue(w.svc) == [waiting.id]
    assert told(w, "capacity", "drain") and told(w, "queue", "drain")
    assert w.state.sessions[waiting.id].state is S.SCHEDULED
