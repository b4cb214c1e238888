"""Credits use cases. Drivers (GraphQL resolvers, workers) parse input, call one of these with
the ports, and map the result or the DomainError.

Who may move credits: an admin of the giving scope, one level down the hierarchy
(system → organisation by super_admin, organisation → group by that org's org_admin,
group → user by that group's group_admin), and the same admins take credits back up the same
edge. Holds and charges are the system's own operations (admission, metering), not an actor's.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from fractions import Fraction
from uuid import UUID

from domain.common import spreadsheet
from domain.common.clock import Clock, IdGenerator
from domain.common.errors import (
    CommonErrorCode,
    DomainError,
    InvalidValueError,
    NotFoundError,
    PermissionDeniedError,
)
from domain.common.money import MicroCredits, cost_micro, micro_to_credits_str
from domain.credits.budgets import (
    DEFAULT_THRESHOLDS,
    Budget,
    BudgetAction,
    BudgetGateResult,
    BudgetScope,
    BudgetScopeKind,
    BudgetStatus,
    gate,
    validate_budget,
)
from domain.credits.errors import InvalidTransferError, NotAPersonalWalletError
from domain.credits.model import (
    AccountKind,
    AccountRef,
    Attribution,
    Balance,
    Hold,
    HoldRequest,
    HoldResult,
    Period,
    Transfer,
    TransferKind,
    TransferRequest,
    TransferResult,
    period_bounds,
)
from domain.credits.ports import (
    BudgetRepository,
    Directory,
    Ledger,
    RefillSchedules,
    TransferQuery,
    UsageReports,
)
from domain.credits.refills import (
    RefillCadence,
    RefillMode,
    RefillSchedule,
    due_period,
    refill_amount,
    refill_key,
    refill_period_start,
    validate_refill,
)
from domain.credits.usage import UsageQuery, UsageReport, build_report
from domain.policies.model import ScopeChain
from domain.tenancy import access
from domain.tenancy.model import Actor, Role

DEFAULT_HOLD_WINDOW_SECONDS = 3600
MAX_CALLER_KEY_LENGTH = 120  # + the caller's id and the bulk member suffix stay under 200

# ---------------------------------------------------------------------------- authorisation


def _require_writer(actor: Actor) -> None:
    if actor.read_only:
        raise DomainError(CommonErrorCode.READ_ONLY_TOKEN, "this token is read-only")


async def is_admin_of_account(actor: Actor, directory: Directory, account: AccountRef) -> bool:
    """May `actor` give from (or take back into) this account?"""
    if account.kind is AccountKind.SYSTEM:
        return actor.is_super_admin
    if account.kind is AccountKind.ORGANIZATION:
        assert account.owner_id is not None
        return actor.is_org_admin(account.owner_id)
    if account.kind is AccountKind.GROUP:
        assert account.owner_id is not None
        if actor.is_super_admin or actor.role_in_group(account.owner_id) is Role.GROUP_ADMIN:
            return True
        if not actor.org_admin_of:
            return False
        org = await directory.group_organization(account.owner_id)  # only org admins need it
        return org is not None and actor.is_org_admin(org)
    return False  # personal wallets and the sink administer nothing


async def _is_child(directory: Directory, parent: AccountRef, child: AccountRef) -> bool:
    """Is `child` directly below `parent` (system ⊃ org ⊃ group ∋ member)?"""
    if parent.kind is AccountKind.SYSTEM:
        return child.kind is AccountKind.ORGANIZATION
    if parent.kind is AccountKind.ORGANIZATION and child.kind is AccountKind.GROUP:
        assert child.owner_id is not None
        return await directory.group_organization(child.owner_id) == parent.owner_id
    if parent.kind is AccountKind.GROUP and child.kind is AccountKind.USER:
        assert child.owner_id is not None and parent.owner_id is not None
        return parent.owner_id in await directory.user_groups(child.owner_id)
    return False


async def _authorise_edge(
    actor: Actor, directory: Directory, parent: AccountRef, child: AccountRef, *, down: bool
) -> None:
    _require_writer(actor)
    parent_field, child_field = ("source", "destination") if down else ("destination", "source")
    if not await is_admin_of_account(actor, directory, parent):
        raise PermissionDeniedError(f"only an admin of {parent.label()} may move credits to or from it", parent_field)
    if not await _is_child(directory, parent, child):
        raise InvalidTransferError(f"{child.label()} is not directly below {parent.label()}", child_field)


async def can_view_account(actor: Actor, directory: Directory, account: AccountRef) -> bool:
    if actor.is_super_admin:
        return True
    if account.kind is AccountKind.USER:
        if account.owner_id == actor.user_id:
            return True
        assert account.owner_id is not None
        groups = await directory.user_groups(account.owner_id)
        return any(actor.is_group_admin(g, o) for g, o in groups.items())
    if account.kind is AccountKind.GROUP:
        assert account.owner_id is not None
        if account.owner_id in actor.group_roles:
            return True
    if account.kind is AccountKind.CONSUMPTION:
        assert account.owner_id is not None
        return actor.is_org_admin(account.owner_id)
    return await is_admin_of_account(actor, directory, account)


async def require_account_admin(actor: Actor, directory: Directory, account: AccountRef, field: str) -> None:
    """NOT_FOUND naming `field` unless the actor administers the account (an account list drilled
    down by organisation or group): one out of reach answers like one that does not exist."""
    if not await is_admin_of_account(actor, directory, account):
        raise NotFoundError(account.kind.value, field)


async def judged_scope(
    actor: Actor,
    directory: Directory,
    *,
    user_id: UUID,
    username: str,
    asked_group_id: UUID | None,
    active_group_id: UUID | None,
) -> tuple[UUID, UUID]:
    """The (group, organisation) a user's GPU work is judged in: the asked group (one the user
    belongs to), else their active group, else their first. Another user's is visible to whoever
    may see that user's wallet (the admins above them); out of reach answers NOT_FOUND."""
    if user_id != actor.user_id and not await can_view_account(actor, directory, AccountRef.user(user_id)):
        raise NotFoundError("user", "userId")
    groups = await directory.user_groups(user_id)
    if asked_group_id is not None:
        if asked_group_id not in groups:
            raise NotFoundError("group", "groupId")
        return asked_group_id, groups[asked_group_id]
    if active_group_id is not None and active_group_id in groups:
        return active_group_id, groups[active_group_id]
    if groups:
        first = min(groups, key=str)
        return first, groups[first]
    raise InvalidValueError("groupId", f"{username} belongs to no group")


