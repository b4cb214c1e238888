"""In-memory adapters for the credits and policies ports (unit tests, simulations).

They apply exactly the rules the PostgreSQL adapters apply (the shared contract tests in
tests/integration/credits run against both). Each call is atomic: it validates against a
working copy and commits only if every step passes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from fractions import Fraction
from uuid import UUID

from domain.common.errors import NotFoundError
from domain.common.money import MicroCredits
from domain.credits.budgets import Budget, BudgetScope, BudgetScopeKind
from domain.credits.errors import (
    HoldClosedError,
    IdempotencyKeyReusedError,
    InvalidTransferError,
)
from domain.credits.model import (
    AccountRef,
    Balance,
    Hold,
    HoldRequest,
    HoldResult,
    HoldStatus,
    Transfer,
    TransferKind,
    TransferRequest,
    TransferResult,
    charge_split,
    check_can_pay,
)
from domain.credits.ports import TransferQuery
from domain.credits.refills import RefillSchedule
from domain.credits.usage import UsageCell, UsageDimension, UsageQuery, period_start, session_of_charge
from domain.policies.model import PolicyScope, ResourcePolicy, Usage

_ATTR = {
    BudgetScopeKind.ORGANIZATION: "organization_id",
    BudgetScopeKind.GROUP: "group_id",
    BudgetScopeKind.USER: "user_id",
}


def _in_history(query: TransferQuery, t: Transfer) -> bool:
    return (
        (query.account is None or query.account in (t.source, t.destination))
        and (query.kind is None or t.kind is query.kind)
        and (query.since is None or t.created_at >= query.since)
        and (query.until is None or t.created_at < query.until)
    )


class InMemoryLedger:
    def __init__(self) -> None:
        self.balance: dict[AccountRef, int] = {}
        self.held: dict[AccountRef, int] = {}
        self.transfers: list[tuple[int, Transfer]] = []
        self.by_key: dict[str, Transfer] = {}
        self.holds: dict[UUID, Hold] = {}
        self.holds_by_key: dict[str, UUID] = {}

    # -- internals --------------------------------------------------------------------------

    def _bal(self, account: AccountRef, bal: dict[AccountRef, int], held: dict[AccountRef, int]) -> Balance:
        return Balance(account, bal.get(account, 0), held.get(account, 0))

    def _stage(
        self,
        requests: Sequence[TransferRequest],
        bal: dict[AccountRef, int],
        held: dict[AccountRef, int],
        staged: dict[str, Transfer],
    ) -> list[TransferResult]:
        results = []
        for request in requests:
            existing = self.by_key.get(request.idempotency_key) or staged.get(request.idempotency_key)
            if existing is not None:
                if not request.matches(existing):
                    raise IdempotencyKeyReusedError(request.idempotency_key)
                results.append(TransferResult(existing, True))
                continue
            check_can_pay(request.source, self._bal(request.source, bal, held), request.amount_micro)
            bal[request.source] = bal.get(request.source, 0) - request.amount_micro
            bal[request.destination] = bal.get(request.destination, 0) + request.amount_micro
            transfer = request.to_transfer()
            staged[request.idempotency_key] = transfer
            results.append(TransferResult(transfer, False))
        return results

    def _commit(self, bal: dict[AccountRef, int], held: dict[AccountRef, int], staged: dict[str, Transfer]) -> None:
        self.balance, self.held = bal, held
        for key, transfer in staged.items():
            self.by_key[key] = transfer
            self.transfers.append((len(self.transfers) + 1, transfer))

    # -- Ledger port ------------------------------------------------------------------------

    async def post(self, request: TransferRequest) -> TransferResult:
        return (await self.post_many([request]))[0]

    async def post_many(self, requests: Sequence[TransferRequest]) -> list[TransferResult]:
        bal, held = dict(self.balance), dict(self.held)
        staged: dict[str, Transfer] = {}
        results = self._stage(requests, bal, held, staged)
        self._commit(bal, held, staged)
        return results

    async def balances(self, accounts: Sequence[AccountRef]) -> Mapping[AccountRef, Balance]:
        return {a: self._bal(a, self.balance, self.held) for a in accounts}

    async def history(self, query: TransferQuery) -> Sequence[tuple[int, Transfer]]:
        rows = []
        for seq, t in reversed(self.transfers):
            if query.before_seq is not None and seq >= query.before_seq:
                continue
            if not _in_history(query, t):
                continue
            rows.append((seq, t))
            if len(rows) >= query.limit:
                break
        return rows

    async def count(self, query: TransferQuery) -> int:
        return sum(1 for _, t in self.transfers if _in_history(query, t))

    async def reserve(self, request: HoldRequest) -> HoldResult:
        hold_id = self.holds_by_key.get(request.idempotency_key)
        if hold_id is not None:
            hold = self.holds[hold_id]
            if not request.matches(hold):
                raise IdempotencyKeyReusedError(request.idempotency_key)
            return HoldResult(hold, True)
        wallet = AccountRef.user(request.user_id)
        check_can_pay(wallet, self._bal(wallet, self.balance, self.held), request.amount_micro)
        hold = Hold(
            request.hold_id,
            request.idempotency_key,
            request.user_id,
            request.amount_micro,
            request.amount_micro,
            0,
            HoldStatus.OPEN,
            request.created_at,
            request.created_at,
            request.attribution,
            request.memo,
        )
        self.held[wallet] = self.held.get(wallet, 0) + request.amount_micro
        self.holds[hold.id] = hold
        self.holds_by_key[request.idempotency_key] = hold.id
        return HoldResult(hold, False)

    def _open_hold(self, hold_id: UUID) -> Hold:
        hold = self.holds.get(hold_id)
        if hold is None:
            raise NotFoundError("hold", "holdId")
        if hold.status is not HoldStatus.OPEN:
            raise HoldClosedError(hold.status.value)
        return hold

    async def renew_hold(self, hold_id: UUID, amount_micro: MicroCredits, now: datetime) -> Hold:
        hold = self._open_hold(hold_id)
        delta = amount_micro - hold.amount_micro
        if delta > 0:
            check_can_pay(hold.wallet, self._bal(hold.wallet, self.balance, self.held), delta)
        self.held[hold.wallet] = self.held.get(hold.wallet, 0) + delta
        hold = replace(hold, amount_micro=amount_micro, updated_at=now)
        self.holds[hold_id] = hold
        return hold

    async def charge_hold(self, hold_id: UUID, charge: TransferRequest, *, settle: bool) -> TransferResult:
        existing = self.by_key.get(charge.idempotency_key)
        if existing is not None:
            if not charge.matches(existing):
                raise IdempotencyKeyReusedError(charge.idempotency_key)
            return TransferResult(existing, True)
        hold = self._open_hold(hold_id)
        if charge.kind is not TransferKind.CHARGE or charge.source != hold.wallet:
            raise InvalidTransferError("a hold is charged from its own wallet", "holdId")
        if charge.hold_id != hold_id:
            raise InvalidTransferError("the charge must name its hold", "holdId")
        covered, _excess = charge_split(hold, charge.amount_micro)
        bal, held = dict(self.balance), dict(self.held)
        staged: dict[str, Transfer] = {}
        held[hold.wallet] = held.get(hold.wallet, 0) - covered  # the covered part is freed …
        result = self._stage([charge], bal, held, staged)[0]  # … and paid with any excess
        rest = hold.amount_micro - covered
        if settle:
            held[hold.wallet] -= rest
        self._commit(bal, held, staged)
        self.holds[hold_id] = replace(
            hold,
            amount_micro=0 if settle else rest,
            charged_micro=hold.charged_micro + charge.amount_micro,
            status=HoldStatus.SETTLED if settle else HoldStatus.OPEN,
            updated_at=charge.created_at,
        )
        return result

    async def release_hold(self, hold_id: UUID, now: datetime) -> Hold:
        hold = self.holds.get(hold_id)
        if hold is None:
            raise NotFoundError("hold", "holdId")
        if hold.status is not HoldStatus.OPEN:
            return hold
        self.held[hold.wallet] = self.held.get(hold.wallet, 0) - hold.amount_micro
        hold = replace(hold, amount_micro=0, status=HoldStatus.RELEASED, updated_at=now)
        self.holds[hold_id] = hold
        return hold

    async def get_hold(self, hold_id: UUID) -> Hold | None:
        return self.holds.get(hold_id)

    async def open_holds(self, *, created_before: datetime, key_prefix: str) -> Sequence[Hold]:
        found = [
            h
            for h in self.holds.values()
            if h.status is HoldStatus.OPEN
            and h.created_at < created_before
            and h.idempotency_key.startswith(key_prefix)
        ]
        return sorted(found, key=lambda h: h.created_at)

    async def holds_of(self, user_id: UUID, *, open_only: bool = True) -> Sequence[Hold]:
        found = [
            h for h in self.holds.values() if h.user_id == user_id and (not open_only or h.status is HoldStatus.OPEN)
        ]
        return sorted(found, key=lambda h: h.created_at, reverse=True)

    async def spend(self, scope: BudgetScope, since: datetime, until: datetime) -> MicroCredits:
        attr = _ATTR[scope.kind]
        return sum(
            t.amount_micro
            for _, t in self.transfers
            if t.kind is TransferKind.CHARGE
            and getattr(t.attribution, attr) == scope.id
            and since <= t.created_at < until
        )

    async def spend_by(
        self, scope: BudgetScope, since: datetime, until: datetime, by: BudgetScopeKind
    ) -> Mapping[UUID, MicroCredits]:
        attr = _ATTR[scope.kind]
        out: dict[UUID, int] = {}
        for _, t in self.transfers:
            key = getattr(t.attribution, _ATTR[by])
            if (
                t.kind is TransferKind.CHARGE
                and getattr(t.attribution, attr) == scope.id
                and since <= t.created_at < until
                and key is not None
            ):
                out[key] = out.get(key, 0) + t.amount_micro
        return out

    # -- audit helpers (tests) --------------------------------------------------------------

    def total(self) -> int:
        return sum(self.balance.values())


class InMemoryUsageReports:
    """`UsageReports` over the in-memory ledger; `offering_of_session` stands in for the
    sessions the charges name (session id -> offering id)."""

    def __init__(self, ledger: InMemoryLedger, offering_of_session: Mapping[UUID, UUID] | None = None) -> None:
        self._ledger = ledger
        self.offering_of_session: dict[UUID, UUID] = dict(offering_of_session or {})

    async def charges(self, query: UsageQuery) -> Sequence[UsageCell]:
        scope_attr = _ATTR[query.scope.kind]
        out: dict[tuple[UUID | None, datetime | None], int] = {}
        for _, t in self._ledger.transfers:
            if (
                t.kind is not TransferKind.CHARGE
                or getattr(t.attribution, scope_attr) != query.scope.id
                or not query.since <= t.created_at < query.until
            ):
                continue
            key: UUID | None = None
            if query.by is UsageDimension.OFFERING:
                sid = session_of_charge(t.idempotency_key)
                key = self.offering_of_session.get(sid) if sid is not None else None
            elif query.by is not None:
                key = getattr(t.attribution, query.by.value + "_id")
            at = period_start(t.created_at, query.interval) if query.interval is not None else None
            out[(key, at)] = out.get((key, at), 0) + t.amount_micro
        return [UsageCell(k, p, v) for (k, p), v in out.items()]


class InMemoryRefillSchedules:
    def __init__(self, ledger: InMemoryLedger) -> None:
        self._ledger = ledger
        self.schedules: dict[UUID, RefillSchedule] = {}

    async def add(self, schedule: RefillSchedule) -> None:
        self.schedules[schedule.id] = schedule

    async def get(self, schedule_id: UUID) -> RefillSchedule | None:
        return self.schedules.get(schedule_id)

    async def all(self, source: AccountRef | None = None) -> Sequence[RefillSchedule]:
        return [s for s in self.schedules.values() if source is None or s.source == source]

    async def set_active(self, schedule_id: UUID, active: bool) -> bool:
        schedule = self.schedules.get(schedule_id)
        if schedule is None:
            return False
        self.schedules[schedule_id] = replace(schedule, active=active)
        return True

    async def apply_period(
        self, schedule_id: UUID, period_start: datetime, requests: Sequence[TransferRequest]
    ) -> list[TransferResult] | None:
        schedule = self.schedules.get(schedule_id)
        if schedule is None:
            raise NotFoundError("refill schedule")
        if schedule.last_period_start >= period_start:
            return None
        results = await self._ledger.post_many(requests)
        self.schedules[schedule_id] = replace(schedule, last_period_start=period_start)
        return results


class InMemoryBudgets:
    def __init__(self) -> None:
        self.budgets: dict[UUID, Budget] = {}

    async def put(self, budget: Budget) -> Budget:
        for existing in self.budgets.values():
            if existing.scope == budget.scope and existing.period == budget.period:
                budget = replace(budget, id=existing.id, created_at=existing.created_at)
                break
        self.budgets[budget.id] = budget
        return budget

    async def get(self, budget_id: UUID) -> Budget | None:
        return self.budgets.get(budget_id)

    async def for_scopes(self, scopes: Sequence[BudgetScope]) -> Sequence[Budget]:
        wanted = set(scopes)
        return [b for b in self.budgets.values() if b.scope in wanted]

    async def delete(self, budget_id: UUID) -> bool:
        return self.budgets.pop(budget_id, None) is not None

    async def all(self) -> Sequence[Budget]:
        return list(self.budgets.values())


class InMemoryPolicies:
    def __init__(self) -> None:
        self.policies: dict[PolicyScope, ResourcePolicy] = {}

    async def get(self, scope: PolicyScope) -> ResourcePolicy | None:
        return self.policies.get(scope)

    async def for_scopes(self, scopes: Sequence[PolicyScope]) -> Mapping[PolicyScope, ResourcePolicy]:
        return {s: self.policies[s] for s in scopes if s in self.policies}

    async def put(self, policy: ResourcePolicy) -> None:
        self.policies[policy.scope] = policy

    async def delete(self, scope: PolicyScope) -> bool:
        return self.policies.pop(scope, None) is not None

    async def all(self) -> Sequence[ResourcePolicy]:
        return list(self.policies.values())


class InMemoryUsage:
    """Usage per scope set by hand (the sessions context provides the real one)."""

    def __init__(self) -> None:
        self.by_scope: dict[PolicyScope, Usage] = {}

    def set(self, scope: PolicyScope, usage: Usage) -> None:
        self.by_scope[scope] = usage

    def add(self, scopes: Sequence[PolicyScope], gpus: Fraction, model: str | None = None) -> None:
        for scope in scopes:
            u = self.by_scope.get(scope, Usage())
            per_model = dict(u.per_model)
            if model is not None:
                per_model[model] = per_model.get(model, Fraction(0)) + gpus
            self.by_scope[scope] = replace(u, sessions=u.sessions + 1, gpus=u.gpus + gpus, per_model=per_model)

    async def usage(self, scopes: Sequence[PolicyScope]) -> Mapping[PolicyScope, Usage]:
        return {s: self.by_scope.get(s, Usage()) for s in scopes}


class InMemoryDirectory:
    """Organisations, groups and memberships for tests; the tenancy adapter is the real one."""

    def __init__(self) -> None:
        self.group_orgs: dict[UUID, UUID] = {}
        self.members: dict[UUID, set[UUID]] = {}

    def add_group(self, group_id: UUID, organization_id: UUID) -> None:
        self.group_orgs[group_id] = organization_id
        self.members.setdefault(group_id, set())

    def add_member(self, group_id: UUID, user_id: UUID) -> None:
        self.members[group_id].add(user_id)

    async def group_organization(self, group_id: UUID) -> UUID | None:
        return self.group_orgs.get(group_id)

    async def user_groups(self, user_id: UUID) -> Mapping[UUID, UUID]:
        return {g: self.group_orgs[g] for g, users in self.members.items() if user_id in users}

    async def group_member_ids(self, group_id: UUID) -> Sequence[UUID]:
        return sorted(self.members.get(group_id, ()))
