"""The Kubernetes ClusterPort adapter against the API test server, with the operator running:
apply → GShareSession → pod → signed report → `StatusReport` RUNNING; pause → STOPPED."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import pytest
from kubernetes_asyncio import client

from domain.inventory.model import CardShare, GpuKind, Inventory, Placement, SharingMode
from domain.inventory.ports import ClusterPort, Endpoint, VolumeMount, WorkloadPhase, WorkloadSpec
from infra.callbacks.reports import inventory_nodes, status_report
from infra.cluster.kubernetes import KubernetesCluster, WorkloadRefused, resource_name
from tests.integration.operator.conftest import (
    CLUSTER,
    GPU_NODE_NAMES,
    HAMI_CARDS,
    NS,
    OperatorFactory,
    Receiver,
    eventually,
)
from tests.k8s.apiserver import KubeApiServer
from tests.k8s.kubelet import Kubelet


@pytest.fixture
async def adapter(cluster: KubeApiServer, tmp_path: Path) -> Any:
    kubeconfig = cluster.write_kubeconfig(tmp_path / "cp-kubeconfig", token="cp-token", user="gshare-cp")
    port = await KubernetesCluster.from_kubeconfig(CLUSTER, kubeconfig.read_text(), name="Test cluster")
    yield port
    await port.close()


def placement_for(inventory: Inventory, kind: GpuKind) -> Placement:
    if kind is GpuKind.HAMI:
        node = inventory.node(f"{CLUSTER}/hami-1")
        card = node.cards[0]
        share = CardShare(card.uuid, vram_mib=20480, cores=25)
        return Placement(CLUSTER, node.id, kind, (share,), Fraction(1, 4), 4000, 16384)
    if kind is GpuKind.SHARED:
        node = inventory.node(f"{CLUSTER}/ts-1")
        share = CardShare(node.cards[0].uuid, node.cards[0].vram_mib, 100, timeslice=True)
        return Placement(CLUSTER, node.id, kind, (share,), Fraction(1, 4), 4000, 16384)
    if kind is GpuKind.MIG:
        node = inventory.node(f"{CLUSTER}/mig-1")
        group = next(c for c in node.cards if c.mig_enabled)
        instance = group.mig_instances[0]
        share = CardShare(group.uuid, instance.profile.vram_mib, 14, mig_instance_id=instance.id)
        return Placement(CLUSTER, node.id, kind, (share,), Fraction(1, 7), 4000, 16384)
    node = inventory.node(f"{CLUSTER}/ex-1")
    shares = tuple(CardShare(c.uuid, c.vram_mib, 100) for c in node.cards[:2])
    return Placement(CLUSTER, node.id, kind, shares, Fraction(2), 8000, 32768)


def workload(session_id: UUID, placement: Placement | None) -> WorkloadSpec:
    return WorkloadSpec(
        session_id=session_id,
        owner="alice",
        image="quay.io/jupyter/pytorch-notebook:cuda12-latest",
        cpu_millicores=4000,
        memory_mib=16384,
        placement=placement,
        env={"TZ": "UTC"},
        shm_mib=2048,
        volumes=(
            VolumeMount("vol-home-alice", "home-alice", "/home/jovyan"),
            VolumeMount("vol-datasets", "datasets", "/data", read_only=True),
        ),
        endpoints=(Endpoint("jupyterlab", 8888), Endpoint("ssh", 22, "ssh")),
    )


async def test_read_inventory_reflects_the_nodes(adapter: KubernetesCluster) -> None:
    port: ClusterPort = adapter
    inventory = await port.read_inventory()
    assert [c.id for c in inventory.clusters] == [CLUSTER]
    nodes = {n.name: n for n in inventory.nodes}
    assert set(nodes) == set(GPU_NODE_NAMES)
    hami = nodes["hami-1"]
    assert hami.id == f"{CLUSTER}/hami-1"
    assert hami.sharing_mode is SharingMode.HAMI
    assert [c.uuid for c in hami.cards] == HAMI_CARDS
    assert hami.cards[0].vram_mib == 81559
    assert hami.cpu_millicores == 160000 and hami.memory_mib == 2113340180 // 1024
    assert nodes["ts-1"].sharing_mode is SharingMode.TIMESLICING
    assert {c.timeslice_replicas for c in nodes["ts-1"].cards} == {4}
    group = next(c for c in nodes["mig-1"].cards if c.mig_enabled)
    assert sorted(m.profile.name for m in group.mig_instances) == ["1g.10gb"] * 6 + ["2g.20gb"] * 4
    assert nodes["ex-1"].stale_resources == ("nvidia.com/gpu.shared",)
    assert all(not n.stale_resources for name, n in nodes.items() if name != "ex-1")


async def test_operator_inventory_report_gives_the_same_nodes(
    adapter: KubernetesCluster, operators: OperatorFactory, receiver: Receiver
) -> None:
    await operators.start()
    await eventually(lambda: receiver.inventories())
    from_report = inventory_nodes(CLUSTER, receiver.inventories()[-1])
    from_api = (await adapter.read_inventory()).nodes
    assert from_report == from_api


@pytest.mark.parametrize("kind", [GpuKind.HAMI, GpuKind.SHARED, GpuKind.MIG, GpuKind.EXCLUSIVE])
async def test_apply_runs_the_session_and_pause_stops_it(
    kind: GpuKind,
    adapter: KubernetesCluster,
    cluster: KubeApiServer,
    kube_client: client.ApiClient,
    operators: OperatorFactory,
    kubelet: Kubelet,
    receiver: Receiver,
) -> None:
    operator = await operators.start()
    placement = placement_for(await adapter.read_inventory(), kind)
    session_id = uuid4()
    name = resource_name(session_id)
    await adapter.apply(workload(session_id, placement))

    await eventually(lambda: "Running" in receiver.phases(name))
    reports = [status_report(CLUSTER, r) for r in receiver.session_reports(name)]
    running = next(r for r in reports if r is not None and r.phase is WorkloadPhase.RUNNING)
    assert running.session_id == session_id
    assert running.node_id == placement.node_id
    assert {e.name for e in running.endpoints} == {"jupyterlab", "ssh"}

    pod = cluster.get("pods", name, NS)
    assert pod is not None
    limits = pod["spec"]["containers"][0]["resources"]["limits"]
    gpu_limits = {k: v for k, v in limits.items() if k.startswith("nvidia.com/")}
    assert (
        gpu_limits
        == {
            GpuKind.HAMI: {"nvidia.com/gpu": "1", "nvidia.com/gpumem": "20480", "nvidia.com/gpucores": "25"},
            GpuKind.SHARED: {"nvidia.com/gpu.shared": "1"},
            GpuKind.MIG: {"nvidia.com/mig-1g.10gb": "1"},
            GpuKind.EXCLUSIVE: {"nvidia.com/gpu": "2"},
        }[kind]
    )
    assert limits["cpu"] == "4000m" and limits["memory"] == "16384Mi"
    if kind is GpuKind.HAMI:
        assert pod["metadata"]["annotations"]["nvidia.com/use-gpuuuid"] == HAMI_CARDS[0]
        assert pod["spec"]["schedulerName"] == "hami-scheduler"
        assert pod["metadata"]["annotations"]["hami.io/vgpu-devices-allocated"] == f"{HAMI_CARDS[0]},NVIDIA,20480,25:;"
    else:
        # cards known only by count are not pinned, and kube-scheduler places them
        assert "nvidia.com/use-gpuuuid" not in pod["metadata"]["annotations"]
        assert pod["spec"].get("schedulerName", "default-scheduler") == "default-scheduler"

    # Applying the same spec again changes nothing.
    await eventually(lambda: cluster.get("gsharesessions", name, NS).get("status", {}).get("phase") == "Running")
    await operator.controller.wait_idle()
    before = cluster.get("gsharesessions", name, NS)["metadata"]["resourceVersion"]
    await adapter.apply(workload(session_id, placement))
    assert cluster.get("gsharesessions", name, NS)["metadata"]["resourceVersion"] == before

    await adapter.pause(session_id)
    await eventually(lambda: receiver.phases(name)[-1] == "Deleted")
    stopped = status_report(CLUSTER, receiver.session_reports(name)[-1])
    assert stopped is not None and stopped.phase is WorkloadPhase.STOPPED
    assert cluster.get("pods", name, NS) is None
    # The deletion is reported before the finalizer is removed (so it is never lost).
    await eventually(lambda: cluster.get("gsharesessions", name, NS) is None)
    await adapter.pause(session_id)  # idempotent
    await adapter.delete(session_id)


async def test_cpu_only_session_needs_no_gpu(
    adapter: KubernetesCluster,
    cluster: KubeApiServer,
    operators: OperatorFactory,
    kubelet: Kubelet,
    receiver: Receiver,
) -> None:
    await operators.start()
    session_id = uuid4()
    await adapter.apply(workload(session_id, None))
    await eventually(lambda: cluster.get("pods", resource_name(session_id), NS) is not None)
    pod = cluster.get("pods", resource_name(session_id), NS)
    assert "nodeSelector" not in pod["spec"]
    assert not any(k.startswith("nvidia.com/") for k in pod["spec"]["containers"][0]["resources"]["limits"])


async def test_a_placed_cpu_only_session_is_pinned_to_its_node(
    adapter: KubernetesCluster,
    cluster: KubeApiServer,
    operators: OperatorFactory,
    kubelet: Kubelet,
    receiver: Receiver,
) -> None:
    """The control plane counted its CPU and memory on one node: the pod must run there."""
    await operators.start()
    inventory = await adapter.read_inventory()
    node = inventory.node(f"{CLUSTER}/ex-1")
    session_id = uuid4()
    placement = Placement(CLUSTER, node.id, None, (), Fraction(0), 4000, 16384)
    await adapter.apply(workload(session_id, placement))
    cr = cluster.get("gsharesessions", resource_name(session_id), NS)
    assert cr is not None and cr["spec"]["node"] == "ex-1" and "gpu" not in cr["spec"]
    await eventually(lambda: cluster.get("pods", resource_name(session_id), NS) is not None)
    pod = cluster.get("pods", resource_name(session_id), NS)
    assert pod["spec"]["nodeSelector"] == {"kubernetes.io/hostname": "ex-1"}
    assert not any(k.startswith("nvidia.com/") for k in pod["spec"]["containers"][0]["resources"]["limits"])
    assert "tolerations" not in pod["spec"]
    await adapter.delete(session_id)


async def test_shared_jobs_and_foreign_placements_are_refused(
    adapter: KubernetesCluster, cluster: KubeApiServer
) -> None:
    inventory = await adapter.read_inventory()
    spec = workload(uuid4(), placement_for(inventory, GpuKind.EXCLUSIVE))
    shared = workload(uuid4(), placement_for(inventory, GpuKind.SHARED))
    with pytest.raises(WorkloadRefused, match="exclusive cards only"):
        await adapter.apply(replace(shared, is_job=True))
    assert spec.placement is not None
    with pytest.raises(WorkloadRefused):
        await adapter.apply(replace(spec, placement=replace(spec.placement, cluster_id="elsewhere")))
    assert cluster.list("gsharesessions", NS) == []
