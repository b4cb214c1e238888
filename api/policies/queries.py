from __future__ import annotations

import strawberry

from api.common.pagination import Connection, paginate
from api.context import Info
from api.credits.inputs import ScopeInput, policy_scope
from api.credits.scopes import scope_chain
from api.policies.types import EffectivePolicyType, ResourcePolicyNode
from domain.policies import services as policies
from domain.policies.model import PolicyScopeKind, ResourcePolicy
from domain.tenancy.services import Page

_ORDER = list(PolicyScopeKind)


@strawberry.type
class PoliciesQuery:
    @strawberry.field(description="Resource policies the viewer may see, widest scope first.")
    async def policies(
        self,
        info: Info,
        first: int | None = None,
        after: str | None = None,
        last: int | None = None,
        before: str | None = None,
    ) -> Connection[ResourcePolicyNode]:
        actor = info.context.require_actor()
        cr = info.context.container.credits
        found = await policies.list_policies(actor, cr.policies, cr.directory)
        ordered = sorted(found, key=lambda p: (_ORDER.index(p.scope.kind), str(p.scope.id or "")))

        async def fetch(page: Page) -> tuple[list[ResourcePolicy], int]:
            return ordered[page.offset : page.offset + page.limit], len(ordered)

        return await paginate(fetch, ResourcePolicyNode.of, first, after, last, before)

    @strawberry.field(description="The policy set at exactly this scope; null when none is set there.")
    async def policy(self, info: Info, scope: ScopeInput) -> ResourcePolicyNode | None:
        actor = info.context.require_actor()
        cr = info.context.container.credits
        found = await policies.get_policy(actor, cr.policies, cr.directory, policy_scope(scope))
        return ResourcePolicyNode.of(found) if found else None

    @strawberry.field(
        description="Field by field, what applies to a user (the viewer by default) working in a group (their "
        "active group by default), and the scope each value came from."
    )
    async def effective_policy(
        self, info: Info, user_id: strawberry.ID | None = None, group_id: strawberry.ID | None = None
    ) -> EffectivePolicyType:
        chain = await scope_chain(info, user_id, group_id)
        return EffectivePolicyType(
            model=await policies.effective_policy(info.context.container.credits.policies, chain)
        )
