"""Resolver helpers shared by the credits and policies APIs: the requester's scope chain
(user → group → organisation) and the organisation/group an audit entry belongs to."""

from __future__ import annotations

from uuid import UUID

import strawberry

from api.common.ids import decode_optional
from api.context import Info
from domain.common.errors import NotFoundError
from domain.credits import services as credits
from domain.credits.model import AccountKind, AccountRef
from domain.credits.ports import Directory
from domain.policies.model import PolicyScope, PolicyScopeKind, ScopeChain
from domain.tenancy.model import Actor


async def scope_chain(info: Info, user_id: strawberry.ID | None, group_id: strawberry.ID | None) -> ScopeChain:
    """The chain a user's GPU work is judged by: that user (the viewer by default) in that group
    (their active group by default). Another user's chain is visible to whoever may see that
    user's wallet (the admins above them)."""
    actor = info.context.require_actor()
    c = info.context.container
    loaders = info.context.loaders
    uid = decode_optional(user_id, "User", "userId") or actor.user_id
    user = await loaders.user_by_id.load(uid)
    if user is None:
        raise NotFoundError("user", "userId")
    gid, org_id = await credits.judged_scope(
        actor,
        c.credits.directory,
        user_id=uid,
        username=user.username,
        asked_group_id=decode_optional(group_id, "Group", "groupId"),
        active_group_id=user.active_group_id,
    )
    group = await loaders.group_by_id.load(gid)
    org = await loaders.organization_by_id.load(org_id)
    return ScopeChain(uid, gid, org_id, user.username, group.name if group else "", org.name if org else "")


async def _user_scope(actor: Actor, directory: Directory, user_id: UUID) -> tuple[UUID | None, UUID | None]:
    """A user's (org, group) for the audit log: a group the actor administers, else any."""
    groups = await directory.user_groups(user_id)
    if not groups:
        return None, None
    gid = next((g for g, o in sorted(groups.items(), key=str) if actor.is_group_admin(g, o)), min(groups, key=str))
    return groups[gid], gid


async def accounts_scope(actor: Actor, directory: Directory, *refs: AccountRef) -> tuple[UUID | None, UUID | None]:
    """The most specific (org, group) among accounts of one movement, so the admins of that
    scope see it in the audit log."""
    for ref in refs:
        if ref.kind is AccountKind.GROUP and ref.owner_id is not None:
            return await directory.group_organization(ref.owner_id), ref.owner_id
    for ref in refs:
        if ref.kind in (AccountKind.ORGANIZATION, AccountKind.CONSUMPTION):
            return ref.owner_id, None
    for ref in refs:
        if ref.kind is AccountKind.USER and ref.owner_id is not None:
            return await _user_scope(actor, directory, ref.owner_id)
    return None, None


async def policy_scope_org_group(
    actor: Actor, directory: Directory, scope: PolicyScope
) -> tuple[UUID | None, UUID | None]:
    if scope.id is None:
        return None, None
    if scope.kind is PolicyScopeKind.ORGANIZATION:
        return scope.id, None
    if scope.kind is PolicyScopeKind.GROUP:
        return await directory.group_organization(scope.id), scope.id
    return await _user_scope(actor, directory, scope.id)
