"""Changing a node's sharing mode on the API test server, against plug-ins that publish what the
real ones do (tests/k8s/device_plugins.py) on the recorded real nodes: refused when the
pre-check refuses; otherwise every step in order, sessions drained, the wait lasting until the
new mode is really published, nothing stale left behind; to HAMi and back; and a rollback when
the new mode never shows."""

from __future__ import annotations

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
    NodeOperationFailed,
    NodeOperations,
    NodeStep,
    change_sharing_mode,
    resource_name,
)
from tests.integration.operator.conftest import CLUSTER, HAMI_CARDS, NS, OperatorFactory, Receiver, eventually
from tests.k8s.apiserver import KubeApiServer
from tests.k8s.device_plugins import HamiDevicePlugin, NvidiaDevicePlugin
from tests.k8s.kubelet import Kubelet
from tests.k8s.nodes import H100_CARDS, H100_DEVMEM, H100_TYPE

# What GFD labels about an H100 node's cards (NVIDIA/k8s-device-plugin issue #1501, a real
# 8 × H100 node's labels: "nvidia.com/gpu.memory=81559", "nvidia.com/gpu.product=NVIDIA-H100-80GB-HBM3")
H100_GFD = {
    "nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3",
    "nvidia.com/gpu.count": "2",
    "nvidia.com/gpu.memory": "81559",
}


@pytest.fixture
async def adapter(cluster: KubeApiServer, tmp_path: Path) -> AsyncIterator[KubernetesCluster]:
    kubeconfig = cluster.write_kubeconfig(tmp_path / "kubeconfig", token="cp-token", user="gshare-cp")
    port = await KubernetesCluster.from_kubeconfig(CLUSTER, kubeconfig.read_text())
    yield port
    await port.close()


@pytest.fixture
async def ex_plugin(kube_client: client.ApiClient) -> AsyncIterator[NvidiaDevicePlugin]:
    plugin = NvidiaDevicePlugin(kube_client, "ex-1", cards=8)
    plugin.start()
    yield plugin
    await plugin.stop()


def exclusive_session(session_id: UUID, cards: tuple[str, ...]) -> WorkloadSpec:
    shares = tuple(CardShare(uuid, 16384, 100) for uuid in cards)
    placement = Placement(CLUSTER, f"{CLUSTER}/ex-1", GpuKind.EXCLUSIVE, shares, Fraction(len(cards)), 2000, 4096)
    return WorkloadSpec(session_id, "bob", "busybox:1.36", 2000, 4096, placement)


async def _no_objection() -> None:
    return None


async def _no_drain(session_ids: list[UUID]) -> None:
    return None


async def test_switching_to_time_slicing_runs_every_step_and_leaves_nothing_stale(
    cluster: KubeApiServer,
    kube_client: client.ApiClient,
    operators: OperatorFactory,
    kubelet: Kubelet,
    receiver: Receiver,
    adapter: KubernetesCluster,
    ex_plugin: NvidiaDevicePlugin,
) -> None:
    await operators.start()
    session_id = uuid4()
    await adapter.apply(exclusive_session(session_id, (f"{CLUSTER}/ex-1/gpu-0", f"{CLUSTER}/ex-1/gpu-1")))
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

    assert steps == [s for s in NodeStep if s is not NodeStep.ROLLBACK]
    assert drained == [session_id]
    assert cluster.get("pods", resource_name(session_id), NS) is None
    assert removed == ["nvidia.com/gpu", "nvidia.com/gpu.shared"] or removed == ["nvidia.com/gpu"]
    node = cluster.get("nodes", "ex-1")
    assert node is not None
    assert not node["spec"].get("unschedulable")
    labels = node["metadata"]["labels"]
    assert labels["gshare.io/sharing-mode"] == "timeslicing"
    assert labels["nvidia.com/device-plugin.config"] == "time-slicing-4"
    # the wait lasted until GFD showed the new replica count, not just until a resource appeared
    assert labels["nvidia.com/gpu.replicas"] == "4" and labels["nvidia.com/gpu.sharing-strategy"] == "time-slicing"
    assert "nvidia.com/gpu" not in node["status"]["capacity"]
    assert "nvidia.com/gpu" not in node["status"]["allocatable"]
    assert node["status"]["allocatable"]["nvidia.com/gpu.shared"] == "32"
    inventory = await adapter.read_inventory()
    ex = inventory.node(f"{CLUSTER}/ex-1")
    assert ex.sharing_mode is SharingMode.TIMESLICING
    assert ex.stale_resources == ()
    assert len(ex.cards) == 8 and {c.timeslice_replicas for c in ex.cards} == {4}