# ------------------------------------------------------------------------------ transfers


async def allocate(
    actor: Actor,
    ledger: Ledger,
    directory: Directory,
    clock: Clock,
    ids: IdGenerator,
    *,
    source: AccountRef,
    destination: AccountRef,
    amount_micro: MicroCredits,
    idempotency_key: str,
    memo: str = "",
) -> TransferResult:
    """Move credits one level down, by an admin of the giver's scope."""
    request = TransferRequest(
        ids.new_id(),
        caller_key(actor, idempotency_key),
        TransferKind.ALLOCATION,
        source,
        destination,
        amount_micro,
        clock.now(),
        actor.user_id,
        memo=memo,
    )
    await _authorise_edge(actor, directory, source, destination, down=True)
    return await ledger.post(request)


async def take_back(
    actor: Actor,
    ledger: Ledger,
    directory: Directory,
    clock: Clock,
    ids: IdGenerator,
    *,
    source: AccountRef,
    destination: AccountRef,
    amount_micro: MicroCredits,
    idempotency_key: str,
    memo: str = "",
) -> TransferResult:
    """Move credits one level up (`source` is the child), by an admin of the parent's scope."""
    request = TransferRequest(
        ids.new_id(),
        caller_key(actor, idempotency_key),
        TransferKind.TAKE_BACK,
        source,
        destination,
        amount_micro,
        clock.now(),
        actor.user_id,
        memo=memo,
    )
    await _authorise_edge(actor, directory, destination, source, down=False)
    return await ledger.post(request)


