"""GraphQL types of the credits context: accounts and their balances, holds, ledger transfers,
refill schedules, budgets and their status, usage summaries; and the scope type shared with
the policies context."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any
from uuid import UUID

import strawberry
from strawberry import relay

from api.common.ids import to_global
from api.common.money import Credits
from api.common.pagination import PageInfo
from api.common.scalars import BigInt
from api.context import Info
from domain.common.errors import DomainError
from domain.credits import services as credits
from domain.credits.budgets import Budget as BudgetModel
from domain.credits.budgets import BudgetAction as BudgetActionModel
from domain.credits.budgets import BudgetGateResult, BudgetScope, BudgetScopeKind, BudgetStatus
from domain.credits.model import AccountKind as AccountKindModel
from domain.credits.model import AccountRef, Balance, Hold, Period, Transfer, period_bounds
from domain.credits.model import HoldStatus as HoldStatusModel
from domain.credits.model import TransferKind as TransferKindModel
from domain.credits.ports import TransferQuery
from domain.credits.refills import RefillCadence as RefillCadenceModel
from domain.credits.refills import RefillMode as RefillModeModel
from domain.credits.refills import RefillSchedule as RefillScheduleModel
from domain.credits.usage import UsageDimension as UsageDimensionModel
from domain.credits.usage import UsageInterval as UsageIntervalModel
from domain.credits.usage import UsageReport as UsageReportModel
from domain.policies.model import PolicyScope, PolicyScopeKind

AccountKind = strawberry.enum(
    AccountKindModel,
    name="AccountKind",
    description="SYSTEM issues credits; ORGANIZATION, GROUP and USER (personal wallet) hold them; "
    "CONSUMPTION is an organisation's sink that charges flow into.",
)
TransferKind = strawberry.enum(TransferKindModel, name="TransferKind")
HoldStatus = strawberry.enum(HoldStatusModel, name="HoldStatus")
BudgetAction = strawberry.enum(
    BudgetActionModel, name="BudgetAction", description="WARN admits and notifies; BLOCK refuses new GPU sessions."
)
BudgetPeriod = strawberry.enum(Period, name="BudgetPeriod", description="UTC periods; weeks start on Monday.")
RefillMode = strawberry.enum(
    RefillModeModel, name="RefillMode", description="GRANT adds the amount; TOP_UP brings the balance up to it."
)
RefillCadence = strawberry.enum(RefillCadenceModel, name="RefillCadence")
ScopeKind = strawberry.enum(PolicyScopeKind, name="ScopeKind")
UsageDimension = strawberry.enum(
    UsageDimensionModel, name="UsageDimension", description="What a usage report is split by."
)
UsageInterval = strawberry.enum(
    UsageIntervalModel, name="UsageInterval", description="UTC days, weeks (from Monday) or months."
)

_OWNER_TYPE = {
    AccountKindModel.ORGANIZATION: "Organization",
    AccountKindModel.CONSUMPTION: "Organization",
    AccountKindModel.GROUP: "Group",
    AccountKindModel.USER: "User",
}
_SCOPE_TYPE = {
    PolicyScopeKind.ORGANIZATION: "Organization",
    PolicyScopeKind.GROUP: "Group",
    PolicyScopeKind.USER: "User",
}


def account_node_id(ref: AccountRef) -> str:
    return ref.kind.value if ref.owner_id is None else f"{ref.kind.value}:{ref.owner_id}"


def parse_account_node_id(node_id: str) -> AccountRef:
    """Raises ValueError for anything that is not an account's node id."""
    kind, _, owner = node_id.partition(":")
    try:
        return AccountRef(AccountKindModel(kind), UUID(owner) if owner else None)
    except DomainError as exc:
        raise ValueError(node_id) from exc


async def _owner_name(info: Info, kind: AccountKindModel | PolicyScopeKind, owner: UUID | None) -> str | None:
    loaders = info.context.loaders
    if owner is None:
        return None
    if kind in (AccountKindModel.ORGANIZATION, AccountKindModel.CONSUMPTION, PolicyScopeKind.ORGANIZATION):
        org = await loaders.organization_by_id.load(owner)
        return org.name if org else None
    if kind in (AccountKindModel.GROUP, PolicyScopeKind.GROUP):
        group = await loaders.group_by_id.load(owner)
        return group.name if group else None
    user = await loaders.user_by_id.load(owner)
    return user.username if user else None


