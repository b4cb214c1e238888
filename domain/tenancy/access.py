"""Who may see and change what in tenancy. Pure functions of the Actor and the object's scope.

Reads: super_admin sees everything; an org_admin sees their organisations, every group in them
and every user who belongs to them; a group_admin, member or guest sees their organisations,
their own groups and the users they share a group with. Writes need the admin role of the
object's scope (see each use case). A read refused here must look exactly like a missing
object, so callers raise `NotFoundError` on `False`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol
from uuid import UUID

from domain.common.errors import NotFoundError, PermissionDeniedError
from domain.tenancy.model import Actor, Group, Organization, Role


class ReachDirectory(Protocol):
    """The tenancy facts a scope's visibility needs (the credits and policies directories)."""

    async def group_organization(self, group_id: UUID) -> UUID | None: ...

    async def user_groups(self, user_id: UUID) -> Mapping[UUID, UUID]: ...


def can_see_organization(actor: Actor, org: Organization) -> bool:
    return actor.is_super_admin or org.id in actor.organization_ids


def can_see_organization_id(actor: Actor, organization_id: UUID) -> bool:
    """`can_see_organization` from the id alone: an id out of reach and an unknown id alike."""
    return actor.is_super_admin or organization_id in actor.organization_ids


def can_see_group(actor: Actor, group: Group) -> bool:
    return can_see_group_of(actor, group.id, group.organization_id)


def can_see_group_of(actor: Actor, group_id: UUID, organization_id: UUID | None) -> bool:
    """`can_see_group` from the group's organisation (None: there is no such group)."""
    if organization_id is None:
        return False
    return actor.is_org_admin(organization_id) or group_id in actor.group_roles


def can_see_user(actor: Actor, user_id: UUID, user_groups: dict[UUID, UUID], user_admin_orgs: frozenset[UUID]) -> bool:
    """`user_groups` maps each group the user belongs to onto its organisation."""
    if actor.is_super_admin or actor.user_id == user_id:
        return True
    user_orgs = set(user_groups.values()) | set(user_admin_orgs)
    if any(actor.is_org_admin(o) for o in user_orgs):
        return True
    return any(g in actor.group_roles for g in user_groups)


async def scope_in_reach(actor: Actor, directory: ReachDirectory, kind: str, scope_id: UUID) -> bool:
    """May the actor see this organisation, group or user? Every argument naming a scope is
    checked with it before anything else, so that a scope out of reach answers exactly like a
    missing one (NOT_FOUND), and only a visible scope may answer PERMISSION_DENIED."""
    if kind == "organization":
        return can_see_organization_id(actor, scope_id)
    if kind == "group":
        if scope_id in actor.group_roles:
            return True
        return can_see_group_of(actor, scope_id, await directory.group_organization(scope_id))
    if kind == "user":
        if actor.is_super_admin or scope_id == actor.user_id:
            return True
        return can_see_user(actor, scope_id, dict(await directory.user_groups(scope_id)), frozenset())
    raise ValueError(f"{kind!r} is not a tenancy scope")


async def require_scope_in_reach(
    actor: Actor, directory: ReachDirectory, kind: str, scope_id: UUID, field: str | None
) -> None:
    """NOT_FOUND naming `field` unless the actor may see the scope (see `scope_in_reach`)."""
    if not await scope_in_reach(actor, directory, kind, scope_id):
        raise NotFoundError(kind, field)


def require_writable(actor: Actor) -> None:
    if actor.read_only:
        raise PermissionDeniedError("this token is read-only")


def require_super_admin(actor: Actor) -> None:
    require_writable(actor)
    if not actor.is_super_admin:
        raise PermissionDeniedError("only a super_admin may do this")


def require_org_admin(actor: Actor, organization_id: UUID) -> None:
    require_writable(actor)
    if not actor.is_org_admin(organization_id):
        raise PermissionDeniedError("only an admin of this organisation may do this")


def require_group_admin(actor: Actor, group: Group) -> None:
    require_writable(actor)
    if not actor.is_group_admin(group.id, group.organization_id):
        raise PermissionDeniedError("only an admin of this group may do this")


def may_grant_group_role(actor: Actor, group: Group, role: Role) -> bool:
    """Group admins manage members and guests; making someone a group admin takes an org admin."""
    if role == Role.GROUP_ADMIN:
        return actor.is_org_admin(group.organization_id)
    return actor.is_group_admin(group.id, group.organization_id)


def administered_org_ids(actor: Actor) -> frozenset[UUID] | None:
    """Organisations the actor administers; None means all (super_admin)."""
    return None if actor.is_super_admin else actor.org_admin_of


def administered_group_ids(actor: Actor) -> frozenset[UUID]:
    return frozenset(g for g, r in actor.group_roles.items() if r == Role.GROUP_ADMIN)


def is_any_admin(actor: Actor) -> bool:
    return actor.is_super_admin or bool(actor.org_admin_of) or bool(administered_group_ids(actor))
