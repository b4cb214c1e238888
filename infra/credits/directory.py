"""The credits/policies `Directory` port over the tenancy tables (read-only)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast
from uuid import UUID

from sqlalchemy import Table, select
from sqlalchemy.ext.asyncio import AsyncEngine

from infra.db.models.tenancy import GroupRow, MembershipRow

G = cast(Table, GroupRow.__table__)
M = cast(Table, MembershipRow.__table__)


class SqlDirectory:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def group_organization(self, group_id: UUID) -> UUID | None:
        async with self.engine.connect() as conn:
            value = (await conn.execute(select(G.c.organization_id).where(G.c.id == group_id))).scalar()
        return cast(UUID | None, value)

    async def user_groups(self, user_id: UUID) -> Mapping[UUID, UUID]:
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(M.c.group_id, M.c.organization_id).where(M.c.user_id == user_id))).all()
        return {row.group_id: row.organization_id for row in rows}

    async def group_member_ids(self, group_id: UUID) -> Sequence[UUID]:
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(M.c.user_id).where(M.c.group_id == group_id).order_by(M.c.user_id))).all()
        return [row.user_id for row in rows]
