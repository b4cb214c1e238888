"""Recording and reading the audit log."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from domain.audit.model import AuditEntry, AuditFilter, AuditRepository, may_read, visibility_for
from domain.common.clock import IdGenerator
from domain.common.errors import NotFoundError
from domain.tenancy.model import Actor
from domain.tenancy.services import Page


@dataclass(frozen=True)
class AuditTarget:
    type: str | None = None
    id: str | None = None
    organization_id: UUID | None = None
    group_id: UUID | None = None


async def record(repo: AuditRepository, entry: AuditEntry) -> AuditEntry:
    """Append an entry (`audit_entry`) to the log, in the caller's transaction."""
    await repo.append(entry)
    return entry


def audit_entry(
    ids: IdGenerator,
    *,
    at: datetime,
    actor: Actor | None,
    operation: str,
    target: AuditTarget,
    success: bool,
    result_code: str,
    duration_ms: int,
    request_id: str | None = None,
    client_ip: str | None = None,
    details: dict[str, str] | None = None,
    actor_username: str | None = None,
) -> AuditEntry:
    """One audit entry: who did what to which object, with what outcome."""
    return AuditEntry(
        id=ids.new_id(),
        at=at,
        actor_user_id=actor.user_id if actor else None,
        actor_username=actor.username if actor else actor_username,
        operation=operation,
        target_type=target.type,
        target_id=target.id,
        success=success,
        result_code=result_code,
        duration_ms=max(0, duration_ms),
        organization_id=target.organization_id,
        group_id=target.group_id,
        request_id=request_id,
        client_ip=client_ip,
        details=details or {},
    )


async def audit_query(
    repo: AuditRepository, actor: Actor, flt: AuditFilter, page: Page
) -> tuple[list[AuditEntry], int]:
    vis = visibility_for(actor)
    if vis is None:
        return [], 0
    page = page.clamp()
    return await repo.query(vis, flt, page.offset, page.limit)


async def audit_get(repo: AuditRepository, actor: Actor, entry_id: UUID) -> AuditEntry:
    entry = await repo.get(entry_id)
    if entry is None or not may_read(actor, entry):
        raise NotFoundError("audit entry")
    return entry
