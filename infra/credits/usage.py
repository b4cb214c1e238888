"""The `UsageReports` read model over PostgreSQL: charges grouped by their attribution, or by
the offering of the session named in their idempotency key, per day/week/month (UTC)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from sqlalchemy import Table, Uuid, case, func, literal_column, select
from sqlalchemy import cast as sql_cast
from sqlalchemy.ext.asyncio import AsyncEngine

from domain.credits.model import TransferKind
from domain.credits.usage import SESSION_KEY_PREFIX, UsageCell, UsageDimension, UsageQuery
from infra.credits.sql import _ATTRIBUTION
from infra.db.models.credits import CreditTransferRow
from infra.db.models.sessions import SessionRow

T = cast(Table, CreditTransferRow.__table__)
S = cast(Table, SessionRow.__table__)

_UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
# mirrors domain.credits.usage.session_of_charge; CASE keeps the cast from seeing other keys
_SESSION_OF_CHARGE = case(
    (
        T.c.idempotency_key.regexp_match(f"^{SESSION_KEY_PREFIX}{_UUID}(:|$)"),
        sql_cast(func.substr(T.c.idempotency_key, len(SESSION_KEY_PREFIX) + 1, 36), Uuid(as_uuid=True)),
    ),
    else_=None,
)
_SPLIT = {
    UsageDimension.GROUP: T.c.group_id,
    UsageDimension.USER: T.c.user_id,
    UsageDimension.OFFERING: S.c.offering_id,
}


class SqlUsageReports:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def charges(self, query: UsageQuery) -> Sequence[UsageCell]:
        columns: dict[str, Any] = {}
        if query.by is not None:
            columns["key"] = _SPLIT[query.by]
        if query.interval is not None:
            # constants inlined (a fixed enum value), so the GROUP BY expression is the selected one
            zone, unit = literal_column("'UTC'"), literal_column(f"'{query.interval.value}'")
            columns["period"] = func.timezone(zone, func.date_trunc(unit, func.timezone(zone, T.c.created_at)))
        source: Any = T
        if query.by is UsageDimension.OFFERING:
            source = T.outerjoin(S, S.c.id == _SESSION_OF_CHARGE)
        stmt = (
            select(*(c.label(name) for name, c in columns.items()), func.sum(T.c.amount_micro).label("amount"))
            .select_from(source)
            .where(
                T.c.kind == TransferKind.CHARGE.value,
                _ATTRIBUTION[query.scope.kind] == query.scope.id,
                T.c.created_at >= query.since,
                T.c.created_at < query.until,
            )
            .group_by(*columns.values())
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(stmt)).mappings().all()
        return [UsageCell(r.get("key"), r.get("period"), int(r["amount"])) for r in rows if r["amount"] is not None]
