"""A funded group with three members and a monthly refill schedule, on the test database."""

from __future__ import annotations

from datetime import datetime
from typing import cast
from uuid import UUID

from sqlalchemy import Table, func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from domain.common.clock import FrozenClock
from domain.credits import services as svc
from domain.credits.model import AccountRef
from domain.credits.refills import RefillCadence, RefillMode
from infra.credits.directory import SqlDirectory
from infra.credits.sql import SqlLedger, SqlRefillSchedules
from infra.db.models.credits import CreditTransferRow
from tests.integration.credits.conftest import seed_tenancy
from tests.unit.credits.world import World

C = 1_000_000
T = cast(Table, CreditTransferRow.__table__)


async def refill_world(engine: AsyncEngine, clock: FrozenClock, amount: int = 500) -> tuple[World, UUID]:
    """Seed the tenancy rows, fund org → group, and schedule `amount` credits to each member of
    the group on the 1st of every month (created now, so the first refill is next month's)."""
    w = World(clock=clock)
    await seed_tenancy(engine, w)
    ledger, directory = SqlLedger(engine), SqlDirectory(engine)
    common = dict(ledger=ledger, directory=directory, clock=clock, ids=w.ids)
    tag = w.group.hex[:8]
    await svc.allocate(
        w.super_admin,
        **common,
        source=AccountRef.system(),
        destination=AccountRef.organization(w.org),
        amount_micro=100_000 * C,
        idempotency_key=f"fund-org-{tag}",
    )
    await svc.allocate(
        w.org_admin,
        **common,
        source=AccountRef.organization(w.org),
        destination=AccountRef.group(w.group),
        amount_micro=50_000 * C,
        idempotency_key=f"fund-group-{tag}",
    )
    schedule = await svc.create_refill_schedule(
        w.group_admin,
        SqlRefillSchedules(ledger),
        directory,
        clock,
        w.ids,
        source=AccountRef.group(w.group),
        mode=RefillMode.GRANT,
        amount_micro=amount * C,
        cadence=RefillCadence.MONTHLY,
        anchor_day=1,
        members_of_group=w.group,
    )
    return w, schedule.id


def members(w: World) -> list[UUID]:
    return sorted([w.admin_user, w.alice, w.bob])


async def refill_transfers(engine: AsyncEngine, schedule_id: UUID) -> dict[str, int]:
    """Refill transfers of the schedule: idempotency key → count (the key is unique, so a
    count above 1 cannot happen; the number of keys is what a double refill would change)."""
    async with engine.connect() as conn:
        rows = (
            await conn.execute(
                select(T.c.idempotency_key, func.count())
                .where(T.c.idempotency_key.like(f"refill:{schedule_id}:%"))
                .group_by(T.c.idempotency_key)
            )
        ).all()
    return {row[0]: row[1] for row in rows}


async def balance(engine: AsyncEngine, user: UUID) -> int:
    ref = AccountRef.user(user)
    return (await SqlLedger(engine).balances([ref]))[ref].balance_micro


def month_start(year: int, month: int) -> datetime:
    from datetime import UTC

    return datetime(year, month, 1, tzinfo=UTC)
