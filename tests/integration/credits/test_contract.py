"""One contract, two adapters: the in-memory and PostgreSQL ports must behave the same."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from fractions import Fraction

import pytest

from domain.common.errors import CommonErrorCode, DomainError
from domain.credits import services as svc
from domain.credits.budgets import BudgetAction, BudgetScope, BudgetScopeKind
from domain.credits.errors import CreditsErrorCode
from domain.credits.model import AccountRef, HoldStatus, TransferKind
from domain.credits.ports import TransferQuery
from domain.credits.refills import RefillCadence, RefillMode
from domain.policies import services as psvc
from domain.policies.model import GLOBAL_SCOPE, PolicyScope, ResourcePolicy
from tests.integration.credits.conftest import Adapters

C = 1_000_000


def deps(a: Adapters) -> dict[str, object]:
    return dict(ledger=a.ledger, directory=a.directory, clock=a.world.clock, ids=a.world.ids)


async def fund(a: Adapters, org: int = 1000, group: int = 500, **users: int) -> None:
    w = a.world
    await svc.allocate(
        w.super_admin,
        **deps(a),
        source=AccountRef.system(),
        destination=AccountRef.organization(w.org),
        amount_micro=org * C,
        idempotency_key=f"{w.org}-org",
    )
    await svc.allocate(
        w.org_admin,
        **deps(a),
        source=AccountRef.organization(w.org),
        destination=AccountRef.group(w.group),
        amount_micro=group * C,
        idempotency_key=f"{w.org}-group",
    )
    for name, amount in users.items():
        await svc.allocate(
            w.group_admin,
            **deps(a),
            source=AccountRef.group(w.group),
            destination=AccountRef.user(getattr(w, name)),
            amount_micro=amount * C,
            idempotency_key=f"{w.org}-{name}",
        )


async def avail(a: Adapters, ref: AccountRef) -> int:
    return (await a.ledger.balances([ref]))[ref].available_micro


async def test_allocation_replay_reuse_and_refusal(adapters: Adapters):
    a, w = adapters, adapters.world
    await fund(a, alice=100)
    wallet, group = AccountRef.user(w.alice), AccountRef.group(w.group)
    assert await avail(a, wallet) == 100 * C and await avail(a, group) == 400 * C
    kw = dict(source=group, destination=AccountRef.user(w.bob), amount_micro=7 * C, idempotency_key=f"{w.org}-k")
    first = await svc.allocate(w.group_admin, **deps(a), **kw)
    again = await svc.allocate(w.group_admin, **deps(a), **kw)
    assert again.replayed and not first.replayed
    assert again.transfer.id == first.transfer.id and again.transfer.source == group
    with pytest.raises(DomainError) as err:
        await svc.allocate(w.group_admin, **deps(a), **{**kw, "amount_micro": 8 * C})
    assert err.value.code == CreditsErrorCode.IDEMPOTENCY_KEY_REUSED
    with pytest.raises(DomainError) as err:
        await svc.allocate(
            w.group_admin,
            **deps(a),
            source=group,
            destination=wallet,
            amount_micro=394 * C,
            idempotency_key=f"{w.org}-big",
        )
    assert err.value.code == CreditsErrorCode.INSUFFICIENT_CREDITS
    assert await avail(a, group) == 393 * C and await avail(a, AccountRef.user(w.bob)) == 7 * C
    assert await avail(a, wallet) == 100 * C


async def test_bulk_allocation_is_atomic_and_idempotent(adapters: Adapters):
    a, w = adapters, adapters.world
    await fund(a, group=25)
    with pytest.raises(DomainError) as err:
        await svc.allocate_to_group_members(
            w.group_admin, **deps(a), group_id=w.group, amount_micro=10 * C, idempotency_key=f"{w.org}-b"
        )
    assert err.value.code == CreditsErrorCode.INSUFFICIENT_CREDITS
    assert await avail(a, AccountRef.group(w.group)) == 25 * C
    results = await svc.allocate_to_group_members(
        w.group_admin, **deps(a), group_id=w.group, amount_micro=8 * C, idempotency_key=f"{w.org}-b"
    )
    assert len(results) == 3 and await avail(a, AccountRef.group(w.group)) == C
    again = await svc.allocate_to_group_members(
        w.group_admin, **deps(a), group_id=w.group, amount_micro=8 * C, idempotency_key=f"{w.org}-b"
    )
    assert all(r.replayed for r in again) and await avail(a, AccountRef.group(w.group)) == C


async def test_hold_lifecycle(adapters: Adapters):
    a, w = adapters, adapters.world
    await fund(a, alice=100)
    wallet, clock, ids = AccountRef.user(w.alice), w.clock, w.ids
    key = f"{w.org}-h"
    hold = (
        await svc.reserve_hold(a.ledger, clock, ids, chain=w.chain(), amount_micro=30 * C, idempotency_key=key)
    ).hold
    replay = await svc.reserve_hold(a.ledger, clock, ids, chain=w.chain(), amount_micro=30 * C, idempotency_key=key)
    assert replay.replayed and replay.hold.id == hold.id
    with pytest.raises(DomainError) as err:
        await svc.reserve_hold(a.ledger, clock, ids, chain=w.chain(), amount_micro=31 * C, idempotency_key=key)
    assert err.value.code == CreditsErrorCode.IDEMPOTENCY_KEY_REUSED
    assert await avail(a, wallet) == 70 * C
    with pytest.raises(DomainError) as err:
        await svc.reserve_hold(a.ledger, clock, ids, chain=w.chain(), amount_micro=71 * C, idempotency_key=f"{key}-2")
    assert err.value.code == CreditsErrorCode.INSUFFICIENT_CREDITS
    await svc.charge_hold(a.ledger, clock, ids, hold_id=hold.id, amount_micro=10 * C, idempotency_key=f"{key}-c1")
    renewed = await svc.renew_hold(a.ledger, clock, hold_id=hold.id, amount_micro=50 * C)
    assert renewed.amount_micro == 50 * C and await avail(a, wallet) == 40 * C
    with pytest.raises(DomainError):
        await svc.renew_hold(a.ledger, clock, hold_id=hold.id, amount_micro=91 * C)
    charge = await svc.charge_hold(
        a.ledger, clock, ids, hold_id=hold.id, amount_micro=60 * C, idempotency_key=f"{key}-c2", settle=True
    )
    assert charge.transfer.hold_id == hold.id and charge.transfer.attribution.group_id == w.group
    settled = await a.ledger.get_hold(hold.id)
    assert settled.status is HoldStatus.SETTLED and settled.charged_micro == 70 * C
    bal = (await a.ledger.balances([wallet]))[wallet]
    assert (bal.balance_micro, bal.held_micro) == (30 * C, 0)
    replay_charge = await svc.charge_hold(
        a.ledger, clock, ids, hold_id=hold.id, amount_micro=60 * C, idempotency_key=f"{key}-c2", settle=True
    )
    assert replay_charge.replayed and replay_charge.transfer.id == charge.transfer.id
    with pytest.raises(DomainError) as err:
        await svc.charge_hold(a.ledger, clock, ids, hold_id=hold.id, amount_micro=C, idempotency_key=f"{key}-c3")
    assert err.value.code == CreditsErrorCode.HOLD_CLOSED
    second = (
        await svc.reserve_hold(a.ledger, clock, ids, chain=w.chain(), amount_micro=20 * C, idempotency_key=f"{key}-3")
    ).hold
    open_holds = await svc.wallet_holds(w.member(), a.ledger, a.directory, w.alice)
    assert [h.id for h in open_holds] == [second.id]
    all_holds = await svc.wallet_holds(w.group_admin, a.ledger, a.directory, w.alice, open_only=False)
    assert {h.id for h in all_holds} == {hold.id, second.id}
    with pytest.raises(DomainError):
        await svc.wallet_holds(w.member(w.bob), a.ledger, a.directory, w.alice)
    released = await svc.release_hold(a.ledger, clock, hold_id=second.id)
    assert released.status is HoldStatus.RELEASED and await avail(a, wallet) == 30 * C
    assert (await svc.release_hold(a.ledger, clock, hold_id=second.id)).status is HoldStatus.RELEASED
    consumption = AccountRef.consumption(w.org)
    assert (await a.ledger.balances([consumption]))[consumption].balance_micro == 70 * C


async def test_history_filters_and_cursor(adapters: Adapters):
    a, w = adapters, adapters.world
    await fund(a, alice=10, bob=20)
    t0 = w.clock.now()
    group = AccountRef.group(w.group)
    rows = await a.ledger.history(TransferQuery(account=group))
    assert [(t.kind, t.destination) for _, t in rows] == [
        (TransferKind.ALLOCATION, AccountRef.user(w.bob)),
        (TransferKind.ALLOCATION, AccountRef.user(w.alice)),
        (TransferKind.ALLOCATION, group),
    ]
    assert rows[2][1].source == AccountRef.organization(w.org)
    older = await a.ledger.history(TransferQuery(account=group, before_seq=rows[0][0], limit=1))
    assert older == rows[1:2]
    assert await a.ledger.history(TransferQuery(account=group, kind=TransferKind.CHARGE)) == []
    assert await a.ledger.history(TransferQuery(account=group, since=t0 + timedelta(seconds=1))) == []


@pytest.mark.own_database
async def test_refill_period_applies_once(adapters: Adapters):
    a, w = adapters, adapters.world
    await fund(a, group=100)
    w.clock.set(datetime(2026, 3, 10, tzinfo=UTC))
    schedule = await svc.create_refill_schedule(
        w.group_admin,
        a.refills,
        a.directory,
        w.clock,
        w.ids,
        source=AccountRef.group(w.group),
        mode=RefillMode.GRANT,
        amount_micro=10 * C,
        cadence=RefillCadence.MONTHLY,
        anchor_day=1,
        members_of_group=w.group,
    )
    assert (await a.refills.get(schedule.id)) == schedule
    assert [s.id for s in await a.refills.all(AccountRef.group(w.group))] == [schedule.id]
    when = datetime(2026, 4, 2, tzinfo=UTC)
    [outcome] = await svc.apply_due_refills(a.ledger, a.refills, a.directory, w.ids, when)
    assert outcome.applied and len(outcome.transfers) == 3
    assert await svc.apply_due_refills(a.ledger, a.refills, a.directory, w.ids, when) == []
    assert await a.refills.apply_period(schedule.id, outcome.period_start, []) is None
    assert await avail(a, AccountRef.group(w.group)) == 70 * C
    await svc.set_refill_schedule_active(w.group_admin, a.refills, a.directory, schedule_id=schedule.id, active=False)
    assert await svc.apply_due_refills(a.ledger, a.refills, a.directory, w.ids, datetime(2026, 5, 2, tzinfo=UTC)) == []


async def test_budgets_and_spend(adapters: Adapters):
    a, w = adapters, adapters.world
    await fund(a, alice=100, bob=100)
    w.clock.set(datetime(2026, 6, 15, tzinfo=UTC))
    scope = BudgetScope(BudgetScopeKind.GROUP, w.group)
    first = await svc.set_budget(
        w.org_admin, a.budgets, a.directory, w.clock, w.ids, scope=scope, limit_micro=50 * C, action=BudgetAction.WARN
    )
    second = await svc.set_budget(
        w.org_admin,
        a.budgets,
        a.directory,
        w.clock,
        w.ids,
        scope=scope,
        limit_micro=60 * C,
        action=BudgetAction.BLOCK,
        alert_thresholds=(80,),
    )
    assert second.id == first.id and (await a.budgets.get(first.id)) == second
    for user, amount in ((w.alice, 25), (w.bob, 35)):
        await svc.charge_wallet(
            a.ledger,
            w.clock,
            w.ids,
            wallet=AccountRef.user(user),
            chain=w.chain(user),
            amount_micro=amount * C,
            idempotency_key=f"{user}-spend",
        )
    start, end = datetime(2026, 6, 1, tzinfo=UTC), datetime(2026, 7, 1, tzinfo=UTC)
    assert await a.ledger.spend(BudgetScope(BudgetScopeKind.ORGANIZATION, w.org), start, end) == 60 * C
    assert await a.ledger.spend(BudgetScope(BudgetScopeKind.USER, w.alice), start, end) == 25 * C
    assert await a.ledger.spend(scope, end, end + timedelta(days=30)) == 0
    org = BudgetScope(BudgetScopeKind.ORGANIZATION, w.org)
    by_user = await svc.spend_breakdown(w.org_admin, a.ledger, a.directory, org, start, end, BudgetScopeKind.USER)
    assert by_user == {w.alice: 25 * C, w.bob: 35 * C}
    by_group = await svc.spend_breakdown(w.org_admin, a.ledger, a.directory, org, start, end, BudgetScopeKind.GROUP)
    assert by_group == {w.group: 60 * C}
    with pytest.raises(DomainError):
        await svc.spend_breakdown(w.member(), a.ledger, a.directory, org, start, end, BudgetScopeKind.USER)
    gate = await svc.evaluate_budget_gate(a.budgets, a.ledger, w.chain(), w.clock.now())
    assert not gate.allowed and gate.refusal is not None and gate.refusal.spent_micro == 60 * C
    with pytest.raises(DomainError) as err:
        gate.raise_if_refused()
    assert err.value.code == CreditsErrorCode.BUDGET_EXCEEDED
    alerts = [x for x in await svc.budget_alerts(a.budgets, a.ledger, w.clock.now()) if x.status.budget.id == first.id]
    assert [(x.threshold, x.key.endswith(":20260601:80")) for x in alerts] == [(80, True)]
    await svc.delete_budget(w.org_admin, a.budgets, a.directory, first.id)
    assert (await svc.evaluate_budget_gate(a.budgets, a.ledger, w.chain(), w.clock.now())).allowed


async def test_policies_round_trip(adapters: Adapters):
    a, w = adapters, adapters.world
    policy = ResourcePolicy(
        PolicyScope.group(w.group),
        max_concurrent_sessions=4,
        max_gpus=Fraction(15, 4),
        model_caps={"A100": Fraction(4), "T4": Fraction(1, 3)},
        max_vram_mib=81920,
        max_cpu_millicores=64000,
        max_memory_mib=512000,
        storage_quota_mib=10**6,
        idle_timeout_seconds=1800,
        max_session_seconds=86400,
        approval_required=True,
        default_priority=3,
        preemptible=False,
        allowed_clusters=frozenset({"east", "west"}),
    )
    stored = await psvc.set_policy(w.org_admin, a.policies, a.directory, w.clock, policy)
    assert await a.policies.get(policy.scope) == stored
    await psvc.set_policy(
        w.super_admin, a.policies, a.directory, w.clock, ResourcePolicy(GLOBAL_SCOPE, idle_timeout_seconds=7200)
    )
    effective = await psvc.effective_policy(a.policies, w.chain())
    assert effective.settings["idle_timeout_seconds"].source == policy.scope
    assert effective.allowed_clusters == frozenset({"east", "west"})
    await psvc.delete_policy(w.org_admin, a.policies, a.directory, policy.scope)
    assert await a.policies.get(policy.scope) is None
    with pytest.raises(DomainError) as err:
        await psvc.delete_policy(w.org_admin, a.policies, a.directory, policy.scope)
    assert err.value.code == CommonErrorCode.NOT_FOUND
    await a.policies.delete(GLOBAL_SCOPE)
