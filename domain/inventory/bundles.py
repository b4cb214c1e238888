"""Instance bundles (Cluma): suggested CPU / memory / GPU combinations computed from what nodes
have free. A GPU node offers only bundles with at least one whole GPU, sized by its CPU and
memory per card (4 CPU + 16 GiB per GPU when the node reports nothing); a CPU-only node offers
CPU bundles."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from domain.inventory.model import Inventory, Node, Placement, SharingMode

DEFAULT_CPU_PER_GPU_MILLICORES = 4000
DEFAULT_MEMORY_PER_GPU_MIB = 16 * 1024
DEFAULT_MEMORY_PER_CPU_MIB = 4 * 1024
CPU_BUNDLE_SIZES = (1, 2, 4, 8, 16, 32, 64)


@dataclass(frozen=True, slots=True)
class InstanceBundle:
    """`model` None means a CPU-only bundle. `nodes` counts nodes that can host it right now."""

    model: str | None
    gpus: int
    cpu_millicores: int
    memory_mib: int
    nodes: int

    @property
    def name(self) -> str:
        cpu = self.cpu_millicores / 1000
        mem = self.memory_mib / 1024
        head = f"{self.model} × {self.gpus}, " if self.model else ""
        return f"{head}{cpu:g} CPU, {mem:g} GiB"


_BundleKey = tuple[str | None, int, int, int]


def _free_resources(
    inventory: Inventory, placements: Iterable[Placement]
) -> tuple[dict[str, int], dict[str, int], set[str]]:
    cpu = {n.id: n.cpu_millicores for n in inventory.nodes}
    mem = {n.id: n.memory_mib for n in inventory.nodes}
    busy_cards: set[str] = set()
    for p in placements:
        if p.node_id in cpu:
            cpu[p.node_id] -= p.cpu_millicores
            mem[p.node_id] -= p.memory_mib
        busy_cards.update(p.card_uuids)
    return cpu, mem, busy_cards


def _whole_cards(node: Node) -> list[str]:
    """Cards this node can give away whole (not MIG, not time-sliced)."""
    if node.sharing_mode is SharingMode.TIMESLICING:
        return []
    return [c.uuid for c in node.cards if not c.mig_enabled]


def instance_bundles(
    inventory: Inventory, placements: Iterable[Placement], cluster_id: str | None = None
) -> list[InstanceBundle]:
    free_cpu, free_mem, busy = _free_resources(inventory, placements)
    hosts: dict[_BundleKey, int] = {}
    for node in inventory.nodes:
        if not node.accepts_work or (cluster_id is not None and node.cluster_id != cluster_id):
            continue
        cpu, mem = free_cpu[node.id], free_mem[node.id]
        if node.is_gpu_node:
            gpu_count = len(node.cards)
            cpu_per_gpu = node.cpu_millicores // gpu_count if node.cpu_millicores else DEFAULT_CPU_PER_GPU_MILLICORES
            mem_per_gpu = node.memory_mib // gpu_count if node.memory_mib else DEFAULT_MEMORY_PER_GPU_MIB
            free_by_model: dict[str, int] = {}
            for card in node.cards:
                if card.uuid in _whole_cards(node) and card.uuid not in busy:
                    free_by_model[card.model] = free_by_model.get(card.model, 0) + 1
            for model, free in free_by_model.items():
                for n in range(1, free + 1):
                    need_cpu, need_mem = n * cpu_per_gpu, n * mem_per_gpu
                    # a node that reports no CPU/memory is not held to the default sizes
                    if node.cpu_millicores and need_cpu > cpu:
                        break
                    if node.memory_mib and need_mem > mem:
                        break
                    key: _BundleKey = (model, n, need_cpu, need_mem)
                    hosts[key] = hosts.get(key, 0) + 1
        else:
            cores = node.cpu_millicores // 1000
            mem_per_cpu = node.memory_mib // cores if cores else DEFAULT_MEMORY_PER_CPU_MIB
            for size in CPU_BUNDLE_SIZES:
                need_cpu, need_mem = size * 1000, size * mem_per_cpu
                if need_cpu > cpu or need_mem > mem:
                    break
                cpu_key: _BundleKey = (None, 0, need_cpu, need_mem)
                hosts[cpu_key] = hosts.get(cpu_key, 0) + 1
    bundles = [InstanceBundle(m, g, c, mm, n) for (m, g, c, mm), n in hosts.items()]
    bundles.sort(key=lambda b: (b.model is not None, b.model or "", b.gpus, b.cpu_millicores))
    return bundles
