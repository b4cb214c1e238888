from __future__ import annotations

from datetime import datetime

import strawberry

from api.audit.types import AuditEntryNode
from api.common.ids import decode_optional
from api.common.pagination import Connection, paginate
from api.context import Info
from domain.audit.model import AuditFilter
from domain.audit.services import audit_query


@strawberry.input
class AuditFilterInput:
    operation: str | None = None
    actor_id: strawberry.ID | None = None
    target_type: str | None = None
    target_id: str | None = None
    success: bool | None = None
    since: datetime | None = None
    until: datetime | None = None
    organization_id: strawberry.ID | None = None


@strawberry.type
class AuditQuery:
    @strawberry.field(description="The audit log, newest first; admins see the entries of the scopes they administer.")
    async def audit_log(
        self,
        info: Info,
        filter: AuditFilterInput | None = None,
        first: int | None = None,
        after: str | None = None,
        last: int | None = None,
        before: str | None = None,
    ) -> Connection[AuditEntryNode]:
        actor = info.context.require_actor()
        f = filter or AuditFilterInput()
        flt = AuditFilter(
            operation=f.operation,
            actor_user_id=decode_optional(f.actor_id, "User", "filter.actorId"),
            target_type=f.target_type,
            target_id=f.target_id,
            success=f.success,
            since=f.since,
            until=f.until,
            organization_id=decode_optional(f.organization_id, "Organization", "filter.organizationId"),
        )
        async with info.context.container.uow() as uow:
            return await paginate(
                lambda p: audit_query(uow.audit, actor, flt, p), AuditEntryNode.of, first, after, last, before
            )
