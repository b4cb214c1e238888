"""`NoticeBox` over PostgreSQL: notifications whose ids come from a dedupe key, inserted with
ON CONFLICT DO NOTHING, so a repeated job run (or a second process) never tells twice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from sqlalchemy import Table
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncEngine

from domain.sessions.ports import Notification
from infra.db.models.sessions import NotificationRow

N = cast(Table, NotificationRow.__table__)


class SqlNoticeBox:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def add_once(self, notifications: Sequence[Notification]) -> list[Notification]:
        if not notifications:
            return []
        by_id = {n.id: n for n in notifications}
        stmt = (
            pg_insert(N)
            .values(
                [
                    {
                        "id": n.id,
                        "user_id": n.user_id,
                        "kind": n.kind,
                        "message": n.message,
                        "session_id": n.session_id,
                        "created_at": n.created_at,
                    }
                    for n in by_id.values()
                ]
            )
            .on_conflict_do_nothing(index_elements=[N.c.id])
            .returning(N.c.id)
        )
        async with self.engine.begin() as conn:
            stored = {row[0] for row in await conn.execute(stmt)}
        return [n for n in by_id.values() if n.id in stored]
