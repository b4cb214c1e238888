"""Usage reports and history counts: the in-memory and PostgreSQL adapters agree.

(Reports by offering through real sessions are tested in tests/integration/sessions/test_usage_report.py;
here charges name sessions that do not exist, so by offering they fall under no offering.)"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import uuid4

import pytest

from domain.common.errors import CommonErrorCode, DomainError
from domain.credits import services as svc
from domain.credits.budgets import BudgetScope, BudgetScopeKind
from domain.credits.model import AccountRef, TransferKind
from domain.credits.ports import TransferQuery
from domain.credits.usage import UsageDimension, UsageInterval, UsageQuery
from infra.credits.memory import InMemoryUsageReports
from infra.credits.usage import SqlUsageReports
from tests.integration.credits.conftest import Adapters
from tests.integration.credits.test_contract import C, fund

DAY1 = datetime(2026, 6, 1, 9, 30, tzinfo=UTC)  # a Monday


def reports(a: Adapters) -> Any:
    return InMemoryUsageReports(a.ledger) if a.kind == "memory" else SqlUsageReports(a.ledger.tx.engine)


async def charge(a: Adapters, user: Any, credits_: int, key: str) -> None:
    w = a.world
    await svc.charge_wallet(
        a.ledger,
        w.clock,
        w.ids,
        wallet=AccountRef.user(user),
        chain=w.chain(user),
        amount_micro=credits_ * C,
        idempotency_key=key,
    )


async def test_usage_report_by_user_group_and_period(adapters: Adapters) -> None:
    a, w = adapters, adapters.world
    await fund(a, alice=100, bob=100)
    w.clock.set(DAY1)
    await charge(a, w.alice, 3, f"session:{uuid4()}:meter:1")
    w.clock.set(DAY1 + timedelta(hours=2))
    await charge(a, w.bob, 5, f"manual-{uuid4()}")
    w.clock.set(DAY1 + timedelta(days=8))  # the next week, same month
    await charge(a, w.alice, 7, f"session:{uuid4()}:settle:1:60")
    org = BudgetScope(BudgetScopeKind.ORGANIZATION, w.org)
    since, until = datetime(2026, 6, 1, tzinfo=UTC), datetime(2026, 7, 1, tzinfo=UTC)
    r = reports(a)

    by_user = await svc.usage_report(w.org_admin, r, a.directory, UsageQuery(org, since, until, UsageDimension.USER))
    assert by_user.total_micro == 15 * C
    assert [(t.key, t.amount_micro) for t in by_user.totals] == [(w.alice, 10 * C), (w.bob, 5 * C)]
    assert by_user.cells == () and by_user.periods == ()

    weekly = await svc.usage_report(
        w.org_admin, r, a.directory, UsageQuery(org, since, until, UsageDimension.GROUP, UsageInterval.WEEK)
    )
    assert [(c.key, c.period_start, c.amount_micro) for c in weekly.cells] == [
        (w.group, datetime(2026, 6, 1, tzinfo=UTC), 8 * C),
        (w.group, datetime(2026, 6, 8, tzinfo=UTC), 7 * C),
    ]
    assert weekly.periods[0] == datetime(2026, 6, 1, tzinfo=UTC) and len(weekly.periods) == 5

    daily = await svc.usage_report(w.org_admin, r, a.directory, UsageQuery(org, since, until, None, UsageInterval.DAY))
    assert [(c.key, c.period_start, c.amount_micro) for c in daily.cells] == [
        (None, datetime(2026, 6, 1, tzinfo=UTC), 8 * C),
        (None, datetime(2026, 6, 9, tzinfo=UTC), 7 * C),
    ]
    assert len(daily.periods) == 30

    # sessions unknown to the adapter: no offering
    by_offering = await svc.usage_report(
        w.member(w.alice),
        r,
        a.directory,
        UsageQuery(BudgetScope(BudgetScopeKind.USER, w.alice), since, until, UsageDimension.OFFERING),
    )
    assert [(t.key, t.amount_micro) for t in by_offering.totals] == [(None, 10 * C)]

    with pytest.raises(DomainError) as refused:
        await svc.usage_report(w.member(w.bob), r, a.directory, UsageQuery(org, since, until))
    assert refused.value.code == CommonErrorCode.NOT_FOUND


def test_usage_query_refuses_coarser_splits_and_too_many_points() -> None:
    user = BudgetScope(BudgetScopeKind.USER, uuid4())
    since = datetime(2026, 1, 1, tzinfo=UTC)
    with pytest.raises(DomainError) as coarse:
        UsageQuery(user, since, since + timedelta(days=1), UsageDimension.GROUP)
    assert coarse.value.field == "by"
    with pytest.raises(DomainError) as fine:
        UsageQuery(user, since, since + timedelta(days=800), None, UsageInterval.DAY)
    assert fine.value.field == "interval"
    with pytest.raises(DomainError):
        UsageQuery(user, since, since)


async def test_history_count_matches_the_filters(adapters: Adapters) -> None:
    a, w = adapters, adapters.world
    await fund(a, alice=100)
    await charge(a, w.alice, 1, f"c-{uuid4()}")
    await charge(a, w.alice, 2, f"c-{uuid4()}")
    wallet = AccountRef.user(w.alice)
    q = TransferQuery(account=wallet, limit=1)
    assert await svc.ledger_history_count(w.member(w.alice), a.ledger, a.directory, q) == 3
    charges = TransferQuery(account=wallet, kind=TransferKind.CHARGE, before_seq=1)  # the cursor is ignored
    assert await svc.ledger_history_count(w.member(w.alice), a.ledger, a.directory, charges) == 2
    with pytest.raises(DomainError):
        await svc.ledger_history_count(w.member(w.bob), a.ledger, a.directory, q)
