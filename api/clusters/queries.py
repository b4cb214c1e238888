from __future__ import annotations

from collections.abc import AsyncGenerator
from uuid import UUID

import strawberry

from api.clusters.types import NodeOperation, RegisteredCluster
from api.context import Info
from domain.common.errors import DomainError
from domain.inventory import clusters as clusters_uc
from domain.inventory import node_operations as node_ops
from infra.clusters.repository import SqlClusterRecords
from infra.clusters.wiring import node_operation_records


@strawberry.type
class ClustersQuery:
    @strawberry.field(description="Registered clusters (super_admin; others see an empty list).")
    async def registered_clusters(self, info: Info) -> list[RegisteredCluster]:
        ctx = info.context
        actor = ctx.require_actor()
        if not actor.is_super_admin:
            return []
        async with ctx.container.uow() as uow:
            return [RegisteredCluster.of(c) for c in await clusters_uc.clusters_list(SqlClusterRecords(uow), actor)]

    @strawberry.field(description="A node operation and its progress (super_admin); null when unknown.")
    async def node_operation(self, info: Info, id: strawberry.ID) -> NodeOperation | None:
        ctx = info.context
        actor = ctx.require_actor()
        try:
            op = await node_ops.node_operation_get(node_operation_records(ctx.container), actor, UUID(str(id)))
        except (DomainError, ValueError):
            return None
        return NodeOperation.of(op)


@strawberry.type
class ClustersSubscription:
    @strawberry.subscription(description="A node operation's progress: its current state, then every step.")
    async def node_operation_progress(self, info: Info, id: strawberry.ID) -> AsyncGenerator[NodeOperation, None]:
        ctx = info.context
        actor = ctx.require_actor()
        records = node_operation_records(ctx.container)
        try:
            operation_id = UUID(str(id))
            op = await node_ops.node_operation_get(records, actor, operation_id)
        except (DomainError, ValueError):
            return
        async with ctx.container.events.subscribe(node_ops.node_operation_topic(operation_id)) as events:
            op = await node_ops.node_operation_get(records, actor, operation_id)
            yield NodeOperation.of(op)
            if op.state is not node_ops.NodeOperationState.RUNNING:
                return
            async for _ in events:
                op = await node_ops.node_operation_get(records, actor, operation_id)
                yield NodeOperation.of(op)
                if op.state is not node_ops.NodeOperationState.RUNNING:
                    return
