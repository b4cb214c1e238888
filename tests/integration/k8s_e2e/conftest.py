"""End to end on the Kubernetes API test server: the control plane (GraphQL + callback routes,
on the test database) drives a registered cluster, whose operator runs in-process and calls
back through the ASGI app (httpx ASGITransport), while the test kubelet starts pods.

The schema is composed with `ClustersQuery`/`ClustersMutation` here when `api/schema.py` does
not compose them yet."""

from __future__ import annotations

import asyncio
import contextlib
import sys
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from kubernetes_asyncio.client import ApiClient
from sqlalchemy import delete

from domain.catalog import services as catalog
from domain.catalog.model import GpuTier, ImageScope
from domain.tenancy.services import load_actor
from tests.integration.operator.conftest import eventually
from tests.k8s.apiserver import KubeApiServer
from tests.k8s.fixtures import kube_api, kube_client
from tests.k8s.kubelet import Kubelet
from tests.k8s.nodes import H100_CARDS, H100_DEVMEM, exclusive_node, hami_node, mig_node, salted, timesliced_node
from tests.support.api import SYSTEM, Gql, World, fund_user, make_user, unique

_OPERATOR_DIR = str(Path(__file__).resolve().parents[3] / "operator")
if _OPERATOR_DIR not in sys.path:
    sys.path.insert(0, _OPERATOR_DIR)

from gshare_operator.app import Operator  # noqa: E402
from gshare_operator.callbacks import CallbackClient  # noqa: E402
from gshare_operator.settings import OperatorSettings  # noqa: E402
from gshare_operator.signing import CallbackSigner  # noqa: E402

__all__ = ["eventually", "kube_api", "kube_client"]

NS = "gshare-sessions"
CP = "http://cp.test"
# One model per GPU kind, so placement lands on the node of that kind. The nodes are the
# recorded real ones of tests/k8s/nodes.py (HAMi #961's H100s, PR #503's V100s time-sliced
# with renameByDefault, gpu-operator #637's mixed-strategy A100 node); the unshared V100 node
# carries another product label so that it is an offering of its own.
MODELS = {
    "hami": "H100-80GB-HBM3",
    "timeslice": "Tesla-V100-SXM2-16GB-N",
    "mig": "A100-SXM4-80GB",
    "exclusive": "E2EX-V100",
}
VRAM = {"hami": H100_DEVMEM, "timeslice": 16384, "mig": 81920, "exclusive": 16384}


def gpu_nodes(prefix: str) -> list[dict[str, Any]]:
    """Four nodes, one per kind; HAMi's card UUIDs are salted per cluster (they key the capacity)."""
    return [
        hami_node("n-hami", cards=2, uuid_salt=prefix),
        timesliced_node("n-ts", replicas=4, cards=2),
        mig_node("n-mig"),
        exclusive_node("n-ex", cards=4, product=MODELS["exclusive"]),
    ]


def hami_card_uuids(prefix: str) -> list[str]:
    return [salted(uuid, prefix) for uuid, _ in H100_CARDS[:2]]


def node_manifest(spec: dict[str, Any]) -> dict[str, Any]:
    """A node of the old home-made shape (name, labels, resources), for CPU-only extras."""
    resources = {"cpu": "64", "memory": "512Gi", "pods": "110", **spec["resources"]}
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "name": spec["name"],
            "labels": {"kubernetes.io/hostname": spec["name"], **spec["labels"]},
            "annotations": dict(spec.get("annotations") or {}),
        },
        "status": {
            "capacity": dict(resources),
            "allocatable": dict(resources),
            "conditions": [{"type": "Ready", "status": "True"}],
        },
    }


def public_pem(key: Any) -> str:
    return (
        key.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )


# ------------------------------------------------------------------------------ the app


