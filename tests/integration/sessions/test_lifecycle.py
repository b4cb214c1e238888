"""A GPU session through its whole life on the simulated cluster, via the use cases."""

from __future__ import annotations

import asyncio
from typing import Any
from uuid import UUID

from domain.catalog import services as catalog
from domain.catalog.model import GpuTier, ImageScope
from domain.sessions import services as sessions
from domain.sessions.model import Expiry, SessionState
from domain.tenancy.services import load_actor
from tests.support.api import SYSTEM, World, fund_user, make_user, unique


async def wait_state(container: Any, sid: UUID, *states: SessionState, within: float = 10) -> Any:
    deadline = asyncio.get_running_loop().time() + within
    while True:
        async with container.uow() as uow:
            s = await uow.sessions.get(sid)
        if s is not None and s.state in states:
            return s
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"session stayed {s.state if s else None}, wanted {states}")
        await asyncio.sleep(0.05)


async def catalog_for(c: Any) -> dict[str, Any]:
    async with c.uow() as uow:
        offerings, _ = await uow.catalog.list_offerings(0, 100)
        off = next((o for o in offerings if o.name == "A100-80GB"), None)
        if off is None:
            off = await catalog.offering_create(
                uow,
                SYSTEM,
                c.ids,
                c.clock,
                vendor="NVIDIA",
                name="A100-80GB",
                vram_mib=81920,
                min_cuda="11.0",
                hourly_rate_micro=3_600_000,
            )
        preset = await catalog.preset_create(
            uow,
            SYSTEM,
            c.ids,
            c.clock,
            name=unique("L"),
            cpu_millicores=2000,
            memory_mib=4096,
            disk_gib=10,
            shm_mib=512,
            tier=GpuTier.L,
        )
        cpu = await catalog.preset_create(
            uow,
            SYSTEM,
            c.ids,
            c.clock,
            name=unique("cpu"),
            cpu_millicores=1000,
            memory_mib=1024,
            disk_gib=10,
            shm_mib=128,
            tier=GpuTier.NONE,
        )
        image = await catalog.image_create(
            uow,
            SYSTEM,
            c.ids,
            c.clock,
            name=unique("torch"),
            reference="nvcr.io/nvidia/pytorch:24.05-py3",
            cuda_version="12.4",
            scope=ImageScope.GLOBAL,
        )
        await uow.commit()
    return {"offering": off, "preset": preset, "cpu": cpu, "image": image}


async def member(
    c: Any, world: World, group: UUID, *, credits: int = 100, approval: bool = False, prefix: str = "m"
) -> tuple[Any, str]:
    """A funded member of `group` (in org A) with it as their active group, as an Actor, and
    their token; `approval` puts their sessions behind an admin's approval."""
    from dataclasses import replace

    from domain.policies import services as policies
    from domain.policies.model import PolicyScope, ResourcePolicy

    uid, token = await make_user(c, world.org_a, unique(prefix), groups=[group])
    if credits:
        await fund_user(c, world.org_a, group, uid, credits)
    if approval:
        await policies.set_policy(
            SYSTEM,
            c.credits.policies,
            c.credits.directory,
            c.clock,
            ResourcePolicy(PolicyScope.user(uid), approval_required=True),
        )
    async with c.uow() as uow:
        actor = await load_actor(uow, uid)
    assert actor is not None
    return replace(actor, active_group_id=group), token


def gpu_request(cat: dict[str, Any], name: str, **extra: Any) -> sessions.SessionRequest:
    """A session on the catalog's GPU preset and offering."""
    return sessions.SessionRequest(
        name=name, image_id=cat["image"].id, preset_id=cat["preset"].id, offering_id=cat["offering"].id, **extra
    )


async def test_gpu_session_lifecycle_and_billing(container: Any, world: World, runtime: Any) -> None:
    c = container
    cat = await catalog_for(c)
    actor, _ = await member(c, world, world.g1, prefix="life")
    uid = actor.user_id
    req = gpu_request(cat, "train", expiry=Expiry.H4)
    s = await sessions.session_create(c.sessions, actor, req)
    assert s.state == SessionState.SCHEDULED and s.hold_id is not None
    running = await wait_state(c, s.id, SessionState.RUNNING)
    assert running.running_since is not None and running.endpoints.jupyterlab
    await asyncio.sleep(1.2)
    paused = await sessions.session_pause(c.sessions, actor, s.id)
    assert paused.state in (SessionState.PAUSING, SessionState.PAUSED)
    paused = await wait_state(c, s.id, SessionState.PAUSED)
    assert paused.billed_seconds >= 1 and paused.placement is None
    resumed = await sessions.session_resume(c.sessions, actor, s.id)
    assert resumed.state == SessionState.SCHEDULED
    await wait_state(c, s.id, SessionState.RUNNING)
    stopped = await sessions.session_stop(c.sessions, actor, s.id)
    final = await wait_state(c, s.id, SessionState.STOPPED)
    # ratio 1/4 of 3.6 credits/hour = 250 micro-credits per second
    assert final.charged_micro == final.billed_seconds * 250
    assert stopped.state in (SessionState.STOPPING, SessionState.STOPPED)
    from domain.credits.model import AccountRef

    balances = await c.credits.ledger.balances([AccountRef.user(uid)])
    b = balances[AccountRef.user(uid)]
    assert b.held_micro == 0
    assert b.balance_micro == 100_000_000 - final.charged_micro


