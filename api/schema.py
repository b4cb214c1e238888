"""The GraphQL schema, composed from each context's queries, mutations and subscriptions."""

from __future__ import annotations

from typing import Any

import strawberry
from graphql import GraphQLError
from graphql.validation import NoSchemaIntrospectionCustomRule
from strawberry import relay
from strawberry.schema.config import StrawberryConfig
from strawberry.tools import merge_types
from strawberry.types import ExecutionContext

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
from api.extensions import shape_errors
from api.inventory.queries import InventoryQuery, InventorySubscription
from api.limits import DocumentGate, DocumentGuard, DocumentPolicy
from api.operations.queries import OperationsQuery
from api.policies.mutations import PoliciesMutation
from api.policies.queries import PoliciesQuery
from api.sessions.history import HistoryQuery
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
        HistoryQuery,
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


class GShareSchema(strawberry.Schema):
    """The schema, with one error policy (`api.extensions`) and, when introspection is off,
    no "Did you mean …" suggestions at execution either (variable coercion names enum values)."""

    def __init__(self, *args: Any, hide_suggestions: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.hide_suggestions = hide_suggestions

    def _get_custom_context_kwargs(
        self, operation_extensions: dict[str, Any] | None = None, *, sync: bool = False
    ) -> dict[str, Any]:
        kwargs = super()._get_custom_context_kwargs(operation_extensions, sync=sync)
        if self.hide_suggestions:
            kwargs["hide_suggestions"] = True
        return kwargs

    def process_errors(self, errors: list[GraphQLError], execution_context: ExecutionContext | None = None) -> None:
        shape_errors(errors, execution_context)


def build_schema(
    *,
    max_depth: int = 12,
    max_tokens: int = 2000,
    max_aliases: int = 30,
    max_fields: int = 2000,
    max_length: int = 100_000,
    max_field_comparisons: int = 5_000,
    validation_timeout: float = 2.0,
    introspection: bool = True,
) -> GShareSchema:
    # The document gate (its rules and caches) is built once, here: the caches are keyed by
    # the query text and the parsed document, and the same documents arrive again and again
    # (the console, clients). Validation was a sixth of a sessionCreate's CPU.
    gate = DocumentGate(
        DocumentPolicy(
            max_length=max_length,
            max_tokens=max_tokens,
            max_fields=max_fields,
            max_depth=max_depth,
            max_aliases=max_aliases,
            max_field_comparisons=max_field_comparisons,
            validation_timeout=validation_timeout,
            hide_suggestions=not introspection,
            extra_rules=() if introspection else (NoSchemaIntrospectionCustomRule,),
        )
    )
    return GShareSchema(
        query=Query,
        mutation=Mutation,
        subscription=Subscription,
        extensions=[lambda: DocumentGuard(gate)],
        types=[MutationError],
        config=StrawberryConfig(scalar_map=SCALAR_MAP),
        hide_suggestions=not introspection,
    )


# What `strawberry export-schema api.schema:schema` prints into schema.graphql.
schema = build_schema()
