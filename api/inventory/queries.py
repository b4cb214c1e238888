from __future__ import annotations

from collections.abc import AsyncGenerator
from uuid import UUID

import strawberry

from api.context import Info
from api.inventory.types import (
    Capacity,
    CapacityRow,
    ClusterNode,
    InstanceBundle,
    ModelCapacity,
    QueueEntryView,
    node_of,
    visible_session_gid,
)
from domain.sessions import capacity_views as views
from domain.sessions.services import CAPACITY_TOPIC, QUEUE_TOPIC


@strawberry.type
class ClusterView:
    id: str
    name: str
    kind: str
    placement_policy: str


async def _owners(info: Info, workload_ids: list[str]) -> dict[str, object]:
    ids = []
    for w in workload_ids:
        try:
            ids.append(UUID(w))
        except ValueError:
            continue
    async with info.context.container.uow() as uow:
        found = await uow.sessions.get_many(ids)
    return {str(s.id): s for s in found}


async def _capacity(info: Info, cluster_id: str | None) -> Capacity:
    async with info.context.container.uow() as uow:
        state = await uow.capacity.snapshot()
    view = views.capacity_view(state, cluster_id)
    return Capacity(
        by_resource=[CapacityRow.of(r) for r in view.by_resource],
        by_model=[CapacityRow.of(r) for r in view.by_model],
        models=[ModelCapacity.of(t) for t in view.totals],
    )


@strawberry.type
class InventoryQuery:
    @strawberry.field(
        description="GPU capacity per resource kind and per model: Total / Used / Available, physical and logical."
    )
    async def capacity(self, info: Info, cluster_id: str | None = None) -> Capacity:
        info.context.require_actor()
        return await _capacity(info, cluster_id)

    @strawberry.field(
        description="Suggested CPU/memory/GPU bundles from free resources (4 CPU + 16 GiB per GPU when nodes say nothing)."
    )
    async def instance_bundles(self, info: Info, cluster_id: str | None = None) -> list[InstanceBundle]:
        info.context.require_actor()
        async with info.context.container.uow() as uow:
            state = await uow.capacity.snapshot()
        return [InstanceBundle.of(b) for b in views.bundles(state, cluster_id)]

    @strawberry.field(description="Clusters of the deployment.")
    async def clusters(self, info: Info) -> list[ClusterView]:
        info.context.require_actor()
        async with info.context.container.uow() as uow:
            rows = await uow.capacity.clusters()
        return [ClusterView(id=c.id, name=c.name, kind=kind, placement_policy=c.placement_policy) for c, kind in rows]

    @strawberry.field(description="Nodes and cards with what runs on each (admins).")
    async def cluster_nodes(self, info: Info, cluster_id: str | None = None) -> list[ClusterNode]:
        actor = info.context.require_actor()
        async with info.context.container.uow() as uow:
            state = await uow.capacity.snapshot()
        nodes = views.nodes_view(state, actor, cluster_id)
        owners = await _owners(info, [a.workload_id for n in nodes for a in n.allocations])
        return [node_of(info, n, state.scheduler, owners) for n in nodes]

    @strawberry.field(
        description="The GPU queue, per offering in admission order; sessions you may not see are anonymous."
    )
    async def gpu_queue(self, info: Info, offering: str | None = None) -> list[QueueEntryView]:
        info.context.require_actor()
        async with info.context.container.uow() as uow:
            state = await uow.capacity.snapshot()
        rows = views.queue_rows(state, offering)
        owners = await _owners(info, [r.entry.workload_id for r in rows])

        return [
            QueueEntryView.of(
                r,
                visible_session_gid(info, r.entry.workload_id, owners),
                getattr(owners.get(r.entry.workload_id), "name", None),
            )
            for r in rows
        ]


@strawberry.type
class InventorySubscription:
    @strawberry.subscription(
        description="Capacity now, then again whenever placements, the queue or the inventory change."
    )
    async def capacity_changed(self, info: Info, cluster_id: str | None = None) -> AsyncGenerator[Capacity, None]:
        info.context.require_actor()
        yield await _capacity(info, cluster_id)
        async with info.context.container.events.subscribe(CAPACITY_TOPIC, QUEUE_TOPIC) as events:
            async for _ in events:
                yield await _capacity(info, cluster_id)
