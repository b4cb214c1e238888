from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any
from uuid import UUID

import strawberry
from strawberry import relay

from api.common.nodes import resolve_authorised
from api.context import Info
from domain.audit.model import AuditEntry as AuditEntryModel
from domain.audit.services import audit_get

_NAMED = frozenset({"User", "Organization", "Group", "Offering", "Registry", "Volume"})


@strawberry.type(name="AuditEntry", description="Who did what to which object, when, and how it went.")
class AuditEntryNode(relay.Node):
    uuid: relay.NodeID[str]
    at: datetime
    actor_user_id: relay.GlobalID | None = strawberry.field(description="Global ID of the acting User, if any.")
    actor_username: str | None
    operation: str
    target_type: str | None
    target_id: str | None = strawberry.field(description="The target's own id (a UUID or a name for failed creations).")
    success: bool
    result_code: str
    duration_ms: int
    request_id: str | None
    client_ip: str | None

    @strawberry.field(
        description="The target's name when it still exists and is a user (username), an organisation, a group, "
        "an offering, a registry or a volume; null otherwise (use targetId)."
    )
    async def target_name(self, info: Info) -> str | None:
        if not self.target_id or self.target_type not in _NAMED:
            return None
        try:
            key = UUID(self.target_id)
        except ValueError:
            return None  # a failed creation names its target by what was asked
        loaders = info.context.loaders
        loader = {
            "User": loaders.user_by_id,
            "Organization": loaders.organization_by_id,
            "Group": loaders.group_by_id,
            "Offering": loaders.offering_by_id,
            "Registry": loaders.registry_by_id,
            "Volume": loaders.volume_by_id,
        }[self.target_type]
        found = await loader.load(key)
        if found is None:
            return None
        return str(getattr(found, "username", None) or getattr(found, "name", None) or "") or None

    @classmethod
    def of(cls, e: AuditEntryModel) -> AuditEntryNode:
        return cls(
            uuid=str(e.id),
            at=e.at,
            actor_user_id=relay.GlobalID("User", str(e.actor_user_id)) if e.actor_user_id else None,
            actor_username=e.actor_username,
            operation=e.operation,
            target_type=e.target_type,
            target_id=e.target_id,
            success=e.success,
            result_code=e.result_code,
            duration_ms=e.duration_ms,
            request_id=e.request_id,
            client_ip=e.client_ip,
        )

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids: Iterable[str], required: bool = False) -> list[Any]:
        return await resolve_authorised(info, node_ids, lambda uow, actor, i: audit_get(uow.audit, actor, i), cls.of)
