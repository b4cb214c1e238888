"""`nodeSharingModeChange` on a registered cluster: refused (typed, nothing touched) when the
remaining time-sliced capacity would not cover the allocated shared quota; otherwise every step
in order, visible in `nodeOperation` and the audit log, the node's sessions paused and
re-queued, and no stale resource left in the cluster or in gshare's capacity."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any
from uuid import UUID

import pytest
from kubernetes_asyncio import client
from sqlalchemy import func, select

from domain.inventory.model import SharingMode
from domain.sessions import services as sessions
from domain.sessions.model import SessionState
from infra.clusters.wiring import NODE_OPERATION_TIMINGS
from infra.db.models.clusters_extra import NodeOperationRow
from tests.integration.k8s_e2e.conftest import NS, E2ECluster, e2e_catalog, funded_member
from tests.integration.operator.conftest import eventually
from tests.integration.sessions.test_lifecycle import wait_state
from tests.k8s.device_plugins import NvidiaDevicePlugin
from tests.k8s.kubelet import Kubelet
from tests.support.api import Gql, World

CHANGE = """
mutation($input: NodeSharingModeChangeInput!) {
  nodeSharingModeChange(input: $input) {
    operation { id state currentStep }
    errors { code field message }
  }
}"""
OPERATION = """
query($id: ID!) {
  nodeOperation(id: $id) {
    state error currentStep drainedSessions removedResources
    steps { step message }
  }
}"""
STEPS = ["precheck", "cordon", "drain", "relabel", "wait-for-resource", "remove-stale", "uncordon"]


@pytest.fixture(autouse=True)
def fast_node_operations(container: Any) -> Any:
    container.extras[NODE_OPERATION_TIMINGS] = {"poll": 0.05, "drain_within": 15, "expose_within": 10}
    yield
    container.extras.pop(NODE_OPERATION_TIMINGS, None)


@pytest.fixture
async def plugin(kube_client: client.ApiClient) -> AsyncIterator[None]:
    nvidia = NvidiaDevicePlugin(kube_client, "n-ex", cards=4)
    nvidia.start()
    yield
    await nvidia.stop()


async def _create(c: Any, actor: Any, cat: Any, kind: str, cluster: str) -> Any:
    return await sessions.session_create(
        c.sessions,
        actor,
        sessions.SessionRequest(
            name=f"node-op-{kind}",
            image_id=cat.image.id,
            preset_id=cat.presets[kind].id,
            offering_id=cat.offerings[kind].id,
            cluster=cluster,
            shared=kind == "timeslice",
        ),
    )


async def _operations(c: Any, node_id: str) -> int:
    async with c.uow() as uow:
        return int(
            await uow.session.scalar(
                select(func.count()).select_from(NodeOperationRow).where(NodeOperationRow.node_id == node_id)
            )
            or 0
        )


async def test_refused_when_shared_quota_would_not_fit(
    e2e: E2ECluster, admin: Gql, container: Any, world: World, kubelet: Kubelet
) -> None:
    c = container
    await e2e.start_operator()
    cat = await e2e_catalog(c)
    actor, _ = await funded_member(c, world)
    shared = [await _create(c, actor, cat, "timeslice", e2e.id) for _ in range(3)]
    for s in shared:
        await wait_state(c, s.id, SessionState.RUNNING, within=15)
    node_id = f"{e2e.id}/n-ts"
    k8s_before = e2e.api.get("nodes", "n-ts")
    mark = len(e2e.api.requests)

    to_exclusive = await admin(CHANGE, input={"clusterId": e2e.id, "nodeId": "n-ts", "mode": "EXCLUSIVE"})
    errors = to_exclusive["nodeSharingModeChange"]["errors"]
    assert [(e["code"], e["field"]) for e in errors] == [("SHARING_CHANGE_SHARED_CAPACITY_SHORT", "mode")]
    assert "3 are allocated" in errors[0]["message"]
    fewer = await admin(CHANGE, input={"clusterId": e2e.id, "nodeId": node_id, "mode": "TIMESLICING", "replicas": 1})
    assert [(e["code"], e["field"]) for e in fewer["nodeSharingModeChange"]["errors"]] == [
        ("SHARING_CHANGE_SHARED_CAPACITY_SHORT", "replicas")
    ]

    # nothing touched: the node in Kubernetes, gshare's capacity, the sessions, no operation
    assert e2e.api.get("nodes", "n-ts") == k8s_before
    assert [w for w in e2e.api.writes(mark) if "/nodes" in w.path] == []
    async with c.uow() as uow:
        node = (await uow.capacity.inventory()).node(node_id)
    assert not node.cordoned and node.sharing_mode is SharingMode.TIMESLICING
    assert await _operations(c, node_id) == 0
    for s in shared:
        async with c.uow() as uow:
            assert (await uow.sessions.get(s.id)).state is SessionState.RUNNING  # type: ignore[union-attr]
    audit = await admin("{ auditLog(first: 10) { edges { node { operation success resultCode } } } }")
    refused = [
        e["node"]["resultCode"]
        for e in audit["auditLog"]["edges"]
        if e["node"]["operation"] == "nodeSharingModeChange" and not e["node"]["success"]
    ]
    assert refused[:2] == ["SHARING_CHANGE_SHARED_CAPACITY_SHORT"] * 2

    for s in shared:
        await sessions.session_stop(c.sessions, actor, s.id)


async def test_switching_to_time_slicing_runs_every_step_and_requeues_the_node_sessions(
    e2e: E2ECluster, admin: Gql, container: Any, world: World, kubelet: Kubelet, plugin: None
) -> None:
    c = container
    await e2e.start_operator()
    cat = await e2e_catalog(c)
    actor, _ = await funded_member(c, world)
    exclusive = await _create(c, actor, cat, "exclusive", e2e.id)
    await wait_state(c, exclusive.id, SessionState.RUNNING, within=15)
    node_id = f"{e2e.id}/n-ex"

    data = await admin(CHANGE, input={"clusterId": e2e.id, "nodeId": node_id, "mode": "TIMESLICING", "replicas": 4})
    result = data["nodeSharingModeChange"]
    assert result["errors"] == []
    assert result["operation"]["state"] == "RUNNING" and result["operation"]["currentStep"] == "PRECHECK"
    op_id = result["operation"]["id"]

    async def finished() -> Any:
        op = (await admin(OPERATION, id=op_id))["nodeOperation"]
        return op if op["state"] != "RUNNING" else None

    op = await eventually(finished, within=30, interval=0.1, message="node operation finished")
    assert op["state"] == "SUCCEEDED", op
    assert [s["step"].lower().replace("_", "-") for s in op["steps"]] == STEPS
    assert op["drainedSessions"] == [str(exclusive.id)]
    assert op["removedResources"] == ["nvidia.com/gpu"]

    # the session was paused (pod gone) and re-queued: no exclusive card is left for it
    drained = await wait_state(c, exclusive.id, SessionState.QUEUED, within=10)
    assert drained.placement is None
    assert e2e.api.get("pods", f"s-{exclusive.id}", NS) is None

    # Kubernetes: relabelled, uncordoned, nothing stale
    node = e2e.api.get("nodes", "n-ex")
    assert node is not None and not node["spec"].get("unschedulable")
    assert node["metadata"]["labels"]["gshare.io/sharing-mode"] == "timeslicing"
    assert "nvidia.com/gpu" not in node["status"]["capacity"]
    assert "nvidia.com/gpu" not in node["status"]["allocatable"]
    # gshare's capacity: the new mode, 4 slices a card, uncordoned, nothing stale
    async with c.uow() as uow:
        ex = (await uow.capacity.inventory()).node(node_id)
    assert ex.sharing_mode is SharingMode.TIMESLICING and not ex.cordoned
    assert ex.stale_resources == () and {card.timeslice_replicas for card in ex.cards} == {4}

    # every step is in the audit log, in order
    audit = await admin("{ auditLog(first: 40) { edges { node { operation targetId success } } } }")
    logged = [
        e["node"]["operation"].removeprefix("nodeSharingModeChange.")
        for e in reversed(audit["auditLog"]["edges"])
        if e["node"]["operation"].startswith("nodeSharingModeChange.") and e["node"]["targetId"] == node_id
    ]
    assert logged == [*STEPS, "done"]
    mine = [e["node"] for e in audit["auditLog"]["edges"] if e["node"]["targetId"] in (node_id, op_id)]
    assert ("nodeSharingModeChange", op_id) in [(n["operation"], n["targetId"]) for n in mine]
    assert all(n["success"] for n in mine)
    await sessions.session_stop(c.sessions, actor, exclusive.id)
    stopped = await wait_state(c, exclusive.id, SessionState.STOPPED, within=10)
    assert stopped.charged_micro > 0 or stopped.billed_seconds == 0
    assert isinstance(UUID(op_id), UUID)


async def test_progress_is_published_and_a_mode_that_never_shows_is_rolled_back(
    e2e: E2ECluster, admin: Gql, container: Any, world: World
) -> None:
    """No device plugin serves HAMi here: the operation fails at wait-for-resource, puts the old
    labels back and, as the node still publishes its exclusive cards, uncordons it in
    Kubernetes and in gshare's capacity; it says so. Each step was published on the event bus."""
    from domain.inventory import node_operations as node_ops
    from domain.tenancy.services import load_actor
    from infra.clusters.repository import SqlClusterRecords
    from infra.clusters.wiring import KubernetesNodeSharing, node_operation_records

    c = container
    c.extras[NODE_OPERATION_TIMINGS] = {"poll": 0.05, "drain_within": 5, "expose_within": 0.3}
    async with c.uow() as uow:
        actor = await load_actor(uow, world.users["super_admin"])
        cluster = await SqlClusterRecords(uow).get(e2e.id)
    assert actor is not None and cluster is not None
    deps = node_ops.NodeOperationDeps(sessions=c.sessions, records=node_operation_records(c), events=c.events)
    node_id = f"{e2e.id}/n-ex"
    op, plan = await node_ops.node_sharing_mode_change_start(
        deps,
        actor,
        cluster_id=e2e.id,
        node_id=node_id,
        mode=SharingMode.HAMI,
        replicas=None,
        operation_id=c.ids.new_id(),
    )
    assert plan.drain == ()
    events: list[dict[str, Any]] = []
    async with c.events.subscribe(node_ops.node_operation_topic(op.id)) as subscription:

        async def collect() -> None:
            async for _, payload in subscription:
                events.append(payload)
                if "state" in payload:
                    return

        collector = asyncio.create_task(collect())
        done = await node_ops.node_sharing_mode_change_run(deps, actor, op, KubernetesNodeSharing(c, cluster), "n-ex")
        await asyncio.wait_for(collector, 5)
    assert done.state is node_ops.NodeOperationState.FAILED
    assert done.error is not None and "rolled back to exclusive and uncordoned" in done.error
    assert [e["step"] for e in events if "step" in e] == ["cordon", "drain", "relabel", "wait-for-resource", "rollback"]
    assert events[-1]["state"] == "failed"
    k8s = e2e.api.get("nodes", "n-ex")
    assert k8s is not None and not k8s["spec"].get("unschedulable")
    assert k8s["metadata"]["labels"].get("gpu") is None
    async with c.uow() as uow:
        node = (await uow.capacity.inventory()).node(node_id)
    assert not node.cordoned and node.sharing_mode is SharingMode.EXCLUSIVE
    stored = (await admin(OPERATION, id=str(op.id)))["nodeOperation"]
    assert stored["state"] == "FAILED" and stored["currentStep"] == "ROLLBACK"
