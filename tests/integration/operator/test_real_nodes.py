"""Nodes as real clusters publish them (tests/k8s/nodes.py, each copied from a recorded node):
a HAMi node, a time-sliced node (4 replicas, renamed resource), a MIG node (mixed strategy),
an exclusive node and an AMD node each show the right physical and logical capacity, and take
the right pods (and refuse the wrong ones) on the test server's kubelet and HAMi scheduler."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from kubernetes_asyncio import client

from domain.inventory.capacity import capacity_by_resource, model_totals
from domain.inventory.model import GpuKind, Inventory, SharingMode
from infra.callbacks.reports import inventory_nodes
from infra.cluster.kubernetes import KubernetesCluster, node_from_kubernetes
from infra.cluster.publications import hami_devices
from tests.integration.operator.conftest import CLUSTER, NS, OperatorFactory, Receiver, eventually, seed_claims
from tests.integration.operator.test_operator import apply_session, session
from tests.k8s.apiserver import KubeApiServer
from tests.k8s.kubelet import Kubelet
from tests.k8s.nodes import (
    H100_CARDS,
    H100_DEVMEM,
    HAMI_JSON_REGISTER,
    amd_node,
    exclusive_node,
    hami_node,
    hami_node_json,
    mig_node,
    real_nodes,
    timesliced_node,
)


@pytest.fixture
def cluster(kube_api: KubeApiServer) -> KubeApiServer:
    """Overrides the operator tests' nodes: the recorded ones under their own names."""
    for node in real_nodes():
        kube_api.seed(node)
    return seed_claims(kube_api)


@pytest.fixture
async def inventory(cluster: KubeApiServer, tmp_path: Path) -> AsyncIterator[Inventory]:
    kubeconfig = cluster.write_kubeconfig(tmp_path / "kubeconfig", token="cp-token", user="gshare-cp")
    port = await KubernetesCluster.from_kubeconfig(CLUSTER, kubeconfig.read_text())
    try:
        yield await port.read_inventory()
    finally:
        await port.close()


def _node(inventory: Inventory, name: str) -> Any:
    return inventory.node(f"{CLUSTER}/{name}")


async def test_each_real_node_shows_its_physical_and_logical_capacity(inventory: Inventory) -> None:
    hami = _node(inventory, "hami-h100")
    assert hami.sharing_mode is SharingMode.HAMI
    # from the registration, not allocatable (which lists only nvidia.com/gpu: 80)
    assert [c.uuid for c in hami.cards] == [u for u, _ in H100_CARDS]
    assert {(c.vram_mib, c.cores, c.model) for c in hami.cards} == {(H100_DEVMEM, 100, "H100-80GB-HBM3")}
    assert all(c.identified for c in hami.cards)
    assert hami.advertised_resources == {"nvidia.com/gpu": 80} and hami.stale_resources == ()

    ts = _node(inventory, "v100-ts4")
    assert ts.sharing_mode is SharingMode.TIMESLICING
    assert len(ts.cards) == 8 and {c.timeslice_replicas for c in ts.cards} == {4}
    assert not any(c.identified for c in ts.cards)  # GFD publishes counts, not UUIDs

    mig = _node(inventory, "a100-mig")
    assert mig.sharing_mode is SharingMode.EXCLUSIVE
    whole = [c for c in mig.cards if not c.mig_enabled]
    (group,) = [c for c in mig.cards if c.mig_enabled]
    assert len(whole) == 2  # nvidia.com/gpu: 2 under the mixed strategy
    # the two MIG cards' ten instances, held by the group: which card holds which is unknown
    assert group.physical_count == 2
    assert sorted(i.profile.name for i in group.mig_instances) == ["1g.10gb"] * 6 + ["2g.20gb"] * 4

    ex = _node(inventory, "v100-x8")
    assert ex.sharing_mode is SharingMode.EXCLUSIVE and len(ex.cards) == 8

    amd = _node(inventory, "mi300x-x8")
    assert amd.sharing_mode is SharingMode.EXCLUSIVE
    assert {(c.model, c.vram_mib) for c in amd.cards} == {("AMD_Instinct_MI300X_OAM", 192 * 1024)}
    assert len(amd.cards) == 8

    totals = {t.model: (t.physical.total, t.logical.total) for t in model_totals(inventory, [])}
    assert totals == {
        "H100-80GB-HBM3": (8, 8),
        "Tesla-V100-SXM2-16GB-N": (16, 8 * 4 + 8),
        "A100-SXM4-80GB": (4, 2 + 10),
        "AMD_Instinct_MI300X_OAM": (8, 8),
    }
    rows = {(r.resource, r.kind): (r.physical.total, r.logical.total) for r in capacity_by_resource(inventory, [])}
    assert rows[("nvidia.com/gpu.shared", GpuKind.SHARED)] == (8, 32)
    # the two A100s in MIG mode count once physically, in the row of the profile holding most
    # of them (4 × 2g.20gb = 80 GB against 6 × 1g.10gb = 60 GB); their instances logically
    assert rows[("nvidia.com/mig-1g.10gb", GpuKind.MIG)] == (0, 6)
    assert rows[("nvidia.com/mig-2g.20gb", GpuKind.MIG)] == (2, 4)
    assert sum(p for p, _ in rows.values()) == sum(p for p, _ in totals.values())
    assert rows[("nvidia.com/gpu", GpuKind.HAMI)] == (8, 8)
    # exclusive: 8 V100 + 2 whole A100 + 8 MI300X
    assert rows[("nvidia.com/gpu", GpuKind.EXCLUSIVE)] == (18, 18)