async def test_from_hami_to_exclusive_and_back(
    cluster: KubeApiServer, kube_client: client.ApiClient, adapter: KubernetesCluster
) -> None:
    """hami-1 in a cluster that also runs the GPU operator: the operator's device plugin is
    disabled on it (`nvidia.com/gpu.deploy.device-plugin=false`) while HAMi's serves it."""
    core = client.CoreV1Api(kube_client)
    await core.patch_node("hami-1", {"metadata": {"labels": {"nvidia.com/gpu.deploy.device-plugin": "false"}}})
    hami = HamiDevicePlugin(kube_client, "hami-1", cards=H100_CARDS[:2], devtype=H100_TYPE, devmem=H100_DEVMEM)
    nvidia = NvidiaDevicePlugin(kube_client, "hami-1", cards=2, gfd_labels=H100_GFD)
    hami.start()
    nvidia.start()
    nodes = NodeOperations(kube_client, poll_interval=0.02)
    try:
        await eventually(lambda: hami.running)
        before = (await adapter.read_inventory()).node(f"{CLUSTER}/hami-1")
        assert before.sharing_mode is SharingMode.HAMI

        removed = await change_sharing_mode(
            nodes, "hami-1", SharingMode.EXCLUSIVE, precheck=_no_objection, drain=_no_drain, expose_within=5
        )
        node = cluster.get("nodes", "hami-1")
        assert node is not None
        assert node["metadata"]["labels"].get("gpu") is None
        assert node["metadata"]["labels"]["nvidia.com/gpu.deploy.device-plugin"] == "true"
        # HAMi's registration went with it (its scheduler would otherwise keep using the cards)
        assert "hami.io/node-nvidia-register" not in node["metadata"]["annotations"]
        assert "annotation hami.io/node-nvidia-register" in removed
        assert node["status"]["allocatable"]["nvidia.com/gpu"] == "2"
        exclusive = (await adapter.read_inventory()).node(f"{CLUSTER}/hami-1")
        assert exclusive.sharing_mode is SharingMode.EXCLUSIVE
        assert len(exclusive.cards) == 2 and not any(c.identified for c in exclusive.cards)

        await change_sharing_mode(
            nodes, "hami-1", SharingMode.HAMI, precheck=_no_objection, drain=_no_drain, expose_within=5
        )
        node = cluster.get("nodes", "hami-1")
        assert node is not None and not node["spec"].get("unschedulable")
        assert node["metadata"]["labels"]["gpu"] == "on"
        assert node["metadata"]["annotations"]["hami.io/node-handshake"].startswith("Reported ")
        assert node["status"]["allocatable"]["nvidia.com/gpu"] == "20"
        back = (await adapter.read_inventory()).node(f"{CLUSTER}/hami-1")
        assert back.sharing_mode is SharingMode.HAMI
        assert [c.uuid for c in back.cards] == HAMI_CARDS and all(c.identified for c in back.cards)
    finally:
        await hami.stop()
        await nvidia.stop()


class SharedQuotaWouldNotFit(Exception):
    pass


async def test_a_refused_precheck_touches_nothing(
    cluster: KubeApiServer, kube_client: client.ApiClient, ex_plugin: NvidiaDevicePlugin
) -> None:
    async def refuse() -> None:
        raise SharedQuotaWouldNotFit("remaining shared capacity 4 < allocated shared quota 6")

    async def drain(session_ids: list[UUID]) -> None:
        raise AssertionError("must not drain")

    await eventually(lambda: cluster.get("nodes", "ex-1")["metadata"]["labels"].get("nvidia.com/gpu.replicas") == "1")
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


async def test_a_mode_that_never_shows_is_rolled_back(
    cluster: KubeApiServer, kube_client: client.ApiClient, ex_plugin: NvidiaDevicePlugin, adapter: KubernetesCluster
) -> None:
    """HAMi's device plugin never comes up on ex-1: the labels go back, the NVIDIA plugin serves
    the cards again, the node is uncordoned and the failure says so."""
    broken = HamiDevicePlugin(kube_client, "ex-1", cards=[], devtype="", devmem=0, healthy=False)
    broken.start()
    before = dict(cluster.get("nodes", "ex-1")["metadata"]["labels"])
    steps: list[NodeStep] = []

    async def progress(step: NodeStep, message: str) -> None:
        steps.append(step)

    try:
        with pytest.raises(NodeOperationFailed) as info:
            await change_sharing_mode(
                NodeOperations(kube_client, poll_interval=0.02),
                "ex-1",
                SharingMode.HAMI,
                precheck=_no_objection,
                drain=_no_drain,
                progress=progress,
                expose_within=0.5,
            )
    finally:
        await broken.stop()
    assert info.value.rolled_back and info.value.step is NodeStep.WAIT_FOR_RESOURCE
    assert "rolled back to exclusive" in info.value.message
    assert steps[-1] is NodeStep.ROLLBACK
    node = cluster.get("nodes", "ex-1")
    assert node is not None and not node["spec"].get("unschedulable")
    labels = node["metadata"]["labels"]
    for key in ("gpu", "nvidia.com/device-plugin.config", "nvidia.com/gpu.deploy.device-plugin"):
        assert labels.get(key) == before.get(key)
    assert node["status"]["allocatable"]["nvidia.com/gpu"] == "8"
    assert (await adapter.read_inventory()).node(f"{CLUSTER}/ex-1").sharing_mode is SharingMode.EXCLUSIVE


async def test_a_failed_rollback_leaves_the_node_cordoned(
    cluster: KubeApiServer, kube_client: client.ApiClient
) -> None:
    """HAMi never comes up, and the NVIDIA plugin, once stopped, does not come back either."""
    nvidia = NvidiaDevicePlugin(kube_client, "ex-1", cards=8, comes_back=False)
    nvidia.start()
    try:
        await eventually(lambda: cluster.get("nodes", "ex-1")["metadata"]["labels"].get("nvidia.com/gpu.replicas"))
        with pytest.raises(NodeOperationFailed) as info:
            await change_sharing_mode(
                NodeOperations(kube_client, poll_interval=0.02),
                "ex-1",
                SharingMode.HAMI,
                precheck=_no_objection,
                drain=_no_drain,
                expose_within=0.3,
            )
    finally:
        await nvidia.stop()
    assert info.value.step is NodeStep.ROLLBACK and not info.value.rolled_back
    assert "did not complete either" in info.value.message
    node = cluster.get("nodes", "ex-1")
    assert node is not None and node["spec"]["unschedulable"] is True
