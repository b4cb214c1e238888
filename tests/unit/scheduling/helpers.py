"""Small inventories for scheduling tests."""

from __future__ import annotations

from domain.inventory.model import (
    Card,
    CardShare,
    Cluster,
    GpuKind,
    Inventory,
    MigInstance,
    MigProfile,
    Node,
    Placement,
    SharingMode,
)
from domain.scheduling.model import Allocation, GpuRequest, fraction_ratio

A100 = "A100-80GB"
A30 = "A30-24GB"
VRAM_80G = 81920


def card(uuid: str, model: str = A100, vram: int = VRAM_80G, *, mig: tuple[str, ...] = (), replicas: int = 1) -> Card:
    return Card(
        uuid,
        model,
        vram,
        mig_instances=tuple(MigInstance(f"{uuid}-m{i}", MigProfile.parse(p)) for i, p in enumerate(mig)),
        timeslice_replicas=replicas,
    )


def node(
    node_id: str,
    mode: SharingMode,
    *cards: Card,
    cluster: str = "c1",
    cpu: int = 64_000,
    mem: int = 512_000,
    cordoned: bool = False,
) -> Node:
    return Node(node_id, node_id, cluster, mode, cpu, mem, tuple(cards), cordoned=cordoned)


def inventory(*nodes: Node, policy: str = "best-fit", clusters: tuple[str, ...] = ("c1",)) -> Inventory:
    return Inventory(tuple(Cluster(c, c, policy) for c in clusters), tuple(nodes))


def on_card(request: GpuRequest, node_id: str, card_uuid: str, cluster: str = "c1") -> Allocation:
    """An allocation of a fractional request on a chosen HAMi card (to set up a state)."""
    v, c = request.vram_mib, request.cores
    share = CardShare(card_uuid, v, c)
    ratio = fraction_ratio(v, c, VRAM_80G, 100)
    return Allocation(
        request,
        Placement(cluster, node_id, GpuKind.HAMI, (share,), ratio, request.cpu_millicores, request.memory_mib),
    )
