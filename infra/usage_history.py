"""The `UsageHistory` port over PostgreSQL (`usage_minutes`): the rollup's upsert, the
retention's delete, and the sums the history and idle-credits reports are built from."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import String, Table, and_, case, delete, func, literal, or_, select
from sqlalchemy import cast as sql_cast
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncEngine

from domain.credits.model import TransferKind
from domain.sessions.history import (
    HistoryCell,
    HistoryDimension,
    HistoryQuery,
    HistoryReach,
    SessionIdleShare,
    UsageMinute,
)
from infra.credits.usage import _SESSION_OF_CHARGE
from infra.db.models.credits import CreditTransferRow
from infra.db.models.usage_history import UsageMinuteRow

U = cast(Table, UsageMinuteRow.__table__)
T = cast(Table, CreditTransferRow.__table__)
_CHUNK = 1000  # rows per INSERT (asyncpg's bind parameter limit is 32,767; 19 columns a row)

_KEY = {
    HistoryDimension.CLUSTER: U.c.cluster_id,
    HistoryDimension.NODE: func.concat(U.c.cluster_id, literal("/"), U.c.node_id),
    HistoryDimension.ORGANIZATION: sql_cast(U.c.organization_id, String),
    HistoryDimension.GROUP: sql_cast(U.c.group_id, String),
}


def _reach(reach: HistoryReach) -> Any:
    if reach.everything:
        return literal(True)
    return or_(U.c.organization_id.in_(reach.organization_ids), U.c.group_id.in_(reach.group_ids))


class SqlUsageHistory:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def record(self, minutes: Sequence[UsageMinute]) -> int:
        if not minutes:
            return 0
        async with self.engine.begin() as conn:
            for start in range(0, len(minutes), _CHUNK):
                stmt = insert(U).values([asdict(m) for m in minutes[start : start + _CHUNK]])
                keep = {"session_id", "minute"}
                stmt = stmt.on_conflict_do_update(
                    index_elements=["session_id", "minute"],
                    set_={c.name: stmt.excluded[c.name] for c in U.columns if c.name not in keep},
                )
                await conn.execute(stmt)
        return len(minutes)

    async def forget_before(self, before: datetime) -> int:
        async with self.engine.begin() as conn:
            result = await conn.execute(delete(U).where(U.c.minute < before))
        return int(result.rowcount or 0)

    async def cells(self, query: HistoryQuery, reach: HistoryReach) -> Sequence[HistoryCell]:
        key = _KEY[query.by].label("key")
        bucket = func.date_bin(timedelta(seconds=query.step_seconds), U.c.minute, query.since).label("bucket")
        sampled = U.c.samples > 0
        stmt = (
            select(
                key,
                bucket,
                func.count().label("rows"),
                func.count(U.c.session_id.distinct()).label("sessions"),
                func.sum(U.c.card_equivalents).label("card_minutes"),
                func.coalesce(func.sum(case((sampled, U.c.card_equivalents), else_=0.0)), 0.0).label("sampled_cards"),
                func.coalesce(func.sum(U.c.gpu_util_mean * U.c.card_equivalents), 0.0).label("util_cards"),
                func.coalesce(func.sum(U.c.gpu_memory_mib_mean), 0.0).label("gpu_memory"),
                func.coalesce(func.sum(U.c.cpu_millicores_mean), 0.0).label("cpu"),
                func.coalesce(func.sum(U.c.memory_mib_mean), 0.0).label("memory"),
                func.sum(U.c.cpu_millicores_allocated).label("cpu_allocated"),
                func.sum(U.c.memory_mib_allocated).label("memory_allocated"),
                func.count().filter(~sampled).label("no_data"),
            )
            .where(U.c.minute >= query.since, U.c.minute < query.until, _reach(reach))
            .group_by(key, bucket)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(stmt)).mappings().all()
        return [
            HistoryCell(
                key=str(r["key"]),
                bucket=r["bucket"],
                rows=int(r["rows"]),
                sessions=int(r["sessions"]),
                card_minutes=float(r["card_minutes"]),
                sampled_card_minutes=float(r["sampled_cards"]),
                gpu_util_card_minutes=float(r["util_cards"]),
                gpu_memory_mib_minutes=float(r["gpu_memory"]),
                cpu_millicores_minutes=float(r["cpu"]),
                memory_mib_minutes=float(r["memory"]),
                cpu_allocated_minutes=float(r["cpu_allocated"]),
                memory_allocated_minutes=float(r["memory_allocated"]),
                no_data_minutes=int(r["no_data"]),
            )
            for r in rows
        ]

    async def idle_shares(
        self, since: datetime, until: datetime, below_percent: float, reach: HistoryReach
    ) -> Sequence[SessionIdleShare]:
        minutes = (
            select(
                U.c.session_id,
                U.c.organization_id,
                U.c.group_id,
                U.c.owner_id,
                func.count().label("minutes"),
                func.count().filter(and_(U.c.samples > 0, U.c.gpu_util_mean < below_percent)).label("idle"),
                func.count().filter(U.c.samples == 0).label("no_data"),
            )
            .where(U.c.minute >= since, U.c.minute < until, U.c.card_equivalents > 0, _reach(reach))
            .group_by(U.c.session_id, U.c.organization_id, U.c.group_id, U.c.owner_id)
            .subquery("m")
        )
        charges = (
            select(_SESSION_OF_CHARGE.label("session_id"), func.sum(T.c.amount_micro).label("charged"))
            .where(
                T.c.kind == TransferKind.CHARGE.value,
                T.c.idempotency_key.like("session:%"),
                T.c.created_at >= since,
                T.c.created_at < until,
            )
            .group_by(_SESSION_OF_CHARGE)
            .subquery("c")
        )
        stmt = select(minutes, func.coalesce(charges.c.charged, 0).label("charged")).select_from(
            minutes.outerjoin(charges, charges.c.session_id == minutes.c.session_id)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(stmt)).mappings().all()
        return [
            SessionIdleShare(
                session_id=r["session_id"],
                organization_id=r["organization_id"],
                group_id=r["group_id"],
                owner_id=r["owner_id"],
                minutes=int(r["minutes"]),
                idle_minutes=int(r["idle"]),
                no_data_minutes=int(r["no_data"]),
                charged_micro=int(r["charged"]),
            )
            for r in rows
        ]
