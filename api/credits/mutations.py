"""Credits mutations: allocation and take-back (single and bulk), refill schedules, budgets.

Each runs through `mutate`: authenticated, audited with the organisation/group of the scope it
touches (so that scope's admins see it), domain refusals mapped to typed errors. The ledger
commits each movement atomically on its own; the audit entry follows in the mutation's unit
of work, and a refusal is audited as a failure.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol
from uuid import UUID

import strawberry

from api.common.errors import MutationError, UserError
from api.common.ids import decode, node_id_of
from api.common.mutations import mutate
from api.common.payloads import DeletePayload, IdInput
from api.common.scalars import BigInt
from api.context import Context, Info
from api.credits import inputs
from api.credits.inputs import account_ref, budget_scope, micro
from api.credits.scopes import accounts_scope, policy_scope_org_group
from api.credits.types import BudgetNode, LedgerTransferType, RefillScheduleNode, budget_scope_key
from domain.audit.services import AuditTarget
from domain.credits import services as credits
from domain.credits.budgets import Budget
from domain.credits.model import AccountRef, TransferResult
from domain.credits.refills import RefillSchedule
from domain.ports import UnitOfWork
from domain.tenancy.model import Actor

# Domain errors name the quantity; the API's input fields say their unit.
_FIELD_NAMES = {"amount": "amountMicro", "limit": "limitMicro"}


def renamed(errors: list[UserError]) -> list[UserError]:
    return [
        MutationError(code=e.code, field=_FIELD_NAMES.get(e.field or "", e.field), message=e.message, params=e.params)
        for e in errors
    ]


@strawberry.type
class CreditsTransferPayload:
    transfer: LedgerTransferType | None = None
    replayed: bool = strawberry.field(
        default=False, description="The idempotency key had been used for this same movement: nothing moved now."
    )
    errors: list[UserError] = strawberry.field(default_factory=list)


@strawberry.type
class CreditsBulkTransferPayload:
    transfers: list[LedgerTransferType] = strawberry.field(default_factory=list, description="One per member.")
    replayed: bool = strawberry.field(default=False, description="Every member's transfer had already been posted.")
    errors: list[UserError] = strawberry.field(default_factory=list)


@strawberry.type
class RefillSchedulePayload:
    refill_schedule: RefillScheduleNode | None = None
    errors: list[UserError] = strawberry.field(default_factory=list)


@strawberry.type
class BudgetPayload:
    budget: BudgetNode | None = None
    errors: list[UserError] = strawberry.field(default_factory=list)


class _Movement(Protocol):
    source: inputs.AccountInput
    destination: inputs.AccountInput
    amount_micro: BigInt
    idempotency_key: str
    memo: str


async def attempted_target(
    ctx: Context, type_name: str, target_id: str | None, scope: Callable[[Actor], Awaitable[tuple[Any, Any]]]
) -> AuditTarget:
    """The audit target of an attempt, computed up front; a bad id leaves the scope empty (the
    action reports it)."""
    org = group = None
    if ctx.actor is not None:
        try:
            org, group = await scope(ctx.actor)
        except Exception:
            org = group = None
    return AuditTarget(type_name, target_id, org, group)


async def _move(info: Info, operation: str, input: _Movement, use_case: Any) -> CreditsTransferPayload:
    ctx = info.context
    c = ctx.container
    cr = c.credits

    def refs() -> tuple[AccountRef, AccountRef]:
        return account_ref(input.source, "source"), account_ref(input.destination, "destination")

    async def action(uow: UnitOfWork, actor: Actor) -> tuple[TransferResult, UUID | None, UUID | None]:
        source, destination = refs()
        result: TransferResult = await use_case(
            actor,
            cr.ledger,
            cr.directory,
            c.clock,
            c.ids,
            source=source,
            destination=destination,
            amount_micro=micro(input.amount_micro, "amountMicro"),
            idempotency_key=input.idempotency_key,
            memo=input.memo,
        )
        org, group = await accounts_scope(actor, cr.directory, source, destination)
        return result, org, group

    return await mutate(
        ctx,
        operation,
        action,
        lambda r: AuditTarget("LedgerTransfer", str(r[0].transfer.id), r[1], r[2]),
        lambda r: CreditsTransferPayload(transfer=LedgerTransferType.of(r[0].transfer), replayed=r[0].replayed),
        lambda e: CreditsTransferPayload(errors=renamed(e)),
        attempted=await attempted_target(
            ctx, "LedgerTransfer", None, lambda actor: accounts_scope(actor, cr.directory, *refs())
        ),
    )


def _budget_target(pair: tuple[Budget, UUID | None, UUID | None]) -> AuditTarget:
    return AuditTarget("Budget", str(pair[0].id), pair[1], pair[2])


def _schedule_target(triple: tuple[RefillSchedule, UUID | None, UUID | None]) -> AuditTarget:
    return AuditTarget("RefillSchedule", str(triple[0].id), triple[1], triple[2])


@strawberry.type
class CreditsMutation:
    @strawberry.mutation(
        description="Move credits one level down (system → organisation by super_admin, organisation → group by "
        "its org_admin, group → member by its group_admin). Refused with INSUFFICIENT_CREDITS when the source's "
        "available balance is short; nothing moves then."
    )
    async def credits_allocate(self, info: Info, input: inputs.CreditsAllocateInput) -> CreditsTransferPayload:
        return await _move(info, "creditsAllocate", input, credits.allocate)

    @strawberry.mutation(description="Take credits back one level up, by an admin of the receiving (parent) account.")
    async def credits_take_back(self, info: Info, input: inputs.CreditsTakeBackInput) -> CreditsTransferPayload:
        return await _move(info, "creditsTakeBack", input, credits.take_back)

    @strawberry.mutation(description="Give every member of a group the same amount from the group, all or none.")
    async def credits_allocate_to_group_members(
        self, info: Info, input: inputs.CreditsAllocateToGroupMembersInput
    ) -> CreditsBulkTransferPayload:
        ctx = info.context
        c = ctx.container
        cr = c.credits

        async def action(uow: UnitOfWork, actor: Actor) -> tuple[list[TransferResult], UUID, UUID | None]:
            group_id = decode(input.group_id, "Group", "groupId")
            results = await credits.allocate_to_group_members(
                actor,
                cr.ledger,
                cr.directory,
                c.clock,
                c.ids,
                group_id=group_id,
                amount_micro=micro(input.amount_micro, "amountMicro"),
                idempotency_key=input.idempotency_key,
                memo=input.memo,
            )
            return results, group_id, await cr.directory.group_organization(group_id)

        async def scope(actor: Actor) -> tuple[UUID | None, UUID]:
            group_id = decode(input.group_id, "Group", "groupId")
            return await cr.directory.group_organization(group_id), group_id

        return await mutate(
            ctx,
            "creditsAllocateToGroupMembers",
            action,
            lambda r: AuditTarget("Group", str(r[1]), r[2], r[1]),
            lambda r: CreditsBulkTransferPayload(
                transfers=[LedgerTransferType.of(t.transfer) for t in r[0]],
                replayed=all(t.replayed for t in r[0]),
            ),
            lambda e: CreditsBulkTransferPayload(errors=renamed(e)),
            attempted=await attempted_target(ctx, "Group", node_id_of(input.group_id), scope),
        )

    @strawberry.mutation(description="Schedule credits to flow one level down each day, week or month.")
    async def refill_schedule_create(
        self, info: Info, input: inputs.RefillScheduleCreateInput
    ) -> RefillSchedulePayload:
        ctx = info.context
        c = ctx.container
        cr = c.credits

        async def action(uow: UnitOfWork, actor: Actor) -> tuple[RefillSchedule, UUID | None, UUID | None]:
            source = account_ref(input.source, "source")
            target = account_ref(input.target, "target") if input.target is not None else None
            members = (
                decode(input.members_of_group_id, "Group", "membersOfGroupId")
                if input.members_of_group_id is not None
                else None
            )
            schedule = await credits.create_refill_schedule(
                actor,
                cr.refills,
                cr.directory,
                c.clock,
                c.ids,
                source=source,
                mode=input.mode,
                amount_micro=micro(input.amount_micro, "amountMicro"),
                cadence=input.cadence,
                anchor_day=input.anchor_day,
                target=target,
                members_of_group=members,
                memo=input.memo,
            )
            org, group = await accounts_scope(actor, cr.directory, *([source] + ([target] if target else [])))
            return schedule, org, group

        return await mutate(
            ctx,
            "refillScheduleCreate",
            action,
            _schedule_target,
            lambda r: RefillSchedulePayload(refill_schedule=RefillScheduleNode.of(r[0])),
            lambda e: RefillSchedulePayload(errors=renamed(e)),
            attempted=await attempted_target(
                ctx,
                "RefillSchedule",
                None,
                lambda actor: accounts_scope(actor, cr.directory, account_ref(input.source, "source")),
            ),
        )

    @strawberry.mutation(description="Pause or resume a refill schedule.")
    async def refill_schedule_set_active(
        self, info: Info, input: inputs.RefillScheduleSetActiveInput
    ) -> RefillSchedulePayload:
        ctx = info.context
        c = ctx.container
        cr = c.credits

        async def action(uow: UnitOfWork, actor: Actor) -> tuple[RefillSchedule, UUID | None, UUID | None]:
            schedule = await credits.set_refill_schedule_active(
                actor,
                cr.refills,
                cr.directory,
                schedule_id=decode(input.id, "RefillSchedule", "id"),
                active=input.active,
            )
            refs = [schedule.source] + ([schedule.target] if schedule.target else [])
            org, group = await accounts_scope(actor, cr.directory, *refs)
            return schedule, org, group

        return await mutate(
            ctx,
            "refillScheduleSetActive",
            action,
            _schedule_target,
            lambda r: RefillSchedulePayload(refill_schedule=RefillScheduleNode.of(r[0])),
            lambda e: RefillSchedulePayload(errors=renamed(e)),
            attempted=AuditTarget("RefillSchedule", node_id_of(input.id)),
        )

    @strawberry.mutation(
        description="Create or replace the budget of a scope (organisation: its org_admin; group: an admin of "
        "the group; user: an admin of one of the user's groups) for one period length."
    )
    async def budget_set(self, info: Info, input: inputs.BudgetSetInput) -> BudgetPayload:
        ctx = info.context
        c = ctx.container
        cr = c.credits

        async def action(uow: UnitOfWork, actor: Actor) -> tuple[Budget, UUID | None, UUID | None]:
            scope = budget_scope(input.scope)
            budget = await credits.set_budget(
                actor,
                cr.budgets,
                cr.directory,
                c.clock,
                c.ids,
                scope=scope,
                limit_micro=micro(input.limit_micro, "limitMicro"),
                action=input.action,
                period=input.period,
                alert_thresholds=tuple(input.alert_thresholds),
            )
            org, group = await policy_scope_org_group(actor, cr.directory, budget_scope_key(scope))
            return budget, org, group

        return await mutate(
            ctx,
            "budgetSet",
            action,
            _budget_target,
            lambda r: BudgetPayload(budget=BudgetNode.of(r[0])),
            lambda e: BudgetPayload(errors=renamed(e)),
            attempted=await attempted_target(
                ctx,
                "Budget",
                None,
                lambda actor: policy_scope_org_group(actor, cr.directory, budget_scope_key(budget_scope(input.scope))),
            ),
        )

    @strawberry.mutation(description="Delete a budget (same admins as budgetSet).")
    async def budget_delete(self, info: Info, input: IdInput) -> DeletePayload:
        ctx = info.context
        cr = ctx.container.credits

        async def action(uow: UnitOfWork, actor: Actor) -> tuple[Budget, UUID | None, UUID | None]:
            budget_id = decode(input.id, "Budget", "id")
            budget = await cr.budgets.get(budget_id)
            await credits.delete_budget(actor, cr.budgets, cr.directory, budget_id)
            assert budget is not None  # delete_budget refuses a missing one
            org, group = await policy_scope_org_group(actor, cr.directory, budget_scope_key(budget.scope))
            return budget, org, group

        return await mutate(
            ctx,
            "budgetDelete",
            action,
            _budget_target,
            lambda r: DeletePayload(deleted_id=input.id),
            lambda e: DeletePayload(errors=renamed(e)),
            attempted=AuditTarget("Budget", node_id_of(input.id)),
        )