async def test_the_operators_report_reads_the_same(
    inventory: Inventory, operators: OperatorFactory, receiver: Receiver
) -> None:
    await operators.start()
    await eventually(lambda: receiver.inventories())
    report = receiver.inventories()[-1]
    assert inventory_nodes(CLUSTER, report) == inventory.nodes
    by_name = {n["name"]: n for n in report["nodes"]}
    assert {n: e["sharingMode"] for n, e in by_name.items()} == {
        "hami-h100": "hami",
        "v100-ts4": "timeslicing",
        "a100-mig": "exclusive",
        "v100-x8": "exclusive",
        "mi300x-x8": "exclusive",
    }
    assert by_name["mi300x-x8"]["labels"]["amd.com/gpu.vram"] == "192G"
    assert by_name["mi300x-x8"]["allocatable"]["amd.com/gpu"] == "8"


async def test_each_node_takes_the_right_pods(
    cluster: KubeApiServer,
    kube_client: client.ApiClient,
    operators: OperatorFactory,
    kubelet: Kubelet,
    receiver: Receiver,
) -> None:
    await operators.start()
    card = H100_CARDS[0][0]
    quarter = {"kind": "hami", "vramMiB": H100_DEVMEM // 4, "cores": 25, "placement": {"node": "hami-h100"}}
    wanted = {
        # four quarters of one H100 through HAMi's scheduler, pinned to the card
        **{f"s-hami-{i}": dict(quarter, placement={"node": "hami-h100", "cardUuids": [card]}) for i in range(4)},
        "s-ts": {"kind": "timeslice", "placement": {"node": "v100-ts4"}},
        **{f"s-mig-{i}": {"kind": "mig", "migProfile": "1g.10gb", "placement": {"node": "a100-mig"}} for i in range(6)},
        "s-mig-2g": {"kind": "mig", "migProfile": "2g.20gb", "placement": {"node": "a100-mig"}},
        "s-ex": {"kind": "exclusive", "count": 8, "placement": {"node": "v100-x8"}},
        "s-amd": {"kind": "exclusive", "count": 2, "resourceName": "amd.com/gpu", "placement": {"node": "mi300x-x8"}},
    }
    for name, gpu in wanted.items():
        await apply_session(kube_client, session(name, gpu))
    for name in wanted:
        await eventually(lambda n=name: "Running" in receiver.phases(n), within=10, message=f"{name} runs")
        pod = cluster.get("pods", name, NS)
        assert pod is not None and pod["spec"]["nodeName"] == wanted[name]["placement"]["node"]
    allocated = [
        cluster.get("pods", f"s-hami-{i}", NS)["metadata"]["annotations"]["hami.io/vgpu-devices-allocated"]
        for i in range(4)
    ]
    assert allocated == [f"{card},NVIDIA,{H100_DEVMEM // 4},25:;"] * 4
    assert cluster.get("pods", "s-amd", NS)["spec"]["containers"][0]["resources"]["limits"]["amd.com/gpu"] == "2"

    refused = {
        # the card is full (4 × 25 cores): HAMi refuses a fifth quarter on it
        "s-hami-4": dict(quarter, placement={"node": "hami-h100", "cardUuids": [card]}),
        # the node has six 1g.10gb instances, all taken
        "s-mig-6": {"kind": "mig", "migProfile": "1g.10gb", "placement": {"node": "a100-mig"}},
        # the node lists nvidia.com/mig-3g.40gb: 0
        "s-mig-3g": {"kind": "mig", "migProfile": "3g.40gb", "placement": {"node": "a100-mig"}},
        # all eight V100s are taken
        "s-ex-more": {"kind": "exclusive", "count": 1, "placement": {"node": "v100-x8"}},
    }
    for name, gpu in refused.items():
        await apply_session(kube_client, session(name, gpu))
    for name in refused:
        await eventually(lambda n=name: cluster.get("pods", n, NS) is not None, message=f"{name} created")
        phase, _ = await eventually(lambda n=name: _unscheduled(cluster, n), message=f"{name} refused")
        assert phase == "Pending", name
    assert "CardInsufficient" in _unscheduled(cluster, "s-hami-4")[1]
    assert "Insufficient nvidia.com/mig-1g.10gb" in _unscheduled(cluster, "s-mig-6")[1]
    assert "Insufficient nvidia.com/mig-3g.40gb" in _unscheduled(cluster, "s-mig-3g")[1]
    assert "Insufficient nvidia.com/gpu" in _unscheduled(cluster, "s-ex-more")[1]


def _unscheduled(cluster: KubeApiServer, name: str) -> tuple[str, str] | None:
    pod = cluster.get("pods", name, NS) or {}
    status = pod.get("status") or {}
    for condition in status.get("conditions") or []:
        if condition.get("type") == "PodScheduled" and condition.get("reason") == "Unschedulable":
            return str(status.get("phase") or "Pending"), str(condition.get("message"))
    return None


async def test_kube_scheduler_refuses_a_hami_slice_not_given_to_hamis_scheduler(
    cluster: KubeApiServer, kube_client: client.ApiClient, kubelet: Kubelet
) -> None:
    """gpumem is no node resource: without HAMi's scheduler the pod never fits."""
    pod = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "plain-hami", "namespace": NS},
        "spec": {
            "nodeSelector": {"kubernetes.io/hostname": "hami-h100"},
            "containers": [
                {
                    "name": "c",
                    "image": "busybox:1.36",
                    "resources": {"limits": {"nvidia.com/gpu": "1", "nvidia.com/gpumem": "4096"}},
                }
            ],
        },
    }
    await client.CoreV1Api(kube_client).create_namespaced_pod(NS, pod)
    phase, message = await eventually(lambda: _unscheduled(cluster, "plain-hami"))
    assert phase == "Pending" and "Insufficient nvidia.com/gpumem" in message