async def account_name(info: Info, ref: AccountRef) -> str:
    if ref.kind is AccountKindModel.SYSTEM:
        return "System"
    name = await _owner_name(info, ref.kind, ref.owner_id) or str(ref.owner_id)
    return f"{name} (consumption)" if ref.kind is AccountKindModel.CONSUMPTION else name


@strawberry.type(
    name="AccountRef", description="One side of a transfer: which account, without its balance (see `Account`)."
)
class AccountRefType:
    kind: AccountKind  # type: ignore[valid-type]
    ref: strawberry.Private[AccountRef]

    @classmethod
    def of(cls, ref: AccountRef) -> AccountRefType:
        return cls(kind=ref.kind, ref=ref)

    @strawberry.field(description="Global ID of the `Account`.")
    def account_id(self) -> relay.GlobalID:
        return relay.GlobalID("Account", account_node_id(self.ref))

    @strawberry.field(description="Global ID of the owning Organization, Group or User; null for SYSTEM.")
    def owner_id(self) -> relay.GlobalID | None:
        owner = self.ref.owner_id
        return None if owner is None else to_global(_OWNER_TYPE[self.ref.kind], owner)

    @strawberry.field(description="The owner's name (user name for personal wallets).")
    async def name(self, info: Info) -> str:
        return await account_name(info, self.ref)


@strawberry.type(name="CreditHold", description="Credits reserved in a personal wallet for a running session.")
class CreditHoldNode(relay.Node):
    uuid: relay.NodeID[str]
    status: HoldStatus  # type: ignore[valid-type]
    created_at: datetime
    updated_at: datetime
    memo: str
    model: strawberry.Private[Hold]

    @classmethod
    def of(cls, h: Hold) -> CreditHoldNode:
        return cls(
            uuid=str(h.id), status=h.status, created_at=h.created_at, updated_at=h.updated_at, memo=h.memo, model=h
        )

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids: Iterable[str], required: bool = False) -> list[Any]:
        actor = info.context.actor
        c = info.context.container
        out: list[CreditHoldNode | None] = []
        for raw in node_ids:
            try:
                hold = await c.credits.ledger.get_hold(UUID(raw))
                if hold is None or actor is None:
                    raise ValueError(raw)
                visible = await credits.can_view_account(actor, c.credits.directory, hold.wallet)
                out.append(cls.of(hold) if visible else None)
            except (DomainError, ValueError):
                out.append(None)
        return out

    @strawberry.field(description="What is still reserved (zero once settled or released).")
    def amount(self) -> Credits:
        return Credits.of(self.model.amount_micro)

    @strawberry.field(description="What was first reserved.")
    def reserved(self) -> Credits:
        return Credits.of(self.model.reserved_micro)

    @strawberry.field(description="What has been charged against it so far.")
    def charged(self) -> Credits:
        return Credits.of(self.model.charged_micro)


