from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

import strawberry
from strawberry import relay

from api.common.nodes import resolve_authorised
from api.common.pagination import Connection, paginate
from api.context import Info
from domain.tenancy import access
from domain.tenancy import services as tenancy
from domain.tenancy.auth import PersonalAccessToken as PatModel
from domain.tenancy.auth import TokenScope as TokenScopeModel
from domain.tenancy.model import Group as GroupModel
from domain.tenancy.model import Membership as MembershipModel
from domain.tenancy.model import Organization as OrganizationModel
from domain.tenancy.model import Role as RoleModel
from domain.tenancy.model import User as UserModel

Role = strawberry.enum(RoleModel, name="Role", description="Scoped roles (see DESIGN.md, Tenancy).")
TokenScope = strawberry.enum(TokenScopeModel, name="TokenScope")


@strawberry.type(name="Organization")
class OrganizationNode(relay.Node):
    uuid: relay.NodeID[str]
    name: str
    slug: str
    description: str
    created_at: datetime

    @classmethod
    def of(cls, o: OrganizationModel) -> OrganizationNode:
        return cls(uuid=str(o.id), name=o.name, slug=o.slug, description=o.description, created_at=o.created_at)

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids: Iterable[str], required: bool = False) -> list[Any]:
        return await resolve_authorised(info, node_ids, tenancy.organization_get, cls.of)

    @strawberry.field(description="Whether the viewer administers this organisation.")
    def viewer_is_admin(self, info: Info) -> bool:
        actor = info.context.actor
        return bool(actor and actor.is_org_admin(_uuid(self.uuid)))

    @strawberry.field
    async def groups(
        self,
        info: Info,
        first: int | None = None,
        after: str | None = None,
        last: int | None = None,
        before: str | None = None,
    ) -> Connection[GroupNode]:
        actor = info.context.require_actor()
        async with info.context.container.uow() as uow:
            return await paginate(
                lambda p: tenancy.groups_list(uow, actor, p, organization_id=_uuid(self.uuid)),
                GroupNode.of,
                first,
                after,
                last,
                before,
            )

    @strawberry.field
    async def users(
        self,
        info: Info,
        search: str | None = None,
        first: int | None = None,
        after: str | None = None,
        last: int | None = None,
        before: str | None = None,
    ) -> Connection[UserNode]:
        actor = info.context.require_actor()
        async with info.context.container.uow() as uow:
            return await paginate(
                lambda p: tenancy.users_list(uow, actor, p, organization_id=_uuid(self.uuid), search=search),
                UserNode.of,
                first,
                after,
                last,
                before,
            )


@strawberry.type(name="Group")
class GroupNode(relay.Node):
    uuid: relay.NodeID[str]
    name: str
    description: str
    is_default: bool
    created_at: datetime
    organization_uuid: strawberry.Private[str]

    @classmethod
    def of(cls, g: GroupModel) -> GroupNode:
        return cls(
            uuid=str(g.id),
            name=g.name,
            description=g.description,
            is_default=g.is_default,
            created_at=g.created_at,
            organization_uuid=str(g.organization_id),
        )

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids: Iterable[str], required: bool = False) -> list[Any]:
        return await resolve_authorised(info, node_ids, tenancy.group_get, cls.of)

    @strawberry.field
    async def organization(self, info: Info) -> OrganizationNode:
        org = await info.context.loaders.organization_by_id.load(_uuid(self.organization_uuid))
        assert org is not None
        return OrganizationNode.of(org)

    @strawberry.field(description="Whether the viewer administers this group.")
    def viewer_is_admin(self, info: Info) -> bool:
        actor = info.context.actor
        return bool(actor and actor.is_group_admin(_uuid(self.uuid), _uuid(self.organization_uuid)))

    @strawberry.field
    async def members(
        self,
        info: Info,
        first: int | None = None,
        after: str | None = None,
        last: int | None = None,
        before: str | None = None,
    ) -> Connection[MembershipType]:
        actor = info.context.require_actor()
        async with info.context.container.uow() as uow:
            return await paginate(
                lambda p: tenancy.memberships_of_group(uow, actor, _uuid(self.uuid), p),
                MembershipType.of,
                first,
                after,
                last,
                before,
            )


