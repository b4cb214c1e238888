"""Credits use cases pinned to their exact refusals and rows (in-memory adapters): bulk member
allocation, a wallet's holds, history views, hold renewal and charging, refill schedules (the
default anchor, the memo, a paused schedule skipped, not the end of the run), budget admins,
scope names in budget statuses, and the CSV cells of an unattributed transfer."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from uuid import UUID

import pytest

from domain.common.errors import DomainError
from domain.credits import services as svc
from domain.credits.budgets import BudgetAction, BudgetScope, BudgetScopeKind
from domain.credits.model import AccountRef
from domain.credits.ports import TransferQuery
from domain.credits.refills import RefillCadence, RefillMode
from domain.policies.model import ScopeChain
from infra.credits.memory import InMemoryBudgets, InMemoryLedger, InMemoryRefillSchedules
from tests.unit.credits.test_ledger import C, fund
from tests.unit.credits.world import World


def at(day: int, month: int = 1, hour: int = 12) -> datetime:
    return datetime(2026, month, day, hour, tzinfo=UTC)


async def refused(coro: object) -> tuple[str, str | None, str]:
    with pytest.raises(DomainError) as err:
        await coro  # type: ignore[misc]
    return err.value.code.value, err.value.field, err.value.message


async def test_bulk_allocation_needs_a_group_admin_and_members_and_keeps_the_memo() -> None:
    w, ledger = World(), InMemoryLedger()
    await fund(w, ledger)
    a = dict(ledger=ledger, directory=w.directory, clock=w.clock, ids=w.ids)
    assert await refused(
        svc.allocate_to_group_members(w.member(), **a, group_id=w.group, amount_micro=C, idempotency_key="b")  # type: ignore[arg-type]
    ) == ("PERMISSION_DENIED", None, "only an admin of the group may allocate to its members")
    empty = UUID(int=99)
    w.directory.add_group(empty, w.org)
    assert await refused(
        svc.allocate_to_group_members(w.org_admin, **a, group_id=empty, amount_micro=C, idempotency_key="b")  # type: ignore[arg-type]
    ) == ("INVALID_TRANSFER", "groupId", "the group has no members")
    results = await svc.allocate_to_group_members(
        w.group_admin,
        **a,
        group_id=w.group,
        amount_micro=C,
        idempotency_key="b",
        memo="welcome",  # type: ignore[arg-type]
    )
    assert len(results) == 3
    assert {r.transfer.memo for r in results} == {"welcome"}
    assert {r.transfer.actor_id for r in results} == {w.admin_user}
    plain = await svc.allocate_to_group_members(
        w.group_admin,
        **a,
        group_id=w.group,
        amount_micro=C,
        idempotency_key="c",  # type: ignore[arg-type]
    )
    assert {r.transfer.memo for r in plain} == {""}


async def test_a_wallets_holds_open_ones_by_default_for_its_owner_and_the_admins_above() -> None:
    w, ledger = World(), InMemoryLedger()
    await fund(w, ledger, alice=100)
    first = await svc.reserve_hold(ledger, w.clock, w.ids, chain=w.chain(), amount_micro=C, idempotency_key="h1")
    second = await svc.reserve_hold(ledger, w.clock, w.ids, chain=w.chain(), amount_micro=C, idempotency_key="h2")
    await svc.release_hold(ledger, w.clock, hold_id=first.hold.id)
    assert [h.id for h in await svc.wallet_holds(w.member(), ledger, w.directory, w.alice)] == [second.hold.id]
    every = await svc.wallet_holds(w.group_admin, ledger, w.directory, w.alice, open_only=False)
    assert {h.id for h in every} == {first.hold.id, second.hold.id}
    assert await refused(svc.wallet_holds(w.member(w.bob), ledger, w.directory, w.alice)) == (
        "NOT_FOUND", "userId", "account not found",
    )  # fmt: skip


async def test_history_of_an_account_out_of_sight_answers_not_found_and_all_of_it_needs_a_super_admin() -> None:
    w, ledger = World(), InMemoryLedger()
    await fund(w, ledger, alice=1)
    query = TransferQuery(account=AccountRef.user(w.alice))
    assert await refused(svc.ledger_history(w.member(w.bob), ledger, w.directory, query)) == (
        "NOT_FOUND", "account", "account not found",
    )  # fmt: skip
    assert await refused(svc.ledger_history(w.org_admin, ledger, w.directory, TransferQuery())) == (
        "PERMISSION_DENIED", "account", "name an account to see its history",
    )  # fmt: skip
    assert len(await svc.ledger_history(w.member(), ledger, w.directory, query)) == 1


async def test_holds_renew_to_zero_but_not_below_and_an_unknown_hold_is_not_found() -> None:
    w, ledger = World(), InMemoryLedger()
    await fund(w, ledger, alice=100)
    held = await svc.reserve_hold(ledger, w.clock, w.ids, chain=w.chain(), amount_micro=5 * C, idempotency_key="h")
    renewed = await svc.renew_hold(ledger, w.clock, hold_id=held.hold.id, amount_micro=0)
    assert renewed.amount_micro == 0
    assert await refused(svc.renew_hold(ledger, w.clock, hold_id=held.hold.id, amount_micro=-1)) == (
        "INVALID_TRANSFER", "amount", "a hold cannot be negative",
    )  # fmt: skip
    missing = svc.charge_hold(ledger, w.clock, w.ids, hold_id=UUID(int=5), amount_micro=C, idempotency_key="c")
    assert await refused(missing) == ("NOT_FOUND", "holdId", "hold not found")


async def test_refill_schedules_refusals_default_anchor_memo_and_a_paused_one_skipped() -> None:
    w, ledger = World(), InMemoryLedger()
    await fund(w, ledger, org=5000, group=4000)
    refills = InMemoryRefillSchedules(ledger)
    common = dict(refills=refills, directory=w.directory, clock=w.clock, ids=w.ids)
    assert await refused(
        svc.create_refill_schedule(
            w.member(), **common, source=AccountRef.group(w.group), mode=RefillMode.GRANT,  # type: ignore[arg-type]
            amount_micro=C, cadence=RefillCadence.DAILY, members_of_group=w.group,
        )
    ) == ("PERMISSION_DENIED", "source", "only an admin of the source may schedule refills")  # fmt: skip
    code, field, _ = await refused(
        svc.create_refill_schedule(
            w.group_admin, **common, source=AccountRef.group(w.group), mode=RefillMode.GRANT,  # type: ignore[arg-type]
            amount_micro=C, cadence=RefillCadence.DAILY, target=AccountRef.user(w.carol),
        )
    )  # fmt: skip
    assert (code, field) == ("INVALID_TRANSFER", "target")
    w.clock.set(at(15))
    paused = await svc.create_refill_schedule(
        w.org_admin, **common, source=AccountRef.organization(w.org), mode=RefillMode.GRANT,  # type: ignore[arg-type]
        amount_micro=C, cadence=RefillCadence.MONTHLY, target=AccountRef.group(w.other_group),
    )  # fmt: skip
    monthly = await svc.create_refill_schedule(
        w.group_admin, **common, source=AccountRef.group(w.group), mode=RefillMode.TOP_UP,  # type: ignore[arg-type]
        amount_micro=3 * C, cadence=RefillCadence.MONTHLY, target=AccountRef.user(w.alice),
    )  # fmt: skip
    assert monthly.anchor_day == 1 and monthly.memo == ""
    await svc.set_refill_schedule_active(w.org_admin, refills, w.directory, schedule_id=paused.id, active=False)
    # a paused schedule earlier in the list does not stop the others; a wallet without a
    # balance row is topped up from zero
    outcomes = await svc.apply_due_refills(ledger, refills, w.directory, w.ids, at(1, 2, 1))
    assert [(o.schedule_id, o.applied) for o in outcomes] == [(monthly.id, True)]
    (transfer,) = [r.transfer for r in outcomes[0].transfers]
    assert (transfer.amount_micro, transfer.memo) == (3 * C, f"refill {monthly.id}")
    alice = (await ledger.balances([AccountRef.user(w.alice)]))[AccountRef.user(w.alice)]
    assert alice.balance_micro == 3 * C
    # topped up already: the next period moves nothing for a full wallet
    outcomes = await svc.apply_due_refills(ledger, refills, w.directory, w.ids, at(1, 3, 1))
    assert [(o.schedule_id, o.applied, o.transfers) for o in outcomes] == [(monthly.id, True, ())]


async def test_budget_admin_refusals_name_the_scope_and_an_org_admin_rules_only_its_org() -> None:
    w, budgets = World(), InMemoryBudgets()
    args = dict(budgets=budgets, directory=w.directory, clock=w.clock, ids=w.ids, limit_micro=C)
    org = BudgetScope(BudgetScopeKind.ORGANIZATION, w.org)
    assert await refused(svc.set_budget(w.group_admin, **args, scope=org, action=BudgetAction.WARN)) == (  # type: ignore[arg-type]
        "PERMISSION_DENIED", "scope", "only an admin of this scope may set its budget",
    )  # fmt: skip
    code, field, _ = await refused(
        svc.set_budget(w.org_admin, **args, scope=BudgetScope(BudgetScopeKind.ORGANIZATION, w.other_org),  # type: ignore[arg-type]
                       action=BudgetAction.WARN)
    )  # fmt: skip
    assert (code, field) == ("NOT_FOUND", "scope")
    budget = await svc.set_budget(w.org_admin, **args, scope=org, action=BudgetAction.BLOCK)  # type: ignore[arg-type]
    assert (budget.updated_by, budget.limit_micro, budget.action) == (w.org_admin_user, C, BudgetAction.BLOCK)


async def test_budget_statuses_name_their_scope_or_its_id_when_the_chain_has_no_name() -> None:
    w, ledger, budgets = World(), InMemoryLedger(), InMemoryBudgets()
    args = dict(budgets=budgets, directory=w.directory, clock=w.clock, ids=w.ids, limit_micro=C)
    for scope in (
        BudgetScope(BudgetScopeKind.USER, w.alice),
        BudgetScope(BudgetScopeKind.GROUP, w.group),
        BudgetScope(BudgetScopeKind.ORGANIZATION, w.org),
    ):
        await svc.set_budget(w.super_admin, **args, scope=scope, action=BudgetAction.WARN)  # type: ignore[arg-type]
    named = await svc.budget_statuses(budgets, ledger, w.chain(), w.clock.now())
    assert [s.scope_name for s in named] == ["alice", "ML-Lab", "Acme"]
    anonymous = await svc.budget_statuses(budgets, ledger, ScopeChain(w.alice, w.group, w.org), w.clock.now())
    assert [s.scope_name for s in anonymous] == [str(w.alice), str(w.group), str(w.org)]


async def test_the_csv_of_an_allocation_leaves_its_attribution_and_hold_cells_empty() -> None:
    w, ledger = World(), InMemoryLedger()
    await fund(w, ledger, alice=2)
    rows = await svc.ledger_history(w.super_admin, ledger, w.directory, TransferQuery())
    parsed = list(csv.reader(io.StringIO(svc.transfers_csv(rows))))
    assert parsed[0] == list(svc.CSV_HEADER)
    header = parsed[0]
    for line in parsed[1:]:
        cells = dict(zip(header, line, strict=True))
        assert (cells["organization_id"], cells["group_id"], cells["user_id"], cells["hold_id"]) == ("", "", "", "")
        assert cells["kind"] == "allocation"
    assert svc.transfers_csv(rows).endswith("\r\n")


async def test_a_users_work_is_judged_in_their_active_group_else_their_first_and_never_in_none() -> None:
    w = World()
    w.directory.add_member(w.other_group, w.alice)  # alice: group and other_group
    me = w.member()
    first = min((w.group, w.other_group), key=str)
    second = max((w.group, w.other_group), key=str)
    ask = dict(username="alice", asked_group_id=None)
    assert await svc.judged_scope(me, w.directory, user_id=w.alice, active_group_id=second, **ask) == (second, w.org)  # type: ignore[arg-type]
    assert await svc.judged_scope(me, w.directory, user_id=w.alice, active_group_id=None, **ask) == (first, w.org)  # type: ignore[arg-type]
    # an active group the user has left is not used
    stale = w.foreign_group
    assert await svc.judged_scope(me, w.directory, user_id=w.alice, active_group_id=stale, **ask) == (first, w.org)  # type: ignore[arg-type]
    loner = UUID(int=77)
    lone = w.member(loner, w.group)
    assert await refused(
        svc.judged_scope(lone, w.directory, user_id=loner, username="dave", asked_group_id=None, active_group_id=None)
    ) == ("INVALID_VALUE", "groupId", "dave belongs to no group")


async def test_take_backs_and_wallet_charges_record_who_and_the_memo() -> None:
    w, ledger = World(), InMemoryLedger()
    await fund(w, ledger, alice=100)
    a = dict(ledger=ledger, directory=w.directory, clock=w.clock, ids=w.ids)
    edge = dict(source=AccountRef.user(w.alice), destination=AccountRef.group(w.group), amount_micro=C)
    plain = await svc.take_back(w.group_admin, **a, **edge, idempotency_key="tb1")  # type: ignore[arg-type]
    noted = await svc.take_back(w.group_admin, **a, **edge, idempotency_key="tb2", memo="unused")  # type: ignore[arg-type]
    assert [(r.transfer.memo, r.transfer.actor_id) for r in (plain, noted)] == [
        ("", w.admin_user), ("unused", w.admin_user),
    ]  # fmt: skip
    charge = dict(wallet=AccountRef.user(w.alice), chain=w.chain(w.alice), amount_micro=C)
    bare = await svc.charge_wallet(ledger, w.clock, w.ids, **charge, idempotency_key="cw1")  # type: ignore[arg-type]
    with_memo = await svc.charge_wallet(ledger, w.clock, w.ids, **charge, idempotency_key="cw2", memo="egress")  # type: ignore[arg-type]
    assert [(r.transfer.memo, r.transfer.actor_id) for r in (bare, with_memo)] == [("", None), ("egress", None)]


async def test_a_refill_schedule_records_who_made_it_and_its_memo_and_a_schedule_not_due_is_passed_over() -> None:
    w, ledger = World(), InMemoryLedger()
    await fund(w, ledger, org=5000, group=4000)
    refills = InMemoryRefillSchedules(ledger)
    common = dict(refills=refills, directory=w.directory, clock=w.clock, ids=w.ids)
    w.clock.set(at(15))
    monthly = await svc.create_refill_schedule(
        w.group_admin, **common, source=AccountRef.group(w.group), mode=RefillMode.GRANT,  # type: ignore[arg-type]
        amount_micro=C, cadence=RefillCadence.MONTHLY, target=AccountRef.user(w.bob), memo="monthly",
    )  # fmt: skip
    daily = await svc.create_refill_schedule(
        w.group_admin, **common, source=AccountRef.group(w.group), mode=RefillMode.TOP_UP,  # type: ignore[arg-type]
        amount_micro=2 * C, cadence=RefillCadence.DAILY, target=AccountRef.user(w.alice),
    )  # fmt: skip
    assert (monthly.created_by, monthly.memo, daily.memo) == (w.admin_user, "monthly", "")
    # the next day: the monthly one (first in the list) is not due, the daily one is
    outcomes = await svc.apply_due_refills(ledger, refills, w.directory, w.ids, at(16))
    assert [(o.schedule_id, o.applied) for o in outcomes] == [(daily.id, True)]
    # a wallet one micro-credit short is topped up by exactly that
    await svc.charge_wallet(
        ledger, w.clock, w.ids, wallet=AccountRef.user(w.alice), chain=w.chain(w.alice), amount_micro=1,
        idempotency_key="short",
    )  # fmt: skip
    [o] = await svc.apply_due_refills(ledger, refills, w.directory, w.ids, at(17))
    assert [r.transfer.amount_micro for r in o.transfers] == [1]


async def test_a_budget_alert_names_its_scope_by_id() -> None:
    w, ledger, budgets = World(), InMemoryLedger(), InMemoryBudgets()
    await fund(w, ledger, alice=10)
    args = dict(budgets=budgets, directory=w.directory, clock=w.clock, ids=w.ids, limit_micro=C)
    await svc.set_budget(
        w.super_admin, **args, scope=BudgetScope(BudgetScopeKind.USER, w.alice), action=BudgetAction.WARN
    )  # type: ignore[arg-type]
    await svc.charge_wallet(
        ledger, w.clock, w.ids, wallet=AccountRef.user(w.alice), chain=w.chain(w.alice), amount_micro=C,
        idempotency_key="spend",
    )  # fmt: skip
    alerts = await svc.budget_alerts(budgets, ledger, w.clock.now())
    assert alerts and {a.status.scope_name for a in alerts} == {str(w.alice)}


async def test_the_csv_of_a_charge_names_its_attribution_and_its_hold() -> None:
    w, ledger = World(), InMemoryLedger()
    await fund(w, ledger, alice=10)
    hold = (
        await svc.reserve_hold(ledger, w.clock, w.ids, chain=w.chain(w.alice), amount_micro=2 * C, idempotency_key="h")
    ).hold
    await svc.charge_hold(ledger, w.clock, w.ids, hold_id=hold.id, amount_micro=C, idempotency_key="c")
    rows = await svc.ledger_history(w.super_admin, ledger, w.directory, TransferQuery())
    header, *lines = list(csv.reader(io.StringIO(svc.transfers_csv(rows))))
    charges = [dict(zip(header, line, strict=True)) for line in lines if "charge" in line]
    assert [(c["organization_id"], c["group_id"], c["user_id"], c["hold_id"]) for c in charges] == [
        (str(w.org), str(w.group), str(w.alice), str(hold.id))
    ]


def test_a_hold_request_is_refused_in_words_on_its_field() -> None:
    from domain.credits.model import MAX_KEY_LENGTH, Attribution, HoldRequest

    user, org = UUID(int=5), UUID(int=6)
    mine = Attribution(org, UUID(int=7), user)

    def refusal(**kw: object) -> tuple[str, str | None, str]:
        args: dict[str, object] = dict(
            hold_id=UUID(int=1), idempotency_key="k", user_id=user, amount_micro=1, created_at=at(1), attribution=mine
        )
        args.update(kw)
        with pytest.raises(DomainError) as err:
            HoldRequest(**args)  # type: ignore[arg-type]
        return (err.value.code.value, err.value.field, err.value.message)

    bad = "INVALID_TRANSFER"
    key = (bad, "idempotencyKey", "an idempotency key is required")
    assert refusal(idempotency_key="") == key and refusal(idempotency_key="k" * (MAX_KEY_LENGTH + 1)) == key
    for amount in (0, -1):
        assert refusal(amount_micro=amount) == (bad, "amount", "a hold must reserve a positive amount")
    whose = (bad, "attribution", "a hold is attributed to its wallet's owner and organisation")
    assert refusal(attribution=Attribution(org, None, UUID(int=8))) == whose  # another user's
    assert refusal(attribution=Attribution(None, None, user)) == whose  # no organisation
    ok = HoldRequest(UUID(int=1), "k" * MAX_KEY_LENGTH, user, 1, at(1), mine)
    assert (len(ok.idempotency_key), ok.amount_micro, ok.memo) == (MAX_KEY_LENGTH, 1, "")


async def test_a_hold_keeps_its_memo_and_a_short_wallet_is_refused_on_the_amount() -> None:
    w, ledger = World(), InMemoryLedger()
    await fund(w, ledger, alice=10)
    a = dict(chain=w.chain(w.alice), amount_micro=C)
    plain = await svc.reserve_hold(ledger, w.clock, w.ids, **a, idempotency_key="h1")  # type: ignore[arg-type]
    noted = await svc.reserve_hold(ledger, w.clock, w.ids, **a, idempotency_key="h2", memo="notebook")  # type: ignore[arg-type]
    assert (plain.hold.memo, noted.hold.memo) == ("", "notebook")
    too_much = svc.reserve_hold(
        ledger, w.clock, w.ids, chain=w.chain(w.alice), amount_micro=9 * C, idempotency_key="h3"
    )
    assert await refused(too_much) == (
        "INSUFFICIENT_CREDITS", "amount", f"user {w.alice} has 8 credits available; this asks 9",
    )  # fmt: skip


def test_the_budget_gate_warns_of_crossed_thresholds_only_and_not_of_its_refusal() -> None:
    from domain.credits.budgets import Budget, BudgetStatus, gate

    def status(kind: BudgetScopeKind, action: BudgetAction, spent: int) -> BudgetStatus:
        budget = Budget(UUID(int=len(kind.value)), BudgetScope(kind, UUID(int=9)), 100, action, at(1), at(1))
        return BudgetStatus(budget, kind.value, at(1), at(2), spent)

    user = status(BudgetScopeKind.USER, BudgetAction.BLOCK, 100)  # the refusal
    group = status(BudgetScopeKind.GROUP, BudgetAction.WARN, 10)  # below every threshold
    org = status(BudgetScopeKind.ORGANIZATION, BudgetAction.WARN, 90)  # past 80 %
    result = gate((user, group, org))
    assert (result.allowed, result.refusal, result.warnings) == (False, user, (org,))


def test_a_transfer_is_refused_in_words_on_its_key_amount_and_a_charges_attribution() -> None:
    from domain.credits.model import MAX_KEY_LENGTH, Attribution, TransferKind, TransferRequest

    org, user = UUID(int=6), UUID(int=5)
    wallet, sink = AccountRef.user(user), AccountRef.consumption(org)
    mine = Attribution(org, UUID(int=7), user)

    def refusal(**kw: object) -> tuple[str, str | None, str]:
        args: dict[str, object] = dict(
            transfer_id=UUID(int=1), idempotency_key="k", kind=TransferKind.CHARGE, source=wallet, destination=sink,
            amount_micro=1, created_at=at(1), attribution=mine,
        )  # fmt: skip
        args.update(kw)
        with pytest.raises(DomainError) as err:
            TransferRequest(**args)  # type: ignore[arg-type]
        return (err.value.code.value, err.value.field, err.value.message)

    bad = "INVALID_TRANSFER"
    key = (bad, "idempotencyKey", f"an idempotency key of 1 to {MAX_KEY_LENGTH} characters is required")
    assert refusal(idempotency_key="") == key and refusal(idempotency_key="k" * (MAX_KEY_LENGTH + 1)) == key
    for amount in (0, -1):
        assert refusal(amount_micro=amount) == (bad, "amount", "the amount must be positive")
    whose = (bad, "attribution", "a charge is attributed to the wallet's owner and paid to their organisation")
    assert refusal(attribution=Attribution(org, None, UUID(int=8))) == whose  # another user
    assert refusal(attribution=Attribution(UUID(int=9), None, user)) == whose  # another organisation
    ok = TransferRequest(UUID(int=1), "k" * MAX_KEY_LENGTH, TransferKind.CHARGE, wallet, sink, 1, at(1), None, mine)
    assert (len(ok.idempotency_key), ok.amount_micro) == (MAX_KEY_LENGTH, 1)


async def test_a_callers_key_and_an_allocation_are_refused_in_words_and_record_who_and_the_memo() -> None:
    w, ledger = World(), InMemoryLedger()
    await fund(w, ledger)
    a = dict(ledger=ledger, directory=w.directory, clock=w.clock, ids=w.ids)
    edge = dict(source=AccountRef.group(w.group), destination=AccountRef.user(w.alice), amount_micro=C)
    key = (
        "INVALID_TRANSFER",
        "idempotencyKey",
        f"an idempotency key of 1 to {svc.MAX_CALLER_KEY_LENGTH} characters is required",
    )
    for bad in ("", "k" * (svc.MAX_CALLER_KEY_LENGTH + 1)):
        assert await refused(svc.allocate(w.group_admin, **a, **edge, idempotency_key=bad)) == key  # type: ignore[arg-type]
    longest = await svc.allocate(w.group_admin, **a, **edge, idempotency_key="k" * svc.MAX_CALLER_KEY_LENGTH)  # type: ignore[arg-type]
    noted = await svc.allocate(w.group_admin, **a, **edge, idempotency_key="n", memo="welcome")  # type: ignore[arg-type]
    assert [(r.transfer.memo, r.transfer.actor_id) for r in (longest, noted)] == [
        ("", w.admin_user), ("welcome", w.admin_user),
    ]  # fmt: skip
    # a take back names the parent as its destination and the child as its source
    up = dict(source=AccountRef.user(w.alice), amount_micro=C, idempotency_key="tb")
    code, field, _ = await refused(
        svc.take_back(w.group_admin, **a, **up, destination=AccountRef.group(w.other_group))  # type: ignore[arg-type]
    )
    assert (code, field) == ("PERMISSION_DENIED", "destination")
    code, field, _ = await refused(
        svc.take_back(w.org_admin, **a, **up, destination=AccountRef.group(w.other_group))  # type: ignore[arg-type]
    )
    assert (code, field) == ("INVALID_TRANSFER", "source")


async def test_a_refill_whose_source_is_short_is_reported_and_the_next_one_still_applied() -> None:
    w, ledger = World(), InMemoryLedger()
    await fund(w, ledger, org=5000, group=4000)
    refills = InMemoryRefillSchedules(ledger)
    common = dict(refills=refills, directory=w.directory, clock=w.clock, ids=w.ids, source=AccountRef.group(w.group))
    w.clock.set(at(15))
    daily = dict(mode=RefillMode.GRANT, cadence=RefillCadence.DAILY)
    short = await svc.create_refill_schedule(
        w.group_admin,
        **common,
        **daily,
        amount_micro=10_000 * C,
        target=AccountRef.user(w.alice),  # type: ignore[arg-type]
    )
    small = await svc.create_refill_schedule(
        w.group_admin,
        **common,
        **daily,
        amount_micro=C,
        target=AccountRef.user(w.bob),  # type: ignore[arg-type]
    )
    outcomes = await svc.apply_due_refills(ledger, refills, w.directory, w.ids, at(16))
    assert [(o.schedule_id, o.applied) for o in outcomes] == [(short.id, False), (small.id, True)]
    assert outcomes[0].error is not None and outcomes[0].error.code.value == "INSUFFICIENT_CREDITS"
