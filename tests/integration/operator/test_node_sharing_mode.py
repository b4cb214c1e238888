"""Changing a node's sharing mode on the API test server: refused when the pre-check refuses,
otherwise every step in order, sessions drained, and no stale resource left behind."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from fractions import Fraction
from pathlib import Path
from uuid import UUID, uuid4

import pytest
from kubernetes_asyncio import client

from domain.inventory.model import CardShare, GpuKind, Placement, SharingMode
from domain.inventory.ports import WorkloadSpec
from infra.cluster.kubernetes import (
    KubernetesCluster,
    NodeOperations,
    NodeStep,
    change_sharing_mode,
    resource_name,
)
from tests.integration.operator.conftest import CLUSTER, NS, OperatorFactory, Receiver, eventually
from tests.k8s.apiserver import KubeApiServer
from tests.k8s.kubelet import Kubelet


async def device_plugin(api: client.ApiClient, node_name: str, cards: int) -> None:
    """Plays the NVIDIA device plugin + kubelet: when the node's device-plugin config label
    asks for time slicing, `nvidia.com/gpu.shared` appears and `nvidia.com/gpu` drops to 0
    allocatable while staying in capacity (what a stale resource looks like)."""
    core = client.CoreV1Api(api)
    while True:
        node = await core.read_node(node_name)
        config = (node.metadata.labels or {}).get("nvidia.com/device-plugin.config", "")
        allocatable = node.status.allocatable or {}
        if config.startswith("time-slicing-") and int(allocatable.get("nvidia.com/gpu.shared", "0")) == 0:
            await asyncio.sleep(0.05)  # the plugin restarts before it re-registers
            replicas = int(config.rsplit("-", 1)[1])
            shared = str(cards * replicas)
            # GPU feature discovery labels the new replica count.
            await core.patch_node(node_name, {"metadata": {"labels": {"nvidia.com/gpu.replicas": str(replicas)}}})
            await core.patch_node_status(
                node_name,
                {
                    "status": {
                        "capacity": {"nvidia.com/gpu.shared": shared},
                        "allocatable": {"nvidia.com/gpu.shared": shared, "nvidia.com/gpu": "0"},
                    }
                },
            )
        await asyncio.sleep(0.02)


@pytest.fixture
async def plugin(kube_client: client.ApiClient) -> AsyncIterator[None]:
    task = asyncio.create_task(device_plugin(kube_client, "ex-1", cards=8))
    yield
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


@pytest.fixture
async def adapter(cluster: KubeApiServer, tmp_path: Path) -> AsyncIterator[KubernetesCluster]:
    kubeconfig = cluster.write_kubeconfig(tmp_path / "kubeconfig", token="cp-token", user="gshare-cp")
    port = await KubernetesCluster.from_kubeconfig(CLUSTER, kubeconfig.read_text())
    yield port
    await port.close()


def exclusive_session(session_id: UUID, cards: tuple[str, ...]) -> WorkloadSpec:
    shares = tuple(CardShare(uuid, 46068, 100) for uuid in cards)
    placement = Placement(CLUSTER, f"{CLUSTER}/ex-1", GpuKind.EXCLUSIVE, shares, Fraction(len(cards)), 2000, 4096)
    return WorkloadSpec(session_id, "bob", "busybox:1.36", 2000, 4096, placement)


async def test_switching_to_time_slicing_runs_every_step_and_leaves_nothing_stale(
    cluster: KubeApiServer,
    kube_client: client.ApiClient,
    operators: OperatorFactory,
    kubelet: Kubelet,
    receiver: Receiver,
    adapter: KubernetesCluster,
    plugin: None,
) -> None:
    await operators.start()
    session_id = uuid4()
    await adapter.apply(exclusive_session(session_id, ("GPU-ex-1-0", "GPU-ex-1-1")))
    await eventually(lambda: "Running" in receiver.phases(resource_name(session_id)))

    nodes = NodeOperations(kube_client, poll_interval=0.02)
    steps: list[NodeStep] = []
    drained: list[UUID] = []

    async def progress(step: NodeStep, message: str) -> None:
        steps.append(step)
        if step is NodeStep.DRAIN:
            node = cluster.get("nodes", "ex-1")
            assert node is not None and node["spec"]["unschedulable"] is True

    async def drain(session_ids: list[UUID]) -> None:
        drained.extend(session_ids)
        for sid in session_ids:
            await adapter.pause(sid)  # the control plane pauses and re-queues them

    removed = await change_sharing_mode(
        nodes,
        "ex-1",
        SharingMode.TIMESLICING,
        replicas=4,
        precheck=_no_objection,
        drain=drain,
        progress=progress,
        drain_within=5,
        expose_within=5,
    )

    assert steps == list(NodeStep)
    assert drained == [session_id]
    assert cluster.get("pods", resource_name(session_id), NS) is None
    assert removed == ["nvidia.com/gpu"]
    node = cluster.get("nodes", "ex-1")
    assert node is not None
    assert not node["spec"].get("unschedulable")
    assert node["metadata"]["labels"]["gshare.io/sharing-mode"] == "timeslicing"
    assert node["metadata"]["labels"]["nvidia.com/device-plugin.config"] == "time-slicing-4"
    assert "nvidia.com/gpu" not in node["status"]["capacity"]
    assert "nvidia.com/gpu" not in node["status"]["allocatable"]
    assert node["status"]["allocatable"]["nvidia.com/gpu.shared"] == "32"
    inventory = await adapter.read_inventory()
    ex = inventory.node(f"{CLUSTER}/ex-1")
    assert ex.sharing_mode is SharingMode.TIMESLICING
    assert ex.stale_resources == ()
    assert {c.timeslice_replicas for c in ex.cards} == {4}


async def _no_objection() -> None:
    return None


class SharedQuotaWouldNotFit(Exception):
    pass


async def test_a_refused_precheck_touches_nothing(
    cluster: KubeApiServer, kube_client: client.ApiClient, plugin: None
) -> None:
    async def refuse() -> None:
        raise SharedQuotaWouldNotFit("remaining shared capacity 4 < allocated shared quota 6")

    async def drain(session_ids: list[UUID]) -> None:
        raise AssertionError("must not drain")

    before = cluster.get("nodes", "ex-1")
    mark = len(cluster.requests)
    with pytest.raises(SharedQuotaWouldNotFit):
        await change_sharing_mode(
            NodeOperations(kube_client, poll_interval=0.02),
            "ex-1",
            SharingMode.TIMESLICING,
            replicas=2,
            precheck=refuse,
            drain=drain,
        )
    assert cluster.get("nodes", "ex-1") == before
    assert [w for w in cluster.writes(mark) if "/nodes" in w.path] == []


async def test_a_resource_that_never_appears_leaves_the_node_cordoned(
    cluster: KubeApiServer, kube_client: client.ApiClient
) -> None:
    from infra.cluster.kubernetes import NodeOperationFailed

    async def drain(session_ids: list[UUID]) -> None:
        return None

    with pytest.raises(NodeOperationFailed) as info:
        await change_sharing_mode(
            NodeOperations(kube_client, poll_interval=0.02),
            "ex-1",
            SharingMode.HAMI,
            precheck=_no_objection,
            drain=drain,
            expose_within=0.2,
        )
    assert info.value.step is NodeStep.WAIT_FOR_RESOURCE
    node = cluster.get("nodes", "ex-1")
    assert node is not None and node["spec"]["unschedulable"] is True
