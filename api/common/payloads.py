from __future__ import annotations

import strawberry

from api.common.errors import UserError


@strawberry.input(description="Names one object by its global ID.")
class IdInput:
    id: strawberry.ID


@strawberry.type
class DeletePayload:
    deleted_id: strawberry.ID | None = None
    errors: list[UserError] = strawberry.field(default_factory=list)
