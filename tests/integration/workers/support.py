"""Worlds on the test database: a funded group with three members and a monthly refill
schedule; running GPU sessions with holds for the metering tests."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from typing import cast
from uuid import UUID, uuid4

from sqlalchemy import Table, func, select, text
from sqlalchemy.ext.asyncio import AsyncEngine

from domain.common.clock import FrozenClock
from domain.common.money import cost_micro
from domain.credits import services as svc
from domain.credits.model import AccountRef, Attribution, HoldRequest, TransferKind, TransferRequest
from domain.credits.refills import RefillCadence, RefillMode
from infra.credits.directory import SqlDirectory
from infra.credits.sql import SqlLedger, SqlRefillSchedules
from infra.db.models.credits import CreditTransferRow
from tests.integration.billing.support import assert_ledger_consistent
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
    return datetime(year, month, 1, tzinfo=UTC)


# ------------------------------------------------------------------------ metering (issue 7)

METER_RATE_MICRO = 1_000_007  # per card-hour: not a round number, so flooring shows
METER_RATIO = Fraction(1, 4)


@dataclass(frozen=True)
class MeterWorld:
    world: World
    sessions: dict[UUID, UUID]  # session id → owner
    running_since: datetime  # whole seconds
    funded_micro: int  # each owner's wallet before any charge


async def metering_world(engine: AsyncEngine, per_user: int = 2, wallet: int = 100) -> MeterWorld:
    """RUNNING quarter-card sessions (`per_user` for each of three members) on real rows, each
    with an open one-hour hold reserved through the ledger on a wallet funded through the
    ledger (system → org → group → member), so every cached balance is what the transfers say.
    They have been running for ten minutes."""
    now = datetime.now(UTC).replace(microsecond=0)
    w = World(clock=FrozenClock(now))
    await seed_tenancy(engine, w)
    ledger = SqlLedger(engine)
    owners = members(w)
    tag = w.group.hex[:8]
    chain = [AccountRef.system(), AccountRef.organization(w.org), AccountRef.group(w.group)]
    for i, (source, destination) in enumerate(itertools.pairwise(chain)):
        await ledger.post(
            TransferRequest(
                uuid4(), f"meter-fund-{tag}-{i}", TransferKind.ALLOCATION, source, destination, 10_000 * C, now
            )
        )
    for user in owners:
        await ledger.post(
            TransferRequest(
                uuid4(),
                f"meter-fund-{tag}-{user}",
                TransferKind.ALLOCATION,
                AccountRef.group(w.group),
                AccountRef.user(user),
                wallet * C,
                now,
            )
        )
    image, offering = uuid4(), uuid4()
    gpu = json.dumps(
        {
            "offering_id": str(offering),
            "offering_name": "A100-80GB",
            "vram_mib": 20480,
            "cores": 25,
            "cards": 1,
            "exclusive": False,
            "shared": False,
            "ratio": f"{METER_RATIO.numerator}/{METER_RATIO.denominator}",
            "hourly_rate_micro": METER_RATE_MICRO,
            "forced_kind": None,
        }
    )
    since = now - timedelta(minutes=10)
    sessions: dict[UUID, UUID] = {}
    async with engine.begin() as conn:
        await conn.execute(
            text(
                "INSERT INTO images (id, name, reference, scope, description) "
                "VALUES (:id, 'meter', 'meter:latest', 'global', '')"
            ),
            {"id": image},
        )
        await conn.execute(
            text(
                "INSERT INTO offerings (id, vendor, name, vram_mib, cores, min_cuda, hourly_rate_micro, "
                "resource_name, description, enabled) "
                "VALUES (:id, 'NVIDIA', 'A100-80GB', 81920, 100, '11.0', :rate, 'nvidia.com/gpu', '', true)"
            ),
            {"id": offering, "rate": METER_RATE_MICRO},
        )
    hour = cost_micro(METER_RATE_MICRO, METER_RATIO, 3600)
    for user in owners:
        for i in range(per_user):
            sid = uuid4()
            hold = await ledger.reserve(
                HoldRequest(uuid4(), f"session:{sid}:hold:1", user, hour, now, Attribution(w.org, w.group, user))
            )
            async with engine.begin() as conn:
                await conn.execute(
                    text(
                        """
                        INSERT INTO sessions (id, name, owner_id, organization_id, group_id, kind, state,
                            state_reason, image_id, image_reference, offering_id, cpu_millicores, memory_mib,
                            shm_mib, disk_gib, gpu, expiry, priority, preemptible, env, mounts, hold_id,
                            hold_seq, running_since, billed_seconds, endpoints, version,
                            created_at, updated_at, started_at)
                        VALUES (:id, :name, :owner, :org, :group, 'interactive', 'RUNNING', 'running', :image,
                            'meter:latest', :offering, 1000, 2048, 256, 10, CAST(:gpu AS jsonb), 'none', 0, false,
                            '{}', '[]', :hold, 1, :since, 0, '{}', 0, :since, :since, :since)
                        """
                    ),
                    {
                        "id": sid,
                        "name": f"meter-{i}",
                        "owner": user,
                        "org": w.org,
                        "group": w.group,
                        "image": image,
                        "offering": offering,
                        "gpu": gpu,
                        "hold": hold.hold.id,
                        "since": since,
                    },
                )
            sessions[sid] = user
    return MeterWorld(w, sessions, since, wallet * C)


async def meter_charges(engine: AsyncEngine, session_id: UUID) -> dict[str, int]:
    """The session's metering charges: idempotency key → amount."""
    async with engine.connect() as conn:
        rows = await conn.execute(
            select(T.c.idempotency_key, T.c.amount_micro).where(
                T.c.idempotency_key.like(f"session:{session_id}:meter:%")
            )
        )
        return {row[0]: int(row[1]) for row in rows}


async def assert_metered_exactly(engine: AsyncEngine, mw: MeterWorld) -> dict[UUID, int]:
    """Every session was charged exactly what it owes up to its latest charge, to the micro-credit:
    the sum of its charges is its `charged_micro`, and is the cost of its seconds up to the
    instant the latest charge names. Every wallet is its funding minus its charges, and holds
    what its open holds say; every cached balance is what the transfers say; the ledger sums to
    zero. Returns the number of charges (ticks that billed) per session."""
    ticks: dict[UUID, int] = {}
    spent: dict[UUID, int] = {}
    async with engine.connect() as conn:
        charged = {
            row[0]: int(row[1])
            for row in await conn.execute(
                text("SELECT session_id, charged_micro FROM session_meters WHERE session_id = ANY(:ids)"),
                {"ids": list(mw.sessions)},
            )
        }
    for sid, owner in mw.sessions.items():
        charges = await meter_charges(engine, sid)
        assert charges, f"session {sid} was never billed"
        latest = max(datetime.strptime(k.rsplit(":", 1)[1], "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC) for k in charges)
        seconds = int((latest - mw.running_since).total_seconds())
        owed = cost_micro(METER_RATE_MICRO, METER_RATIO, seconds)
        assert sum(charges.values()) == charged[sid] == owed, (sid, charges, charged[sid], owed)
        ticks[sid] = len(charges)
        spent[owner] = spent.get(owner, 0) + owed
    for owner, total in spent.items():
        assert await balance(engine, owner) == mw.funded_micro - total, owner
    await assert_ledger_consistent(engine)
    return ticks