async def test_cpu_session_skips_hold_and_placement(container: Any, world: World, runtime: Any) -> None:
    c = container
    cat = await catalog_for(c)
    uid, _ = await make_user(c, world.org_a, unique("cpu"), groups=[world.g1])
    async with c.uow() as uow:
        actor = await load_actor(uow, uid)
    assert actor is not None
    s = await sessions.session_create(
        c.sessions, actor, sessions.SessionRequest(name="notebook", image_id=cat["image"].id, preset_id=cat["cpu"].id)
    )
    assert s.hold_id is None and s.gpu is None
    await wait_state(c, s.id, SessionState.RUNNING)
    await sessions.session_stop(c.sessions, actor, s.id)
    await wait_state(c, s.id, SessionState.STOPPED)


async def test_cpu_session_pause_resume_stop(container: Any, world: World, runtime: Any) -> None:
    c = container
    cat = await catalog_for(c)
    uid, _ = await make_user(c, world.org_a, unique("cpr"), groups=[world.g1])
    async with c.uow() as uow:
        actor = await load_actor(uow, uid)
    assert actor is not None
    s = await sessions.session_create(
        c.sessions, actor, sessions.SessionRequest(name="nb", image_id=cat["image"].id, preset_id=cat["cpu"].id)
    )
    await wait_state(c, s.id, SessionState.RUNNING)
    await sessions.session_pause(c.sessions, actor, s.id)
    await wait_state(c, s.id, SessionState.PAUSED)
    await sessions.session_resume(c.sessions, actor, s.id)
    await wait_state(c, s.id, SessionState.RUNNING)
    await sessions.session_stop(c.sessions, actor, s.id)
    await wait_state(c, s.id, SessionState.STOPPED)


async def test_status_reports_written_as_one_batch_apply_in_order(container: Any, world: World, runtime: Any) -> None:
    from datetime import timedelta

    from domain.inventory.model import Card, Node, SharingMode
    from domain.inventory.ports import EndpointUrl, StatusReport, WorkloadPhase
    from tests.support.api import add_gpu_catalog, add_simulated_cluster

    c = container
    # a cluster whose pods take a minute to start: it reports nothing but STARTING meanwhile.
    # Its card is of a model of its own, so that no other test's session is placed there
    # (the cluster outlives the test, and the order of tests is random)
    model = unique("A100-slow")
    node = Node("slow-0", "slow-0", "slow", SharingMode.HAMI, 64000, 512 * 1024, (Card("GPU-slow-0", model, 81920),))
    cluster = await add_simulated_cluster(c, "slow", (node,), start_delay=60)
    cat = await add_gpu_catalog(
        c, model, 81920, 3_600_000, preset={"cpu_millicores": 2000, "memory_mib": 4096, "tier": GpuTier.L}
    )
    actor, _ = await member(c, world, world.g1, prefix="batch")
    s = await sessions.session_create(c.sessions, actor, gpu_request(cat, "batch", expiry=Expiry.H1, cluster="slow"))
    assert s.cluster_id == "slow"
    at = c.clock.now() + timedelta(milliseconds=1)
    url = EndpointUrl("jupyterlab", "http://example.invalid/lab")
    results = await sessions.handle_status_reports(
        c.sessions,
        "slow",
        [
            StatusReport(s.id, WorkloadPhase.STARTING, at),
            StatusReport(s.id, WorkloadPhase.RUNNING, at, endpoints=(url,)),
            StatusReport(s.id, WorkloadPhase.RUNNING, at),  # repeated: changes nothing
        ],
    )
    assert [r.state if r else None for r in results] == [
        SessionState.STARTING,
        SessionState.RUNNING,
        SessionState.RUNNING,
    ]
    elsewhere = await sessions.handle_status_reports(
        c.sessions, "another-cluster", [StatusReport(s.id, WorkloadPhase.FAILED, at)]
    )
    assert elsewhere == [None]  # another cluster's report about this session is ignored
    async with c.uow() as uow:
        stored = await uow.sessions.get(s.id)
    assert stored is not None and stored.state == SessionState.RUNNING and stored.running_since == at
    assert stored.endpoints.jupyterlab == url.url
    await sessions.session_stop(c.sessions, actor, s.id)
    await wait_state(c, s.id, SessionState.STOPPED)
    await cluster.close()


