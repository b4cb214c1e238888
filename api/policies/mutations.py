"""Policy mutations, audited with the organisation/group of the scope they change."""

from __future__ import annotations

from uuid import UUID

import strawberry
from strawberry import relay

from api.common.errors import UserError
from api.common.mutations import mutate
from api.common.payloads import DeletePayload
from api.context import Info
from api.credits.inputs import policy_scope
from api.credits.mutations import attempted_target
from api.credits.scopes import policy_scope_org_group
from api.policies import inputs
from api.policies.types import ResourcePolicyNode, policy_node_id
from domain.audit.services import AuditTarget
from domain.policies import services as policies
from domain.policies.model import PolicyScope, ResourcePolicy
from domain.ports import UnitOfWork
from domain.tenancy.model import Actor


@strawberry.type
class PolicyPayload:
    policy: ResourcePolicyNode | None = None
    errors: list[UserError] = strawberry.field(default_factory=list)


def _target(triple: tuple[PolicyScope, UUID | None, UUID | None]) -> AuditTarget:
    return AuditTarget("ResourcePolicy", policy_node_id(triple[0]), triple[1], triple[2])


@strawberry.type
class PoliciesMutation:
    @strawberry.mutation(description="Create or replace the resource policy of one scope.")
    async def policy_set(self, info: Info, input: inputs.PolicySetInput) -> PolicyPayload:
        ctx = info.context
        c = ctx.container
        cr = c.credits
        stored: list[ResourcePolicy] = []

        async def action(uow: UnitOfWork, actor: Actor) -> tuple[PolicyScope, UUID | None, UUID | None]:
            policy = await policies.set_policy(actor, cr.policies, cr.directory, c.clock, inputs.to_policy(input))
            stored.append(policy)
            org, group = await policy_scope_org_group(actor, cr.directory, policy.scope)
            return policy.scope, org, group

        return await mutate(
            ctx,
            "policySet",
            action,
            _target,
            lambda _: PolicyPayload(policy=ResourcePolicyNode.of(stored[0])),
            lambda e: PolicyPayload(errors=e),
            attempted=await attempted_target(
                ctx,
                "ResourcePolicy",
                None,
                lambda actor: policy_scope_org_group(actor, cr.directory, policy_scope(input.scope)),
            ),
        )

    @strawberry.mutation(description="Remove the policy of one scope (its settings then inherit from wider scopes).")
    async def policy_delete(self, info: Info, input: inputs.PolicyDeleteInput) -> DeletePayload:
        ctx = info.context
        cr = ctx.container.credits

        async def action(uow: UnitOfWork, actor: Actor) -> tuple[PolicyScope, UUID | None, UUID | None]:
            scope = policy_scope(input.scope)
            await policies.delete_policy(actor, cr.policies, cr.directory, scope)
            org, group = await policy_scope_org_group(actor, cr.directory, scope)
            return scope, org, group

        return await mutate(
            ctx,
            "policyDelete",
            action,
            _target,
            lambda r: DeletePayload(
                deleted_id=strawberry.ID(str(relay.GlobalID("ResourcePolicy", policy_node_id(r[0]))))
            ),
            lambda e: DeletePayload(errors=e),
            attempted=await attempted_target(
                ctx,
                "ResourcePolicy",
                None,
                lambda actor: policy_scope_org_group(actor, cr.directory, policy_scope(input.scope)),
            ),
        )
