"""Credits queries: wallets and balances, administered accounts, ledger history, budgets and
the budget gate, usage by scope, refill schedules."""

from __future__ import annotations

import base64
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import TypeVar
from uuid import UUID

import strawberry

from api.common.ids import decode_optional
from api.common.pagination import Connection, PageInfo, paginate
from api.context import Info
from api.credits.inputs import AccountInput, ScopeInput, account_ref, account_ref_optional, budget_scope
from api.credits.scopes import scope_chain
from api.credits.types import (
    AccountNode,
    BudgetGateType,
    BudgetNode,
    LedgerTransferConnection,
    LedgerTransferEdge,
    LedgerTransferType,
    RefillScheduleNode,
    ScopeKind,
    TransferKind,
    UsageDimension,
    UsageInterval,
    UsageReport,
    UsageSummary,
    usage_summary,
)
from domain.common.errors import InvalidValueError
from domain.credits import services as credits
from domain.credits.budgets import BudgetScope, BudgetScopeKind
from domain.credits.model import AccountRef, Period, period_bounds
from domain.credits.model import TransferKind as TransferKindModel
from domain.credits.ports import TransferQuery
from domain.credits.refills import RefillSchedule
from domain.credits.usage import UsageDimension as UsageDimensionModel
from domain.credits.usage import UsageInterval as UsageIntervalModel
from domain.credits.usage import UsageQuery
from domain.policies.model import PolicyScopeKind
from domain.tenancy import services as tenancy
from domain.tenancy.access import administered_group_ids
from domain.tenancy.model import Actor
from domain.tenancy.services import MAX_PAGE, Page

T = TypeVar("T")
DEFAULT_HISTORY_PAGE = 50
MAX_HISTORY_PAGE = 500


# ------------------------------------------------------------------------------ cursors


def encode_seq_cursor(seq: int) -> str:
    return base64.urlsafe_b64encode(f"s:{seq}".encode()).decode()


def decode_seq_cursor(cursor: str, field: str) -> int:
    try:
        kind, _, value = base64.urlsafe_b64decode(cursor.encode()).decode().partition(":")
        if kind != "s":
            raise ValueError(cursor)
        return int(value)
    except (ValueError, UnicodeDecodeError) as exc:
        raise InvalidValueError(field, "not a ledger cursor from this API") from exc


def utc(value: datetime | None) -> datetime | None:
    """Times without a zone are taken as UTC."""
    if value is None:
        return None
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value


def transfer_query(
    account: AccountRef | None,
    kind: TransferKindModel | None,
    since: datetime | None,
    until: datetime | None,
    *,
    before_seq: int | None = None,
    limit: int = 100,
) -> TransferQuery:
    since, until = utc(since), utc(until)
    if since is not None and until is not None and since >= until:
        raise InvalidValueError("until", "until must be after since")
    return TransferQuery(account, kind, since, until, before_seq, limit)


def usage_query(
    now: datetime,
    scope: BudgetScope,
    since: datetime | None,
    until: datetime | None,
    by: object | None,
    interval: object | None,
) -> UsageQuery:
    """A usage report's query; the period defaults to the current month."""
    month_start, month_end = period_bounds(Period.MONTHLY, now)
    return UsageQuery(
        scope,
        utc(since) or month_start,
        utc(until) or month_end,
        UsageDimensionModel(getattr(by, "value", by)) if by is not None else None,
        UsageIntervalModel(getattr(interval, "value", interval)) if interval is not None else None,
    )


# ------------------------------------------------------------------------------ accounts


async def _all(fetch: Callable[[Page], Awaitable[tuple[list[T], int]]]) -> list[T]:
    items: list[T] = []
    while True:
        page, total = await fetch(Page(len(items), MAX_PAGE))
        items.extend(page)
        if not page or len(items) >= total:
            return items


