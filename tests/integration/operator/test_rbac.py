"""The RBAC manifests in deploy/ are enough: with the test API server enforcing them (and the
admission guard), the operator and the control plane's adapter do their whole job under their
own service accounts, and are refused what they were not granted."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from uuid import UUID, uuid4

import pytest
from kubernetes_asyncio import client

from domain.inventory.model import CardShare, GpuKind, Placement, SharingMode
from domain.inventory.ports import VolumeClaimSpec, WorkloadSpec
from infra.cluster.kubernetes import KubernetesCluster, NodeOperations, change_sharing_mode, resource_name
from tests.integration.operator.conftest import CLUSTER, NS, OperatorFactory, Receiver, eventually
from tests.k8s.admission import policy_hook
from tests.k8s.apiserver import KubeApiServer
from tests.k8s.device_plugins import HamiDevicePlugin
from tests.k8s.kubelet import Kubelet
from tests.k8s.nodes import H100_CARDS, H100_DEVMEM, H100_TYPE, salted
from tests.k8s.rbac import manifest_authorizer

OPERATOR = "system:serviceaccount:gshare-system:gshare-operator"
CONTROL_PLANE = "system:serviceaccount:gshare-system:gshare-control-plane"


async def test_operator_and_control_plane_work_under_the_shipped_rbac(
    cluster: KubeApiServer,
    kube_client: client.ApiClient,
    operators: OperatorFactory,
    kubelet: Kubelet,
    receiver: Receiver,
    tmp_path: Path,
) -> None:
    cluster.authorizer = manifest_authorizer()
    cluster.admission.append(policy_hook())
    cluster.tokens["operator-token"] = OPERATOR
    kubeconfig = cluster.write_kubeconfig(tmp_path / "cp", token="cp-token", user=CONTROL_PLANE)
    adapter = await KubernetesCluster.from_kubeconfig(CLUSTER, kubeconfig.read_text())
    try:
        await operators.start(token="operator-token")
        await eventually(lambda: receiver.inventories(), message="inventory under RBAC")

        inventory = await adapter.read_inventory()
        card = inventory.node(f"{CLUSTER}/hami-1").cards[0]
        placement = Placement(
            CLUSTER, f"{CLUSTER}/hami-1", GpuKind.HAMI, (CardShare(card.uuid, 10240, 10),), Fraction(1, 8), 1000, 2048
        )
        session_id: UUID = uuid4()
        name = resource_name(session_id)
        await adapter.apply(WorkloadSpec(session_id, "alice", "busybox:1.36", 1000, 2048, placement))
        await eventually(lambda: "Running" in receiver.phases(name), message="session runs under RBAC")

        async def drain(ids: list[UUID]) -> None:
            for sid in ids:
                await adapter.pause(sid)

        async def no_objection() -> None:
            return None

        async with client.ApiClient(cluster.configuration()) as admin:
            # HAMi's device plugin comes up once the node is labelled gpu=on
            hami = HamiDevicePlugin(
                admin,
                "ts-1",
                cards=[(salted(uuid, "ts-1"), index) for uuid, index in H100_CARDS[:2]],
                devtype=H100_TYPE,
                devmem=H100_DEVMEM,
            )
            hami.start()
            try:
                await change_sharing_mode(
                    NodeOperations(adapter._api_client, poll_interval=0.02),
                    "ts-1",
                    SharingMode.HAMI,
                    precheck=no_objection,
                    drain=drain,
                    expose_within=2,
                )
            finally:
                await hami.stop()
        await adapter.pause(session_id)
        await eventually(lambda: receiver.phases(name)[-1] == "Deleted")
        await eventually(lambda: cluster.get("gsharesessions", name, NS) is None)

        # a volume's claim and the storage quota (control plane); the claim's phase (operator)
        volume_id = uuid4()
        claim = VolumeClaimSpec(str(volume_id), f"vol-{volume_id}", "nfs", 512, "ReadWriteMany")
        assert await adapter.apply_volume(claim, 4096) == "Pending"
        assert await adapter.apply_volume(claim, 4096) == "Pending"  # idempotent
        assert cluster.get("resourcequotas", "gshare-storage", NS)["spec"]["hard"] == {"requests.storage": "4096Mi"}  # type: ignore[index]

        def claim_reported() -> bool:
            reports = receiver.inventories()
            return bool(reports) and {"volumeId": str(volume_id), "claim": claim.claim_name, "phase": "Pending"} in (
                reports[-1].get("volumes") or []
            )

        await eventually(claim_reported, message="claim phase reported under RBAC")
        await adapter.apply_volume(claim, None)
        assert cluster.get("resourcequotas", "gshare-storage", NS) is None
        await adapter.delete_volume(claim.claim_name)
        await adapter.delete_volume(claim.claim_name)  # already gone
        assert cluster.get("persistentvolumeclaims", claim.claim_name, NS) is None

        # What was not granted is refused.
        async with client.ApiClient(cluster.configuration(token="operator-token")) as as_operator:
            with pytest.raises(client.ApiException) as info:
                await client.CoreV1Api(as_operator).delete_node("ex-1")
            assert info.value.status == 403
            with pytest.raises(client.ApiException) as info:
                await client.CoreV1Api(as_operator).list_namespaced_secret("gshare-system")
            assert info.value.status == 403
        with pytest.raises(client.ApiException) as info:
            await client.CoreV1Api(adapter._api_client).read_namespaced_secret(f"{name}-access", NS)
        assert info.value.status == 403
    finally:
        await adapter.close()