@strawberry.type(
    name="Account",
    description="A ledger account with its balance: available = balance − held (open holds). "
    "A user's account is their personal wallet.",
)
class AccountNode(relay.Node):
    key: relay.NodeID[str]
    kind: AccountKind  # type: ignore[valid-type]
    ref: strawberry.Private[AccountRef]
    money: strawberry.Private[Balance]

    @classmethod
    def of(cls, balance: Balance) -> AccountNode:
        ref = balance.account
        return cls(key=account_node_id(ref), kind=ref.kind, ref=ref, money=balance)

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids: Iterable[str], required: bool = False) -> list[Any]:
        actor = info.context.actor
        c = info.context.container
        out: list[AccountNode | None] = []
        for raw in node_ids:
            try:
                ref = parse_account_node_id(raw)
                if actor is None:
                    raise ValueError(raw)
                found = await credits.get_balances(actor, c.credits.ledger, c.credits.directory, [ref])
                out.append(cls.of(found[ref]))
            except (DomainError, ValueError):
                out.append(None)
        return out

    @strawberry.field(description="Global ID of the owning Organization, Group or User; null for SYSTEM.")
    def owner_id(self) -> relay.GlobalID | None:
        owner = self.ref.owner_id
        return None if owner is None else to_global(_OWNER_TYPE[self.ref.kind], owner)

    @strawberry.field(description="The owner's name (user name for personal wallets).")
    async def name(self, info: Info) -> str:
        return await account_name(info, self.ref)

    @strawberry.field(description="Everything credited minus everything debited (the SYSTEM account goes negative).")
    def balance(self) -> Credits:
        return Credits.of(self.money.balance_micro)

    @strawberry.field(description="Reserved by open holds.")
    def held(self) -> Credits:
        return Credits.of(self.money.held_micro)

    @strawberry.field(description="balance − held: what may be spent or given now.")
    def available(self) -> Credits:
        return Credits.of(self.money.available_micro)

    @strawberry.field(description="The holds of a personal wallet, newest first (empty for other accounts).")
    async def holds(self, info: Info, include_closed: bool = False) -> list[CreditHoldNode]:
        if self.ref.kind is not AccountKindModel.USER or self.ref.owner_id is None:
            return []
        actor = info.context.require_actor()
        c = info.context.container
        holds = await credits.wallet_holds(
            actor, c.credits.ledger, c.credits.directory, self.ref.owner_id, open_only=not include_closed
        )
        return [CreditHoldNode.of(h) for h in holds]


@strawberry.type(name="LedgerTransfer", description="One movement of credits between two accounts.")
class LedgerTransferType:
    id: strawberry.ID = strawberry.field(description="The transfer's UUID.")
    seq: BigInt | None = strawberry.field(
        description="Position in the ledger (newest is highest); null in mutation payloads (read it from ledgerHistory)."
    )
    kind: TransferKind  # type: ignore[valid-type]
    source: AccountRefType
    destination: AccountRefType
    amount: Credits
    created_at: datetime
    idempotency_key: str = strawberry.field(
        description="The key the client sent (for an admin's movement), or the system's key (refills, metering)."
    )
    memo: str
    actor_id: relay.GlobalID | None = strawberry.field(description="The User who moved it; null for system operations.")
    hold_id: relay.GlobalID | None = strawberry.field(description="The CreditHold a charge was taken against.")
    attributed_user_id: relay.GlobalID | None = strawberry.field(description="For charges: whose spend it counts as.")
    attributed_group_id: relay.GlobalID | None
    attributed_organization_id: relay.GlobalID | None

    @classmethod
    def of(cls, t: Transfer, seq: int | None = None) -> LedgerTransferType:
        a = t.attribution
        return cls(
            id=strawberry.ID(str(t.id)),
            seq=BigInt(seq) if seq is not None else None,
            kind=t.kind,
            source=AccountRefType.of(t.source),
            destination=AccountRefType.of(t.destination),
            amount=Credits.of(t.amount_micro),
            created_at=t.created_at,
            idempotency_key=_client_key(t),
            memo=t.memo,
            actor_id=to_global("User", t.actor_id) if t.actor_id else None,
            hold_id=to_global("CreditHold", t.hold_id) if t.hold_id else None,
            attributed_user_id=to_global("User", a.user_id) if a.user_id else None,
            attributed_group_id=to_global("Group", a.group_id) if a.group_id else None,
            attributed_organization_id=to_global("Organization", a.organization_id) if a.organization_id else None,
        )


def _client_key(t: Transfer) -> str:
    """Keys people send are stored in their own namespace (`<user id>:<key>`); show what they sent."""
    prefix = f"{t.actor_id}:"
    return t.idempotency_key.removeprefix(prefix) if t.actor_id else t.idempotency_key


@strawberry.type(name="LedgerTransferEdge")
class LedgerTransferEdge:
    cursor: str
    node: LedgerTransferType