def _compose_schema(monkeypatch: pytest.MonkeyPatch) -> None:
    from strawberry.tools import merge_types

    import api.schema as schema_module
    from api.clusters.mutations import ClustersMutation
    from api.clusters.queries import ClustersQuery, ClustersSubscription

    if "ClustersMutation" in {t.__name__ for t in getattr(schema_module.Mutation, "__bases__", ())} or hasattr(
        schema_module.Mutation, "cluster_register"
    ):
        return
    monkeypatch.setattr(schema_module, "Query", merge_types("Query", (schema_module.Query, ClustersQuery)))
    monkeypatch.setattr(schema_module, "Mutation", merge_types("Mutation", (schema_module.Mutation, ClustersMutation)))
    monkeypatch.setattr(
        schema_module, "Subscription", merge_types("Subscription", (schema_module.Subscription, ClustersSubscription))
    )


@pytest.fixture(scope="module")
def cp_app(container: Any) -> Any:
    from api.app import create_app

    with pytest.MonkeyPatch.context() as mp:
        _compose_schema(mp)
        return create_app(container)


@pytest.fixture
async def cp_http(cp_app: Any) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=cp_app), base_url=CP) as client:
        yield client


@pytest.fixture
def admin(cp_http: httpx.AsyncClient, world: World) -> Gql:
    return Gql(cp_http, world.tokens["super_admin"])


REGISTER = """
mutation($input: ClusterRegisterInput!) {
  clusterRegister(input: $input) {
    cluster { id name kind placementPolicy hasKubeconfig callbackKeyAlgorithm }
    errors { code field message }
  }
}"""


@dataclass
class E2ECluster:
    id: str
    api: KubeApiServer
    key: Ed25519PrivateKey
    container: Any
    app: Any
    operators: list[tuple[Operator, asyncio.Task[None], ApiClient, CallbackClient]] = field(default_factory=list)

    def callback_client(self, key: Any | None = None, cluster_id: str | None = None) -> CallbackClient:
        http = httpx.AsyncClient(transport=httpx.ASGITransport(app=self.app), base_url=CP)
        return CallbackClient(f"{CP}/callbacks", CallbackSigner(cluster_id or self.id, key or self.key), http=http)

    async def start_operator(self, identity: str = "op-a", **over: Any) -> Operator:
        values: dict[str, Any] = {
            "cluster_id": self.id,
            "namespace": NS,
            "identity": identity,
            "callback_url": f"{CP}/callbacks",
            "ingress_domain": "sessions.e2e.test",
            "ingress_class": "nginx",
            "leader_election": False,
            "lease_duration": 2.0,
            "renew_deadline": 1.5,
            "retry_period": 0.1,
            "inventory_interval": 60.0,
            "resync": 60.0,
        }
        values.update(over)
        api_client = ApiClient(self.api.configuration())
        callbacks = self.callback_client()
        operator = Operator(OperatorSettings(**values), api_client, callbacks)
        operator.controller._backoff_base = 0.05
        task = asyncio.create_task(operator.run(), name=f"operator-{identity}")
        self.operators.append((operator, task, api_client, callbacks))
        return operator

    async def stop_operator(self, operator: Operator) -> None:
        for entry in list(self.operators):
            if entry[0] is operator:
                self.operators.remove(entry)
                _, task, api_client, callbacks = entry
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
                await callbacks.close()
                await callbacks._http.aclose()
                await api_client.close()

    async def stop_all(self) -> None:
        for operator, *_ in list(self.operators):
            await self.stop_operator(operator)


async def forget_cluster(container: Any, cluster_id: str) -> None:
    """Test teardown: the cluster and everything placed on it leave the shared test database
    (other tests place on every registered cluster)."""
    from infra.clusters.repository import SqlClusterRecords
    from infra.clusters.wiring import disconnect_cluster
    from infra.db.models.inventory import PlacementRow

    await disconnect_cluster(container, cluster_id)
    async with container.uow() as uow:
        await uow.capacity.lock()
        await uow.session.execute(delete(PlacementRow).where(PlacementRow.cluster_id == cluster_id))
        await SqlClusterRecords(uow).remove(cluster_id)
        await uow.commit()


