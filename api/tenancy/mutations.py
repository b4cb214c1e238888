from __future__ import annotations

from typing import Any, cast
from uuid import UUID

import strawberry

from api.common.errors import UserError
from api.common.ids import decode, node_id_of
from api.common.mutations import mutate
from api.common.payloads import DeletePayload, IdInput
from api.context import SESSION_COOKIE, Info
from api.tenancy import inputs
from api.tenancy.types import (
    GroupNode,
    MembershipType,
    OrganizationNode,
    PersonalAccessTokenNode,
    UserNode,
)
from domain.audit.services import AuditTarget
from domain.ports import UnitOfWork
from domain.tenancy import services as tenancy
from domain.tenancy.model import Actor, Group, Membership, Organization, User
from domain.volumes import erasure


@strawberry.type
class OrganizationPayload:
    organization: OrganizationNode | None = None
    errors: list[UserError] = strawberry.field(default_factory=list)


@strawberry.type
class GroupPayload:
    group: GroupNode | None = None
    errors: list[UserError] = strawberry.field(default_factory=list)


@strawberry.type
class UserPayload:
    user: UserNode | None = None
    errors: list[UserError] = strawberry.field(default_factory=list)


@strawberry.type
class MembershipPayload:
    membership: MembershipType | None = None
    errors: list[UserError] = strawberry.field(default_factory=list)


@strawberry.type
class LogoutPayload:
    ok: bool
    errors: list[UserError] = strawberry.field(default_factory=list)


@strawberry.type
class PersonalAccessTokenCreatePayload:
    token: PersonalAccessTokenNode | None = None
    secret: str | None = strawberry.field(default=None, description="Shown once; store it now.")
    errors: list[UserError] = strawberry.field(default_factory=list)


@strawberry.type
class PersonalAccessTokenPayload:
    token: PersonalAccessTokenNode | None = None
    errors: list[UserError] = strawberry.field(default_factory=list)


def _org_target(o: Organization) -> AuditTarget:
    return AuditTarget("Organization", str(o.id), o.id)


def _group_target(g: Group) -> AuditTarget:
    return AuditTarget("Group", str(g.id), g.organization_id, g.id)


def _user_target(pair: tuple[User, UUID | None]) -> AuditTarget:
    return AuditTarget("User", str(pair[0].id), pair[1])


def _membership_target(m: Membership) -> AuditTarget:
    return AuditTarget("Membership", f"{m.user_id}:{m.group_id}", m.organization_id, m.group_id)


def _org_payload(o: Organization) -> OrganizationPayload:
    return OrganizationPayload(organization=OrganizationNode.of(o))


def _group_payload(g: Group) -> GroupPayload:
    return GroupPayload(group=GroupNode.of(g))


def _user_payload(pair: tuple[User, UUID | None]) -> UserPayload:
    return UserPayload(user=UserNode.of(pair[0]))


async def _user_org(uow: UnitOfWork, user: User) -> UUID | None:
    memberships = await uow.tenancy.memberships_of_user(user.id)
    return memberships[0].organization_id if memberships else None