@strawberry.type(
    name="LedgerTransferConnection",
    description="Ledger history, newest first, paged by a keyset cursor on the ledger's sequence "
    "(stable while new transfers are posted). Forward paging only.",
)
class LedgerTransferConnection:
    edges: list[LedgerTransferEdge]
    page_info: PageInfo
    # the filters of the first page (no cursor), counted only when totalCount is asked for
    counted: strawberry.Private[TransferQuery]

    @strawberry.field(description="How many transfers all pages hold, with the same filters.")
    async def total_count(self, info: Info) -> int:
        actor = info.context.require_actor()
        cr = info.context.container.credits
        return await credits.ledger_history_count(actor, cr.ledger, cr.directory, self.counted)

    @strawberry.field(description="The nodes of this page, without their cursors.")
    def nodes(self) -> list[LedgerTransferType]:
        return [e.node for e in self.edges]


@strawberry.type(description="An organisation, group or user (or the whole deployment) that a budget or policy is for.")
class Scope:
    kind: ScopeKind  # type: ignore[valid-type]
    scope: strawberry.Private[PolicyScope]

    @classmethod
    def of(cls, scope: PolicyScope) -> Scope:
        return cls(kind=scope.kind, scope=scope)

    @classmethod
    def of_budget(cls, scope: BudgetScope) -> Scope:
        return cls.of(PolicyScope(PolicyScopeKind(scope.kind.value), scope.id))

    @strawberry.field(description="Global ID of the Organization, Group or User; null for GLOBAL.")
    def id(self) -> relay.GlobalID | None:
        s = self.scope
        return None if s.id is None else to_global(_SCOPE_TYPE[s.kind], s.id)

    @strawberry.field(description="Its name (user name for users); null for GLOBAL.")
    async def name(self, info: Info) -> str | None:
        return await _owner_name(info, self.scope.kind, self.scope.id)


def budget_scope_key(scope: BudgetScope) -> PolicyScope:
    return PolicyScope(PolicyScopeKind(scope.kind.value), scope.id)


@strawberry.type(name="BudgetStatus", description="A budget in one period: what the scope (with descendants) spent.")
class BudgetStatusType:
    period_start: datetime
    period_end: datetime = strawberry.field(description="Exclusive.")
    spent: Credits
    limit: Credits
    percent_used: float | None = strawberry.field(description="spent / limit × 100; null for a zero limit with spend.")
    exceeded: bool = strawberry.field(description="The limit is reached: any further spend goes over it.")
    crossed_thresholds: list[int]
    scope_name: str
    model: strawberry.Private[BudgetModel]

    @classmethod
    def of(cls, s: BudgetStatus) -> BudgetStatusType:
        pct = s.percent_used
        return cls(
            period_start=s.period_start,
            period_end=s.period_end,
            spent=Credits.of(s.spent_micro),
            limit=Credits.of(s.limit_micro),
            percent_used=None if pct == float("inf") else round(pct, 4),
            exceeded=s.exceeded,
            crossed_thresholds=list(s.crossed_thresholds),
            scope_name=s.scope_name,
            model=s.budget,
        )

    @strawberry.field
    def budget(self) -> BudgetNode:
        return BudgetNode.of(self.model)


@strawberry.type(name="Budget", description="A credit limit over a scope's total spend in each period.")
class BudgetNode(relay.Node):
    uuid: relay.NodeID[str]
    action: BudgetAction  # type: ignore[valid-type]
    period: BudgetPeriod  # type: ignore[valid-type]
    alert_thresholds: list[int] = strawberry.field(description="Percentages of the limit that raise alerts.")
    created_at: datetime
    updated_at: datetime
    model: strawberry.Private[BudgetModel]

    @classmethod
    def of(cls, b: BudgetModel) -> BudgetNode:
        return cls(
            uuid=str(b.id),
            action=b.action,
            period=b.period,
            alert_thresholds=list(b.alert_thresholds),
            created_at=b.created_at,
            updated_at=b.updated_at,
            model=b,
        )

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids: Iterable[str], required: bool = False) -> list[Any]:
        actor = info.context.actor
        c = info.context.container
        out: list[BudgetNode | None] = []
        for raw in node_ids:
            try:
                budget = await c.credits.budgets.get(UUID(raw))
                if budget is None or actor is None:
                    raise ValueError(raw)
                kind = AccountKindModel(budget.scope.kind.value)
                visible = await credits.can_view_account(actor, c.credits.directory, AccountRef(kind, budget.scope.id))
                out.append(cls.of(budget) if visible else None)
            except (DomainError, ValueError):
                out.append(None)
        return out

    @strawberry.field
    def scope(self) -> Scope:
        return Scope.of_budget(self.model.scope)

    @strawberry.field
    def limit(self) -> Credits:
        return Credits.of(self.model.limit_micro)

    @strawberry.field(description="The User who last set it.")
    def updated_by(self) -> relay.GlobalID | None:
        who = self.model.updated_by
        return to_global("User", who) if who else None

    @strawberry.field(description="Spend in the current period against the limit.")
    async def status(self, info: Info) -> BudgetStatusType:
        actor = info.context.require_actor()
        c = info.context.container
        start, end = period_bounds(self.model.period, c.clock.now())
        spent = await credits.scope_spend(actor, c.credits.ledger, c.credits.directory, self.model.scope, start, end)
        name = await _owner_name(info, budget_scope_key(self.model.scope).kind, self.model.scope.id) or ""
        return BudgetStatusType.of(BudgetStatus(self.model, name, start, end, spent))


