from __future__ import annotations

import strawberry

from api.tenancy.types import Role, TokenScope


@strawberry.input
class LoginInput:
    username: str
    password: str


@strawberry.input
class OrganizationCreateInput:
    name: str
    slug: str | None = None
    description: str = ""


@strawberry.input
class OrganizationUpdateInput:
    id: strawberry.ID
    name: str | None = None
    description: str | None = None


@strawberry.input
class GroupCreateInput:
    organization_id: strawberry.ID
    name: str
    description: str = ""


@strawberry.input
class GroupUpdateInput:
    id: strawberry.ID
    name: str | None = None
    description: str | None = None


@strawberry.input
class UserCreateInput:
    organization_id: strawberry.ID
    username: str
    email: str
    display_name: str | None = None
    password: str | None = strawberry.field(default=None, description="Leave empty for OIDC-only accounts.")
    role: Role = strawberry.field(default=Role.MEMBER)  # type: ignore[valid-type,attr-defined]
    group_ids: list[strawberry.ID] | None = strawberry.field(
        default=None,
        description="Groups of the organisation the user joins besides its Default group, with `role`; "
        "the first one is the user's active group (the Default group when none is named).",
    )


@strawberry.input
class UserUpdateInput:
    id: strawberry.ID
    display_name: str | None = None
    email: str | None = None
    is_active: bool | None = None


@strawberry.input
class UserPasswordSetInput:
    id: strawberry.ID
    new_password: str
    current_password: str | None = None


@strawberry.input
class UserSuperAdminSetInput:
    id: strawberry.ID
    super_admin: bool


@strawberry.input
class UserOrgAdminSetInput:
    user_id: strawberry.ID
    organization_id: strawberry.ID
    admin: bool


@strawberry.input
class MembershipSetInput:
    user_id: strawberry.ID
    group_id: strawberry.ID
    role: Role  # type: ignore[valid-type]


@strawberry.input
class MembershipRemoveInput:
    user_id: strawberry.ID
    group_id: strawberry.ID


@strawberry.input
class ActiveGroupSetInput:
    group_id: strawberry.ID


@strawberry.input
class PersonalAccessTokenCreateInput:
    name: str
    scope: TokenScope = strawberry.field(default=TokenScope.READ_ONLY)  # type: ignore[valid-type,attr-defined]
    expires_in_days: int | None = strawberry.field(default=90, description="1–366 days; null for no expiry.")