async def test_reports_of_many_pods_move_them_on_together_and_in_order(
    container: Any, world: World, runtime: Any
) -> None:
    """Issue 19: the pods of a batch starting and running move their sessions on in one
    statement per column set; a report that does more (a pod stopped) comes after those before
    it, and the versions written are those the sessions are read back with."""
    from dataclasses import replace
    from datetime import timedelta

    import pytest

    from domain.inventory.model import Card, Node, SharingMode
    from domain.inventory.ports import EndpointUrl, StatusReport, WorkloadPhase
    from infra.db.repositories.sessions import StaleSessionError
    from tests.support.api import add_gpu_catalog, add_simulated_cluster

    c = container
    model, name = unique("A100-many"), unique("many")  # a cluster and card model of its own
    node = Node(
        f"{name}-0", f"{name}-0", name, SharingMode.HAMI, 64000, 512 * 1024, (Card(f"GPU-{name}", model, 81920),)
    )
    cluster = await add_simulated_cluster(c, name, (node,), start_delay=60)
    cat = await add_gpu_catalog(
        c, model, 81920, 3_600_000, preset={"cpu_millicores": 2000, "memory_mib": 4096, "tier": GpuTier.L}
    )
    actor, _ = await member(c, world, world.g1, prefix="many")
    one, two, three = [
        await sessions.session_create(c.sessions, actor, gpu_request(cat, f"many{i}", expiry=Expiry.H1, cluster=name))
        for i in range(3)
    ]
    at = c.clock.now() + timedelta(milliseconds=1)
    url = EndpointUrl("jupyterlab", "http://example.invalid/lab")
    results = await sessions.handle_status_reports(
        c.sessions,
        name,
        [
            StatusReport(one.id, WorkloadPhase.STARTING, at),
            StatusReport(two.id, WorkloadPhase.STARTING, at),
            StatusReport(three.id, WorkloadPhase.RUNNING, at, endpoints=(url,)),
            StatusReport(two.id, WorkloadPhase.STOPPED, at),  # the pod went: after its start
            StatusReport(one.id, WorkloadPhase.RUNNING, at, endpoints=(url,)),
            StatusReport(two.id, WorkloadPhase.RUNNING, at),  # stopped already: changes nothing
        ],
    )
    S = SessionState
    assert [(r.id, r.state) if r else None for r in results] == [
        (one.id, S.STARTING), (two.id, S.STARTING), (three.id, S.RUNNING),
        (two.id, S.STOPPED), (one.id, S.RUNNING), (two.id, S.STOPPED),
    ]  # fmt: skip
    async with c.uow() as uow:
        stored = {s.id: s for s in await uow.sessions.get_many([one.id, two.id, three.id], for_update=True)}
        assert stored[one.id].state is S.RUNNING and stored[one.id].endpoints.jupyterlab == url.url
        assert stored[three.id].state is S.RUNNING and stored[three.id].running_since == at
        assert stored[two.id].state is S.STOPPED and stored[two.id].placement is None
        # the versions written are those read back: locked, they are updated together again
        again = await uow.sessions.update_many([stored[one.id], stored[three.id]])
        assert [s.version for s in again] == [stored[one.id].version + 1, stored[three.id].version + 1]
        # one at a version this transaction did not read is updated alone, its version checked
        with pytest.raises(StaleSessionError):
            await uow.sessions.update_many([stored[two.id], replace(stored[three.id], state_reason="stale")])
        await uow.commit()
    async with c.uow() as uow:
        after = {s.id: s for s in await uow.sessions.get_many([one.id, three.id])}
    assert {k: s.version for k, s in after.items()} == {s.id: s.version for s in again}
    await cluster.close()


async def test_a_clusters_listing_judges_only_the_sessions_placed_on_it(
    container: Any, world: World, runtime: Any
) -> None:
    """An inventory listing from cluster X never re-places a session running on cluster Y
    (the repository filters by cluster); its own cluster's listing that names it leaves it be."""
    from datetime import timedelta

    from domain.sessions.ports import SessionFilter

    c = container
    cat = await catalog_for(c)
    actor, _ = await member(c, world, world.g1, prefix="listed")
    s = await sessions.session_create(c.sessions, actor, gpu_request(cat, "listed", expiry=Expiry.H4))
    running = await wait_state(c, s.id, SessionState.RUNNING)
    assert running.cluster_id == "demo"
    async with c.uow() as uow:
        here, _ = await uow.sessions.search(
            SessionFilter(states=frozenset({SessionState.RUNNING}), cluster_id="demo"), 0, 500
        )
        elsewhere, _ = await uow.sessions.search(SessionFilter(cluster_id="another-cluster"), 0, 500)
    assert s.id in {x.id for x in here} and all(x.cluster_id == "demo" for x in here)
    assert elsewhere == []
    later = running.updated_at + timedelta(seconds=5)
    assert await sessions.workloads_listed(c.sessions, "another-cluster", frozenset(), later, grace_seconds=0) == []
    assert (await wait_state(c, s.id, SessionState.RUNNING)).version == running.version
    present = frozenset(x.id for x in here)
    assert await sessions.workloads_listed(c.sessions, "demo", present, later, grace_seconds=0) == []
    await sessions.session_stop(c.sessions, actor, s.id)
    await wait_state(c, s.id, SessionState.STOPPED)
