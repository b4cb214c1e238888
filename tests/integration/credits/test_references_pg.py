"""What a transfer names exists, and stays: the statement trigger that replaced the transfers'
foreign keys refuses a transfer naming a missing account or hold (one row or many), and
accounts and holds can be neither deleted nor re-keyed."""

from __future__ import annotations

from itertools import pairwise
from uuid import UUID, uuid4

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine

from domain.credits.model import AccountRef, Attribution, HoldRequest, TransferKind, TransferRequest
from infra.credits.sql import SqlLedger
from tests.integration.credits.conftest import seed_tenancy
from tests.unit.credits.world import World

C = 1_000_000

_INSERT = text(
    "INSERT INTO credit_transfers (id, idempotency_key, kind, source_account_id, destination_account_id, "
    "amount_micro, created_at, organization_id, user_id, hold_id) "
    "SELECT gen_random_uuid(), :key || i, 'charge', :source, :destination, 1, now(), :org, :user, :hold "
    "FROM generate_series(1, :n) i"
)


async def world_with_hold(engine: AsyncEngine) -> tuple[World, SqlLedger, AccountRef, AccountRef, UUID]:
    w = World()
    await seed_tenancy(engine, w)
    ledger = SqlLedger(engine)
    wallet, sink = AccountRef.user(w.alice), AccountRef.consumption(w.org)
    chain = [AccountRef.system(), AccountRef.organization(w.org), AccountRef.group(w.group), wallet]
    for i, (source, destination) in enumerate(pairwise(chain)):
        await ledger.post(
            TransferRequest(
                uuid4(), f"{w.org}-fund-{i}", TransferKind.ALLOCATION, source, destination, 100 * C, w.clock.now()
            )
        )
    hold = await ledger.reserve(
        HoldRequest(uuid4(), f"{w.org}-hold", w.alice, 10 * C, w.clock.now(), Attribution(w.org, w.group, w.alice))
    )
    # the sink exists once something was paid into it
    await ledger.post(
        TransferRequest(
            uuid4(),
            f"{w.org}-pay",
            TransferKind.CHARGE,
            wallet,
            sink,
            C,
            w.clock.now(),
            attribution=Attribution(w.org, w.group, w.alice),
        )
    )
    return w, ledger, wallet, sink, hold.hold.id


@pytest.mark.parametrize("rows", [1, 500])  # the cached (small) and the planned-per-call (large) check
async def test_a_transfer_naming_a_missing_account_or_hold_is_refused(pg_engine: AsyncEngine, rows: int):
    w, _, wallet, sink, hold_id = await world_with_hold(pg_engine)
    base = {"org": w.org, "user": w.alice, "n": rows}
    async with pg_engine.begin() as conn:  # all references exist: accepted
        await conn.execute(
            _INSERT, {**base, "key": f"{w.org}-ok-", "source": wallet.id, "destination": sink.id, "hold": hold_id}
        )
    for name, bad in {
        "source": {"source": uuid4(), "destination": sink.id, "hold": hold_id},
        "destination": {"source": wallet.id, "destination": uuid4(), "hold": hold_id},
        "hold": {"source": wallet.id, "destination": sink.id, "hold": uuid4()},
    }.items():
        with pytest.raises(DBAPIError, match="does not exist") as err:
            async with pg_engine.begin() as conn:
                await conn.execute(_INSERT, {**base, "key": f"{w.org}-bad-{name}-", **bad})
        assert getattr(err.value.orig, "sqlstate", None) == "23503", name


async def test_accounts_and_holds_are_never_deleted_or_rekeyed(pg_engine: AsyncEngine):
    _, _, wallet, _, hold_id = await world_with_hold(pg_engine)
    for sql, params in (
        ("DELETE FROM credit_accounts WHERE id = :id", {"id": wallet.id}),
        ("UPDATE credit_accounts SET id = :new WHERE id = :id", {"id": wallet.id, "new": uuid4()}),
        ("TRUNCATE credit_accounts CASCADE", {}),
        ("DELETE FROM credit_holds WHERE id = :id", {"id": hold_id}),
        ("UPDATE credit_holds SET id = :new WHERE id = :id", {"id": hold_id, "new": uuid4()}),
        ("TRUNCATE credit_holds CASCADE", {}),
    ):
        with pytest.raises(DBAPIError, match="never deleted or re-keyed"):
            async with pg_engine.begin() as conn:
                await conn.execute(text(sql), params)
    async with pg_engine.connect() as conn:
        found = text("SELECT count(*) FROM credit_holds WHERE id = :id")
        assert (await conn.execute(found, {"id": hold_id})).scalar_one() == 1
