"""Inputs of the credits context and their decoding into domain references.

Decoding failures raise NotFoundError/InvalidValueError naming the input field, so a bad id
answers like a missing object (typed NOT_FOUND) in mutations and queries alike."""

from __future__ import annotations

from uuid import UUID

import strawberry
from strawberry import relay

from api.common.ids import decode
from api.common.scalars import BigInt
from api.credits.types import (
    AccountKind,
    BudgetAction,
    BudgetPeriod,
    RefillCadence,
    RefillMode,
    ScopeKind,
    parse_account_node_id,
)
from domain.common.errors import InvalidValueError, NotFoundError
from domain.credits.budgets import DEFAULT_THRESHOLDS, BudgetScope, BudgetScopeKind
from domain.credits.model import AccountKind as AccountKindModel
from domain.credits.model import AccountRef
from domain.policies.model import PolicyScope, PolicyScopeKind


@strawberry.input(
    description="Names a ledger account: `id` is the Account's global ID, or the global ID of its owning "
    "Organization, Group or User with `kind` (ORGANIZATION, CONSUMPTION, GROUP, USER; inferred from the id "
    "when omitted). SYSTEM takes no id."
)
class AccountInput:
    kind: AccountKind | None = None  # type: ignore[valid-type]
    id: strawberry.ID | None = None


@strawberry.input(description="An organisation, group or user by global ID; GLOBAL (policies only) takes no id.")
class ScopeInput:
    kind: ScopeKind  # type: ignore[valid-type]
    id: strawberry.ID | None = None


_KIND_OF_TYPE = {
    "Organization": AccountKindModel.ORGANIZATION,
    "Group": AccountKindModel.GROUP,
    "User": AccountKindModel.USER,
}
_TYPE_OF_KIND = {
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


def account_ref(value: AccountInput, field: str) -> AccountRef:
    kind: AccountKindModel | None = value.kind
    if value.id is None:
        if kind in (None, AccountKindModel.SYSTEM):
            return AccountRef.system()
        raise NotFoundError("account", f"{field}.id")
    if kind is AccountKindModel.SYSTEM:
        raise NotFoundError("account", f"{field}.id")
    try:
        gid = relay.GlobalID.from_id(value.id)
    except (ValueError, TypeError) as exc:
        raise NotFoundError("account", f"{field}.id") from exc
    if gid.type_name == "Account":
        try:
            ref = parse_account_node_id(gid.node_id)
        except ValueError as exc:
            raise NotFoundError("account", f"{field}.id") from exc
        if kind is not None and kind is not ref.kind:
            raise NotFoundError("account", f"{field}.id")
        return ref
    kind = kind or _KIND_OF_TYPE.get(gid.type_name)
    if kind is None:
        raise NotFoundError("account", f"{field}.id")
    return AccountRef(kind, decode(gid, _TYPE_OF_KIND[kind], f"{field}.id"))


def account_ref_optional(value: AccountInput | None, field: str) -> AccountRef | None:
    return None if value is None else account_ref(value, field)


def policy_scope(value: ScopeInput, field: str = "scope") -> PolicyScope:
    kind: PolicyScopeKind = value.kind
    if kind is PolicyScopeKind.GLOBAL:
        if value.id is not None:
            raise InvalidValueError(f"{field}.id", "the GLOBAL scope takes no id")
        return PolicyScope.global_()
    if value.id is None:
        raise NotFoundError(kind.value, f"{field}.id")
    return PolicyScope(kind, decode(value.id, _SCOPE_TYPE[kind], f"{field}.id"))


def budget_scope(value: ScopeInput, field: str = "scope") -> BudgetScope:
    """Budgets and spend are per organisation, group or user (not GLOBAL)."""
    if value.kind is PolicyScopeKind.GLOBAL:
        raise InvalidValueError(f"{field}.kind", "budgets and spend are per organisation, group or user")
    scope = policy_scope(value, field)
    assert scope.id is not None
    return BudgetScope(BudgetScopeKind(scope.kind.value), scope.id)


def micro(value: int, field: str) -> int:
    if value > 2**63 - 1 or value < -(2**63):
        raise InvalidValueError(field, "out of range for micro-credits")
    return value


@strawberry.input(description="Move credits one level down: system → organisation → group → member.")
class CreditsAllocateInput:
    source: AccountInput = strawberry.field(description="The giving account (administered by the caller).")
    destination: AccountInput = strawberry.field(description="An account directly below the source.")
    amount_micro: BigInt = strawberry.field(description="Micro-credits to move (positive).")
    idempotency_key: str = strawberry.field(
        description="Chosen by the client (1–120 characters, e.g. a UUID); resending the same key returns "
        "the first transfer and moves nothing; reusing it for a different movement is refused."
    )
    memo: str = ""


@strawberry.input(description="Move credits one level up, back to the parent: member → group → org → system.")
class CreditsTakeBackInput:
    source: AccountInput = strawberry.field(description="The account credits are taken from (the child).")
    destination: AccountInput = strawberry.field(description="Its parent, administered by the caller.")
    amount_micro: BigInt = strawberry.field(description="Micro-credits to move (positive).")
    idempotency_key: str = strawberry.field(description="Chosen by the client; see CreditsAllocateInput.")
    memo: str = ""


@strawberry.input(description="Give every member of a group the same amount from the group's account, all or none.")
class CreditsAllocateToGroupMembersInput:
    group_id: strawberry.ID
    amount_micro: BigInt = strawberry.field(description="Micro-credits per member (positive).")
    idempotency_key: str = strawberry.field(
        description="Chosen by the client; a replay pays nobody twice, even members who joined since."
    )
    memo: str = ""


@strawberry.input(description="Refill one account below the source, or every member of the source group, each period.")
class RefillScheduleCreateInput:
    source: AccountInput
    target: AccountInput | None = strawberry.field(default=None, description="One account directly below the source.")
    members_of_group_id: strawberry.ID | None = strawberry.field(
        default=None, description="Instead of `target`: every member of this group (the source must be the group)."
    )
    mode: RefillMode = RefillMode.GRANT  # type: ignore[valid-type]
    amount_micro: BigInt = strawberry.field(description="GRANT: added each period; TOP_UP: the balance to reach.")
    cadence: RefillCadence = RefillCadence.MONTHLY  # type: ignore[valid-type]
    anchor_day: int = strawberry.field(default=1, description="Weekly: 0 = Monday … 6; monthly: 1 … 28.")
    memo: str = ""


@strawberry.input
class RefillScheduleSetActiveInput:
    id: strawberry.ID
    active: bool


@strawberry.input(description="Create or replace the budget of a scope for one period length.")
class BudgetSetInput:
    scope: ScopeInput
    limit_micro: BigInt = strawberry.field(description="The credit limit per period, in micro-credits.")
    action: BudgetAction  # type: ignore[valid-type]
    period: BudgetPeriod = BudgetPeriod.MONTHLY  # type: ignore[valid-type]
    alert_thresholds: list[int] = strawberry.field(
        default_factory=lambda: list(DEFAULT_THRESHOLDS), description="Increasing percentages, 1–1000."
    )


def decode_group(value: strawberry.ID, field: str) -> UUID:
    return decode(value, "Group", field)
