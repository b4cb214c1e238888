"""Who reads and changes a scope's budgets, refill schedules and spend (the in-memory adapters):
budgets listed shortest period first, deleted by an admin only, schedules paused by an admin of
their source, spend and its breakdown and usage reports for whoever may see the account."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from domain.common.errors import CommonErrorCode, DomainError
from domain.credits import services as svc
from domain.credits.budgets import BudgetAction, BudgetScope, BudgetScopeKind
from domain.credits.errors import CreditsErrorCode
from domain.credits.model import AccountRef, Period
from domain.credits.refills import RefillCadence, RefillMode
from domain.credits.usage import UsageDimension, UsageQuery, build_report
from domain.policies.model import ScopeChain
from domain.tenancy.model import Actor
from infra.credits.memory import InMemoryBudgets, InMemoryLedger, InMemoryRefillSchedules, InMemoryUsageReports
from tests.unit.credits.test_ledger import C, fund
from tests.unit.credits.world import World


def at(day: int, month: int = 1, hour: int = 12) -> datetime:
    return datetime(2026, month, day, hour, tzinfo=UTC)


async def refused(coro: object) -> tuple[str, str | None, str]:
    with pytest.raises(DomainError) as err:
        await coro  # type: ignore[misc]
    return err.value.code.value, err.value.field, err.value.message


def read_only(actor: Actor) -> Actor:
    return Actor(
        actor.user_id,
        actor.username,
        is_super_admin=actor.is_super_admin,
        org_admin_of=actor.org_admin_of,
        group_roles=actor.group_roles,
        group_orgs=actor.group_orgs,
        read_only=True,
    )


async def test_a_scopes_budgets_shortest_period_first_for_whoever_sees_its_account() -> None:
    w, budgets = World(), InMemoryBudgets()
    group = BudgetScope(BudgetScopeKind.GROUP, w.group)
    for period in (Period.MONTHLY, Period.DAILY, Period.WEEKLY):
        await svc.set_budget(
            w.org_admin, budgets, w.directory, w.clock, w.ids,
            scope=group, limit_micro=C, action=BudgetAction.WARN, period=period,
        )  # fmt: skip
    other = BudgetScope(BudgetScopeKind.GROUP, w.other_group)
    await svc.set_budget(
        w.org_admin, budgets, w.directory, w.clock, w.ids, scope=other, limit_micro=C, action=BudgetAction.BLOCK
    )
    listed = await svc.budgets_of(w.member(), budgets, w.directory, group)  # a member sees its group's
    assert [b.period for b in listed] == [Period.DAILY, Period.WEEKLY, Period.MONTHLY]
    assert {b.scope for b in listed} == {group}
    assert [b.scope for b in await svc.budgets_of(w.org_admin, budgets, w.directory, other)] == [other]
    # a member of another group: the scope answers like one that does not exist
    outsider = w.member(w.carol, w.other_group)
    assert await refused(svc.budgets_of(outsider, budgets, w.directory, group)) == (
        CommonErrorCode.NOT_FOUND.value, "scope.id", "group not found",
    )  # fmt: skip
    alice = BudgetScope(BudgetScopeKind.USER, w.alice)
    assert await svc.budgets_of(w.member(), budgets, w.directory, alice) == []
    assert (await refused(svc.budgets_of(w.member(w.bob), budgets, w.directory, alice)))[:2] == (
        CommonErrorCode.NOT_FOUND.value, "scope.id",
    )  # fmt: skip


async def test_a_budget_is_deleted_by_an_admin_of_its_scope_and_hidden_from_others() -> None:
    w, budgets = World(), InMemoryBudgets()
    group = BudgetScope(BudgetScopeKind.GROUP, w.group)
    budget = await svc.set_budget(
        w.group_admin, budgets, w.directory, w.clock, w.ids, scope=group, limit_micro=C, action=BudgetAction.WARN
    )
    not_found = (CommonErrorCode.NOT_FOUND.value, "id", "budget not found")
    assert await refused(svc.delete_budget(w.member(w.carol, w.other_group), budgets, w.directory, budget.id)) == (
        not_found
    )
    # a member of the group reaches it but may not delete it
    code, field, _ = await refused(svc.delete_budget(w.member(), budgets, w.directory, budget.id))
    assert (code, field) == (CommonErrorCode.PERMISSION_DENIED.value, "scope")
    assert await refused(svc.delete_budget(w.group_admin, budgets, w.directory, w.ids.new_id())) == not_found
    assert list(budgets.budgets) == [budget.id]
    await svc.delete_budget(w.group_admin, budgets, w.directory, budget.id)
    assert budgets.budgets == {}
    assert await refused(svc.delete_budget(w.group_admin, budgets, w.directory, budget.id)) == not_found


async def schedule_of(w: World, refills: InMemoryRefillSchedules, source: AccountRef) -> object:
    admin = w.group_admin if source.kind.value == "group" else w.org_admin
    target = {"members_of_group": w.group} if source.kind.value == "group" else {"target": AccountRef.group(w.group)}
    return await svc.create_refill_schedule(
        admin, refills, w.directory, w.clock, w.ids,
        source=source, mode=RefillMode.GRANT, amount_micro=C, cadence=RefillCadence.DAILY, **target,  # type: ignore[arg-type]
    )  # fmt: skip


async def test_a_schedule_is_paused_and_listed_only_by_an_admin_of_its_source() -> None:
    w = World()
    refills = InMemoryRefillSchedules(InMemoryLedger())
    from_group = await schedule_of(w, refills, AccountRef.group(w.group))
    from_org = await schedule_of(w, refills, AccountRef.organization(w.org))
    sid = from_group.id  # type: ignore[attr-defined]
    paused = await svc.set_refill_schedule_active(w.group_admin, refills, w.directory, schedule_id=sid, active=False)
    assert paused.active is False and paused.id == sid and refills.schedules[sid].active is False
    resumed = await svc.set_refill_schedule_active(w.org_admin, refills, w.directory, schedule_id=sid, active=True)
    assert resumed.active is True and refills.schedules[sid].active is True
    not_found = (CommonErrorCode.NOT_FOUND.value, "id", "refill schedule not found")
    for who, schedule_id in (
        (w.member(), sid),  # a member of the source group
        (w.group_admin, from_org.id),  # type: ignore[attr-defined]  # the group admin of the org's target
        (w.org_admin, w.ids.new_id()),
    ):
        assert (
            await refused(
                svc.set_refill_schedule_active(who, refills, w.directory, schedule_id=schedule_id, active=False)
            )
            == not_found
        )
    assert refills.schedules[sid].active is True
    code, _, _ = await refused(
        svc.set_refill_schedule_active(read_only(w.group_admin), refills, w.directory, schedule_id=sid, active=False)
    )
    assert code == "READ_ONLY_TOKEN" and refills.schedules[sid].active is True

    def ids(schedules: list[object]) -> set[object]:
        return {s.id for s in schedules}  # type: ignore[attr-defined]

    assert ids(await svc.list_refill_schedules(w.group_admin, refills, w.directory)) == {sid}
    assert ids(await svc.list_refill_schedules(w.org_admin, refills, w.directory)) == {sid, from_org.id}  # type: ignore[attr-defined]
    assert ids(await svc.list_refill_schedules(w.member(), refills, w.directory)) == set()
    org = AccountRef.organization(w.org)
    assert ids(await svc.list_refill_schedules(w.org_admin, refills, w.directory, org)) == {from_org.id}  # type: ignore[attr-defined]


async def spent(w: World, ledger: InMemoryLedger) -> None:
    """alice spends 30 and bob 40 (group ML-Lab), carol 5 (the other group), on the 10th."""
    await fund(w, ledger, alice=100, bob=100)
    a = dict(ledger=ledger, directory=w.directory, clock=w.clock, ids=w.ids)
    await svc.allocate(
        w.org_admin, **a, source=AccountRef.organization(w.org), destination=AccountRef.group(w.other_group),
        amount_micro=50 * C, idempotency_key="f-other",
    )  # fmt: skip
    other_admin = Actor(
        w.org_admin_user, "orgadmin", org_admin_of=frozenset({w.org})
    )  # an org admin administers every group of the org
    await svc.allocate(
        other_admin, **a, source=AccountRef.group(w.other_group), destination=AccountRef.user(w.carol),
        amount_micro=50 * C, idempotency_key="f-carol",
    )  # fmt: skip
    w.clock.set(at(10))
    carol = ScopeChain(w.carol, w.other_group, w.org, "carol", "Other", "Acme")
    for user, amount, chain in ((w.alice, 30, w.chain()), (w.bob, 40, w.chain(w.bob)), (w.carol, 5, carol)):
        await svc.charge_wallet(
            ledger, w.clock, w.ids, wallet=AccountRef.user(user), chain=chain, amount_micro=amount * C,
            idempotency_key=f"ch-{user}",
        )  # fmt: skip


async def test_a_scopes_spend_and_its_breakdown_for_whoever_sees_its_account() -> None:
    w, ledger = World(), InMemoryLedger()
    await spent(w, ledger)
    group, org = BudgetScope(BudgetScopeKind.GROUP, w.group), BudgetScope(BudgetScopeKind.ORGANIZATION, w.org)
    alice = BudgetScope(BudgetScopeKind.USER, w.alice)
    since, until = at(1), at(1, 2)
    assert await svc.scope_spend(w.member(), ledger, w.directory, group, since, until) == 70 * C
    assert await svc.scope_spend(w.member(), ledger, w.directory, alice, since, until) == 30 * C
    assert await svc.scope_spend(w.group_admin, ledger, w.directory, alice, since, until) == 30 * C
    assert await svc.scope_spend(w.org_admin, ledger, w.directory, org, since, until) == 75 * C
    assert await svc.scope_spend(w.org_admin, ledger, w.directory, org, at(11), until) == 0
    hidden = (CommonErrorCode.NOT_FOUND.value, "scope", "scope not found")
    for who, scope in (
        (w.member(w.bob), alice),
        (w.member(), org),
        (w.member(w.carol, w.other_group), group),
    ):
        assert await refused(svc.scope_spend(who, ledger, w.directory, scope, since, until)) == hidden
    by_user = await svc.spend_breakdown(w.org_admin, ledger, w.directory, org, since, until, BudgetScopeKind.USER)
    assert by_user == {w.alice: 30 * C, w.bob: 40 * C, w.carol: 5 * C}
    by_group = await svc.spend_breakdown(w.org_admin, ledger, w.directory, org, since, until, BudgetScopeKind.GROUP)
    assert by_group == {w.group: 70 * C, w.other_group: 5 * C}
    in_group = await svc.spend_breakdown(w.member(), ledger, w.directory, group, since, until, BudgetScopeKind.USER)
    assert in_group == {w.alice: 30 * C, w.bob: 40 * C}
    assert (
        await refused(svc.spend_breakdown(w.member(), ledger, w.directory, org, since, until, BudgetScopeKind.GROUP))
        == hidden
    )
    for scope, by in (
        (group, BudgetScopeKind.GROUP),
        (group, BudgetScopeKind.ORGANIZATION),
        (alice, BudgetScopeKind.USER),
        (org, BudgetScopeKind.ORGANIZATION),
    ):
        assert await refused(svc.spend_breakdown(w.super_admin, ledger, w.directory, scope, since, until, by)) == (
            CreditsErrorCode.INVALID_TRANSFER.value,
            "by",
            f"a {scope.kind} cannot be split by {by}",
        )


async def test_a_usage_report_for_whoever_sees_the_scopes_account() -> None:
    w, ledger = World(), InMemoryLedger()
    await spent(w, ledger)
    reports = InMemoryUsageReports(ledger)
    org = BudgetScope(BudgetScopeKind.ORGANIZATION, w.org)
    query = UsageQuery(org, at(1), at(1, 2), by=UsageDimension.GROUP)
    report = await svc.usage_report(w.org_admin, reports, w.directory, query)
    assert report == build_report(query, await reports.charges(query))
    assert report.total_micro == 75 * C
    assert [(t.key, t.amount_micro) for t in report.totals] == [(w.group, 70 * C), (w.other_group, 5 * C)]
    group_query = UsageQuery(BudgetScope(BudgetScopeKind.GROUP, w.group), at(1), at(1, 2), by=UsageDimension.USER)
    mine = await svc.usage_report(w.member(), reports, w.directory, group_query)
    assert [(t.key, t.amount_micro) for t in mine.totals] == [(w.bob, 40 * C), (w.alice, 30 * C)]
    assert await refused(svc.usage_report(w.member(), reports, w.directory, query)) == (
        CommonErrorCode.NOT_FOUND.value, "scope", "scope not found",
    )  # fmt: skip
