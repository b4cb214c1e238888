"""PostgreSQL-only guarantees: the database refuses what the ledger must never do, and
concurrent money movements are exact (must-show (b))."""

from __future__ import annotations

import asyncio
import random
from uuid import uuid4

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine

from domain.common.errors import CommonErrorCode, DomainError
from domain.credits.errors import CreditsErrorCode
from domain.credits.model import AccountRef, Attribution, HoldRequest, TransferKind, TransferRequest
from domain.credits.ports import TransferQuery
from infra.credits.sql import SqlLedger
from tests.integration.credits.conftest import seed_tenancy
from tests.unit.credits.world import World

C = 1_000_000


def req(
    w: World,
    key: str,
    kind: TransferKind,
    source: AccountRef,
    destination: AccountRef,
    amount: int,
    attribution: Attribution | None = None,
) -> TransferRequest:
    return TransferRequest(
        uuid4(), key, kind, source, destination, amount, w.clock.now(), attribution=attribution or Attribution()
    )


async def funded(engine: AsyncEngine, ledger: SqlLedger, wallet_credits: int = 0) -> World:
    """A seeded world: org 10 000, group 5 000, alice's wallet `wallet_credits`."""
    w = World()
    await seed_tenancy(engine, w)
    org, group = AccountRef.organization(w.org), AccountRef.group(w.group)
    await ledger.post(req(w, f"{w.org}-1", TransferKind.ALLOCATION, AccountRef.system(), org, 10_000 * C))
    await ledger.post(req(w, f"{w.org}-2", TransferKind.ALLOCATION, org, group, 5_000 * C))
    if wallet_credits:
        await ledger.post(
            req(w, f"{w.org}-3", TransferKind.ALLOCATION, group, AccountRef.user(w.alice), wallet_credits * C)
        )
    return w


def charge(w: World, key: str, amount: int) -> TransferRequest:
    return req(
        w,
        key,
        TransferKind.CHARGE,
        AccountRef.user(w.alice),
        AccountRef.consumption(w.org),
        amount,
        Attribution(w.org, w.group, w.alice),
    )


async def test_transfers_are_append_only(pg_engine: AsyncEngine):
    ledger = SqlLedger(pg_engine)
    await funded(pg_engine, ledger)
    for sql in (
        "UPDATE credit_transfers SET amount_micro = 1",
        "DELETE FROM credit_transfers",
        "TRUNCATE credit_transfers CASCADE",
    ):
        with pytest.raises(DBAPIError, match="append-only"):
            async with pg_engine.begin() as conn:
                await conn.execute(text(sql))


async def test_the_database_refuses_a_negative_available_balance(pg_engine: AsyncEngine):
    ledger = SqlLedger(pg_engine)
    w = await funded(pg_engine, ledger, wallet_credits=5)
    wallet = AccountRef.user(w.alice)
    for sql in (
        "UPDATE credit_accounts SET balance_micro = -1 WHERE id = :id",
        "UPDATE credit_accounts SET held_micro = balance_micro + 1 WHERE id = :id",
    ):
        with pytest.raises(DBAPIError, match="available_not_negative"):
            async with pg_engine.begin() as conn:
                await conn.execute(text(sql), {"id": wallet.id})


async def test_an_account_whose_owner_does_not_exist_is_not_found(pg_engine: AsyncEngine):
    ledger = SqlLedger(pg_engine)
    w = await funded(pg_engine, ledger)
    with pytest.raises(DomainError) as err:
        await ledger.post(
            req(w, f"{w.org}-ghost", TransferKind.ALLOCATION, AccountRef.group(w.group), AccountRef.user(uuid4()), C)
        )
    assert err.value.code == CommonErrorCode.NOT_FOUND


async def running_balances_never_negative(ledger: SqlLedger, wallet: AccountRef) -> None:
    """Replay the wallet's transfers in commit (seq) order: it never went below zero."""
    rows = await ledger.history(TransferQuery(account=wallet, limit=10_000))
    running = 0
    for _, t in sorted(rows, key=lambda r: r[0]):
        running += t.amount_micro if t.destination == wallet else -t.amount_micro
        assert running >= 0