def caller_key(actor: Actor, key: str) -> str:
    """Keys a person supplies live in that person's own namespace, so nobody can occupy a key
    another caller (or a refill, or metering) will use. Replays come from the same caller."""
    if not key or len(key) > MAX_CALLER_KEY_LENGTH:
        raise InvalidTransferError(
            f"an idempotency key of 1 to {MAX_CALLER_KEY_LENGTH} characters is required",
            "idempotencyKey",
        )
    return f"{actor.user_id}:{key}"


def member_key(bulk_key: str, user_id: UUID) -> str:
    return f"{bulk_key}/{user_id}"


async def allocate_to_group_members(
    actor: Actor,
    ledger: Ledger,
    directory: Directory,
    clock: Clock,
    ids: IdGenerator,
    *,
    group_id: UUID,
    amount_micro: MicroCredits,
    idempotency_key: str,
    memo: str = "",
) -> list[TransferResult]:
    """Give every member of the group `amount_micro` from the group's account, all or nothing.

    Each member's transfer is keyed `<caller key>/<user id>`, so replaying the bulk
    operation (even after members joined) never pays anyone twice.
    """
    _require_writer(actor)
    group = AccountRef.group(group_id)
    if not await is_admin_of_account(actor, directory, group):
        raise PermissionDeniedError("only an admin of the group may allocate to its members")
    members = sorted(await directory.group_member_ids(group_id))
    if not members:
        raise InvalidTransferError("the group has no members", "groupId")
    now = clock.now()
    requests = [
        TransferRequest(
            ids.new_id(),
            member_key(caller_key(actor, idempotency_key), user_id),
            TransferKind.ALLOCATION,
            group,
            AccountRef.user(user_id),
            amount_micro,
            now,
            actor.user_id,
            memo=memo,
        )
        for user_id in members
    ]
    return await ledger.post_many(requests)


async def get_balances(
    actor: Actor, ledger: Ledger, directory: Directory, accounts: Sequence[AccountRef]
) -> Mapping[AccountRef, Balance]:
    for account in accounts:
        if not await can_view_account(actor, directory, account):
            raise NotFoundError("account", "account")
    return await ledger.balances(accounts)


async def wallet_holds(
    actor: Actor, ledger: Ledger, directory: Directory, user_id: UUID, *, open_only: bool = True
) -> Sequence[Hold]:
    """What is reserved in a personal wallet (visible to its owner and the admins above it)."""
    if not await can_view_account(actor, directory, AccountRef.user(user_id)):
        raise NotFoundError("account", "userId")
    return await ledger.holds_of(user_id, open_only=open_only)


async def ledger_history(
    actor: Actor, ledger: Ledger, directory: Directory, query: TransferQuery
) -> Sequence[tuple[int, Transfer]]:
    """Transfers of one account (any viewer of it), or of all accounts (super_admin only)."""
    await _require_history_view(actor, directory, query)
    if not 1 <= query.limit <= 10_000:
        raise InvalidTransferError("limit must be between 1 and 10000", "limit")
    return await ledger.history(query)


async def ledger_history_count(actor: Actor, ledger: Ledger, directory: Directory, query: TransferQuery) -> int:
    """How many transfers the history lists in all its pages; same visibility as the history."""
    await _require_history_view(actor, directory, query)
    return await ledger.count(query)


async def _require_history_view(actor: Actor, directory: Directory, query: TransferQuery) -> None:
    if query.account is None:
        if not actor.is_super_admin:
            raise PermissionDeniedError("name an account to see its history", "account")
    elif not await can_view_account(actor, directory, query.account):
        raise NotFoundError("account", "account")


CSV_HEADER = (
    "seq",
    "id",
    "created_at",
    "kind",
    "source",
    "destination",
    "amount_credits",
    "idempotency_key",
    "actor_id",
    "organization_id",
    "group_id",
    "user_id",
    "hold_id",
    "memo",
)


