"""The deployment's cluster adapters by id (the `ClusterRegistry` port)."""

from __future__ import annotations

from domain.inventory.ports import ClusterPort


class ClusterAdapters:
    def __init__(self) -> None:
        self._ports: dict[str, ClusterPort] = {}

    def add(self, port: ClusterPort) -> None:
        self._ports[port.cluster_id] = port

    def remove(self, cluster_id: str) -> ClusterPort | None:
        return self._ports.pop(cluster_id, None)

    def get(self, cluster_id: str) -> ClusterPort | None:
        return self._ports.get(cluster_id)

    def all(self) -> list[ClusterPort]:
        return list(self._ports.values())
