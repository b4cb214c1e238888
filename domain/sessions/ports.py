"""Ports of the sessions context: session, volume, template and notification repositories,
the capacity store (the scheduler's persisted state), the cluster registry and usage store."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
from domain.volumes.model import ClaimState, StorageClass, Template, Volume


@dataclass
class CapacityState:
    """The scheduler and queue as one locked, mutable working copy (see `CapacityStore`)."""

    scheduler: Scheduler
    queue: GpuQueue
    clusters: dict[str, Cluster]
    conflicts: list[tuple[Allocation, str]] = field(default_factory=list)
    next_arrival: int = 0
    # conflicting allocations dealt with (taken out of `conflicts`): `save` deletes their rows
    forgotten: set[str] = field(default_factory=set)

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
    cluster_id: str | None = None  # placed on this cluster


class SessionRepository(Protocol):
    async def add(self, session: Session) -> None: ...

    async def add_many(self, sessions: Sequence[Session]) -> None:
        """New sessions in one statement (a batch of admissions)."""
        ...

    async def get(self, session_id: UUID, *, for_update: bool = False) -> Session | None: ...

    async def get_many(self, ids: Sequence[UUID], *, for_update: bool = False) -> list[Session]: ...

    async def update(self, session: Session) -> Session:
        """Optimistic: refuses when the stored version is no longer `session.version`;
        returns the session with its new version."""
        ...

    async def update_many(self, sessions: Sequence[Session]) -> list[Session]:
        """`update` of each (distinct) session, in as few statements as the store can: a
        batch of status reports moving many sessions on at once."""
        ...

    async def search(self, flt: SessionFilter, offset: int, limit: int) -> tuple[list[Session], int]: ...

    async def active_in(self, states: frozenset[SessionState]) -> list[Session]: ...

    async def owners_in(self, states: frozenset[SessionState]) -> set[UUID]:
        """Distinct owners of the sessions in these states."""
        ...


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

    async def set_claim_phases(self, cluster_id: str, phases: Mapping[UUID, ClaimState]) -> int:
        """Record what a cluster says of the volumes' claims (unknown volumes are ignored);
        returns how many volumes changed."""
        ...


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

    def all(self) -> list[ClusterPort]: ...


class UsageStore(Protocol):
    """The last minutes of per-second usage per session (ring buffers)."""

    async def append(self, sample: UsageSample) -> None: ...

    async def append_many(self, samples: Sequence[UsageSample]) -> None:
        """A cluster's samples of one second, in one round trip."""
        ...

    async def recent(self, session_id: UUID, seconds: int = 300) -> list[UsageSample]: ...


class IdleMarks(Protocol):
    """Since when each running session has been idle without a break, kept where every worker
    process sees it (and the next one, after a restart): idle reclaim's memory."""

    async def all(self) -> dict[UUID, datetime]: ...

    async def mark(self, session_id: UUID, since: datetime) -> datetime:
        """Record `since` unless the session already has a mark; the recorded instant."""
        ...

    async def clear(self, session_ids: Sequence[UUID]) -> None: ...


@dataclass(frozen=True, slots=True)
class BillingLine:
    """What one billing call did to one session."""

    session_id: UUID
    owner_id: UUID
    charged_micro: int  # posted by this call (0 when nothing was due or the key existed)
    unpaid_micro: int  # due but neither held nor available in the wallet: billed later
    hold_micro: int  # still reserved after the call (0 once the hold is closed)
    renewal_short_micro: int  # the part of the next hold window the wallet could not reserve
    first_shortfall: bool  # the renewal came up short now, while the window was whole before
    closed: bool  # the hold was closed (settlement of a session that no longer runs)


@dataclass(frozen=True, slots=True)
class BillingResult:
    sessions: int  # sessions billed (locked and looked at)
    transfers: int  # charge transfers posted
    charged_micro: int  # their sum
    # every selected session when ids were given; otherwise only those needing attention
    # (renewal short, something unpaid, running without an open hold, or a hold closed)
    lines: tuple[BillingLine, ...] = ()


class Billing(Protocol):
    """Turns RUNNING seconds into charges, exactly and once.

    One call is one transaction over the sessions and the ledger together: for each selected
    GPU session, due = floor(rate × ratio × running seconds / 3600) and the difference to what
    was already charged is posted (wallet → the organisation's consumption account, the hold
    first, the rest from the available balance, never below zero), the hold, the cached
    balances and the session's `charged_micro` moving in the same transaction; a repeated call
    at the same instant changes nothing. Without `close`, the holds of RUNNING sessions are
    renewed one window ahead as far as the wallet allows. With `close`, the holds of sessions
    that no longer run are closed (their rest released); a session that runs again is only
    billed. `session_ids=None` selects every RUNNING session (or, with `close`, every session
    that no longer runs but still has an open hold: the sweep for lost settlements)."""

    async def bill(self, now: datetime, session_ids: Sequence[UUID] | None, *, close: bool) -> BillingResult: ...