def _account_text(a: AccountRef) -> str:
    return a.kind.value if a.owner_id is None else f"{a.kind.value}:{a.owner_id}"


def transfers_csv(rows: Sequence[tuple[int, Transfer]]) -> str:
    """CSV export of ledger history (amounts in credits, exact decimal)."""
    out = io.StringIO()
    writer = spreadsheet.writer(out)
    writer.writerow(CSV_HEADER)
    for seq, t in rows:
        a = t.attribution
        writer.writerow(
            [
                seq,
                t.id,
                t.created_at.isoformat(),
                t.kind.value,
                _account_text(t.source),
                _account_text(t.destination),
                micro_to_credits_str(t.amount_micro),
                spreadsheet.text_cell(t.idempotency_key),
                t.actor_id or "",
                a.organization_id or "",
                a.group_id or "",
                a.user_id or "",
                t.hold_id or "",
                spreadsheet.text_cell(t.memo),
            ]
        )
    return out.getvalue()


# ----------------------------------------------------------------------------------- holds


def estimate_hold_micro(
    hourly_rate_micro: MicroCredits,
    ratio: Fraction,
    expiry_seconds: int | None,
    window_seconds: int = DEFAULT_HOLD_WINDOW_SECONDS,
) -> MicroCredits:
    """rate × ratio × the shorter of the chosen expiry and the hold window."""
    seconds = window_seconds if expiry_seconds is None else min(expiry_seconds, window_seconds)
    return cost_micro(hourly_rate_micro, ratio, seconds)


async def reserve_hold(
    ledger: Ledger,
    clock: Clock,
    ids: IdGenerator,
    *,
    chain: ScopeChain,
    amount_micro: MicroCredits,
    idempotency_key: str,
    memo: str = "",
) -> HoldResult:
    """Admission step 6: reserve from the requester's own wallet (refused if short)."""
    attribution = Attribution(chain.organization_id, chain.group_id, chain.user_id)
    return await ledger.reserve(
        HoldRequest(
            ids.new_id(),
            idempotency_key,
            chain.user_id,
            amount_micro,
            clock.now(),
            attribution,
            memo,
        )
    )


async def charge_hold(
    ledger: Ledger,
    clock: Clock,
    ids: IdGenerator,
    *,
    hold_id: UUID,
    amount_micro: MicroCredits,
    idempotency_key: str,
    settle: bool = False,
) -> TransferResult:
    """Metering: turn (part of) a hold into a charge; `settle` closes it and frees the rest."""
    hold = await ledger.get_hold(hold_id)
    if hold is None:
        raise NotFoundError("hold", "holdId")
    organization_id = hold.attribution.organization_id
    assert organization_id is not None, "holds are always attributed to an organisation"
    request = TransferRequest(
        ids.new_id(),
        idempotency_key,
        TransferKind.CHARGE,
        hold.wallet,
        AccountRef.consumption(organization_id),
        amount_micro,
        clock.now(),
        None,
        hold.attribution,
        hold.id,
    )
    return await ledger.charge_hold(hold_id, request, settle=settle)


async def renew_hold(ledger: Ledger, clock: Clock, *, hold_id: UUID, amount_micro: MicroCredits) -> Hold:
    """Metering: reserve the next window (sets the hold's amount, growing or shrinking it)."""
    if amount_micro < 0:
        raise InvalidTransferError("a hold cannot be negative", "amount")
    return await ledger.renew_hold(hold_id, amount_micro, clock.now())


async def release_hold(ledger: Ledger, clock: Clock, *, hold_id: UUID) -> Hold:
    return await ledger.release_hold(hold_id, clock.now())