async def register(
    admin: Gql, api: KubeApiServer, tmp_path: Path, cluster_id: str, key: Any, **over: Any
) -> dict[str, Any]:
    kubeconfig = api.write_kubeconfig(tmp_path / f"{cluster_id}.kubeconfig", token=f"cp-{cluster_id}", user="gshare-cp")
    data = await admin(
        REGISTER,
        input={
            "id": cluster_id,
            "name": f"E2E {cluster_id}",
            "kubeconfig": kubeconfig.read_text(),
            "callbackPublicKey": public_pem(key),
            "placementPolicy": "BEST_FIT",
            **over,
        },
    )
    return data["clusterRegister"]  # type: ignore[no-any-return]


@pytest.fixture
async def e2e(
    kube_api: KubeApiServer, container: Any, cp_app: Any, admin: Gql, tmp_path: Path
) -> AsyncIterator[E2ECluster]:
    cluster_id = f"e2e-{uuid.uuid4().hex[:8]}"
    for node in gpu_nodes(cluster_id):
        kube_api.seed(node)
    key = Ed25519PrivateKey.generate()
    result = await register(admin, kube_api, tmp_path, cluster_id, key)
    assert result["errors"] == [], result
    cluster = E2ECluster(cluster_id, kube_api, key, container, cp_app)
    try:
        yield cluster
    finally:
        await cluster.stop_all()
        await forget_cluster(container, cluster_id)


@pytest.fixture
async def kubelet(kube_client: ApiClient, kube_api: KubeApiServer) -> AsyncIterator[Kubelet]:
    k = Kubelet(kube_client, server=kube_api)
    k.start()
    yield k
    await k.stop()


# ------------------------------------------------------------------------------ catalog and users


@dataclass
class Catalog:
    offerings: dict[str, Any]
    presets: dict[str, Any]
    image: Any


async def e2e_catalog(c: Any) -> Catalog:
    offerings: dict[str, Any] = {}
    async with c.uow() as uow:
        existing, _ = await uow.catalog.list_offerings(0, 500)
        by_name = {o.name: o for o in existing}
        for kind, model in MODELS.items():
            off = by_name.get(model)
            if off is None:
                off = await catalog.offering_create(
                    uow,
                    SYSTEM,
                    c.ids,
                    c.clock,
                    vendor="NVIDIA",
                    name=model,
                    vram_mib=VRAM[kind],
                    min_cuda="11.0",
                    hourly_rate_micro=3_600_000,
                )
            offerings[kind] = off

        async def preset(tier: GpuTier, **kw: Any) -> Any:
            return await catalog.preset_create(
                uow,
                SYSTEM,
                c.ids,
                c.clock,
                name=unique(f"e2e-{tier.value}"),
                cpu_millicores=2000,
                memory_mib=4096,
                disk_gib=10,
                shm_mib=512,
                tier=tier,
                **kw,
            )

        presets = {
            "hami": await preset(GpuTier.L),
            "timeslice": await preset(GpuTier.L),
            "mig": await preset(GpuTier.S),
            "exclusive": await preset(GpuTier.EXCLUSIVE, gpu_count=2),
        }
        image = await catalog.image_create(
            uow,
            SYSTEM,
            c.ids,
            c.clock,
            name=unique("e2e-img"),
            reference="nvcr.io/nvidia/pytorch:24.05-py3",
            cuda_version="12.4",
            scope=ImageScope.GLOBAL,
        )
        await uow.commit()
    return Catalog(offerings, presets, image)


async def funded_member(c: Any, world: World, credits_: int = 100) -> tuple[Any, str]:
    uid, token = await make_user(c, world.org_a, unique("e2e"), groups=[world.g1])
    await fund_user(c, world.org_a, world.g1, uid, credits_)
    async with c.uow() as uow:
        actor = await load_actor(uow, uid)
    assert actor is not None
    return replace(actor, active_group_id=world.g1), token
