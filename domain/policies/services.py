"""Policy use cases: set / delete / read policies, the effective view, the admission check."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from domain.common.clock import Clock
from domain.common.errors import (
    CommonErrorCode,
    DomainError,
    NotFoundError,
    PermissionDeniedError,
)
from domain.policies.model import (
    EffectivePolicy,
    PolicyDecision,
    PolicyScope,
    PolicyScopeKind,
    ResourcePolicy,
    ResourceRequest,
    ScopeChain,
    check,
    resolve,
)
from domain.policies.ports import PolicyRepository, ScopeDirectory, UsageReader
from domain.tenancy import access
from domain.tenancy.model import Actor


async def require_policy_admin(actor: Actor, directory: ScopeDirectory, scope: PolicyScope) -> None:
    """global: super_admin; organisation: its org_admin; group: org_admin of its organisation
    (a group admin may not raise the group's own caps); user: an admin of one of its groups."""
    if actor.read_only:
        raise DomainError(CommonErrorCode.READ_ONLY_TOKEN, "this token is read-only")
    assert scope.id is not None or scope.kind is PolicyScopeKind.GLOBAL
    if scope.id is not None:
        await access.require_scope_in_reach(actor, directory, scope.kind.value, scope.id, "scope")
    if actor.is_super_admin:
        return
    if scope.kind is PolicyScopeKind.ORGANIZATION and scope.id and actor.is_org_admin(scope.id):
        return
    if scope.kind is PolicyScopeKind.GROUP and scope.id:
        org = await directory.group_organization(scope.id)
        if org is not None and actor.is_org_admin(org):
            return
    if scope.kind is PolicyScopeKind.USER and scope.id:
        groups = await directory.user_groups(scope.id)
        if any(actor.is_group_admin(g, o) for g, o in groups.items()):
            return
    raise PermissionDeniedError("only an admin of this scope may change its policy", "scope")


async def can_view_policy(actor: Actor, directory: ScopeDirectory, scope: PolicyScope) -> bool:
    if actor.is_super_admin or scope.kind is PolicyScopeKind.GLOBAL:
        return True
    if scope.kind is PolicyScopeKind.USER:
        if scope.id == actor.user_id:
            return True
        groups = await directory.user_groups(scope.id) if scope.id else {}
        return any(actor.is_group_admin(g, o) for g, o in groups.items())
    if scope.kind is PolicyScopeKind.ORGANIZATION:
        return scope.id in actor.organization_ids
    org = await directory.group_organization(scope.id) if scope.id else None
    return scope.id in actor.group_roles or (org is not None and actor.is_org_admin(org))


async def set_policy(
    actor: Actor,
    policies: PolicyRepository,
    directory: ScopeDirectory,
    clock: Clock,
    policy: ResourcePolicy,
) -> ResourcePolicy:
    """Create or replace the policy of one scope (every field; None = not set here)."""
    await require_policy_admin(actor, directory, policy.scope)
    stored = replace(policy, updated_at=clock.now(), updated_by=actor.user_id)
    await policies.put(stored)
    return stored


async def delete_policy(
    actor: Actor, policies: PolicyRepository, directory: ScopeDirectory, scope: PolicyScope
) -> None:
    await require_policy_admin(actor, directory, scope)
    if not await policies.delete(scope):
        raise NotFoundError("policy", "scope")


async def get_policy(
    actor: Actor, policies: PolicyRepository, directory: ScopeDirectory, scope: PolicyScope
) -> ResourcePolicy | None:
    if not await can_view_policy(actor, directory, scope):
        raise NotFoundError("policy", "scope")
    return await policies.get(scope)


async def list_policies(
    actor: Actor, policies: PolicyRepository, directory: ScopeDirectory
) -> Sequence[ResourcePolicy]:
    return [p for p in await policies.all() if await can_view_policy(actor, directory, p.scope)]


async def effective_policy(policies: PolicyRepository, chain: ScopeChain) -> EffectivePolicy:
    """Field by field, the value that applies to this requester and the scope it came from."""
    return resolve(chain, await policies.for_scopes(chain.scopes()))


async def check_policy_limits(
    policies: PolicyRepository,
    usage: UsageReader,
    chain: ScopeChain,
    request: ResourceRequest,
    *,
    counted: bool = False,
) -> PolicyDecision:
    """Admission step 4: would this request break a limit at any level? (Does not raise.)
    `counted`: the request is already in the usage (see `check`)."""
    effective = await effective_policy(policies, chain)
    return check(effective, await usage.usage(chain.scopes()), request, counted=counted)