async def charge_wallet(
    ledger: Ledger,
    clock: Clock,
    ids: IdGenerator,
    *,
    wallet: AccountRef,
    chain: ScopeChain,
    amount_micro: MicroCredits,
    idempotency_key: str,
    memo: str = "",
) -> TransferResult:
    """A charge without a hold; only ever from the requester's own personal wallet."""
    if wallet != AccountRef.user(chain.user_id):
        raise NotAPersonalWalletError()
    attribution = Attribution(chain.organization_id, chain.group_id, chain.user_id)
    return await ledger.post(
        TransferRequest(
            ids.new_id(),
            idempotency_key,
            TransferKind.CHARGE,
            wallet,
            AccountRef.consumption(chain.organization_id),
            amount_micro,
            clock.now(),
            None,
            attribution,
            memo=memo,
        )
    )


# --------------------------------------------------------------------------------- refills


async def create_refill_schedule(
    actor: Actor,
    refills: RefillSchedules,
    directory: Directory,
    clock: Clock,
    ids: IdGenerator,
    *,
    source: AccountRef,
    mode: RefillMode,
    amount_micro: MicroCredits,
    cadence: RefillCadence,
    anchor_day: int = 1,
    target: AccountRef | None = None,
    members_of_group: UUID | None = None,
    memo: str = "",
) -> RefillSchedule:
    validate_refill(source, target, members_of_group, amount_micro, cadence, anchor_day)
    _require_writer(actor)
    if not await is_admin_of_account(actor, directory, source):
        raise PermissionDeniedError("only an admin of the source may schedule refills", "source")
    if target is not None and not await _is_child(directory, source, target):
        raise InvalidTransferError(f"{target.label()} is not directly below the source", "target")
    now = clock.now()
    schedule = RefillSchedule(
        ids.new_id(),
        source,
        mode,
        amount_micro,
        cadence,
        anchor_day,
        actor.user_id,
        now,
        refill_period_start(cadence, anchor_day, now),
        target,
        members_of_group,
        memo=memo,
    )
    await refills.add(schedule)
    return schedule


async def set_refill_schedule_active(
    actor: Actor,
    refills: RefillSchedules,
    directory: Directory,
    *,
    schedule_id: UUID,
    active: bool,
) -> RefillSchedule:
    _require_writer(actor)
    schedule = await refills.get(schedule_id)
    if schedule is None or not await is_admin_of_account(actor, directory, schedule.source):
        raise NotFoundError("refill schedule")
    await refills.set_active(schedule_id, active)
    return replace(schedule, active=active)


async def list_refill_schedules(
    actor: Actor, refills: RefillSchedules, directory: Directory, source: AccountRef | None = None
) -> list[RefillSchedule]:
    return [s for s in await refills.all(source) if await is_admin_of_account(actor, directory, s.source)]


@dataclass(frozen=True, slots=True)
class RefillOutcome:
    schedule_id: UUID
    period_start: datetime
    applied: bool  # False: already applied earlier, or failed (see error)
    transfers: tuple[TransferResult, ...] = ()
    error: DomainError | None = None


async def apply_due_refills(
    ledger: Ledger,
    refills: RefillSchedules,
    directory: Directory,
    ids: IdGenerator,
    now: datetime,
) -> list[RefillOutcome]:
    """Apply every active schedule whose current period is not applied yet (worker entry).

    Idempotent per schedule and period: the period mark and the transfers commit together, and
    each transfer's key names the schedule, period and target. A schedule whose source is short
    is reported and retried on the next call.
    """
    outcomes: list[RefillOutcome] = []
    for schedule in await refills.all():
        period = due_period(schedule, now)
        if period is None:
            continue
        if schedule.members_of_group is not None:
            members = await directory.group_member_ids(schedule.members_of_group)
            targets = [AccountRef.user(u) for u in sorted(members)]
        else:
            assert schedule.target is not None
            targets = [schedule.target]
        balances = await ledger.balances(targets) if schedule.mode is RefillMode.TOP_UP else {}
        requests = []
        for target in targets:
            current = balances[target].balance_micro if target in balances else 0
            amount = refill_amount(schedule.mode, schedule.amount_micro, current)
            if amount > 0:
                requests.append(
                    TransferRequest(
                        ids.new_id(),
                        refill_key(schedule.id, period, target),
                        TransferKind.REFILL,
                        schedule.source,
                        target,
                        amount,
                        now,
                        memo=schedule.memo or f"refill {schedule.id}",
                    )
                )
        try:
            results = await refills.apply_period(schedule.id, period, requests)
        except DomainError as exc:
            outcomes.append(RefillOutcome(schedule.id, period, False, error=exc))
            continue
        outcomes.append(RefillOutcome(schedule.id, period, results is not None, tuple(results or ())))
    return outcomes