async def administered_accounts(
    info: Info, actor: Actor, organization_id: UUID | None, group_id: UUID | None
) -> list[AccountRef]:
    """The accounts the viewer may give from or take back into, and the ones right below:
    a group's account and its members' wallets; an organisation's accounts and its groups';
    with no filter, the top of what the viewer administers (drill down by id)."""
    c = info.context.container
    directory = c.credits.directory
    if group_id is not None:
        group = AccountRef.group(group_id)
        await credits.require_account_admin(actor, directory, group, "groupId")
        return [group, *(AccountRef.user(u) for u in await directory.group_member_ids(group_id))]
    async with c.uow() as uow:
        if organization_id is not None:
            await credits.require_account_admin(
                actor, directory, AccountRef.organization(organization_id), "organizationId"
            )
            groups = await _all(lambda p: tenancy.groups_list(uow, actor, p, organization_id=organization_id))
            return [
                AccountRef.organization(organization_id),
                AccountRef.consumption(organization_id),
                *(AccountRef.group(g.id) for g in groups),
            ]
        refs: list[AccountRef] = []
        if actor.is_super_admin:
            refs.append(AccountRef.system())
            orgs = await _all(lambda p: tenancy.organizations_list(uow, actor, p))
            refs.extend(AccountRef.organization(o.id) for o in orgs)
            return refs
        org_ids = sorted(actor.org_admin_of, key=str)
        for org_id in org_ids:
            refs += [AccountRef.organization(org_id), AccountRef.consumption(org_id)]
        for g in sorted(administered_group_ids(actor), key=str):
            if actor.group_orgs.get(g) not in actor.org_admin_of:
                refs.append(AccountRef.group(g))
        return refs


