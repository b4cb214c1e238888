"""The GraphQL schema, composed from each context's queries, mutations and subscriptions."""

from __future__ import annotations

from typing import Any

import strawberry
from graphql.validation import NoSchemaIntrospectionCustomRule
from strawberry import relay
from strawberry.extensions import (
    AddValidationRules,
    MaxAliasesLimiter,
    MaxTokensLimiter,
    ParserCache,
    QueryDepthLimiter,
    ValidationCache,
)
from strawberry.schema.config import StrawberryConfig
from strawberry.tools import merge_types

from api.audit.queries import AuditQuery
from api.catalog.mutations import CatalogMutation
from api.catalog.queries import CatalogQuery
from api.clusters.mutations import ClustersMutation
from api.clusters.queries import ClustersQuery, ClustersSubscription
from api.common.errors import MutationError
from api.common.scalars import SCALAR_MAP
from api.context import Info
from api.credits.mutations import CreditsMutation
from api.credits.queries import CreditsQuery
from api.extensions import DomainErrors, masking
from api.inventory.queries import InventoryQuery, InventorySubscription
from api.operations.queries import OperationsQuery
from api.policies.mutations import PoliciesMutation
from api.policies.queries import PoliciesQuery
from api.sessions.mutations import SessionsMutation
from api.sessions.queries import SessionsQuery
from api.sessions.subscriptions import AdminSessionsSubscription, SessionsSubscription, WalletSubscription
from api.tenancy.mutations import TenancyMutation
from api.tenancy.queries import TenancyQuery
from api.tenancy.subscriptions import AccountSubscription


@strawberry.type
class NodeQuery:
    @strawberry.field(description="Any object by its global ID; null when missing or not visible.")
    async def node(self, info: Info, id: strawberry.ID) -> relay.Node | None:
        try:
            gid = relay.GlobalID.from_id(id)
            return await gid.resolve_node(info, required=False)  # type: ignore[no-any-return]
        except (KeyError, ValueError, TypeError):  # malformed ids and unknown types answer like missing objects
            return None


Query = merge_types(
    "Query",
    (
        NodeQuery,
        TenancyQuery,
        CatalogQuery,
        AuditQuery,
        CreditsQuery,
        PoliciesQuery,
        InventoryQuery,
        ClustersQuery,
        SessionsQuery,
        OperationsQuery,
    ),
)
Mutation = merge_types(
    "Mutation",
    (TenancyMutation, CatalogMutation, CreditsMutation, PoliciesMutation, SessionsMutation, ClustersMutation),
)
Subscription = merge_types(
    "Subscription",
    (
        AccountSubscription,
        SessionsSubscription,
        AdminSessionsSubscription,
        WalletSubscription,
        InventorySubscription,
        ClustersSubscription,
    ),
)


def build_schema(
    *, max_depth: int = 12, max_tokens: int = 2000, max_aliases: int = 30, introspection: bool = True
) -> strawberry.Schema:
    # The limiters' rule classes are built once, here: a limiter constructed per request brings
    # new rule classes every time, and the validation cache (keyed by the document and the
    # rules) would then never hit. Validation was a sixth of a sessionCreate's CPU.
    rules: list[Any] = [
        *QueryDepthLimiter(max_depth=max_depth).validation_rules,
        *MaxAliasesLimiter(max_alias_count=max_aliases).validation_rules,
    ]
    if not introspection:
        rules.append(NoSchemaIntrospectionCustomRule)
    extensions: list[Any] = [
        # the same documents arrive again and again (the console, clients): parse and
        # validate each once
        lambda: ParserCache(maxsize=512),
        lambda: AddValidationRules(rules),
        lambda: ValidationCache(maxsize=512),
        lambda: MaxTokensLimiter(max_token_count=max_tokens),
        DomainErrors,
        masking,
    ]
    return strawberry.Schema(
        query=Query,
        mutation=Mutation,
        subscription=Subscription,
        extensions=extensions,
        types=[MutationError],
        config=StrawberryConfig(scalar_map=SCALAR_MAP),
    )


# What `strawberry export-schema api.schema:schema` prints into schema.graphql.
schema = build_schema()