def test_hami_registration_formats() -> None:
    """Both formats HAMi writes (pkg/device/devices.go): nine-field and seven-field records,
    and JSON, where `omitempty` drops `"health": false`."""
    nine = "GPU-a,10,32768,100,NVIDIA-Tesla V100-PCIE-32GB,0,true,0,hami-core:GPU-b,10,32768,100,NVIDIA-V100,0,false,1,hami-core:"
    assert [(d["uuid"], d["count"], d["vram_mib"], d["healthy"]) for d in hami_devices(nine)] == [
        ("GPU-a", 10, 32768, True),
        ("GPU-b", 10, 32768, False),
    ]
    # HAMi issue #602's record (seven fields, HAMi before v2.5)
    seven = "GPU-9a3603f4-f66e-d48b-11ea-13e327064cca,10,15360,100,NVIDIA-Tesla T4,0,true:"
    assert [(d["uuid"], d["vram_mib"], d["type"]) for d in hami_devices(seven)] == [
        ("GPU-9a3603f4-f66e-d48b-11ea-13e327064cca", 15360, "NVIDIA-Tesla T4")
    ]
    import json

    unhealthy = [{k: v for k, v in HAMI_JSON_REGISTER[0].items() if k != "health"}]
    assert [d["healthy"] for d in hami_devices(json.dumps(HAMI_JSON_REGISTER))] == [True, True]
    assert [d["healthy"] for d in hami_devices(json.dumps(unhealthy))] == [False]
    assert hami_devices(None) == [] and hami_devices("garbage") == []


def test_a_registration_hami_no_longer_serves_is_not_hami() -> None:
    """HAMi #314: the annotation is still there, the handshake stuck at Requesting_, and
    nvidia.com/gpu: 0 — the plugin is not serving; the scheduler's Deleted_ gives the node up."""
    stopped = hami_node("stopped", cards=2)
    stopped["status"]["allocatable"]["nvidia.com/gpu"] = "0"
    stopped["metadata"]["annotations"]["hami.io/node-handshake"] = "Requesting_2024.05.20 11:44:46"
    node = node_from_kubernetes("c", stopped)
    assert node.sharing_mode is SharingMode.EXCLUSIVE and node.cards == ()
    deleted = hami_node("deleted", cards=2)
    deleted["metadata"]["annotations"]["hami.io/node-handshake"] = "Deleted_2024.03.13 14:41:58"
    assert node_from_kubernetes("c", deleted).sharing_mode is SharingMode.EXCLUSIVE
    json_node = node_from_kubernetes("c", hami_node_json())
    assert [c.uuid for c in json_node.cards] == ["GPU-0", "GPU-1"] and json_node.sharing_mode is SharingMode.HAMI


def test_placeholders_never_pin_and_names_are_per_cluster() -> None:
    a = node_from_kubernetes("c1", exclusive_node("gpu-1"))
    b = node_from_kubernetes("c2", exclusive_node("gpu-1"))
    assert {c.uuid for c in a.cards}.isdisjoint(c.uuid for c in b.cards)
    assert node_from_kubernetes("c1", timesliced_node("t")).cards[0].uuid == "c1/t/gpu-0"
    assert node_from_kubernetes("c1", mig_node("m")).cards[-1].uuid == "c1/m/mig-group"
    assert len(node_from_kubernetes("c1", amd_node("a")).cards) == 8
