"""PostgreSQL repository for the append-only audit log."""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

from sqlalchemy import func, insert, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from domain.audit.model import AuditEntry, AuditFilter, AuditVisibility
from infra.db.models.audit import AuditEntryRow


def _entry(r: AuditEntryRow) -> AuditEntry:
    return AuditEntry(
        r.id,
        r.at,
        r.actor_user_id,
        r.actor_username,
        r.operation,
        r.target_type,
        r.target_id,
        r.success,
        r.result_code,
        r.duration_ms,
        r.organization_id,
        r.group_id,
        r.request_id,
        r.client_ip,
        dict(r.details or {}),
    )


def _row(e: AuditEntry) -> dict[str, object]:
    return {
        "id": e.id,
        "at": e.at,
        "actor_user_id": e.actor_user_id,
        "actor_username": e.actor_username,
        "operation": e.operation,
        "target_type": e.target_type,
        "target_id": e.target_id,
        "success": e.success,
        "result_code": e.result_code,
        "duration_ms": e.duration_ms,
        "organization_id": e.organization_id,
        "group_id": e.group_id,
        "request_id": e.request_id,
        "client_ip": e.client_ip,
        "details": e.details,
    }


_INSERT = insert(AuditEntryRow.__table__)


class SqlAuditRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.s = session

    async def append_many(self, entries: Sequence[AuditEntry]) -> None:
        if entries:
            await self.s.execute(_INSERT, [_row(e) for e in entries])

    async def append(self, e: AuditEntry) -> None:
        self.s.add(
            AuditEntryRow(
                id=e.id,
                at=e.at,
                actor_user_id=e.actor_user_id,
                actor_username=e.actor_username,
                operation=e.operation,
                target_type=e.target_type,
                target_id=e.target_id,
                success=e.success,
                result_code=e.result_code,
                duration_ms=e.duration_ms,
                organization_id=e.organization_id,
                group_id=e.group_id,
                request_id=e.request_id,
                client_ip=e.client_ip,
                details=e.details,
            )
        )
        await self.s.flush()

    async def query(
        self, visibility: AuditVisibility, flt: AuditFilter, offset: int, limit: int
    ) -> tuple[list[AuditEntry], int]:
        q = select(AuditEntryRow)
        if not visibility.everything:
            conds = []
            if visibility.organization_ids:
                conds.append(AuditEntryRow.organization_id.in_(visibility.organization_ids))
            if visibility.group_ids:
                conds.append(AuditEntryRow.group_id.in_(visibility.group_ids))
            if not conds:
                return [], 0
            q = q.where(or_(*conds))
        if flt.operation:
            q = q.where(AuditEntryRow.operation == flt.operation)
        if flt.actor_user_id:
            q = q.where(AuditEntryRow.actor_user_id == flt.actor_user_id)
        if flt.target_type:
            q = q.where(AuditEntryRow.target_type == flt.target_type)
        if flt.target_id:
            q = q.where(AuditEntryRow.target_id == flt.target_id)
        if flt.success is not None:
            q = q.where(AuditEntryRow.success == flt.success)
        if flt.since:
            q = q.where(AuditEntryRow.at >= flt.since)
        if flt.until:
            q = q.where(AuditEntryRow.at < flt.until)
        if flt.organization_id:
            q = q.where(AuditEntryRow.organization_id == flt.organization_id)
        total = await self.s.scalar(select(func.count()).select_from(q.subquery())) or 0
        order = (AuditEntryRow.at.asc() if flt.oldest_first else AuditEntryRow.at.desc(), AuditEntryRow.id)
        rows = await self.s.scalars(q.order_by(*order).offset(offset).limit(limit))
        return [_entry(r) for r in rows], total

    async def get(self, entry_id: UUID) -> AuditEntry | None:
        r = await self.s.get(AuditEntryRow, entry_id)
        return _entry(r) if r else None