@strawberry.type(name="BudgetGate", description="Whether a user may start GPU work in a group now, by budgets.")
class BudgetGateType:
    allowed: bool
    message: str = strawberry.field(description="Why not, when refused; empty otherwise.")
    statuses: list[BudgetStatusType] = strawberry.field(description="Every budget on the chain: user, group, org.")
    warnings: list[BudgetStatusType] = strawberry.field(description="Budgets past an alert threshold.")
    refusal: BudgetStatusType | None = strawberry.field(description="The BLOCK budget that refuses, if any.")

    @classmethod
    def of(cls, g: BudgetGateResult) -> BudgetGateType:
        return cls(
            allowed=g.allowed,
            message=g.message,
            statuses=[BudgetStatusType.of(s) for s in g.statuses],
            warnings=[BudgetStatusType.of(s) for s in g.warnings],
            refusal=BudgetStatusType.of(g.refusal) if g.refusal else None,
        )


@strawberry.type(name="RefillSchedule", description="Credits granted (or topped up) one level down, each period.")
class RefillScheduleNode(relay.Node):
    uuid: relay.NodeID[str]
    mode: RefillMode  # type: ignore[valid-type]
    cadence: RefillCadence  # type: ignore[valid-type]
    anchor_day: int = strawberry.field(description="Weekly: 0 = Monday … 6 = Sunday; monthly: 1 … 28.")
    active: bool
    memo: str
    created_at: datetime
    last_period_start: datetime = strawberry.field(description="The last period applied.")
    model: strawberry.Private[RefillScheduleModel]

    @classmethod
    def of(cls, s: RefillScheduleModel) -> RefillScheduleNode:
        return cls(
            uuid=str(s.id),
            mode=s.mode,
            cadence=s.cadence,
            anchor_day=s.anchor_day,
            active=s.active,
            memo=s.memo,
            created_at=s.created_at,
            last_period_start=s.last_period_start,
            model=s,
        )

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids: Iterable[str], required: bool = False) -> list[Any]:
        actor = info.context.actor
        c = info.context.container
        out: list[RefillScheduleNode | None] = []
        for raw in node_ids:
            try:
                s = await c.credits.refills.get(UUID(raw))
                visible = (
                    s is not None
                    and actor is not None
                    and await credits.is_admin_of_account(actor, c.credits.directory, s.source)
                )
                out.append(cls.of(s) if visible and s is not None else None)
            except (DomainError, ValueError):
                out.append(None)
        return out

    @strawberry.field
    def source(self) -> AccountRefType:
        return AccountRefType.of(self.model.source)

    @strawberry.field(description="The single account refilled; null when every member of a group is.")
    def target(self) -> AccountRefType | None:
        return AccountRefType.of(self.model.target) if self.model.target else None

    @strawberry.field(description="The Group whose every member is refilled; null for a single target.")
    def members_of_group_id(self) -> relay.GlobalID | None:
        g = self.model.members_of_group
        return to_global("Group", g) if g else None

    @strawberry.field(description="GRANT: added each period; TOP_UP: the balance it tops up to.")
    def amount(self) -> Credits:
        return Credits.of(self.model.amount_micro)


@strawberry.type(description="What one finer scope spent.")
class UsageRow:
    scope: Scope
    spent: Credits


