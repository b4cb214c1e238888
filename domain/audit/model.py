"""The audit log: who did what to which object, when, whether it worked, and how long it took."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol
from uuid import UUID

from domain.tenancy.model import Actor


@dataclass(frozen=True)
class AuditEntry:
    id: UUID
    at: datetime
    actor_user_id: UUID | None
    actor_username: str | None
    operation: str
    target_type: str | None
    target_id: str | None
    success: bool
    result_code: str
    duration_ms: int
    # the scope the entry belongs to, for visibility: admins of the scope may read it
    organization_id: UUID | None = None
    group_id: UUID | None = None
    request_id: str | None = None
    client_ip: str | None = None
    details: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class AuditFilter:
    operation: str | None = None
    actor_user_id: UUID | None = None
    target_type: str | None = None
    target_id: str | None = None
    success: bool | None = None
    since: datetime | None = None
    until: datetime | None = None
    organization_id: UUID | None = None
    # the order of the answer: newest first (the log's view) unless oldest first is asked for
    # (the first entry after an instant: idle_reclaim_report's next resume after a pause)
    oldest_first: bool = False


@dataclass(frozen=True)
class AuditVisibility:
    """What part of the log a reader may see; `everything` for super_admins."""

    everything: bool
    organization_ids: frozenset[UUID] = frozenset()
    group_ids: frozenset[UUID] = frozenset()


class AuditRepository(Protocol):
    async def append(self, entry: AuditEntry) -> None: ...

    async def append_many(self, entries: Sequence[AuditEntry]) -> None:
        """Entries in one statement (a batch of admissions)."""
        ...

    async def query(
        self, visibility: AuditVisibility, flt: AuditFilter, offset: int, limit: int
    ) -> tuple[list[AuditEntry], int]: ...

    async def get(self, entry_id: UUID) -> AuditEntry | None: ...


def visibility_for(actor: Actor) -> AuditVisibility | None:
    """None when the actor administers nothing and so may read no audit entries."""
    from domain.tenancy.access import administered_group_ids

    if actor.is_super_admin:
        return AuditVisibility(everything=True)
    groups = administered_group_ids(actor)
    if not actor.org_admin_of and not groups:
        return None
    return AuditVisibility(False, actor.org_admin_of, groups)


def may_read(actor: Actor, entry: AuditEntry) -> bool:
    vis = visibility_for(actor)
    if vis is None:
        return False
    if vis.everything:
        return True
    return (entry.organization_id in vis.organization_ids) or (entry.group_id in vis.group_ids)
