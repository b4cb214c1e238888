"""The ledger state machine of tests/unit/credits/test_ledger_stateful.py, on PostgreSQL:
the same random sequences through SqlLedger / SqlRefillSchedules / SqlDirectory, with the
invariants read back from the database after every step: each account's cached balance (the
`credit_accounts` row) equals the model's exact amount and the sum of the `credit_transfers`
rows into it minus those out of it."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, cast

from hypothesis import HealthCheck, settings
from hypothesis.stateful import run_state_machine_as_test
from sqlalchemy import Table, func, select

from domain.credits.model import AccountRef
from infra.credits.directory import SqlDirectory
from infra.credits.sql import SqlLedger, SqlRefillSchedules, make_ledger_engine
from infra.db.models.credits import CreditHoldRow, CreditTransferRow
from tests.integration.credits.conftest import seed_tenancy
from tests.unit.credits.test_ledger_stateful import LedgerMachine, Snapshot
from tests.unit.credits.world import World

H = cast(Table, CreditHoldRow.__table__)
T = cast(Table, CreditTransferRow.__table__)


class PgBackend:
    def __init__(self, url: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.engine = make_ledger_engine(url, pool_size=2, max_overflow=2)
        self.world = w = World()
        self.run(seed_tenancy(self.engine, w))
        self.ledger = SqlLedger(self.engine)
        self.refills = SqlRefillSchedules(self.ledger)
        self.directory = SqlDirectory(self.engine)
        self.users = [w.admin_user, w.alice, w.bob, w.carol]
        self.accounts = [
            AccountRef.system(),
            AccountRef.organization(w.org),
            AccountRef.consumption(w.org),
            AccountRef.group(w.group),
            AccountRef.group(w.other_group),
            *(AccountRef.user(u) for u in self.users),
        ]

    def run(self, coro: Coroutine[Any, Any, Any]) -> Any:
        return self.loop.run_until_complete(coro)

    async def _snapshot(self) -> Snapshot:
        balances = await self.ledger.balances(self.accounts)
        async with self.engine.connect() as conn:
            count = (await conn.execute(select(func.count()).select_from(T))).scalar_one()
        state = {a: (b.balance_micro, b.held_micro) for a, b in balances.items()}
        return {a: v for a, v in state.items() if v != (0, 0)}, count

    def snapshot(self) -> Snapshot:
        return self.run(self._snapshot())

    def total(self) -> int:
        return cast(int, self.run(self.ledger.total()))

    async def _open_holds(self) -> dict[AccountRef, int]:
        stmt = (
            select(H.c.user_id, func.sum(H.c.amount_micro))
            .where(H.c.user_id.in_(self.users), H.c.status == "open")
            .group_by(H.c.user_id)
        )
        async with self.engine.connect() as conn:
            return {AccountRef.user(u): int(s) for u, s in await conn.execute(stmt)}

    def open_holds_by_wallet(self) -> dict[AccountRef, int]:
        return cast(dict[AccountRef, int], self.run(self._open_holds()))

    async def _from_transfers(self) -> dict[AccountRef, int]:
        by_id = {a.id: a for a in self.accounts}
        totals: dict[AccountRef, int] = {}
        async with self.engine.connect() as conn:
            for column, sign in ((T.c.destination_account_id, 1), (T.c.source_account_id, -1)):
                stmt = select(column, func.sum(T.c.amount_micro)).where(column.in_(list(by_id))).group_by(column)
                for account, total in await conn.execute(stmt):
                    totals[by_id[account]] = totals.get(by_id[account], 0) + sign * int(total)
        return {a: v for a, v in totals.items() if v}

    def balances_from_transfers(self) -> dict[AccountRef, int]:
        return cast(dict[AccountRef, int], self.run(self._from_transfers()))

    def close(self) -> None:
        self.run(self.engine.dispose())
        self.loop.close()


def test_ledger_state_machine_on_postgresql(database_url: str) -> None:
    class PgLedgerMachine(LedgerMachine):
        make_backend = staticmethod(lambda: PgBackend(database_url))

    # 8 sequences of 25 steps: the rules and invariants are the in-memory machine's
    # (tests/unit/credits/test_ledger_stateful.py), which explores them with 60 sequences of 40
    # steps; this run checks that the SQL adapters agree with the model on the same kinds of
    # sequences, each step read back from the database (it ran 12: a third of this test's time)
    run_state_machine_as_test(
        PgLedgerMachine,
        settings=settings(
            max_examples=8,
            stateful_step_count=25,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
        ),
    )