@strawberry.type(description="Charges attributed to a scope (with its descendants) in [since, until).")
class UsageSummary:
    scope: Scope
    since: datetime
    until: datetime
    spent: Credits
    breakdown: list[UsageRow] = strawberry.field(description="Split by the asked level, highest spend first.")


def usage_summary(
    scope: BudgetScope, since: datetime, until: datetime, spent: int, rows: dict[UUID, int], by: BudgetScopeKind | None
) -> UsageSummary:
    breakdown = []
    if by is not None:
        kind = PolicyScopeKind(by.value)
        ordered = sorted(rows.items(), key=lambda kv: (-kv[1], str(kv[0])))
        breakdown = [UsageRow(scope=Scope.of(PolicyScope(kind, k)), spent=Credits.of(v)) for k, v in ordered]
    return UsageSummary(
        scope=Scope.of_budget(scope), since=since, until=until, spent=Credits.of(spent), breakdown=breakdown
    )


_USAGE_KEY_TYPE = {
    UsageDimensionModel.GROUP: "Group",
    UsageDimensionModel.USER: "User",
    UsageDimensionModel.OFFERING: "Offering",
}


async def usage_key_name(info: Info, by: UsageDimensionModel | None, key: UUID | None) -> str | None:
    """A usage report key's name: group name, user name, offering (model) name."""
    if by is None or key is None:
        return None
    loaders = info.context.loaders
    if by is UsageDimensionModel.OFFERING:
        offering = await loaders.offering_by_id.load(key)
        return offering.name if offering else None
    return await _owner_name(info, PolicyScopeKind(by.value), key)


@strawberry.type(description="One key of a usage report: a group, user or offering, with its spend.")
class UsageReportRow:
    kind: UsageDimension | None = strawberry.field(  # type: ignore[valid-type]
        description="What the report is split by; null without a split (the row is the whole scope)."
    )
    spent: Credits
    series: list[Credits] = strawberry.field(
        description="Spend per period, aligned with `UsageReport.periods` (empty without an interval)."
    )
    key: strawberry.Private[UUID | None]

    @strawberry.field(
        description="Global ID of the Group, User or Offering; null for the whole scope or for charges "
        "not posted for a session (no offering)."
    )
    def id(self) -> relay.GlobalID | None:
        if self.kind is None or self.key is None:
            return None
        return to_global(_USAGE_KEY_TYPE[UsageDimensionModel(self.kind.value)], self.key)

    @strawberry.field(description="Its name (user name for users, model name for offerings); null when unknown.")
    async def name(self, info: Info) -> str | None:
        kind = UsageDimensionModel(self.kind.value) if self.kind is not None else None
        return await usage_key_name(info, kind, self.key)


@strawberry.type(
    description="Charges attributed to a scope (with its descendants) in [since, until), split by group, "
    "user or offering, optionally per day, week or month. Offerings come from the session each metering "
    "charge was posted for."
)
class UsageReport:
    scope: Scope
    since: datetime
    until: datetime
    by: UsageDimension | None  # type: ignore[valid-type]
    interval: UsageInterval | None  # type: ignore[valid-type]
    spent: Credits
    periods: list[datetime] = strawberry.field(description="The start of every period (empty without an interval).")
    rows: list[UsageReportRow] = strawberry.field(description="One per key, highest spend first.")

    @classmethod
    def of(cls, r: UsageReportModel) -> UsageReport:
        q = r.query
        index = {p: i for i, p in enumerate(r.periods)}
        series: dict[UUID | None, list[int]] = {t.key: [0] * len(r.periods) for t in r.totals}
        for c in r.cells:
            if c.period_start is not None and c.period_start in index:
                series[c.key][index[c.period_start]] += c.amount_micro
        return cls(
            scope=Scope.of_budget(q.scope),
            since=q.since,
            until=q.until,
            by=q.by,
            interval=q.interval,
            spent=Credits.of(r.total_micro),
            periods=list(r.periods),
            rows=[
                UsageReportRow(
                    kind=q.by,
                    key=t.key,
                    spent=Credits.of(t.amount_micro),
                    series=[Credits.of(v) for v in series[t.key]],
                )
                for t in r.totals
            ],
        )