@strawberry.type
class TenancyMutation:
    @strawberry.mutation(description="Sign in with a local account; sets an httpOnly session cookie.")
    async def login(self, info: Info, input: inputs.LoginInput) -> UserPayload:
        ctx = info.context
        c = ctx.container
        secret_box: list[str] = []

        async def action(uow: UnitOfWork, _: Actor) -> tuple[User, UUID | None]:
            user = await tenancy.authenticate_password(uow, c.hasher, input.username, input.password)
            _session, secret = await tenancy.login_session_start(uow, c.ids, c.clock, c.secrets, user)
            secret_box.append(secret)
            ctx.actor = await tenancy.load_actor(uow, user.id)
            return user, await _user_org(uow, user)

        payload = await mutate(
            ctx,
            "login",
            action,
            _user_target,
            _user_payload,
            lambda e: UserPayload(errors=e),
            attempted=AuditTarget("User", input.username.strip().lower()[:64]),
            auth="anonymous",
        )
        if secret_box and not payload.errors:
            _set_session_cookie(info, secret_box[0])
        return payload

    @strawberry.mutation(description="End the browser session and clear its cookie.")
    async def logout(self, info: Info) -> LogoutPayload:
        ctx = info.context
        secret = ctx.session_secret

        async def action(uow: UnitOfWork, actor: Actor) -> Actor:
            if secret:
                await tenancy.login_session_end(uow, secret)
            return actor

        payload = await mutate(
            ctx,
            "logout",
            action,
            lambda a: AuditTarget("User", str(a.user_id)),
            lambda _: LogoutPayload(ok=True),
            lambda e: LogoutPayload(ok=False, errors=e),
            auth="reader",
        )
        response = ctx.response
        if payload.ok and response is not None and hasattr(response, "delete_cookie"):
            response.delete_cookie(SESSION_COOKIE, path="/")
        return payload

    @strawberry.mutation
    async def organization_create(self, info: Info, input: inputs.OrganizationCreateInput) -> OrganizationPayload:
        c = info.context.container
        return await mutate(
            info.context,
            "organizationCreate",
            lambda uow, actor: tenancy.organization_create(
                uow, actor, c.ids, c.clock, name=input.name, slug=input.slug, description=input.description
            ),
            _org_target,
            _org_payload,
            lambda e: OrganizationPayload(errors=e),
            attempted=AuditTarget("Organization"),
        )

    @strawberry.mutation
    async def organization_update(self, info: Info, input: inputs.OrganizationUpdateInput) -> OrganizationPayload:
        return await mutate(
            info.context,
            "organizationUpdate",
            lambda uow, actor: tenancy.organization_update(
                uow, actor, decode(input.id, "Organization", "id"), name=input.name, description=input.description
            ),
            _org_target,
            _org_payload,
            lambda e: OrganizationPayload(errors=e),
            attempted=AuditTarget("Organization", node_id_of(input.id)),
        )

    @strawberry.mutation
    async def organization_delete(self, info: Info, input: IdInput) -> DeletePayload:
        return await mutate(
            info.context,
            "organizationDelete",
            lambda uow, actor: tenancy.organization_delete(uow, actor, decode(input.id, "Organization", "id")),
            _org_target,
            lambda o: DeletePayload(deleted_id=input.id),
            lambda e: DeletePayload(errors=e),
            attempted=AuditTarget("Organization", node_id_of(input.id)),
        )

    @strawberry.mutation
    async def group_create(self, info: Info, input: inputs.GroupCreateInput) -> GroupPayload:
        c = info.context.container
        return await mutate(
            info.context,
            "groupCreate",
            lambda uow, actor: tenancy.group_create(
                uow,
                actor,
                c.ids,
                c.clock,
                organization_id=decode(input.organization_id, "Organization", "organizationId"),
                name=input.name,
                description=input.description,
            ),
            _group_target,
            _group_payload,
            lambda e: GroupPayload(errors=e),
            attempted=AuditTarget("Group"),
        )

    @strawberry.mutation
    async def group_update(self, info: Info, input: inputs.GroupUpdateInput) -> GroupPayload:
        return await mutate(
            info.context,
            "groupUpdate",
            lambda uow, actor: tenancy.group_update(
                uow, actor, decode(input.id, "Group", "id"), name=input.name, description=input.description
            ),
            _group_target,
            _group_payload,
            lambda e: GroupPayload(errors=e),
            attempted=AuditTarget("Group", node_id_of(input.id)),
        )

    @strawberry.mutation
    async def group_delete(self, info: Info, input: IdInput) -> DeletePayload:
        return await mutate(
            info.context,
            "groupDelete",
            lambda uow, actor: tenancy.group_delete(uow, actor, decode(input.id, "Group", "id")),
            _group_target,
            lambda g: DeletePayload(deleted_id=input.id),
            lambda e: DeletePayload(errors=e),
            attempted=AuditTarget("Group", node_id_of(input.id)),
        )

    @strawberry.mutation
    async def user_create(self, info: Info, input: inputs.UserCreateInput) -> UserPayload:
        c = info.context.container

        async def action(uow: UnitOfWork, actor: Actor) -> tuple[User, UUID | None]:
            org_id = decode(input.organization_id, "Organization", "organizationId")
            user = await tenancy.user_create(
                uow,
                actor,
                c.ids,
                c.clock,
                c.hasher,
                organization_id=org_id,
                username=input.username,
                email=input.email,
                display_name=input.display_name,
                password=input.password,
                role=input.role,
                group_ids=[decode(g, "Group", "groupIds") for g in input.group_ids or []],
            )
            return user, org_id

        return await mutate(
            info.context,
            "userCreate",
            action,
            _user_target,
            _user_payload,
            lambda e: UserPayload(errors=e),
            attempted=AuditTarget("User", input.username[:64]),
        )

    @strawberry.mutation
    async def user_update(self, info: Info, input: inputs.UserUpdateInput) -> UserPayload:
        async def action(uow: UnitOfWork, actor: Actor) -> tuple[User, UUID | None]:
            user = await tenancy.user_update(
                uow,
                actor,
                decode(input.id, "User", "id"),
                display_name=input.display_name,
                email=input.email,
                is_active=input.is_active,
            )
            return user, await _user_org(uow, user)

        return await mutate(
            info.context,
            "userUpdate",
            action,
            _user_target,
            _user_payload,
            lambda e: UserPayload(errors=e),
            attempted=AuditTarget("User", node_id_of(input.id)),
        )

    @strawberry.mutation(
        description="Delete a user: their name, e-mail, display name, password, sign-on subject, roles, memberships, "
        "login sessions and tokens are removed (tokens revoked); the audit log, the ledger and past sessions keep "
        "pointing at the same id, now named deleted-…. Refused with USER_HAS_ACTIVE_WORK while they have sessions "
        "not ended or personal volumes (an admin of their organisation, or a super_admin; never yourself)."
    )
    async def user_delete(self, info: Info, input: IdInput) -> UserPayload:
        c = info.context.container

        async def action(uow: UnitOfWork, actor: Actor) -> tuple[User, UUID | None]:
            user_id = decode(input.id, "User", "id")
            before = await tenancy.user_get(uow, actor, user_id)
            org = await _user_org(uow, before)
            return await erasure.user_erase(cast(Any, uow), actor, c.clock, user_id), org

        return await mutate(
            info.context,
            "userDelete",
            action,
            _user_target,
            _user_payload,
            lambda e: UserPayload(errors=e),
            attempted=AuditTarget("User", node_id_of(input.id)),
        )

    @strawberry.mutation
    async def user_password_set(self, info: Info, input: inputs.UserPasswordSetInput) -> UserPayload:
        c = info.context.container

        async def action(uow: UnitOfWork, actor: Actor) -> tuple[User, UUID | None]:
            user = await tenancy.user_set_password(
                uow,
                actor,
                c.hasher,
                decode(input.id, "User", "id"),
                new_password=input.new_password,
                current_password=input.current_password,
            )
            return user, await _user_org(uow, user)

        return await mutate(
            info.context,
            "userPasswordSet",
            action,
            _user_target,
            _user_payload,
            lambda e: UserPayload(errors=e),
            attempted=AuditTarget("User", node_id_of(input.id)),
        )

    @strawberry.mutation
    async def user_super_admin_set(self, info: Info, input: inputs.UserSuperAdminSetInput) -> UserPayload:
        async def action(uow: UnitOfWork, actor: Actor) -> tuple[User, UUID | None]:
            user = await tenancy.super_admin_set(uow, actor, decode(input.id, "User", "id"), input.super_admin)
            return user, None

        return await mutate(
            info.context,
            "userSuperAdminSet",
            action,
            _user_target,
            _user_payload,
            lambda e: UserPayload(errors=e),
            attempted=AuditTarget("User", node_id_of(input.id)),
        )

    @strawberry.mutation
    async def user_org_admin_set(self, info: Info, input: inputs.UserOrgAdminSetInput) -> UserPayload:
        async def action(uow: UnitOfWork, actor: Actor) -> tuple[User, UUID | None]:
            org_id = decode(input.organization_id, "Organization", "organizationId")
            user = await tenancy.org_admin_set(uow, actor, decode(input.user_id, "User", "userId"), org_id, input.admin)
            return user, org_id

        return await mutate(
            info.context,
            "userOrgAdminSet",
            action,
            _user_target,
            _user_payload,
            lambda e: UserPayload(errors=e),
            attempted=AuditTarget("User", node_id_of(input.user_id)),
        )

    @strawberry.mutation
    async def membership_set(self, info: Info, input: inputs.MembershipSetInput) -> MembershipPayload:
        return await mutate(
            info.context,
            "membershipSet",
            lambda uow, actor: tenancy.membership_set(
                uow,
                actor,
                user_id=decode(input.user_id, "User", "userId"),
                group_id=decode(input.group_id, "Group", "groupId"),
                role=input.role,
            ),
            _membership_target,
            lambda m: MembershipPayload(membership=MembershipType.of(m)),
            lambda e: MembershipPayload(errors=e),
            attempted=AuditTarget("Membership"),
        )

    @strawberry.mutation
    async def membership_remove(self, info: Info, input: inputs.MembershipRemoveInput) -> MembershipPayload:
        return await mutate(
            info.context,
            "membershipRemove",
            lambda uow, actor: tenancy.membership_remove(
                uow,
                actor,
                user_id=decode(input.user_id, "User", "userId"),
                group_id=decode(input.group_id, "Group", "groupId"),
            ),
            _membership_target,
            lambda m: MembershipPayload(membership=MembershipType.of(m)),
            lambda e: MembershipPayload(errors=e),
            attempted=AuditTarget("Membership"),
        )

    @strawberry.mutation(description="Choose the group new work is done in (its quotas and budget apply).")
    async def active_group_set(self, info: Info, input: inputs.ActiveGroupSetInput) -> UserPayload:
        async def action(uow: UnitOfWork, actor: Actor) -> tuple[User, UUID | None]:
            group_id = decode(input.group_id, "Group", "groupId")
            user = await tenancy.active_group_set(uow, actor, group_id)
            return user, actor.group_orgs.get(group_id)

        return await mutate(
            info.context,
            "activeGroupSet",
            action,
            _user_target,
            _user_payload,
            lambda e: UserPayload(errors=e),
            attempted=AuditTarget("User"),
        )

    @strawberry.mutation(description="Create a personal access token; its secret is returned once.")
    async def personal_access_token_create(
        self, info: Info, input: inputs.PersonalAccessTokenCreateInput
    ) -> PersonalAccessTokenCreatePayload:
        c = info.context.container
        return await mutate(
            info.context,
            "personalAccessTokenCreate",
            lambda uow, actor: tenancy.token_create(
                uow,
                actor,
                c.ids,
                c.clock,
                c.secrets,
                name=input.name,
                scope=input.scope,
                expires_in_days=input.expires_in_days,
            ),
            lambda pair: AuditTarget("PersonalAccessToken", str(pair[0].id)),
            lambda pair: PersonalAccessTokenCreatePayload(token=PersonalAccessTokenNode.of(pair[0]), secret=pair[1]),
            lambda e: PersonalAccessTokenCreatePayload(errors=e),
            attempted=AuditTarget("PersonalAccessToken"),
        )

    @strawberry.mutation
    async def personal_access_token_revoke(self, info: Info, input: IdInput) -> PersonalAccessTokenPayload:
        c = info.context.container
        return await mutate(
            info.context,
            "personalAccessTokenRevoke",
            lambda uow, actor: tenancy.token_revoke(uow, actor, c.clock, decode(input.id, "PersonalAccessToken", "id")),
            lambda t: AuditTarget("PersonalAccessToken", str(t.id)),
            lambda t: PersonalAccessTokenPayload(token=PersonalAccessTokenNode.of(t)),
            lambda e: PersonalAccessTokenPayload(errors=e),
            attempted=AuditTarget("PersonalAccessToken", node_id_of(input.id)),
        )


def _set_session_cookie(info: Info, secret: str) -> None:
    ctx = info.context
    response = ctx.response
    if response is None or not hasattr(response, "set_cookie"):
        return
    settings = ctx.container.settings
    response.set_cookie(
        SESSION_COOKIE,
        secret,
        max_age=settings.login_session_hours * 3600,
        httponly=True,
        samesite="lax",
        secure=settings.cookie_secure,
        path="/",
    )
