"""The deployment's cluster adapters by id (the `ClusterRegistry` port)."""

from __future__ import annotations

from domain.inventory.ports import ClusterPort


class ClusterAdapters:
    def __init__(self) -> None:
        self._ports: dict[str, ClusterPort] = {}
        self._cpu_default: str | None = None

    def add(self, port: ClusterPort, *, cpu_default: bool = False) -> None:
        self._ports[port.cluster_id] = port
        if cpu_default or self._cpu_default is None:
            self._cpu_default = port.cluster_id

    def get(self, cluster_id: str) -> ClusterPort | None:
        return self._ports.get(cluster_id)

    def default_cpu_cluster(self) -> str | None:
        return self._cpu_default

    def all(self) -> list[ClusterPort]:
        return list(self._ports.values())
