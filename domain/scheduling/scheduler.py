"""The scheduler: free-capacity state for a whole inventory, placement through each cluster's
policy, and exact apply/release of allocations.

Build one from a snapshot (the inventory plus the allocations the database holds), then
`place` / `release` incrementally. `to_dict` / `from_dict` round-trip it through plain data.
The scheduler is not thread-safe and does no I/O; the caller serialises decisions (e.g. under
the database lock that guards capacity) and persists the resulting allocations.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from typing import Any

from domain.inventory.model import (
    CardShare,
    GpuKind,
    Inventory,
    Placement,
)
from domain.scheduling.errors import SchedulingError, SchedulingErrorCode
from domain.scheduling.index import (
    Candidate,
    CardRole,
    CardState,
    ClusterState,
    FractionIndex,
    MigState,
    NodeFit,
    NodeState,
    OrderedSet,
    StateView,
)
from domain.scheduling.model import (
    Allocation,
    GpuRequest,
    RequestMode,
    exclusive_ratio,
    fraction_ratio,
    timeslice_ratio,
)
from domain.scheduling.policies import POLICIES, PlacementPolicy, PolicyFactory


@dataclass(frozen=True, slots=True)
class FreeSummary:
    """Free capacity of one model: HAMi VRAM/cores summed over cards (not necessarily usable
    together), whole free cards (HAMi and exclusive nodes; `hami_whole_cards` of them on HAMi
    nodes), free time-slices, and free MIG instances per profile."""

    model: str
    hami_vram_mib: int
    hami_cores: int
    whole_cards: int
    hami_whole_cards: int
    timeslices: int
    mig_instances: Mapping[str, int]


# the ratios of the few sizes a cluster sees, computed once (Fraction arithmetic is slow)
_fraction_ratio = lru_cache(maxsize=4096)(fraction_ratio)
_exclusive_ratio = lru_cache(maxsize=64)(exclusive_ratio)
_NO_RATIO = Fraction(0)


class ShortfallKind(StrEnum):
    """What a waiting request lacks (the `shortfall` parameter of WAITING_FOR_CAPACITY)."""

    GPU_TAKEN = "GPU_TAKEN"  # model; cards for whole cards
    CPU_MEMORY = "CPU_MEMORY"  # cpu, memoryGib: no node has them free (a CPU-only request)
    CPU_MEMORY_BESIDE_GPU = "CPU_MEMORY_BESIDE_GPU"  # node, freeCpu, freeMemoryGib, cpu, memoryGib


@dataclass(frozen=True, slots=True)
class Shortfall:
    """Why a request does not fit now: its kind, the numbers by name, and the same in English."""

    kind: ShortfallKind
    numbers: Mapping[str, str]
    text: str

    def params(self) -> dict[str, str]:
        return {"shortfall": self.kind.value, **self.numbers}


def _cpus(millicores: int) -> str:
    return f"{millicores / 1000:g} CPU"


def _gib(mib: int) -> str:
    return f"{mib / 1024:g} GiB"


def _conflict(message: str) -> SchedulingError:
    return SchedulingError(SchedulingErrorCode.PLACEMENT_CONFLICT, message)


class Scheduler:
    def __init__(
        self,
        inventory: Inventory,
        allocations: Iterable[Allocation] = (),
        policies: Mapping[str, PolicyFactory] = POLICIES,
    ) -> None:
        self._inventory = inventory
        self._policy_factories = policies
        self._clusters: list[ClusterState] = []
        self._cluster_by_id: dict[str, ClusterState] = {}
        self._policies: dict[str, PlacementPolicy] = {}
        self._nodes: list[NodeState] = []
        self._node_by_id: dict[str, NodeState] = {}
        self._cards: list[CardState] = []
        self._card_by_uuid: dict[str, CardState] = {}
        self._migs: list[MigState] = []
        self._mig_by_id: dict[str, MigState] = {}
        self._allocations: dict[str, Allocation] = {}
        self._touched: set[str] = set()  # workloads placed or released since take_touched()
        self._build()
        self._view = StateView(self._cards, self._migs, self._nodes)
        for allocation in allocations:
            self.observe(allocation.request)
            self.apply(allocation)

    # -- construction ---------------------------------------------------------------------

    def _build(self) -> None:
        for order, cluster in enumerate(self._inventory.clusters):
            factory = self._policy_factories.get(cluster.placement_policy)
            if factory is None:
                known = ", ".join(sorted(self._policy_factories))
                raise SchedulingError(
                    SchedulingErrorCode.PLACEMENT_POLICY_UNKNOWN,
                    f"cluster {cluster.name!r} names placement policy {cluster.placement_policy!r}; known: {known}",
                    "placement_policy",
                )
            state = ClusterState(cluster.id, order)
            self._clusters.append(state)
            self._cluster_by_id[cluster.id] = state
            self._policies[cluster.id] = factory()
        for node in self._inventory.nodes:
            cstate = self._cluster_by_id[node.cluster_id]
            ns = NodeState(node, len(self._nodes), cstate)
            self._nodes.append(ns)
            self._node_by_id[node.id] = ns
            for card in node.cards:
                cs = CardState(card, len(self._cards), ns)
                self._cards.append(cs)
                self._card_by_uuid[card.uuid] = cs
                ns.cards.append(cs)
                cstate.card_size.setdefault(card.model, (card.vram_mib, card.cores))
                for inst in card.mig_instances:
                    ms = MigState(inst, len(self._migs), cs)
                    self._migs.append(ms)
                    self._mig_by_id[inst.id] = ms
                    cs.migs.append(ms)
                    profiles = cstate.mig_profiles.setdefault(card.model, [])
                    if inst.profile not in profiles:
                        profiles.append(inst.profile)
                        profiles.sort(key=lambda p: (p.vram_mib, p.compute_slices, p.name))
        for ns in self._nodes:
            self._classify(ns)
            self._index_node(ns)

    @classmethod
    def from_snapshot(
        cls,
        inventory: Inventory,
        allocations: Iterable[Allocation],
        policies: Mapping[str, PolicyFactory] = POLICIES,
    ) -> tuple[Scheduler, list[tuple[Allocation, SchedulingError]]]:
        """Like the constructor, but an allocation that no longer fits the inventory (a node
        shrank or vanished, a card was re-partitioned) is skipped and returned with the
        reason instead of failing the whole build, so the caller can flag or heal it. Every
        allocation's request is counted in the policies' request mix (what runs now is the
        best sample of what will be asked for)."""
        scheduler = cls(inventory, (), policies)
        conflicts: list[tuple[Allocation, SchedulingError]] = []
        for allocation in allocations:
            scheduler.observe(allocation.request)
            try:
                scheduler.apply(allocation)
            except SchedulingError as conflict:
                conflicts.append((allocation, conflict))
        return scheduler, conflicts

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], policies: Mapping[str, PolicyFactory] = POLICIES) -> Scheduler:
        return cls(
            Inventory.from_dict(data["inventory"]),
            [Allocation.from_dict(a) for a in data.get("allocations", ())],
            policies,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "inventory": self._inventory.to_dict(),
            "allocations": [a.to_dict() for a in self._allocations.values()],
        }

    # -- reading --------------------------------------------------------------------------

    @property
    def inventory(self) -> Inventory:
        return self._inventory

    def allocations(self) -> list[Allocation]:
        return list(self._allocations.values())

    def placements(self) -> list[Placement]:
        return [a.placement for a in self._allocations.values()]

    def allocation(self, workload_id: str) -> Allocation | None:
        return self._allocations.get(workload_id)

    @property
    def dirty(self) -> bool:
        """Whether anything was placed or released since the last take_touched()."""
        return bool(self._touched)

    def take_touched(self) -> set[str]:
        """The workloads placed or released since the last call: what a store that keeps the
        allocations must write, without comparing every allocation it holds."""
        touched, self._touched = self._touched, set()
        return touched

    def policy_of(self, cluster_id: str) -> str:
        return self._policies[cluster_id].name

    def node_free(self, node_id: str) -> tuple[int, int]:
        """Free (CPU millicores, memory MiB) on a node."""
        ns = self._node_by_id[node_id]
        return ns.free_cpu, ns.free_mem

    def card_free(self, card_uuid: str) -> tuple[int, int, int]:
        """Free (VRAM MiB, cores, time-slices) on a card; a MIG card reports whole-card values."""
        cs = self._card_by_uuid[card_uuid]
        return cs.free_vram, cs.free_cores, cs.free_slices

    def card_tenants(self, card_uuid: str) -> dict[str, tuple[int, int]]:
        return dict(self._card_by_uuid[card_uuid].tenants)

    def mig_tenant(self, instance_id: str) -> str | None:
        return self._mig_by_id[instance_id].tenant

    def free_summary(self, model: str, cluster_id: str | None = None) -> FreeSummary:
        """Free capacity of a model on nodes that accept work, summed from the indexes (cost
        grows with the number of distinct free-capacity buckets, not with cards)."""
        vram = cores = whole = hami_whole = slices = 0
        mig: dict[str, int] = {}
        for cluster in self._clusters:
            if cluster_id is not None and cluster.id != cluster_id:
                continue
            for index in cluster.fraction.get(model, {}).values():
                for (fc, fv), bucket in index.buckets.items():
                    cores += fc * len(bucket)
                    vram += fv * len(bucket)
                size = cluster.card_size[model]
                untouched = index.buckets.get((size[1], size[0]))
                hami_whole += len(untouched) if untouched is not None else 0
            for by_count in cluster.exclusive.get(model, {}).values():
                for count, nodes in by_count.items():
                    whole += count * len(nodes)
            for by_free in cluster.timeslice.get(model, {}).values():
                for free, cards in by_free.items():
                    slices += free * len(cards)
            for by_profile in cluster.mig.get(model, {}).values():
                for profile, instances in by_profile.items():
                    mig[profile] = mig.get(profile, 0) + len(instances)
        return FreeSummary(model, vram, cores, whole, hami_whole, slices, mig)

    # -- deciding -------------------------------------------------------------------------

    def find(
        self,
        request: GpuRequest,
        *,
        exclude_nodes: frozenset[str] = frozenset(),
        only_nodes: frozenset[str] | None = None,
    ) -> Placement | None:
        """Where the request would go now, without taking anything; None if nothing fits.
        Raises `SchedulingError` for a request that can never be placed as asked."""
        candidate = self._choose(request, exclude_nodes, only_nodes)
        return None if candidate is None else self._placement(request, candidate)

    def place(self, request: GpuRequest, *, observe: bool = True) -> Allocation | None:
        """Decide and take. None means nothing fits now (the caller queues the request).

        `observe` tells the clusters' policies about the request (the fragmentation-aware
        policy learns the request mix from it); pass False when retrying a request that was
        already observed on arrival, as the queue does, so retries do not skew the mix."""
        if request.workload_id in self._allocations:
            raise SchedulingError(
                SchedulingErrorCode.WORKLOAD_ALREADY_PLACED,
                f"workload {request.workload_id} is already placed",
                "workload_id",
            )
        request.validate()
        if observe:
            self.observe(request)
        candidate = self._choose(request, frozenset(), None, validated=True)
        if candidate is None:
            return None
        placement = self._placement(request, candidate)
        allocation = Allocation(request, placement)
        self._take(allocation)
        return allocation

    def shortfall(self, request: GpuRequest) -> str:
        """Why the request does not fit now, in words a requester can act on: the CPU or
        memory a node with the GPU capacity lacks, or that the GPU capacity itself is taken."""
        return self.why_short(request).text

    def why_short(self, request: GpuRequest) -> Shortfall:
        """`shortfall` with its kind and numbers by name, for a client to say in its own language."""
        cpu, mem = request.cpu_millicores, request.memory_mib
        asked = f"{_cpus(cpu)} and {_gib(mem)} of memory"
        numbers = {"cpu": f"{cpu / 1000:g}", "memoryGib": f"{mem / 1024:g}"}
        if request.mode is RequestMode.CPU:
            return Shortfall(ShortfallKind.CPU_MEMORY, numbers, f"no node has {asked} free")
        gpu_only = replace(request, cpu_millicores=0, memory_mib=0)
        where = self.find(gpu_only)
        if where is None:
            gpu = {"model": request.offering}
            if request.exclusive_cards:
                gpu["cards"] = str(request.exclusive_cards)
            return Shortfall(ShortfallKind.GPU_TAKEN, gpu, "no GPU capacity of the kind it asks for is free")
        free_cpu, free_mem = self.node_free(where.node_id)
        short = [
            f"{_cpus(free_cpu)} free" if free_cpu < cpu else "",
            f"{_gib(free_mem)} free" if free_mem < mem else "",
        ]
        lacking = " and ".join(x for x in short if x)
        return Shortfall(
            ShortfallKind.CPU_MEMORY_BESIDE_GPU,
            {
                **numbers,
                "node": where.node_id,
                "freeCpu": f"{free_cpu / 1000:g}",
                "freeMemoryGib": f"{free_mem / 1024:g}",
            },
            f"the GPU capacity is free on node {where.node_id}, but it has {lacking} of the {asked} asked; "
            "no node with the GPU capacity free has the CPU and memory",
        )

    def observe(self, request: GpuRequest) -> None:
        """Count a request in the request mix of every cluster it may use. When a policy's
        node classes change with its mix, that cluster's nodes are re-indexed."""
        for cluster in self._clusters_for(request):
            if self._policies[cluster.id].observe(request):
                self._reclassify(cluster)

    def apply(self, allocation: Allocation) -> None:
        """Take exactly what an allocation names (e.g. one loaded from the database).
        Raises `SchedulingError(PLACEMENT_CONFLICT)` if it does not fit the current state;
        nothing is changed then."""
        if allocation.workload_id in self._allocations:
            raise SchedulingError(
                SchedulingErrorCode.WORKLOAD_ALREADY_PLACED,
                f"workload {allocation.workload_id} is already placed",
                "workload_id",
            )
        self._check(allocation)
        self._take(allocation)

    def release(self, workload_id: str) -> Allocation:
        """Give back exactly what the workload took (pause, stop, preemption)."""
        allocation = self._allocations.get(workload_id)
        if allocation is None:
            raise SchedulingError(
                SchedulingErrorCode.WORKLOAD_NOT_PLACED,
                f"workload {workload_id} holds no placement",
                "workload_id",
            )
        self._give(allocation)
        return allocation

    def set_cordoned(self, node_id: str, cordoned: bool) -> None:
        """Cordon (takes nothing new) or uncordon a node; what runs there stays."""
        ns = self._node_by_id[node_id]
        accepts = ns.node.schedulable and not cordoned
        if accepts == ns.accepts:
            return
        if not accepts:
            self._unindex_node(ns)
            ns.accepts = False
        else:
            ns.accepts = True
            self._classify(ns)
            self._index_node(ns)

    def reservation(self, request: GpuRequest) -> frozenset[str]:
        """The node a blocked request waits for: the one that could ever host it (were it
        empty) and lacks the least to host it now; ties go to the lowest order. Empty when no
        node could ever host it. Used by backfill, so this scans nodes (blocked heads only)."""
        request.validate()
        mode = request.mode
        allow_hami = request.forced_kind is not GpuKind.MIG
        allow_mig = request.forced_kind is not GpuKind.HAMI
        best: tuple[float, int, int] | None = None
        best_id = ""
        for cluster in self._clusters_for(request):
            for ns in self._nodes:
                if ns.cluster is not cluster or not ns.accepts:
                    continue
                if ns.node.cpu_millicores < request.cpu_millicores or ns.node.memory_mib < request.memory_mib:
                    continue
                missing = self._missing(ns, request, mode, allow_hami, allow_mig)
                if missing is None:
                    continue
                missing += max(0, request.cpu_millicores - ns.free_cpu) / max(1, ns.node.cpu_millicores) + max(
                    0, request.memory_mib - ns.free_mem
                ) / max(1, ns.node.memory_mib)
                # a CPU-only request waits for a CPU node before a GPU node
                key = (missing, int(mode is RequestMode.CPU and bool(ns.cards)), ns.order)
                if best is None or key < best:
                    best, best_id = key, ns.id
        return frozenset() if best is None else frozenset({best_id})

    @staticmethod
    def _missing(
        ns: NodeState, request: GpuRequest, mode: RequestMode, allow_hami: bool, allow_mig: bool
    ) -> float | None:
        """How much (in card shares) the node lacks for the request; None if it never could.
        Over the request's model options, the one it lacks least of."""
        if mode is RequestMode.CPU:
            return 0.0
        found: list[float] = []
        for option in request.options:
            cards = [c for c in ns.cards if c.model == option.model]
            if mode is RequestMode.EXCLUSIVE:
                whole = [c for c in cards if c.gives_whole]
                if len(whole) < request.cards_wanted:
                    continue
                free = sum(1 for c in whole if not c.tenants)
                found.append(float(max(0, request.cards_wanted - free)))
                continue
            if mode is RequestMode.SHARED:
                slices = [c for c in cards if c.role == CardRole.TIMESLICE]
                if slices:
                    found.append(0.0 if any(c.free_slices for c in slices) else 1.0)
                continue
            v, c_ = option.vram_mib, option.cores
            for card in cards:
                if card.role == CardRole.HAMI and allow_hami:
                    found.append(max(0, v - card.free_vram) / card.vram + max(0, c_ - card.free_cores) / card.cores)
                elif card.role == CardRole.MIG and allow_mig:
                    for ms in card.migs:
                        if ms.vram >= v and ms.cores >= c_:
                            found.append(0.0 if ms.tenant is None else ms.vram / card.vram)
        return min(found) if found else None

    def _clusters_for(self, request: GpuRequest) -> list[ClusterState]:
        if request.clusters is None:
            return self._clusters
        return [c for c in self._clusters if c.id in request.clusters]

    def _choose(
        self,
        request: GpuRequest,
        exclude_nodes: frozenset[str],
        only_nodes: frozenset[str] | None,
        validated: bool = False,
    ) -> Candidate | None:
        if not validated:
            request.validate()
        mode = request.mode
        if mode is RequestMode.FRACTION:
            self._check_fraction_size(request)
        allow_hami = request.forced_kind is not GpuKind.MIG
        allow_mig = request.forced_kind is not GpuKind.HAMI
        cpu, mem = request.cpu_millicores, request.memory_mib
        fits: NodeFit
        if exclude_nodes or only_nodes is not None:

            def fits(n: NodeState) -> bool:
                return (
                    n.accepts
                    and n.free_cpu >= cpu
                    and n.free_mem >= mem
                    and n.id not in exclude_nodes
                    and (only_nodes is None or n.id in only_nodes)
                )

        else:

            def fits(n: NodeState) -> bool:
                return n.accepts and n.free_cpu >= cpu and n.free_mem >= mem

        best: Candidate | None = None
        best_key: tuple[tuple[float, ...], int] | None = None
        for cluster in self._clusters_for(request):
            candidate = self._policies[cluster.id].choose(cluster, self._view, request, fits, allow_hami, allow_mig)
            if candidate is None:
                continue
            key = (candidate.score, cluster.order)
            if best_key is None or key < best_key:
                best, best_key = candidate, key
        return best

    def _check_fraction_size(self, request: GpuRequest) -> None:
        """A fraction larger than its model's card can never be placed: refused (for a
        request with several model options, when it exceeds the card of every one known)."""
        problems: list[SchedulingError] = []
        for option in request.options:
            size = next((c.card_size[option.model] for c in self._clusters if option.model in c.card_size), None)
            if size is None:
                continue
            vram, cores = size
            if option.vram_mib <= vram and option.cores <= cores:
                return
            problems.append(
                SchedulingError(
                    SchedulingErrorCode.GPU_REQUEST_INVALID,
                    f"a fraction of a {option.model} card cannot exceed the card "
                    f"({vram} MiB, {cores} cores); ask for exclusive cards instead",
                    "vram_mib" if option.vram_mib > vram else "cores",
                )
            )
        if problems:
            raise problems[0]

    def _placement(self, request: GpuRequest, c: Candidate) -> Placement:
        node = c.node
        cluster_id = node.cluster.id
        if c.kind is None:
            return Placement(cluster_id, node.id, None, (), _NO_RATIO, request.cpu_millicores, request.memory_mib)
        option = request.choice(c.cards[0].model)
        assert option is not None
        if c.kind is GpuKind.EXCLUSIVE:
            shares = tuple(CardShare(cs.uuid, cs.vram, cs.cores) for cs in c.cards)
            ratio = _exclusive_ratio(len(shares))
        elif c.kind is GpuKind.SHARED:
            cs = c.cards[0]
            replicas = cs.card.timeslice_replicas
            shares = (CardShare(cs.uuid, cs.vram // replicas, cs.cores // replicas, None, True),)
            ratio = timeslice_ratio(replicas)
        elif c.kind is GpuKind.MIG:
            assert c.mig is not None
            cs = c.cards[0]
            shares = (CardShare(cs.uuid, c.mig.vram, c.mig.cores, c.mig.id),)
            ratio = _fraction_ratio(option.vram_mib, option.cores, cs.vram, cs.cores)
        else:
            cs = c.cards[0]
            shares = (CardShare(cs.uuid, option.vram_mib, option.cores),)
            ratio = _fraction_ratio(option.vram_mib, option.cores, cs.vram, cs.cores)
        return Placement(
            cluster_id,
            node.id,
            c.kind,
            shares,
            ratio,
            request.cpu_millicores,
            request.memory_mib,
            option.model,
        )

    # -- exact bookkeeping ----------------------------------------------------------------

    def _check(self, allocation: Allocation) -> None:
        p = allocation.placement
        wid = allocation.workload_id
        ns = self._node_by_id.get(p.node_id)
        if ns is None or ns.cluster.id != p.cluster_id:
            raise _conflict(f"node {p.node_id} is not in cluster {p.cluster_id}")
        if ns.free_cpu < p.cpu_millicores or ns.free_mem < p.memory_mib:
            raise _conflict(f"node {p.node_id} lacks the CPU or memory")
        if p.kind is None:
            if p.shares:
                raise _conflict("a CPU-only placement names no card")
            return
        if not p.shares:
            raise _conflict("a GPU placement names at least one card")
        if len({s.card_uuid for s in p.shares}) != len(p.shares):
            raise _conflict("a placement names a card twice")
        if p.kind is not GpuKind.EXCLUSIVE and len(p.shares) != 1:
            raise _conflict("only exclusive placements take several cards")
        for share in p.shares:
            cs = self._card_by_uuid.get(share.card_uuid)
            if cs is None or cs.node is not ns:
                raise _conflict(f"card {share.card_uuid} is not on node {p.node_id}")
            if p.kind is GpuKind.MIG:
                ms = self._mig_by_id.get(share.mig_instance_id or "")
                if ms is None or ms.card is not cs or ms.tenant is not None:
                    raise _conflict(f"MIG instance {share.mig_instance_id} is not free")
            elif p.kind is GpuKind.SHARED:
                if cs.role != CardRole.TIMESLICE or cs.free_slices < 1 or wid in cs.tenants:
                    raise _conflict(f"card {cs.uuid} has no time-slice for this workload")
            elif p.kind is GpuKind.EXCLUSIVE:
                if not cs.gives_whole or cs.tenants:
                    raise _conflict(f"card {cs.uuid} is not free to take whole")
                if share.vram_mib != cs.vram or share.cores != cs.cores:
                    raise _conflict(f"an exclusive share of {cs.uuid} must be the whole card")
            else:
                if cs.role != CardRole.HAMI:
                    raise _conflict(f"card {cs.uuid} does not take HAMi fractions")
                if cs.free_vram < share.vram_mib or cs.free_cores < share.cores:
                    raise _conflict(f"card {cs.uuid} lacks the VRAM or cores")
                if share.vram_mib <= 0 or share.cores <= 0:
                    raise _conflict("a HAMi fraction takes some VRAM and cores")

    def _take(self, allocation: Allocation) -> None:
        p = allocation.placement
        wid = allocation.workload_id
        ns = self._node_by_id[p.node_id]
        self._unindex_resources(ns)
        ns.usable = None
        ns.free_cpu -= p.cpu_millicores
        ns.free_mem -= p.memory_mib
        for share in p.shares:
            cs = self._card_by_uuid[share.card_uuid]
            if share.mig_instance_id is not None:
                ms = self._mig_by_id[share.mig_instance_id]
                self._unindex_mig(ms)
                ms.tenant = wid
                cs.tenants[wid] = (share.vram_mib, share.cores)
                continue
            self._unindex_card(cs)
            if share.timeslice:
                cs.free_slices -= 1
                cs.tenants[wid] = (0, 0)
            else:
                cs.free_vram -= share.vram_mib
                cs.free_cores -= share.cores
                cs.tenants[wid] = (share.vram_mib, share.cores)
            self._index_card(cs)
        self._settle(ns)
        self._allocations[wid] = allocation
        self._touched.add(wid)

    def _give(self, allocation: Allocation) -> None:
        p = allocation.placement
        wid = allocation.workload_id
        ns = self._node_by_id[p.node_id]
        self._unindex_resources(ns)
        ns.usable = None
        ns.free_cpu += p.cpu_millicores
        ns.free_mem += p.memory_mib
        for share in p.shares:
            cs = self._card_by_uuid[share.card_uuid]
            if share.mig_instance_id is not None:
                ms = self._mig_by_id[share.mig_instance_id]
                ms.tenant = None
                del cs.tenants[wid]
                self._index_mig(ms)
                continue
            self._unindex_card(cs)
            if share.timeslice:
                cs.free_slices += 1
            else:
                cs.free_vram += share.vram_mib
                cs.free_cores += share.cores
            del cs.tenants[wid]
            self._index_card(cs)
        self._settle(ns)
        del self._allocations[wid]
        self._touched.add(wid)

    # -- index maintenance ----------------------------------------------------------------

    def _classify(self, ns: NodeState) -> None:
        ns.cls = self._policies[ns.cluster.id].node_class(ns)

    def _settle(self, ns: NodeState) -> None:
        """After a node's free capacity changed: move it to the class its policy now gives
        it (re-indexing its cards when that changed) and index its CPU and memory."""
        if not ns.accepts:
            return
        cls = self._policies[ns.cluster.id].node_class(ns)
        if cls != ns.cls:
            self._move_class(ns, cls)
        self._index_resources(ns)

    @staticmethod
    def _move_class(ns: NodeState, new: int) -> None:
        """Move a node's free capacity from the sub-indexes of its class to those of `new`:
        each card, instance and whole-card count keeps its key, only the class changes."""
        old = ns.cls
        cluster = ns.cluster
        for cs in ns.cards:
            role = cs.role
            if role == CardRole.HAMI:
                if cs.free_cores > 0 and cs.free_vram > 0:
                    fc, fv, order = cs.free_cores, cs.free_vram, cs.order
                    by_cls = cluster.fraction[cs.model]
                    index = by_cls[old]
                    index.remove(fc, fv, order)
                    target = by_cls.get(new)
                    if target is None:
                        target = by_cls[new] = FractionIndex(flat=True)
                    target.add(fc, fv, order)
                    if not index.buckets:
                        del by_cls[old]
            elif role == CardRole.TIMESLICE:
                if cs.free_slices > 0:
                    by_cls_ts = cluster.timeslice[cs.model]
                    by_free = by_cls_ts[old]
                    bucket = by_free[cs.free_slices]
                    bucket.discard(cs.order)
                    if not bucket.members:
                        del by_free[cs.free_slices]
                    to_free = by_cls_ts.get(new)
                    if to_free is None:
                        to_free = by_cls_ts[new] = {}
                    to_bucket = to_free.get(cs.free_slices)
                    if to_bucket is None:
                        to_bucket = to_free[cs.free_slices] = OrderedSet()
                    to_bucket.add(cs.order)
                    if not by_free:
                        del by_cls_ts[old]
            elif role == CardRole.MIG:
                for ms in cs.migs:
                    if ms.tenant is None:
                        by_cls_mig = cluster.mig[cs.model]
                        by_profile = by_cls_mig[old]
                        name = ms.profile.name
                        bucket = by_profile[name]
                        bucket.discard(ms.order)
                        if not bucket.members:
                            del by_profile[name]
                        to_profile = by_cls_mig.get(new)
                        if to_profile is None:
                            to_profile = by_cls_mig[new] = {}
                        to_bucket = to_profile.get(name)
                        if to_bucket is None:
                            to_bucket = to_profile[name] = OrderedSet()
                        to_bucket.add(ms.order)
                        if not by_profile:
                            del by_cls_mig[old]
        # whole-card counts take the path a card-by-card re-index takes (down to 0 in the old
        # class, up again in the new one), so every bucket sees the same adds and discards
        counts = [(model, len(free)) for model, free in ns.whole_free.items() if free]
        for model, count in counts:
            for k in range(count, 0, -1):
                Scheduler._move_node(ns, model, k, k - 1)
        ns.cls = new
        for model, count in counts:
            for k in range(count):
                Scheduler._move_node(ns, model, k, k + 1)

    def _reclassify(self, cluster: ClusterState) -> None:
        for ns in self._nodes:
            if ns.cluster is cluster and ns.accepts:
                self._unindex_resources(ns)
                self._settle(ns)

    def _index_node(self, ns: NodeState) -> None:
        self._index_cards(ns)
        self._index_resources(ns)

    def _unindex_node(self, ns: NodeState) -> None:
        self._unindex_cards(ns)
        self._unindex_resources(ns)

    def _index_cards(self, ns: NodeState) -> None:
        for cs in ns.cards:
            self._index_card(cs)
            for ms in cs.migs:
                self._index_mig(ms)

    def _unindex_cards(self, ns: NodeState) -> None:
        for cs in ns.cards:
            self._unindex_card(cs)
            for ms in cs.migs:
                self._unindex_mig(ms)

    @staticmethod
    def _index_resources(ns: NodeState) -> None:
        if ns.accepts:
            if ns.cards:  # (_resource_index, inline: this runs at every take and give)
                gpu_nodes = ns.cluster.gpu_nodes
                index = gpu_nodes.get(ns.cls)
                if index is None:
                    index = gpu_nodes[ns.cls] = FractionIndex()
            else:
                index = ns.cluster.cpu_nodes
            index.add(ns.free_cpu, ns.free_mem, ns.order)

    @staticmethod
    def _unindex_resources(ns: NodeState) -> None:
        if not ns.accepts:
            return
        if ns.cards:
            gpu_nodes = ns.cluster.gpu_nodes
            index = gpu_nodes[ns.cls]
            index.remove(ns.free_cpu, ns.free_mem, ns.order)
            if not index.buckets:
                del gpu_nodes[ns.cls]
        else:
            ns.cluster.cpu_nodes.remove(ns.free_cpu, ns.free_mem, ns.order)

    def _index_mig(self, ms: MigState) -> None:
        ns = ms.card.node
        if ns.accepts and ms.tenant is None:
            by_cls = ns.cluster.mig.setdefault(ms.card.model, {})
            by_profile = by_cls.get(ns.cls)
            if by_profile is None:
                by_profile = by_cls[ns.cls] = {}
            bucket = by_profile.get(ms.profile.name)
            if bucket is None:
                bucket = by_profile[ms.profile.name] = OrderedSet()
            bucket.add(ms.order)

    def _unindex_mig(self, ms: MigState) -> None:
        ns = ms.card.node
        if ns.accepts and ms.tenant is None:
            by_cls = ns.cluster.mig[ms.card.model]
            by_profile = by_cls[ns.cls]
            bucket = by_profile[ms.profile.name]
            bucket.discard(ms.order)
            if not bucket.members:
                del by_profile[ms.profile.name]
                if not by_profile:
                    del by_cls[ns.cls]

    def _index_card(self, cs: CardState) -> None:
        ns = cs.node
        if not ns.accepts:
            return
        role = cs.role
        cluster = ns.cluster
        if role == CardRole.HAMI and cs.free_cores > 0 and cs.free_vram > 0:
            by_cls = cluster.fraction.get(cs.model)
            if by_cls is None:
                by_cls = cluster.fraction[cs.model] = {}
            index = by_cls.get(ns.cls)
            if index is None:
                index = by_cls[ns.cls] = FractionIndex(flat=True)
            index.add(cs.free_cores, cs.free_vram, cs.order)
        if role == CardRole.TIMESLICE and cs.free_slices > 0:
            by_free = cluster.timeslice.setdefault(cs.model, {}).setdefault(ns.cls, {})
            bucket = by_free.get(cs.free_slices)
            if bucket is None:
                bucket = by_free[cs.free_slices] = OrderedSet()
            bucket.add(cs.order)
        if (role == CardRole.HAMI or role == CardRole.EXCLUSIVE) and not cs.tenants:
            free = ns.whole_free.setdefault(cs.model, [])
            old = len(free)
            insort(free, cs.order)
            self._move_node(ns, cs.model, old, old + 1)

    def _unindex_card(self, cs: CardState) -> None:
        ns = cs.node
        if not ns.accepts:
            return
        role = cs.role
        cluster = ns.cluster
        if role == CardRole.HAMI and cs.free_cores > 0 and cs.free_vram > 0:
            by_cls = cluster.fraction[cs.model]
            index = by_cls[ns.cls]
            index.remove(cs.free_cores, cs.free_vram, cs.order)
            if not index.buckets:
                del by_cls[ns.cls]
        if role == CardRole.TIMESLICE and cs.free_slices > 0:
            by_cls_ts = cluster.timeslice[cs.model]
            by_free = by_cls_ts[ns.cls]
            bucket = by_free[cs.free_slices]
            bucket.discard(cs.order)
            if not bucket.members:
                del by_free[cs.free_slices]
                if not by_free:
                    del by_cls_ts[ns.cls]
        if (role == CardRole.HAMI or role == CardRole.EXCLUSIVE) and not cs.tenants:
            free = ns.whole_free[cs.model]
            old = len(free)
            free.remove(cs.order)
            self._move_node(ns, cs.model, old, old - 1)

    @staticmethod
    def _move_node(ns: NodeState, model: str, old: int, new: int) -> None:
        by_cls = ns.cluster.exclusive.setdefault(model, {})
        by_count = by_cls.get(ns.cls)
        if by_count is None:
            by_count = by_cls[ns.cls] = {}
        if old > 0:
            bucket = by_count[old]
            bucket.discard(ns.order)
            if not bucket.members:
                del by_count[old]
        if new > 0:
            target = by_count.get(new)
            if target is None:
                target = by_count[new] = OrderedSet()
            target.add(ns.order)
        if not by_count:
            del by_cls[ns.cls]