# --------------------------------------------------------------------------------- budgets


def _chain_budget_scopes(chain: ScopeChain) -> tuple[BudgetScope, ...]:
    return (
        BudgetScope(BudgetScopeKind.USER, chain.user_id),
        BudgetScope(BudgetScopeKind.GROUP, chain.group_id),
        BudgetScope(BudgetScopeKind.ORGANIZATION, chain.organization_id),
    )


def _scope_name(chain: ScopeChain, scope: BudgetScope) -> str:
    if scope.kind is BudgetScopeKind.USER:
        return chain.user_name or str(scope.id)
    if scope.kind is BudgetScopeKind.GROUP:
        return chain.group_name or str(scope.id)
    return chain.organization_name or str(scope.id)


async def require_budget_admin(actor: Actor, directory: Directory, scope: BudgetScope) -> None:
    """organisation: its org_admin; group: an admin of the group; user: an admin of one of
    the user's groups."""
    _require_writer(actor)
    await access.require_scope_in_reach(actor, directory, scope.kind.value, scope.id, "scope")
    if actor.is_super_admin:
        return
    if scope.kind is BudgetScopeKind.ORGANIZATION and actor.is_org_admin(scope.id):
        return
    if scope.kind is BudgetScopeKind.GROUP:
        org = await directory.group_organization(scope.id)
        if org is not None and actor.is_group_admin(scope.id, org):
            return
    if scope.kind is BudgetScopeKind.USER:
        groups = await directory.user_groups(scope.id)
        if any(actor.is_group_admin(g, o) for g, o in groups.items()):
            return
    raise PermissionDeniedError("only an admin of this scope may set its budget", "scope")


async def set_budget(
    actor: Actor,
    budgets: BudgetRepository,
    directory: Directory,
    clock: Clock,
    ids: IdGenerator,
    *,
    scope: BudgetScope,
    limit_micro: MicroCredits,
    action: BudgetAction,
    period: Period = Period.MONTHLY,
    alert_thresholds: tuple[int, ...] = DEFAULT_THRESHOLDS,
) -> Budget:
    """Create or replace the budget of (scope, period)."""
    validate_budget(limit_micro, alert_thresholds)
    await require_budget_admin(actor, directory, scope)
    now = clock.now()
    return await budgets.put(
        Budget(
            ids.new_id(),
            scope,
            limit_micro,
            action,
            now,
            now,
            period,
            alert_thresholds,
            actor.user_id,
        )
    )


async def budgets_of(actor: Actor, budgets: BudgetRepository, directory: Directory, scope: BudgetScope) -> list[Budget]:
    """The budgets of one scope, shortest period first, for whoever may see the scope's account."""
    if not await can_view_account(actor, directory, AccountRef(AccountKind(scope.kind.value), scope.id)):
        raise NotFoundError(scope.kind.value, "scope.id")
    order = list(Period)
    return sorted(await budgets.for_scopes([scope]), key=lambda b: order.index(b.period))


async def delete_budget(actor: Actor, budgets: BudgetRepository, directory: Directory, budget_id: UUID) -> None:
    budget = await budgets.get(budget_id)
    if budget is None or not await access.scope_in_reach(actor, directory, budget.scope.kind.value, budget.scope.id):
        raise NotFoundError("budget")
    await require_budget_admin(actor, directory, budget.scope)
    await budgets.delete(budget_id)


