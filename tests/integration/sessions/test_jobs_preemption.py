"""Jobs run on exclusive cards at the lowest priority and are preempted by a session that
cannot otherwise be placed: the job is paused and re-queued (never destroyed), and runs again
when the card frees."""

from __future__ import annotations

from typing import Any

from domain.catalog import services as catalog
from domain.catalog.model import GpuTier, ImageScope
from domain.inventory.model import Card, Cluster, Inventory, Node, SharingMode
from domain.sessions import services as sessions
from domain.sessions.model import SessionKind, SessionState
from infra.cluster.simulated import SimulatedCluster
from infra.runtime import register_cluster_inventory
from tests.integration.sessions.test_admission_steps import fresh_scope
from tests.integration.sessions.test_lifecycle import wait_state
from tests.support.api import SYSTEM, unique

MODEL = "V100-preempt"


async def test_a_session_preempts_a_job_which_is_requeued_and_runs_again(container: Any, runtime: Any) -> None:
    c = container
    node = Node("pre-1", "pre-1", "pre", SharingMode.EXCLUSIVE, 64000, 262144, (Card("GPU-pre-0", MODEL, 32768),))
    inventory = Inventory((Cluster("pre", "Preemption cluster"),), (node,))

    async def on_status(report: Any) -> None:
        await sessions.handle_status_report(c.sessions, "pre", report)

    cluster = SimulatedCluster(inventory, on_status, start_delay=0.1)
    await register_cluster_inventory(c, cluster, kind="simulated")
    c.clusters.add(cluster)
    async with c.uow() as uow:
        offering = await catalog.offering_create(
            uow,
            SYSTEM,
            c.ids,
            c.clock,
            vendor="NVIDIA",
            name=MODEL,
            vram_mib=32768,
            min_cuda="11.0",
            hourly_rate_micro=1_000_000,
        )
        card = await catalog.preset_create(
            uow,
            SYSTEM,
            c.ids,
            c.clock,
            name=unique("whole"),
            cpu_millicores=1000,
            memory_mib=1024,
            disk_gib=10,
            shm_mib=128,
            tier=GpuTier.EXCLUSIVE,
            gpu_count=1,
        )
        image = await catalog.image_create(
            uow,
            SYSTEM,
            c.ids,
            c.clock,
            name=unique("i"),
            reference="nvcr.io/nvidia/cuda:12.4.0-base",
            cuda_version="12.4",
            scope=ImageScope.GLOBAL,
        )
        await uow.commit()
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
    await wait_state(c, job.id, SessionState.RUNNING)  # the freed card goes back to the job
    await sessions.session_stop(c.sessions, sc.actor, job.id)
    await wait_state(c, job.id, SessionState.STOPPED)
    await cluster.close()