@strawberry.type(name="Membership")
class MembershipType:
    role: Role  # type: ignore[valid-type]
    user_uuid: strawberry.Private[str]
    group_uuid: strawberry.Private[str]

    @classmethod
    def of(cls, m: MembershipModel) -> MembershipType:
        return cls(role=m.role, user_uuid=str(m.user_id), group_uuid=str(m.group_id))

    @strawberry.field
    async def user(self, info: Info) -> UserNode:
        user = await info.context.loaders.user_by_id.load(_uuid(self.user_uuid))
        assert user is not None
        return UserNode.of(user)

    @strawberry.field
    async def group(self, info: Info) -> GroupNode:
        group = await info.context.loaders.group_by_id.load(_uuid(self.group_uuid))
        assert group is not None
        return GroupNode.of(group)


@strawberry.type(name="User")
class UserNode(relay.Node):
    uuid: relay.NodeID[str]
    username: str
    email: str
    display_name: str
    is_super_admin: bool
    is_active: bool
    created_at: datetime
    active_group_uuid: strawberry.Private[str | None]
    admin_of_uuids: strawberry.Private[list[str]]

    @classmethod
    def of(cls, u: UserModel) -> UserNode:
        return cls(
            uuid=str(u.id),
            username=u.username,
            email=u.email,
            display_name=u.display_name,
            is_super_admin=u.is_super_admin,
            is_active=u.is_active,
            created_at=u.created_at,
            active_group_uuid=str(u.active_group_id) if u.active_group_id else None,
            admin_of_uuids=sorted(str(o) for o in u.org_admin_of),
        )

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids: Iterable[str], required: bool = False) -> list[Any]:
        return await resolve_authorised(info, node_ids, tenancy.user_get, cls.of)

    @strawberry.field
    async def active_group(self, info: Info) -> GroupNode | None:
        if self.active_group_uuid is None:
            return None
        group = await info.context.loaders.group_by_id.load(_uuid(self.active_group_uuid))
        actor = info.context.actor
        if group is None or actor is None or not access.can_see_group(actor, group):
            return None
        return GroupNode.of(group)

    @strawberry.field(description="The user's memberships in groups the viewer can see.")
    async def memberships(self, info: Info) -> list[MembershipType]:
        actor = info.context.require_actor()
        memberships = await info.context.loaders.memberships_by_user.load(_uuid(self.uuid))
        visible = []
        for m in memberships:
            group = await info.context.loaders.group_by_id.load(m.group_id)
            if group is not None and access.can_see_group(actor, group):
                visible.append(MembershipType.of(m))
        return visible

    @strawberry.field(description="Organisations this user administers (that the viewer can see).")
    async def admin_of(self, info: Info) -> list[OrganizationNode]:
        actor = info.context.require_actor()
        orgs = await info.context.loaders.organization_by_id.load_many([_uuid(o) for o in self.admin_of_uuids])
        return [OrganizationNode.of(o) for o in orgs if o is not None and access.can_see_organization(actor, o)]


@strawberry.type(name="PersonalAccessToken")
class PersonalAccessTokenNode(relay.Node):
    uuid: relay.NodeID[str]
    name: str
    scope: TokenScope  # type: ignore[valid-type]
    token_prefix: str = strawberry.field(description="The first characters of the secret, to recognise it.")
    created_at: datetime
    expires_at: datetime | None
    revoked_at: datetime | None
    last_used_at: datetime | None

    @classmethod
    def of(cls, t: PatModel) -> PersonalAccessTokenNode:
        return cls(
            uuid=str(t.id),
            name=t.name,
            scope=t.scope,
            token_prefix=t.token_prefix,
            created_at=t.created_at,
            expires_at=t.expires_at,
            revoked_at=t.revoked_at,
            last_used_at=t.last_used_at,
        )

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids: Iterable[str], required: bool = False) -> list[Any]:
        actor = info.context.actor
        if actor is None:
            return [None for _ in node_ids]
        async with info.context.container.uow() as uow:
            tokens = {str(t.id): t for t in await tenancy.tokens_list(uow, actor)}
        return [cls.of(tokens[i]) if i in tokens else None for i in node_ids]

    @strawberry.field
    def active(self, info: Info) -> bool:
        now = info.context.container.clock.now()
        return self.revoked_at is None and (self.expires_at is None or now < self.expires_at)


def _uuid(value: str) -> Any:
    from uuid import UUID

    return UUID(value)
