"""Read models over the capacity state: capacity rows, nodes with what runs on each, queue
positions and instance bundles, filtered by what the actor may see."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from domain.common.errors import NotFoundError, PermissionDeniedError
from domain.inventory.bundles import InstanceBundle, instance_bundles
from domain.inventory.capacity import CapacityRow, ModelTotals, capacity_by_model, capacity_by_resource, model_totals
from domain.inventory.model import Cluster, Node
from domain.scheduling.model import Allocation
from domain.scheduling.queue import QueueEntry
from domain.sessions.ports import CapacityState
from domain.tenancy.access import is_any_admin
from domain.tenancy.model import Actor


@dataclass(frozen=True)
class CapacityView:
    by_resource: list[CapacityRow]
    by_model: list[CapacityRow]
    totals: list[ModelTotals]


def capacity_view(state: CapacityState, cluster_id: str | None = None) -> CapacityView:
    inv = state.scheduler.inventory
    placements = state.scheduler.placements()
    return CapacityView(
        capacity_by_resource(inv, placements, cluster_id),
        capacity_by_model(inv, placements, cluster_id),
        model_totals(inv, placements, cluster_id),
    )


def bundles(state: CapacityState, cluster_id: str | None = None) -> list[InstanceBundle]:
    return instance_bundles(state.scheduler.inventory, state.scheduler.placements(), cluster_id)


@dataclass(frozen=True)
class NodeView:
    node: Node
    cluster: Cluster
    allocations: list[Allocation]
    free_cpu_millicores: int
    free_memory_mib: int


def require_inventory_reader(actor: Actor) -> None:
    """Nodes and cards (with what runs where) are for admins."""
    if not is_any_admin(actor):
        raise PermissionDeniedError("only admins see clusters, nodes and cards")


def nodes_view(state: CapacityState, actor: Actor, cluster_id: str | None = None) -> list[NodeView]:
    require_inventory_reader(actor)
    inv = state.scheduler.inventory
    by_node: dict[str, list[Allocation]] = {}
    for a in state.scheduler.allocations():
        by_node.setdefault(a.placement.node_id, []).append(a)
    out = []
    for node in inv.nodes:
        if cluster_id is not None and node.cluster_id != cluster_id:
            continue
        cpu, mem = state.scheduler.node_free(node.id)
        out.append(NodeView(node, inv.cluster(node.cluster_id), by_node.get(node.id, []), cpu, mem))
    return out


def node_view(state: CapacityState, actor: Actor, node_id: str) -> NodeView:
    for view in nodes_view(state, actor):
        if view.node.id == node_id:
            return view
    raise NotFoundError("node", "id")


@dataclass(frozen=True)
class QueueRow:
    entry: QueueEntry
    position: int
    length: int


def queue_rows(state: CapacityState, offering: str | None = None) -> list[QueueRow]:
    rows: list[QueueRow] = []
    for name in [offering] if offering else state.queue.offerings():
        entries = state.queue.entries(name)
        rows.extend(QueueRow(e, i + 1, len(entries)) for i, e in enumerate(entries))
    return rows


def queue_position(state: CapacityState, session_id: UUID) -> QueueRow | None:
    wid = str(session_id)
    if wid not in state.queue:
        return None
    p = state.queue.position(wid)
    entry = next(e for e in state.queue.entries(p.offering) if e.workload_id == wid)
    return QueueRow(entry, p.position, p.length)
