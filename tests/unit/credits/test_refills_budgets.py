"""Refill schedules and budgets on the in-memory adapters."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from domain.common.errors import CommonErrorCode, DomainError
from domain.credits import services as svc
from domain.credits.budgets import BudgetAction, BudgetScope, BudgetScopeKind
from domain.credits.model import AccountRef, Period, period_bounds
from domain.credits.refills import RefillCadence, RefillMode, refill_period_start
from infra.credits.memory import InMemoryBudgets, InMemoryLedger, InMemoryRefillSchedules
from tests.unit.credits.test_ledger import C, deps, fund
from tests.unit.credits.world import World


def at(day: int, month: int = 1, hour: int = 12) -> datetime:
    return datetime(2026, month, day, hour, tzinfo=UTC)


def test_refill_periods():
    assert refill_period_start(RefillCadence.MONTHLY, 1, at(15)) == datetime(2026, 1, 1, tzinfo=UTC)
    assert refill_period_start(RefillCadence.MONTHLY, 20, at(15)) == datetime(2025, 12, 20, tzinfo=UTC)
    assert refill_period_start(RefillCadence.DAILY, 0, at(15)) == datetime(2026, 1, 15, tzinfo=UTC)
    # 2026-01-15 is a Thursday; the last Monday is the 12th
    assert refill_period_start(RefillCadence.WEEKLY, 0, at(15)) == datetime(2026, 1, 12, tzinfo=UTC)
    assert period_bounds(Period.MONTHLY, at(31, 12)) == (
        datetime(2026, 12, 1, tzinfo=UTC),
        datetime(2027, 1, 1, tzinfo=UTC),
    )


async def test_members_get_500_on_the_first_once_per_period():
    w, ledger = World(), InMemoryLedger()
    refills = InMemoryRefillSchedules(ledger)
    await fund(w, ledger, org=5000, group=4000)
    w.clock.set(at(15))
    schedule = await svc.create_refill_schedule(
        w.group_admin,
        refills,
        w.directory,
        w.clock,
        w.ids,
        source=AccountRef.group(w.group),
        mode=RefillMode.GRANT,
        amount_micro=500 * C,
        cadence=RefillCadence.MONTHLY,
        anchor_day=1,
        members_of_group=w.group,
    )
    assert await svc.apply_due_refills(ledger, refills, w.directory, w.ids, at(20)) == []
    outcomes = await svc.apply_due_refills(ledger, refills, w.directory, w.ids, at(1, 2, 0))
    assert [(o.schedule_id, o.applied, len(o.transfers)) for o in outcomes] == [(schedule.id, True, 3)]
    # the worker runs again (at-least-once delivery) in the same period: nothing moves
    assert await svc.apply_due_refills(ledger, refills, w.directory, w.ids, at(9, 2)) == []
    for user in (w.alice, w.bob, w.admin_user):
        assert (await ledger.balances([AccountRef.user(user)]))[AccountRef.user(user)].balance_micro == 500 * C
    # replaying the same period (a lost mark) is refused by the schedule, not double-paid
    assert await refills.apply_period(schedule.id, outcomes[0].period_start, []) is None
    assert len(await svc.apply_due_refills(ledger, refills, w.directory, w.ids, at(1, 3))) == 1
    assert ledger.total() == 0


async def test_top_up_brings_a_wallet_to_n_and_a_short_source_is_retried():
    w, ledger = World(), InMemoryLedger()
    refills = InMemoryRefillSchedules(ledger)
    await fund(w, ledger, org=1000, group=100, alice=30)
    w.clock.set(at(15))
    await svc.create_refill_schedule(
        w.group_admin,
        refills,
        w.directory,
        w.clock,
        w.ids,
        source=AccountRef.group(w.group),
        mode=RefillMode.TOP_UP,
        amount_micro=50 * C,
        cadence=RefillCadence.DAILY,
        anchor_day=0,
        target=AccountRef.user(w.alice),
    )
    [o] = await svc.apply_due_refills(ledger, refills, w.directory, w.ids, at(16))
    assert o.applied and o.transfers[0].transfer.amount_micro == 20 * C
    wallet = AccountRef.user(w.alice)
    assert (await ledger.balances([wallet]))[wallet].balance_micro == 50 * C
    # drain the group: the next day's top-up cannot be paid; it is reported and retried
    await svc.take_back(
        w.org_admin,
        **deps(w, ledger),
        source=AccountRef.group(w.group),
        destination=AccountRef.organization(w.org),
        amount_micro=50 * C,
        idempotency_key="drain",
    )
    await svc.charge_wallet(
        ledger, w.clock, w.ids, wallet=wallet, chain=w.chain(), amount_micro=40 * C, idempotency_key="spend"
    )
    [o] = await svc.apply_due_refills(ledger, refills, w.directory, w.ids, at(17))
    assert not o.applied and o.error is not None
    await svc.allocate(
        w.org_admin,
        **deps(w, ledger),
        source=AccountRef.organization(w.org),
        destination=AccountRef.group(w.group),
        amount_micro=100 * C,
        idempotency_key="refund-group",
    )
    [o] = await svc.apply_due_refills(ledger, refills, w.directory, w.ids, at(17, hour=13))
    assert o.applied and (await ledger.balances([wallet]))[wallet].balance_micro == 50 * C


async def test_refill_schedules_need_an_admin_of_the_source():
    w = World()
    refills = InMemoryRefillSchedules(InMemoryLedger())
    with pytest.raises(DomainError) as err:
        await svc.create_refill_schedule(
            w.member(),
            refills,
            w.directory,
            w.clock,
            w.ids,
            source=AccountRef.group(w.group),
            mode=RefillMode.GRANT,
            amount_micro=C,
            cadence=RefillCadence.DAILY,
            members_of_group=w.group,
        )
    assert err.value.code == CommonErrorCode.PERMISSION_DENIED
    with pytest.raises(DomainError):  # the target is not in the group
        await svc.create_refill_schedule(
            w.group_admin,
            refills,
            w.directory,
            w.clock,
            w.ids,
            source=AccountRef.group(w.group),
            mode=RefillMode.GRANT,
            amount_micro=C,
            cadence=RefillCadence.DAILY,
            target=AccountRef.user(w.carol),
        )


async def test_budget_spend_includes_descendants_and_the_gate_blocks():
    w, ledger, budgets = World(), InMemoryLedger(), InMemoryBudgets()
    await fund(w, ledger, alice=100, bob=100)
    w.clock.set(at(10))
    org_scope = BudgetScope(BudgetScopeKind.ORGANIZATION, w.org)
    await svc.set_budget(
        w.org_admin,
        budgets,
        w.directory,
        w.clock,
        w.ids,
        scope=org_scope,
        limit_micro=100 * C,
        action=BudgetAction.BLOCK,
    )
    await svc.set_budget(
        w.group_admin,
        budgets,
        w.directory,
        w.clock,
        w.ids,
        scope=BudgetScope(BudgetScopeKind.USER, w.alice),
        limit_micro=50 * C,
        action=BudgetAction.WARN,
        alert_thresholds=(50, 100),
    )
    for user, amount in ((w.alice, 30), (w.bob, 40)):
        await svc.charge_wallet(
            ledger,
            w.clock,
            w.ids,
            wallet=AccountRef.user(user),
            chain=w.chain(user),
            amount_micro=amount * C,
            idempotency_key=f"ch-{user}",
        )
    gate = await svc.evaluate_budget_gate(budgets, ledger, w.chain(), w.clock.now())
    assert gate.allowed and gate.refusal is None
    # alice spent 30 of 50 (60 %), the org 70 of 100: both past their 50 % threshold
    warning, org_warning = gate.warnings
    assert warning.budget.scope.id == w.alice and warning.crossed_thresholds == (50,)
    assert org_warning.budget.scope == org_scope
    org_status = next(s for s in gate.statuses if s.budget.scope == org_scope)
    assert org_status.spent_micro == 70 * C  # both members' charges count for the org
    await svc.charge_wallet(
        ledger,
        w.clock,
        w.ids,
        wallet=AccountRef.user(w.bob),
        chain=w.chain(w.bob),
        amount_micro=30 * C,
        idempotency_key="ch-more",
    )
    gate = await svc.evaluate_budget_gate(budgets, ledger, w.chain(), w.clock.now())
    assert not gate.allowed and gate.refusal is not None
    assert gate.refusal.budget.scope == org_scope
    assert "spent 100 of its 100 credit monthly budget" in gate.message
    # next month, spend starts again
    gate = await svc.evaluate_budget_gate(budgets, ledger, w.chain(), at(1, 2))
    assert gate.allowed


async def test_budgets_need_an_admin_of_the_scope_and_replace_per_period():
    w, budgets = World(), InMemoryBudgets()
    scope = BudgetScope(BudgetScopeKind.GROUP, w.group)
    with pytest.raises(DomainError):
        await svc.set_budget(
            w.member(), budgets, w.directory, w.clock, w.ids, scope=scope, limit_micro=C, action=BudgetAction.WARN
        )
    first = await svc.set_budget(
        w.group_admin, budgets, w.directory, w.clock, w.ids, scope=scope, limit_micro=C, action=BudgetAction.WARN
    )
    second = await svc.set_budget(
        w.org_admin, budgets, w.directory, w.clock, w.ids, scope=scope, limit_micro=2 * C, action=BudgetAction.BLOCK
    )
    assert second.id == first.id and len(budgets.budgets) == 1
    with pytest.raises(DomainError):
        await svc.set_budget(
            w.org_admin,
            budgets,
            w.directory,
            w.clock,
            w.ids,
            scope=scope,
            limit_micro=C,
            action=BudgetAction.WARN,
            alert_thresholds=(80, 50),
        )


def test_a_refill_is_refused_in_words_on_the_field_at_fault() -> None:
    from uuid import UUID

    from domain.credits.refills import validate_refill

    org, group, user = UUID(int=71), UUID(int=72), UUID(int=73)
    grp = AccountRef.group(group)

    def refusal(**kw: object) -> tuple[str, str | None, str]:
        args: dict[str, object] = dict(
            source=grp, target=AccountRef.user(user), members_of_group=None, amount_micro=1,
            cadence=RefillCadence.DAILY, anchor_day=0,
        )  # fmt: skip
        args.update(kw)
        with pytest.raises(DomainError) as err:
            validate_refill(**args)  # type: ignore[arg-type]
        return (err.value.code.value, err.value.field, err.value.message)

    def ok(**kw: object) -> None:
        args: dict[str, object] = dict(
            source=grp, target=AccountRef.user(user), members_of_group=None, amount_micro=1,
            cadence=RefillCadence.DAILY, anchor_day=0,
        )  # fmt: skip
        args.update(kw)
        validate_refill(**args)  # type: ignore[arg-type]

    bad = "INVALID_VALUE"
    for amount in (0, -1):
        assert refusal(amount_micro=amount) == (bad, "amount", "a refill amount must be positive")
    ok(amount_micro=1)
    both = (bad, "target", "name either one target account or a group's members")
    assert refusal(members_of_group=group) == both
    assert refusal(target=None) == both
    ok(target=None, members_of_group=group)
    assert refusal(target=None, members_of_group=UUID(int=99)) == (
        bad, "source", "a group's members are refilled from that group",
    )  # fmt: skip
    assert refusal(source=AccountRef.organization(org), target=AccountRef.user(user)) == (
        bad, "target", "a refill moves credits one level down the hierarchy",
    )  # fmt: skip
    ok(source=AccountRef.organization(org), target=AccountRef.group(group))
    # the consumption sink refills nothing: no edge of the hierarchy starts there
    assert refusal(source=AccountRef.consumption(org), target=AccountRef.organization(org)) == (
        bad, "target", "a refill moves credits one level down the hierarchy",
    )  # fmt: skip
    weekly = (bad, "anchorDay", "a weekly refill day is 0 (Monday) to 6 (Sunday)")
    for day in (-1, 7):
        assert refusal(cadence=RefillCadence.WEEKLY, anchor_day=day) == weekly
    for day in (0, 6):
        ok(cadence=RefillCadence.WEEKLY, anchor_day=day)
    monthly = (bad, "anchorDay", "a monthly refill day is 1 to 28")
    for day in (0, 29):
        assert refusal(cadence=RefillCadence.MONTHLY, anchor_day=day) == monthly
    for day in (1, 28):
        ok(cadence=RefillCadence.MONTHLY, anchor_day=day)
    # the anchor day is checked for weekly and monthly refills only, each against its own range
    ok(cadence=RefillCadence.DAILY, anchor_day=40)
    ok(cadence=RefillCadence.MONTHLY, anchor_day=7)
