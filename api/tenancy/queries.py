from __future__ import annotations

import strawberry

from api.common.ids import decode_optional
from api.common.pagination import Connection, paginate
from api.context import Info
from api.tenancy.types import GroupNode, OrganizationNode, PersonalAccessTokenNode, UserNode
from domain.tenancy import services as tenancy


@strawberry.type
class TenancyQuery:
    @strawberry.field(description="The signed-in user, or null.")
    async def me(self, info: Info) -> UserNode | None:
        actor = info.context.actor
        if actor is None:
            return None
        user = await info.context.loaders.user_by_id.load(actor.user_id)
        return UserNode.of(user) if user else None

    @strawberry.field(description="Organisations the viewer belongs to or administers.")
    async def organizations(
        self,
        info: Info,
        first: int | None = None,
        after: str | None = None,
        last: int | None = None,
        before: str | None = None,
    ) -> Connection[OrganizationNode]:
        actor = info.context.require_actor()
        async with info.context.container.uow() as uow:
            return await paginate(
                lambda p: tenancy.organizations_list(uow, actor, p), OrganizationNode.of, first, after, last, before
            )

    @strawberry.field(description="Groups the viewer can see, optionally of one organisation.")
    async def groups(
        self,
        info: Info,
        organization_id: strawberry.ID | None = None,
        first: int | None = None,
        after: str | None = None,
        last: int | None = None,
        before: str | None = None,
    ) -> Connection[GroupNode]:
        actor = info.context.require_actor()
        org_id = decode_optional(organization_id, "Organization", "organizationId")
        async with info.context.container.uow() as uow:
            return await paginate(
                lambda p: tenancy.groups_list(uow, actor, p, organization_id=org_id),
                GroupNode.of,
                first,
                after,
                last,
                before,
            )

    @strawberry.field(description="Users the viewer can see: those of administered organisations and co-members.")
    async def users(
        self,
        info: Info,
        organization_id: strawberry.ID | None = None,
        group_id: strawberry.ID | None = None,
        search: str | None = None,
        first: int | None = None,
        after: str | None = None,
        last: int | None = None,
        before: str | None = None,
    ) -> Connection[UserNode]:
        actor = info.context.require_actor()
        org_id = decode_optional(organization_id, "Organization", "organizationId")
        group = decode_optional(group_id, "Group", "groupId")
        async with info.context.container.uow() as uow:
            return await paginate(
                lambda p: tenancy.users_list(uow, actor, p, organization_id=org_id, group_id=group, search=search),
                UserNode.of,
                first,
                after,
                last,
                before,
            )

    @strawberry.field(description="The viewer's personal access tokens, newest first (secrets are never shown again).")
    async def personal_access_tokens(
        self,
        info: Info,
        first: int | None = None,
        after: str | None = None,
        last: int | None = None,
        before: str | None = None,
    ) -> Connection[PersonalAccessTokenNode]:
        actor = info.context.require_actor()
        async with info.context.container.uow() as uow:
            return await paginate(
                lambda p: tenancy.tokens_page(uow, actor, p), PersonalAccessTokenNode.of, first, after, last, before
            )