async def budget_statuses(
    budgets: BudgetRepository, ledger: Ledger, chain: ScopeChain, now: datetime
) -> tuple[BudgetStatus, ...]:
    """Every budget on the chain (user, then group, then organisation) with its spend."""
    scopes = _chain_budget_scopes(chain)
    order = {s: i for i, s in enumerate(scopes)}
    found = sorted(await budgets.for_scopes(scopes), key=lambda b: (order[b.scope], b.period))
    statuses = []
    for budget in found:
        start, end = period_bounds(budget.period, now)
        spent = await ledger.spend(budget.scope, start, end)
        statuses.append(BudgetStatus(budget, _scope_name(chain, budget.scope), start, end, spent))
    return tuple(statuses)


async def evaluate_budget_gate(
    budgets: BudgetRepository, ledger: Ledger, chain: ScopeChain, now: datetime
) -> BudgetGateResult:
    """Admission step 5: may this scope chain start GPU work now? A `block` budget at or over
    its limit refuses (most specific first); `warn` budgets past a threshold are warnings."""
    return gate(await budget_statuses(budgets, ledger, chain, now))


async def scope_spend(
    actor: Actor,
    ledger: Ledger,
    directory: Directory,
    scope: BudgetScope,
    since: datetime,
    until: datetime,
) -> MicroCredits:
    """Usage-by-scope summary: charges in [since, until) including descendants."""
    await _require_scope_view(actor, directory, scope)
    return await ledger.spend(scope, since, until)


async def _require_scope_view(actor: Actor, directory: Directory, scope: BudgetScope) -> None:
    """Whoever may see the scope's account may see its spend."""
    kind = {
        BudgetScopeKind.ORGANIZATION: AccountKind.ORGANIZATION,
        BudgetScopeKind.GROUP: AccountKind.GROUP,
        BudgetScopeKind.USER: AccountKind.USER,
    }[scope.kind]
    if not await can_view_account(actor, directory, AccountRef(kind, scope.id)):
        raise NotFoundError("scope", "scope")


_FINER = {
    BudgetScopeKind.ORGANIZATION: (BudgetScopeKind.GROUP, BudgetScopeKind.USER),
    BudgetScopeKind.GROUP: (BudgetScopeKind.USER,),
    BudgetScopeKind.USER: (),
}


async def spend_breakdown(
    actor: Actor,
    ledger: Ledger,
    directory: Directory,
    scope: BudgetScope,
    since: datetime,
    until: datetime,
    by: BudgetScopeKind,
) -> Mapping[UUID, MicroCredits]:
    """Usage-by-scope summary split one level finer: an org's spend per group or per user, a
    group's per user. Same visibility as `scope_spend`."""
    if by not in _FINER[scope.kind]:
        raise InvalidTransferError(f"a {scope.kind} cannot be split by {by}", "by")
    await _require_scope_view(actor, directory, scope)
    return await ledger.spend_by(scope, since, until, by)


async def usage_report(actor: Actor, reports: UsageReports, directory: Directory, query: UsageQuery) -> UsageReport:
    """A scope's charges over a period, split by group, user or offering, optionally per
    day/week/month. Same visibility as `scope_spend`: whoever may see the scope's account."""
    await _require_scope_view(actor, directory, query.scope)
    return build_report(query, await reports.charges(query))


@dataclass(frozen=True, slots=True)
class BudgetAlert:
    status: BudgetStatus
    threshold: int

    @property
    def key(self) -> str:
        """Deduplication key for the notification (one per budget, period and threshold)."""
        start = self.status.period_start
        return f"budget-alert:{self.status.budget.id}:{start:%Y%m%d}:{self.threshold}"


async def budget_alerts(budgets: BudgetRepository, ledger: Ledger, now: datetime) -> list[BudgetAlert]:
    """Every crossed threshold of every budget in its current period (budget roll-up worker).
    Deliver each alert at most once by its `key`; crossing is monotonic within a period."""
    alerts: list[BudgetAlert] = []
    for budget in await budgets.all():
        start, end = period_bounds(budget.period, now)
        status = BudgetStatus(budget, str(budget.scope.id), start, end, await ledger.spend(budget.scope, start, end))
        alerts.extend(BudgetAlert(status, t) for t in status.crossed_thresholds)
    return alerts