@pytest.mark.parametrize("isolation", [None, "SERIALIZABLE"])
async def test_50_concurrent_debits_and_allocations_on_one_wallet(pg_engine: AsyncEngine, isolation):
    ledger = SqlLedger(pg_engine, isolation_level=isolation)
    w = await funded(pg_engine, ledger, wallet_credits=100)
    wallet, group = AccountRef.user(w.alice), AccountRef.group(w.group)
    rng = random.Random(4)
    ops = [("alloc", 10 * C) if i % 5 < 2 else ("charge", rng.randint(5, 15) * C) for i in range(50)]
    rng.shuffle(ops)

    async def one(i: int, op: str, amount: int) -> tuple[str, int, bool]:
        key = f"{w.org}-c{i}"
        request = (
            req(w, key, TransferKind.ALLOCATION, group, wallet, amount) if op == "alloc" else charge(w, key, amount)
        )
        try:
            await ledger.post(request)
            return op, amount, True
        except DomainError as exc:
            assert exc.code == CreditsErrorCode.INSUFFICIENT_CREDITS and op == "charge"
            return op, amount, False

    results = await asyncio.gather(*(one(i, op, amount) for i, (op, amount) in enumerate(ops)))
    expected = 100 * C + sum(a if op == "alloc" else -a for op, a, ok in results if ok)
    balance = (await ledger.balances([wallet]))[wallet]
    assert balance.balance_micro == expected >= 0
    assert sum(1 for *_, ok in results if ok) >= 20  # every allocation, and many charges
    consumption = AccountRef.consumption(w.org)
    spent = sum(a for op, a, ok in results if ok and op == "charge")
    assert (await ledger.balances([consumption]))[consumption].balance_micro == spent
    await running_balances_never_negative(ledger, wallet)
    assert await ledger.total() == 0
    if isolation == "SERIALIZABLE":
        assert ledger.tx.retries > 0  # serialization failures happened, and were retried


async def test_the_same_key_20_times_at_once_moves_money_once(pg_engine: AsyncEngine):
    ledger = SqlLedger(pg_engine)
    w = await funded(pg_engine, ledger, wallet_credits=50)
    request = charge(w, f"{w.org}-once", 7 * C)
    results = await asyncio.gather(*(ledger.post(request) for _ in range(20)))
    assert sum(not r.replayed for r in results) == 1
    assert len({r.transfer.id for r in results}) == 1
    wallet = AccountRef.user(w.alice)
    assert (await ledger.balances([wallet]))[wallet].balance_micro == 43 * C


async def test_the_same_key_20_times_at_once_under_serializable(pg_engine: AsyncEngine):
    ledger = SqlLedger(pg_engine, isolation_level="SERIALIZABLE")
    w = await funded(pg_engine, ledger, wallet_credits=50)
    request = charge(w, f"{w.org}-once-s", 7 * C)
    results = await asyncio.gather(*(ledger.post(request) for _ in range(20)))
    assert sum(not r.replayed for r in results) == 1
    wallet = AccountRef.user(w.alice)
    assert (await ledger.balances([wallet]))[wallet].balance_micro == 43 * C


async def test_concurrent_holds_never_reserve_more_than_the_wallet(pg_engine: AsyncEngine):
    ledger = SqlLedger(pg_engine)
    w = await funded(pg_engine, ledger, wallet_credits=100)
    attribution = Attribution(w.org, w.group, w.alice)

    async def reserve(i: int) -> int:
        try:
            r = await ledger.reserve(HoldRequest(uuid4(), f"{w.org}-h{i}", w.alice, 7 * C, w.clock.now(), attribution))
            return r.hold.amount_micro
        except DomainError as exc:
            assert exc.code == CreditsErrorCode.INSUFFICIENT_CREDITS
            return 0

    reserved = await asyncio.gather(*(reserve(i) for i in range(30)))
    wallet = AccountRef.user(w.alice)
    balance = (await ledger.balances([wallet]))[wallet]
    assert sum(reserved) == balance.held_micro == 14 * 7 * C  # 14 × 7 ≤ 100 < 15 × 7
    assert balance.available_micro == 2 * C


async def test_a_dropped_connection_is_retried_without_a_pre_ping(database_url: str):
    from infra.credits.sql import make_ledger_engine

    engine = make_ledger_engine(database_url, pool_size=1, max_overflow=0)
    try:
        ledger = SqlLedger(engine)
        w = await funded(engine, ledger, wallet_credits=10)
        async with engine.connect() as conn:
            pid = (await conn.execute(text("SELECT pg_backend_pid()"))).scalar_one()
        async with engine.connect() as conn:  # the pool's only connection, now killed
            other = make_ledger_engine(database_url, pool_size=1, max_overflow=0)
            async with other.connect() as killer:
                await killer.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
            await other.dispose()
        result = await ledger.post(charge(w, f"{w.org}-after-kill", C))
        assert not result.replayed and ledger.tx.retries == 1
        wallet = AccountRef.user(w.alice)
        assert (await ledger.balances([wallet]))[wallet].balance_micro == 9 * C
    finally:
        await engine.dispose()
