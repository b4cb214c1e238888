"""`ClusterFollower`: a process's cluster adapters follow the registered Kubernetes clusters
(every process kind: the API replicas besides the one that served a registration, and the
workers). It re-reads the registrations when `CLUSTERS_TOPIC` announces a change and every
`interval` seconds (an announcement lost while Redis was away), connecting new clusters,
reconnecting changed kubeconfigs and closing the adapters of removed ones.

The Kubernetes client is imported only when there is a cluster to connect: a process of a
deployment without Kubernetes clusters starts without it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from infra.clusters.keys import sessionmaker_for
from infra.clusters.repository import CLUSTERS_TOPIC, kubernetes_clusters

log = logging.getLogger(__name__)


async def disconnect_cluster(container: Any, cluster_id: str) -> None:
    port = container.clusters.remove(cluster_id)
    close = getattr(port, "close", None)
    if close is not None:
        await close()


class ClusterFollower:
    """The adapters of one process follow the registered Kubernetes clusters. A cluster's
    version is its sealed kubeconfig: a changed one is reconnected. Only the adapters it made
    are touched (the simulated cluster of an API process is not a registration)."""

    def __init__(self, container: Any, *, interval: float = 30.0, read_inventory: bool = False) -> None:
        self._container = container
        self._interval = interval
        self._read_inventory = read_inventory
        self._versions: dict[str, bytes] = {}
        self._lock = asyncio.Lock()
        self.syncs = 0

    async def sync(self) -> list[str]:
        """Connect, reconnect and disconnect so the adapters match the registrations now;
        returns the ids whose adapter changed. A cluster that fails to connect is retried at
        the next sync."""
        async with self._lock:
            self.syncs += 1
            registered = {c.id: c for c in await kubernetes_clusters(sessionmaker_for(self._container.engine))}
            changed: list[str] = []
            for cluster_id in [cid for cid in self._versions if cid not in registered]:
                del self._versions[cluster_id]
                await disconnect_cluster(self._container, cluster_id)
                log.info("cluster %s deregistered: adapter closed", cluster_id)
                changed.append(cluster_id)
            for cluster_id, cluster in registered.items():
                version = cluster.kubeconfig_encrypted
                if version is None:
                    continue
                current = self._container.clusters.get(cluster_id)
                known = self._versions.get(cluster_id)
                if current is not None and (known == version or (known is None and _sealed_by(current) == version)):
                    self._versions[cluster_id] = version
                    continue
                try:
                    from infra.clusters.wiring import connect_cluster

                    await connect_cluster(self._container, cluster, read_inventory=self._read_inventory)
                except Exception:
                    log.exception("cluster %s could not be connected", cluster_id)
                    continue
                self._versions[cluster_id] = version
                log.info("cluster %s %s", cluster_id, "reconnected" if known is not None else "connected")
                changed.append(cluster_id)
            return changed

    async def run(self) -> None:
        """Follow forever: a sync on every announced change, and every `interval` seconds."""
        events = self._container.events
        while True:
            try:
                async with events.subscribe(CLUSTERS_TOPIC) as changes:
                    await self.sync()  # after subscribing: a change committed in between is seen
                    while True:
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(changes.__anext__(), self._interval)
                        await self.sync()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("following the registered clusters failed; retrying")
                await asyncio.sleep(min(self._interval, 5.0))


def _sealed_by(port: Any) -> bytes | None:
    return getattr(port, "sealed_kubeconfig", None)