@strawberry.type
class CreditsQuery:
    @strawberry.field(description="The viewer's personal wallet: balance, held, available and open holds.")
    async def my_wallet(self, info: Info) -> AccountNode:
        actor = info.context.require_actor()
        cr = info.context.container.credits
        wallet = AccountRef.user(actor.user_id)
        found = await credits.get_balances(actor, cr.ledger, cr.directory, [wallet])
        return AccountNode.of(found[wallet])

    @strawberry.field(
        description="One account the viewer may see: their own wallet, the wallets of the members of groups "
        "they administer, their groups' accounts, administered organisations' accounts."
    )
    async def wallet(self, info: Info, account: AccountInput) -> AccountNode:
        actor = info.context.require_actor()
        cr = info.context.container.credits
        ref = account_ref(account, "account")
        found = await credits.get_balances(actor, cr.ledger, cr.directory, [ref])
        return AccountNode.of(found[ref])

    @strawberry.field(
        description="Accounts the viewer administers, with balances. No filter: the top level (system and "
        "organisations for super_admins; organisations and administered groups otherwise); `organizationId`: "
        "its account, consumption sink and groups; `groupId`: its account and its members' wallets."
    )
    async def accounts(
        self,
        info: Info,
        organization_id: strawberry.ID | None = None,
        group_id: strawberry.ID | None = None,
        first: int | None = None,
        after: str | None = None,
        last: int | None = None,
        before: str | None = None,
    ) -> Connection[AccountNode]:
        actor = info.context.require_actor()
        cr = info.context.container.credits
        org = decode_optional(organization_id, "Organization", "organizationId")
        group = decode_optional(group_id, "Group", "groupId")
        refs = await administered_accounts(info, actor, org, group)

        async def fetch(page: Page) -> tuple[list[AccountNode], int]:
            chosen = refs[page.offset : page.offset + page.limit]
            # every ref was admitted above by the domain's admin checks (an administered account or
            # one directly below it), so the page is read in one batch rather than re-checked per
            # account by get_balances (one directory query per member wallet)
            found = await cr.ledger.balances(chosen) if chosen else {}
            return [AccountNode.of(found[r]) for r in chosen], len(refs)

        return await paginate(fetch, lambda n: n, first, after, last, before)

    @strawberry.field(
        description="Ledger history, newest first: the transfers of one account (any viewer of it), or of "
        "every account (super_admin only). Filters: transfer kind, period [since, until). The same history "
        "is exported as CSV by GET /exports/ledger.csv with the same filters."
    )
    async def ledger_history(
        self,
        info: Info,
        account: AccountInput | None = None,
        kind: TransferKind | None = None,  # type: ignore[valid-type]
        since: datetime | None = None,
        until: datetime | None = None,
        first: int | None = None,
        after: str | None = None,
    ) -> LedgerTransferConnection:
        actor = info.context.require_actor()
        cr = info.context.container.credits
        size = DEFAULT_HISTORY_PAGE if first is None else first
        if not 0 <= size <= MAX_HISTORY_PAGE:
            raise InvalidValueError("first", f"first must be between 0 and {MAX_HISTORY_PAGE}")
        before_seq = decode_seq_cursor(after, "after") if after else None
        query = transfer_query(
            account_ref_optional(account, "account"), kind, since, until, before_seq=before_seq, limit=size + 1
        )
        rows = await credits.ledger_history(actor, cr.ledger, cr.directory, query) if size else []
        page = list(rows[:size])
        edges = [
            LedgerTransferEdge(cursor=encode_seq_cursor(seq), node=LedgerTransferType.of(t, seq)) for seq, t in page
        ]
        return LedgerTransferConnection(
            counted=replace(query, before_seq=None),
            edges=edges,
            page_info=PageInfo(
                has_next_page=len(rows) > size,
                has_previous_page=after is not None,
                start_cursor=edges[0].cursor if edges else None,
                end_cursor=edges[-1].cursor if edges else None,
            ),
        )

    @strawberry.field(description="The budgets of one organisation, group or user (at most one per period length).")
    async def budgets(self, info: Info, scope: ScopeInput) -> list[BudgetNode]:
        actor = info.context.require_actor()
        cr = info.context.container.credits
        found = await credits.budgets_of(actor, cr.budgets, cr.directory, budget_scope(scope))
        return [BudgetNode.of(b) for b in found]

    @strawberry.field(
        description="May this user (the viewer by default) start GPU work in this group (their active group "
        "by default) now, by the budgets of the user, the group and the organisation?"
    )
    async def budget_gate(
        self, info: Info, user_id: strawberry.ID | None = None, group_id: strawberry.ID | None = None
    ) -> BudgetGateType:
        c = info.context.container
        chain = await scope_chain(info, user_id, group_id)
        return BudgetGateType.of(
            await credits.evaluate_budget_gate(c.credits.budgets, c.credits.ledger, chain, c.clock.now())
        )

    @strawberry.field(
        description="What a scope (with its descendants) spent in [since, until) (default: the current "
        "month), optionally split by GROUP or USER."
    )
    async def usage_by_scope(
        self,
        info: Info,
        scope: ScopeInput,
        since: datetime | None = None,
        until: datetime | None = None,
        by: ScopeKind | None = None,  # type: ignore[valid-type]
    ) -> UsageSummary:
        actor = info.context.require_actor()
        c = info.context.container
        cr = c.credits
        bscope = budget_scope(scope)
        month_start, month_end = period_bounds(Period.MONTHLY, c.clock.now())
        start, end = utc(since) or month_start, utc(until) or month_end
        if start >= end:
            raise InvalidValueError("until", "until must be after since")
        split: BudgetScopeKind | None = None
        if by is not None:
            if by in (PolicyScopeKind.GLOBAL, PolicyScopeKind.ORGANIZATION):
                raise InvalidValueError("by", "split by GROUP or USER")
            split = BudgetScopeKind(by.value)
        spent = await credits.scope_spend(actor, cr.ledger, cr.directory, bscope, start, end)
        rows = (
            dict(await credits.spend_breakdown(actor, cr.ledger, cr.directory, bscope, start, end, split))
            if split is not None
            else {}
        )
        return usage_summary(bscope, start, end, spent, rows, split)

    @strawberry.field(
        description="What a scope (with its descendants) spent in [since, until) (default: the current month), "
        "split by GROUP, USER or OFFERING (the GPU model of the session each charge was posted for), and per "
        "DAY, WEEK or MONTH for charts. The same report is exported as CSV by GET /exports/usage.csv."
    )
    async def usage_report(
        self,
        info: Info,
        scope: ScopeInput,
        since: datetime | None = None,
        until: datetime | None = None,
        by: UsageDimension | None = None,  # type: ignore[valid-type]
        interval: UsageInterval | None = None,  # type: ignore[valid-type]
    ) -> UsageReport:
        actor = info.context.require_actor()
        c = info.context.container
        query = usage_query(c.clock.now(), budget_scope(scope), since, until, by, interval)
        assert c.credits.reports is not None, "usage reports are wired by the composition root"
        return UsageReport.of(await credits.usage_report(actor, c.credits.reports, c.credits.directory, query))

    @strawberry.field(description="Refill schedules whose source the viewer administers, optionally of one source.")
    async def refill_schedules(
        self,
        info: Info,
        source: AccountInput | None = None,
        first: int | None = None,
        after: str | None = None,
        last: int | None = None,
        before: str | None = None,
    ) -> Connection[RefillScheduleNode]:
        actor = info.context.require_actor()
        cr = info.context.container.credits
        ref = account_ref_optional(source, "source")
        schedules: Sequence[RefillSchedule] = await credits.list_refill_schedules(actor, cr.refills, cr.directory, ref)
        ordered = sorted(schedules, key=lambda s: (s.created_at, str(s.id)))

        async def fetch(page: Page) -> tuple[list[RefillSchedule], int]:
            return ordered[page.offset : page.offset + page.limit], len(ordered)

        return await paginate(fetch, RefillScheduleNode.of, first, after, last, before)
