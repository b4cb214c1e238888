"""Turning registered clusters into running adapters, and the callback verifier of a process.

- `start_kubernetes_clusters(container)`: at start-up, one `KubernetesCluster` per registered
  Kubernetes cluster (kubeconfig decrypted in memory only), added to `container.clusters`,
  with a first inventory read when the API answers (the operator keeps it current after).
- `connect_cluster` / `disconnect_cluster`: the same for one cluster, at (de)registration.
- `infra.clusters.follower.ClusterFollower` keeps them current in every process.
- `callback_verifier(container)`: keys from PostgreSQL, replay cache in Redis when configured,
  else in PostgreSQL.
- `KubernetesNodeSharing`: the `NodeSharingPort` of guarded node operations.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any
from uuid import UUID

from domain.inventory.clusters import RegisteredCluster
from domain.inventory.model import Inventory, SharingMode
from domain.sessions import services as sessions
from infra.callbacks.verify import CallbackVerifier
from infra.catalog.crypto import registry_box
from infra.clusters import follower
from infra.clusters.crypto import ClusterSecretBox
from infra.clusters.keys import RedisReplayCache, SqlClusterKeyStore, SqlReplayCache, sessionmaker_for
from infra.clusters.repository import SqlNodeOperationRecords, kubernetes_clusters

if TYPE_CHECKING:  # kubernetes_asyncio takes seconds to import: only when a cluster is connected
    from kubernetes_asyncio import client

    from infra.cluster.kubernetes import KubernetesCluster, NodeStep

log = logging.getLogger(__name__)

_BOX = "clusters.secret_box"
_VERIFIER = "clusters.callback_verifier"
_OPERATIONS = "clusters.node_operations"
# seconds; tests shorten them through container.extras
NODE_OPERATION_TIMINGS = "clusters.node_operation_timings"
INVENTORY_TIMEOUT = 10.0


def secret_box(container: Any) -> ClusterSecretBox:
    box = container.extras.get(_BOX)
    if box is None:
        box = container.extras[_BOX] = ClusterSecretBox.from_settings(container.settings)
    return box  # type: ignore[no-any-return]


def callback_verifier(container: Any) -> CallbackVerifier:
    verifier = container.extras.get(_VERIFIER)
    if verifier is None:
        sm = sessionmaker_for(container.engine)
        replay: Any = (
            RedisReplayCache(container.settings.redis_url) if container.settings.redis_url else SqlReplayCache(sm)
        )
        verifier = container.extras[_VERIFIER] = CallbackVerifier(SqlClusterKeyStore(sm), replay)
    return verifier  # type: ignore[no-any-return]


def node_operation_records(container: Any) -> SqlNodeOperationRecords:
    records = container.extras.get(_OPERATIONS)
    if records is None:
        records = container.extras[_OPERATIONS] = SqlNodeOperationRecords(sessionmaker_for(container.engine))
    return records  # type: ignore[no-any-return]


async def _api_client(kubeconfig: str) -> client.ApiClient:
    import yaml
    from kubernetes_asyncio import client, config

    configuration = client.Configuration()
    await config.load_kube_config_from_dict(yaml.safe_load(kubeconfig), client_configuration=configuration)
    return client.ApiClient(configuration)


async def replace_inventory(container: Any, cluster_id: str, inventory: Inventory) -> bool:
    """Store a cluster's nodes (that cluster's only); False when nothing changed (the capacity
    epoch is then left alone, so periodic reports do not invalidate every cached scheduler)."""
    nodes = inventory.nodes_of(cluster_id)
    async with container.uow() as uow:
        whole = await uow.capacity.inventory()
        current = whole.nodes_of(cluster_id)
        if [n.to_dict() for n in current] == [n.to_dict() for n in nodes]:
            return False
        # the whole deployment's inventory must stay valid (e.g. one model, one VRAM size):
        # this raises InventoryError before anything is written
        Inventory(whole.clusters, (*(n for n in whole.nodes if n.cluster_id != cluster_id), *nodes))
        await uow.capacity.replace_nodes(cluster_id, nodes)
        uow.publish_after_commit(sessions.CAPACITY_TOPIC, {"reason": "inventory", "clusterId": cluster_id})
        await uow.commit()
    await sessions.drain_queue(container.sessions)
    return True


_CONNECT_LOCK = "clusters.connect_lock"


async def connect_cluster(
    container: Any, cluster: RegisteredCluster, *, read_inventory: bool = True
) -> KubernetesCluster:
    """Build the cluster's adapter and add it to `container.clusters` (replacing an older one).
    Connections of one process are made one at a time: one made meanwhile with the same
    kubeconfig is kept and returned (closing it would pull it from under its maker)."""
    if cluster.kubeconfig_encrypted is None:
        raise ValueError(f"cluster {cluster.id} has no kubeconfig")
    # one lock per event loop (a lock is bound to the loop that first waits on it)
    locks = container.extras.setdefault(_CONNECT_LOCK, {})
    lock = locks.setdefault(asyncio.get_running_loop(), asyncio.Lock())
    async with lock:
        current = container.clusters.get(cluster.id)
        if current is not None and getattr(current, "sealed_kubeconfig", None) == cluster.kubeconfig_encrypted:
            port = current
        else:
            from infra.cluster.kubernetes import KubernetesCluster

            text = secret_box(container).decrypt(cluster.kubeconfig_encrypted)
            port = await KubernetesCluster.from_kubeconfig(
                cluster.id, text, name=cluster.name, open_sealed=registry_box(container).open
            )
            port.sealed_kubeconfig = cluster.kubeconfig_encrypted  # type: ignore[attr-defined]
            container.clusters.add(port)
            if current is not None:
                close = getattr(current, "close", None)
                if close is not None:
                    await close()
    if read_inventory:
        try:
            inventory = await asyncio.wait_for(port.read_inventory(), INVENTORY_TIMEOUT)
            await replace_inventory(container, cluster.id, inventory)
        except Exception:  # the operator's inventory reports will fill it in
            log.warning("cluster %s: first inventory read failed", cluster.id, exc_info=True)
    return port


async def disconnect_cluster(container: Any, cluster_id: str) -> None:
    await follower.disconnect_cluster(container, cluster_id)


async def start_kubernetes_clusters(container: Any) -> list[str]:
    """Connect every registered Kubernetes cluster; one that fails is logged and skipped."""
    connected = []
    for cluster in await kubernetes_clusters(sessionmaker_for(container.engine)):
        if container.clusters.get(cluster.id) is not None:
            continue
        try:
            await connect_cluster(container, cluster)
        except Exception:
            log.exception("cluster %s could not be connected", cluster.id)
            continue
        connected.append(cluster.id)
    return connected


class KubernetesNodeSharing:
    """`NodeSharingPort` over a registered cluster's kubeconfig (a client of its own, closed
    when the operation ends)."""

    def __init__(self, container: Any, cluster: RegisteredCluster) -> None:
        self._container = container
        self._cluster = cluster
        timings = container.extras.get(NODE_OPERATION_TIMINGS) or {}
        self._poll = float(timings.get("poll", 1.0))
        self._drain_within = float(timings.get("drain_within", 300.0))
        self._expose_within = float(timings.get("expose_within", 300.0))

    async def change_sharing_mode(
        self,
        node_name: str,
        mode: SharingMode,
        replicas: int | None,
        *,
        drain: Callable[[list[UUID]], Awaitable[None]],
        progress: Callable[[str, str], Awaitable[None]],
    ) -> list[str]:
        from infra.cluster.kubernetes import NodeOperations, change_sharing_mode

        assert self._cluster.kubeconfig_encrypted is not None
        api = await _api_client(secret_box(self._container).decrypt(self._cluster.kubeconfig_encrypted))

        async def announce(step: NodeStep, message: str) -> None:
            await progress(step.value, message)

        async def no_objection() -> None:
            return None  # the control plane's pre-check ran before the operation was accepted

        try:
            return await change_sharing_mode(
                NodeOperations(api, poll_interval=self._poll),
                node_name,
                mode,
                replicas=replicas,
                precheck=no_objection,
                drain=drain,
                progress=announce,
                drain_within=self._drain_within,
                expose_within=self._expose_within,
            )
        finally:
            await api.close()

    async def cordon(self, node_name: str, cordoned: bool) -> None:
        """`NodeCordonPort`: the node's spec.unschedulable, as `kubectl cordon` / `uncordon`."""
        from infra.cluster.kubernetes import NodeOperations

        assert self._cluster.kubeconfig_encrypted is not None
        api = await _api_client(secret_box(self._container).decrypt(self._cluster.kubeconfig_encrypted))
        try:
            await NodeOperations(api, poll_interval=self._poll).cordon(node_name, cordoned)
        finally:
            await api.close()

    async def read_inventory(self) -> Inventory:
        port = self._container.clusters.get(self._cluster.id)
        if port is None or not hasattr(port, "read_inventory"):
            raise RuntimeError(f"cluster {self._cluster.id} is not connected")
        inventory: Inventory = await port.read_inventory()
        return inventory
