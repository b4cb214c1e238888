"""Ports of the sessions context: session, volume, template and notification repositories,
the capacity store (the scheduler's persisted state), the cluster registry and usage store."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol
from uuid import UUID

from domain.inventory.model import Cluster, Inventory, Node
from domain.inventory.ports import ClusterPort, UsageSample
from domain.scheduling.model import Allocation
from domain.scheduling.queue import GpuQueue
from domain.scheduling.scheduler import Scheduler
from domain.sessions.model import Session, SessionState
from domain.volumes.model import StorageClass, Template, Volume


@dataclass
class CapacityState:
    """The scheduler and queue as one locked, mutable working copy (see `CapacityStore`)."""

    scheduler: Scheduler
    queue: GpuQueue
    clusters: dict[str, Cluster]
    conflicts: list[tuple[Allocation, str]] = field(default_factory=list)
    next_arrival: int = 0

    def arrival(self) -> int:
        self.next_arrival += 1
        return self.next_arrival


class CapacityStore(Protocol):
    """The persisted capacity decisions. `lock()` serialises every placement decision of the
    deployment (one row lock); `save()` writes what changed; both inside the unit of work."""

    async def lock(self) -> CapacityState: ...

    async def save(self, state: CapacityState) -> None: ...

    async def snapshot(self) -> CapacityState:
        """A read-only view, without the lock (for capacity queries)."""
        ...

    async def put_cluster(self, cluster: Cluster, kind: str) -> None: ...

    async def replace_nodes(self, cluster_id: str, nodes: Sequence[Node]) -> None:
        """Replace a cluster's reported nodes (takes the lock; call `lock()` afterwards to see them)."""
        ...

    async def clusters(self) -> list[tuple[Cluster, str]]: ...

    async def inventory(self) -> Inventory: ...


@dataclass(frozen=True)
class SessionFilter:
    owner_id: UUID | None = None
    organization_ids: frozenset[UUID] | None = None  # None = no filter
    group_ids: frozenset[UUID] | None = None
    states: frozenset[SessionState] | None = None


class SessionRepository(Protocol):
    async def add(self, session: Session) -> None: ...

    async def get(self, session_id: UUID, *, for_update: bool = False) -> Session | None: ...

    async def get_many(self, ids: Sequence[UUID], *, for_update: bool = False) -> list[Session]: ...

    async def update(self, session: Session) -> Session:
        """Optimistic: refuses when the stored version is no longer `session.version`;
        returns the session with its new version."""
        ...

    async def search(self, flt: SessionFilter, offset: int, limit: int) -> tuple[list[Session], int]: ...

    async def active_in(self, states: frozenset[SessionState]) -> list[Session]: ...


class VolumeRepository(Protocol):
    async def add(self, volume: Volume) -> None: ...

    async def get(self, volume_id: UUID) -> Volume | None: ...

    async def get_many(self, ids: Sequence[UUID]) -> list[Volume]: ...

    async def delete(self, volume_id: UUID) -> None: ...

    async def name_taken(self, volume: Volume) -> bool: ...

    async def visible(
        self, *, user_id: UUID, group_ids: frozenset[UUID], org_ids: frozenset[UUID] | None, offset: int, limit: int
    ) -> tuple[list[Volume], int]: ...

    async def storage_used_mib(self, *, owner_id: UUID | None = None, group_id: UUID | None = None) -> int: ...

    async def storage_classes(self) -> list[StorageClass]: ...

    async def put_storage_class(self, sc: StorageClass) -> None: ...

    async def mounted_by_active_sessions(self, volume_id: UUID) -> int: ...


class TemplateRepository(Protocol):
    async def add(self, template: Template) -> None: ...

    async def get(self, template_id: UUID) -> Template | None: ...

    async def delete(self, template_id: UUID) -> None: ...

    async def name_taken(self, group_id: UUID, name: str) -> bool: ...

    async def of_groups(
        self, group_ids: frozenset[UUID] | None, offset: int, limit: int
    ) -> tuple[list[Template], int]: ...


@dataclass(frozen=True)
class Notification:
    id: UUID
    user_id: UUID
    kind: str
    message: str
    created_at: datetime
    session_id: UUID | None = None
    read_at: datetime | None = None


class NotificationRepository(Protocol):
    async def add(self, notification: Notification) -> None: ...

    async def of_user(
        self, user_id: UUID, offset: int, limit: int, unread_only: bool = False
    ) -> tuple[list[Notification], int]: ...

    async def mark_read(self, user_id: UUID, ids: Sequence[UUID], at: datetime) -> int: ...


class ClusterRegistry(Protocol):
    """The cluster adapters of the deployment, by cluster id."""

    def get(self, cluster_id: str) -> ClusterPort | None: ...

    def default_cpu_cluster(self) -> str | None:
        """Where CPU-only sessions go when no cluster was asked for."""
        ...


class UsageStore(Protocol):
    """The last minutes of per-second usage per session (ring buffers)."""

    async def append(self, sample: UsageSample) -> None: ...

    async def recent(self, session_id: UUID, seconds: int = 300) -> list[UsageSample]: ...
