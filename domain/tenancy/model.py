"""Tenancy: organisations → groups (departments) → users, memberships and scoped roles."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from uuid import UUID


class Role(StrEnum):
    """Scoped roles. `super_admin` is global; `org_admin` one organisation; `group_admin`,
    `member` and `guest` are roles inside one group (held per membership)."""

    SUPER_ADMIN = "super_admin"
    ORG_ADMIN = "org_admin"
    GROUP_ADMIN = "group_admin"
    MEMBER = "member"
    GUEST = "guest"


GROUP_ROLES = (Role.GROUP_ADMIN, Role.MEMBER, Role.GUEST)
DEFAULT_GROUP_NAME = "Default"


@dataclass(frozen=True)
class Organization:
    id: UUID
    name: str
    slug: str
    created_at: datetime
    description: str = ""


@dataclass(frozen=True)
class Group:
    id: UUID
    organization_id: UUID
    name: str
    created_at: datetime
    description: str = ""
    is_default: bool = False


@dataclass(frozen=True)
class Membership:
    user_id: UUID
    group_id: UUID
    organization_id: UUID
    role: Role


@dataclass(frozen=True)
class User:
    id: UUID
    username: str
    email: str
    display_name: str
    created_at: datetime
    is_super_admin: bool = False
    is_active: bool = True
    active_group_id: UUID | None = None
    org_admin_of: frozenset[UUID] = frozenset()
    oidc_subject: str | None = None


@dataclass(frozen=True)
class Actor:
    """Who is asking: the signed-in user with every scope they hold, resolved once per request.

    Authorisation in every context is a function of the Actor and the object's scope
    (organisation id, group id, owner id); see `domain.tenancy.access`.
    """

    user_id: UUID
    username: str
    is_super_admin: bool = False
    org_admin_of: frozenset[UUID] = frozenset()
    # group id -> role in that group (group_admin / member / guest)
    group_roles: dict[UUID, Role] = field(default_factory=dict)
    # group id -> organisation id, for every group the actor is a member of
    group_orgs: dict[UUID, UUID] = field(default_factory=dict)
    active_group_id: UUID | None = None
    # a read-only personal access token may query but never mutate
    read_only: bool = False

    @property
    def organization_ids(self) -> frozenset[UUID]:
        """Organisations the actor belongs to (as member of a group or as org admin)."""
        return frozenset(self.group_orgs.values()) | self.org_admin_of

    def role_in_group(self, group_id: UUID) -> Role | None:
        return self.group_roles.get(group_id)

    def is_org_admin(self, organization_id: UUID) -> bool:
        return self.is_super_admin or organization_id in self.org_admin_of

    def is_group_admin(self, group_id: UUID, organization_id: UUID) -> bool:
        return self.is_org_admin(organization_id) or self.group_roles.get(group_id) == Role.GROUP_ADMIN

    def is_guest_only(self) -> bool:
        """A guest everywhere it belongs, and no admin anywhere: CPU sessions only."""
        return (
            not self.is_super_admin
            and not self.org_admin_of
            and bool(self.group_roles)
            and all(r == Role.GUEST for r in self.group_roles.values())
        )
