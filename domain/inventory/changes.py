"""Guarded node changes (BRICK's runbook as a feature): switching a node's sharing mode or its
time-slice replica count.

`plan_sharing_mode_change` is the pre-check and the plan. It refuses a change that would leave
less time-sliced capacity in the cluster than is allocated now, and otherwise lists what the
caller carries out, in order: cordon, drain (pause the workloads on the node), relabel,
verify the new resource is exposed, remove the old resource's stale capacity, uncordon.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from domain.inventory.errors import InventoryError, InventoryErrorCode
from domain.inventory.model import GpuKind, Inventory, Node, Placement, SharingMode, card_index

RUNBOOK_STEPS = (
    "pre-check",
    "cordon",
    "drain",
    "relabel",
    "verify",
    "remove-stale-capacity",
    "uncordon",
)


@dataclass(frozen=True, slots=True)
class SharingModeChangePlan:
    node_id: str
    from_mode: SharingMode
    to_mode: SharingMode
    # the node as it will be once relabelled (its old resources listed until removed)
    new_node: Node
    # workload ids holding capacity on the node: paused during the drain, re-queued
    drain: tuple[str, ...]
    # cluster-wide time-slices of the node's models: allocated now, total before and after
    shared_allocated: int
    shared_total_before: int
    shared_total_after: int
    # resources the node will still list after relabelling until they are removed
    stale_after: tuple[str, ...]
    steps: tuple[str, ...] = RUNBOOK_STEPS


def plan_sharing_mode_change(
    inventory: Inventory,
    allocations: Mapping[str, Placement],
    node_id: str,
    mode: SharingMode,
    replicas: int | None = None,
) -> SharingModeChangePlan:
    """`allocations` maps workload id to placement (everything currently placed).
    `replicas` is the new time-slice count for a time-slicing node (kept when None)."""
    node = inventory.node(node_id)
    if replicas is not None and replicas < 1:
        raise InventoryError("replicas must be at least 1", "replicas", InventoryErrorCode.SHARING_CHANGE_INVALID)
    if mode is SharingMode.TIMESLICING and any(c.mig_enabled for c in node.cards):
        raise InventoryError(
            f"node {node.name} has MIG cards; MIG and time-slicing do not mix on a card",
            "mode",
            InventoryErrorCode.SHARING_CHANGE_INVALID,
        )
    new_replicas = replicas if mode is SharingMode.TIMESLICING else 1
    cards = tuple(
        replace(
            c,
            timeslice_replicas=(
                1 if c.mig_enabled else new_replicas if new_replicas is not None else c.timeslice_replicas
            ),
        )
        for c in node.cards
    )
    if mode is node.sharing_mode and cards == node.cards:
        raise InventoryError(
            f"node {node.name} already runs in {mode.value} mode with these replicas",
            "mode",
            InventoryErrorCode.SHARING_CHANGE_INVALID,
        )
    advertised = dict(node.advertised_resources) or node.served_resources()
    new_node = replace(node, sharing_mode=mode, cards=cards, advertised_resources=advertised)
    after = inventory.replace_node(new_node)

    models = {c.model for c in node.cards}
    cards_by_uuid = card_index(inventory)
    allocated = sum(
        1
        for p in allocations.values()
        if p.kind is GpuKind.SHARED
        and p.cluster_id == node.cluster_id
        and p.shares[0].card_uuid in cards_by_uuid
        and cards_by_uuid[p.shares[0].card_uuid][1].model in models
    )
    before_total = _shared_units(inventory, node.cluster_id, models)
    after_total = _shared_units(after, node.cluster_id, models)
    if after_total < allocated and after_total < before_total:
        raise InventoryError(
            f"after the change the cluster would have {after_total} time-slices of "
            f"{', '.join(sorted(models))} but {allocated} are allocated; free some first",
            "mode" if mode is not node.sharing_mode else "replicas",
            InventoryErrorCode.SHARING_CHANGE_SHARED_CAPACITY_SHORT,
        )
    drain = tuple(sorted(wid for wid, p in allocations.items() if p.node_id == node_id))
    relabelled = replace(new_node, advertised_resources={**advertised, **new_node.served_resources()})
    return SharingModeChangePlan(
        node_id=node_id,
        from_mode=node.sharing_mode,
        to_mode=mode,
        new_node=new_node,
        drain=drain,
        shared_allocated=allocated,
        shared_total_before=before_total,
        shared_total_after=after_total,
        stale_after=relabelled.stale_resources,
    )


def _shared_units(inventory: Inventory, cluster_id: str, models: set[str]) -> int:
    return sum(
        card.timeslice_replicas
        for node in inventory.nodes_of(cluster_id)
        if node.sharing_mode is SharingMode.TIMESLICING and node.accepts_work
        for card in node.cards
        if card.model in models and not card.mig_enabled
    )
