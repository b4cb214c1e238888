"""Jobs run on exclusive cards at the lowest priority and are preempted by a session that
cannot otherwise be placed: the job is paused and re-queued (never destroyed), and runs again
when the card frees."""

from __future__ import annotations

from typing import Any

from domain.catalog.model import GpuTier
from domain.inventory.model import Card, Node, SharingMode
from domain.sessions import services as sessions
from domain.sessions.model import SessionKind, SessionState
from tests.integration.sessions.test_admission_steps import fresh_scope
from tests.integration.sessions.test_lifecycle import wait_state
from tests.support.api import add_gpu_catalog, add_simulated_cluster

MODEL = "V100-preempt"


async def test_a_session_preempts_a_job_which_is_requeued_and_runs_again(container: Any, runtime: Any) -> None:
    c = container
    node = Node("pre-1", "pre-1", "pre", SharingMode.EXCLUSIVE, 64000, 262144, (Card("GPU-pre-0", MODEL, 32768),))
    cluster = await add_simulated_cluster(c, "pre", (node,))
    cat = await add_gpu_catalog(
        c,
        MODEL,
        32768,
        1_000_000,
        preset={"cpu_millicores": 1000, "memory_mib": 1024, "tier": GpuTier.EXCLUSIVE, "gpu_count": 1},
    )
    offering, card, image = cat["offering"], cat["preset"], cat["image"]
    sc = await fresh_scope(c)
    req = dict(image_id=image.id, preset_id=card.id, offering_id=offering.id)
    job = await sessions.session_create(
        c.sessions, sc.actor, sessions.SessionRequest(name="batch", kind=SessionKind.JOB, **req)
    )
    assert job.priority < 0 and job.preemptible and job.state == SessionState.SCHEDULED
    await wait_state(c, job.id, SessionState.RUNNING)

    interactive = await sessions.session_create(c.sessions, sc.actor, sessions.SessionRequest(name="notebook", **req))
    assert interactive.state == SessionState.SCHEDULED  # took the card from the job
    requeued = await wait_state(c, job.id, SessionState.QUEUED)
    assert requeued.placement is None and "preempted" in requeued.state_reason
    async with c.uow() as uow:
        notes, _ = await uow.notifications.of_user(sc.user, 0, 10)
    assert any(n.kind == "preempted" for n in notes)

    await wait_state(c, interactive.id, SessionState.RUNNING)
    await sessions.session_stop(c.sessions, sc.actor, interactive.id)
    again = await wait_state(c, job.id, SessionState.RUNNING)  # the freed card goes back to the job
    hold = await c.credits.ledger.get_hold(again.hold_id)
    assert hold is not None and hold.status.value == "open" and again.hold_seq == 2  # a new hold, the old one settled
    await sessions.session_stop(c.sessions, sc.actor, job.id)
    await wait_state(c, job.id, SessionState.STOPPED)
    await cluster.close()
