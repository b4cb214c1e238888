"""Mutable free-capacity state and the indexes placement policies search.

A decision must not scan every card, so free capacity is indexed per cluster, card model
and *node class* (an int each cluster's policy assigns to a node from its state: 0 for
policies that need none; the fragmentation-aware policy uses it for the request types a
node's free CPU and memory can no longer host):

* HAMi cards by free cores, then free VRAM: `fcs` is the sorted list of free-core values
  present, `fvs[fc]` the sorted free-VRAM values under it, and each (fc, fv) bucket an
  ordered set of card orders. Best fit walks free-core values upward from the request and
  stops as soon as the core leftover alone is worse than the best candidate found;
* free MIG instances by profile;
* time-sliced cards by free slice count;
* nodes by how many whole free cards of the model they hold (for exclusive requests);
* nodes by free CPU, then free memory (the same two-key index), CPU-only nodes apart from
  GPU nodes: what CPU-only requests are placed by.

Cards, instances and nodes are numbered (`order`) in inventory order; every tie is broken
by the lowest order, which is what makes placement deterministic.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from heapq import heappop, heappush

from domain.inventory.model import Card, GpuKind, MigInstance, MigProfile, Node, SharingMode


class OrderedSet:
    """A set of ints with a cheap smallest member: a heap with lazy deletion."""

    __slots__ = ("heap", "members")

    def __init__(self) -> None:
        self.heap: list[int] = []
        self.members: set[int] = set()

    def add(self, item: int) -> None:
        if item not in self.members:
            self.members.add(item)
            heappush(self.heap, item)

    def discard(self, item: int) -> None:
        self.members.discard(item)
        if len(self.heap) > 2 * len(self.members) + 32:
            self.heap = sorted(self.members)

    def first(self) -> int | None:
        heap, members = self.heap, self.members
        while heap and heap[0] not in members:
            heappop(heap)
        return heap[0] if heap else None

    def ordered(self) -> list[int]:
        return sorted(self.members)

    def __len__(self) -> int:
        return len(self.members)

    def __bool__(self) -> bool:
        return bool(self.members)


class CardRole:
    HAMI = 0
    EXCLUSIVE = 1
    TIMESLICE = 2
    MIG = 3


class NodeState:
    __slots__ = (
        "accepts",
        "cards",
        "cls",
        "cluster",
        "free_cpu",
        "free_mem",
        "id",
        "node",
        "order",
        "usable",
        "whole_free",
    )

    def __init__(self, node: Node, order: int, cluster: ClusterState) -> None:
        self.node = node
        self.id = node.id
        self.order = order
        self.cluster = cluster
        self.free_cpu = node.cpu_millicores
        self.free_mem = node.memory_mib
        self.accepts = node.accepts_work
        self.cls = 0  # the policy's node class: which sub-index the node's capacity is in
        self.cards: list[CardState] = []
        # model -> sorted orders of cards that can be given away whole and are untouched
        self.whole_free: dict[str, list[int]] = {}
        # what a policy computed from this node's cards alone (per model, e.g. the free capacity
        # a type could use on them), dropped by the scheduler whenever a card's free state changes
        self.usable: dict[str, dict[object, float]] | None = None


class CardState:
    __slots__ = (
        "card",
        "cores",
        "free_cores",
        "free_slices",
        "free_vram",
        "migs",
        "model",
        "node",
        "order",
        "role",
        "tenants",
        "uuid",
        "vram",
    )

    def __init__(self, card: Card, order: int, node: NodeState) -> None:
        self.card = card
        self.uuid = card.uuid
        self.order = order
        self.node = node
        self.model = card.model
        self.vram = card.vram_mib
        self.cores = card.cores
        self.free_vram = card.vram_mib
        self.free_cores = card.cores
        if card.mig_enabled:
            self.role = CardRole.MIG
        elif node.node.sharing_mode is SharingMode.TIMESLICING:
            self.role = CardRole.TIMESLICE
        elif node.node.sharing_mode is SharingMode.HAMI:
            self.role = CardRole.HAMI
        else:
            self.role = CardRole.EXCLUSIVE
        self.free_slices = card.timeslice_replicas if self.role == CardRole.TIMESLICE else 0
        # workload id -> (vram, cores) it holds here (a slice holds (0, 0))
        self.tenants: dict[str, tuple[int, int]] = {}
        self.migs: list[MigState] = []

    @property
    def gives_whole(self) -> bool:
        return self.role in (CardRole.HAMI, CardRole.EXCLUSIVE)


class MigState:
    __slots__ = ("card", "cores", "id", "order", "profile", "tenant", "vram")

    def __init__(self, inst: MigInstance, order: int, card: CardState) -> None:
        self.id = inst.id
        self.order = order
        self.card = card
        self.profile: MigProfile = inst.profile
        self.vram = inst.profile.vram_mib
        self.cores = inst.profile.cores
        self.tenant: str | None = None


class FractionIndex:
    """Objects keyed by two ints: HAMi cards of one model by (free cores, free VRAM), nodes
    by (free CPU, free memory)."""

    __slots__ = ("buckets", "fcs", "fvs", "keys")

    def __init__(self, flat: bool = False) -> None:
        self.fcs: list[int] = []
        self.fvs: dict[int, list[int]] = {}
        self.buckets: dict[tuple[int, int], OrderedSet] = {}
        # with `flat` (card indexes): every (fc, fv) present, sorted, the same order as fcs then
        # fvs, walked flat (a card index has about one fv per fc, so a nested walk pays a loop
        # per key); node indexes, whose keys come and go at every take, do without
        self.keys: list[tuple[int, int]] | None = [] if flat else None

    def add(self, fc: int, fv: int, order: int) -> None:
        key = (fc, fv)
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = OrderedSet()
            if self.keys is not None:
                insort(self.keys, key)
            fvs = self.fvs.get(fc)
            if fvs is None:
                fvs = self.fvs[fc] = []
                insort(self.fcs, fc)
            insort(fvs, fv)
        bucket.add(order)

    def remove(self, fc: int, fv: int, order: int) -> None:
        key = (fc, fv)
        bucket = self.buckets[key]
        bucket.discard(order)
        if not bucket.members:
            del self.buckets[key]
            keys = self.keys
            if keys is not None:
                del keys[bisect_left(keys, key)]
            fvs = self.fvs[fc]
            del fvs[bisect_left(fvs, fv)]
            if not fvs:
                del self.fvs[fc]
                del self.fcs[bisect_left(self.fcs, fc)]

    def __bool__(self) -> bool:
        return bool(self.buckets)

    def feasible(self, cores: int, vram: int) -> Iterator[tuple[int, int, OrderedSet]]:
        """Every (fc, fv, bucket) with fc >= cores and fv >= vram, fc then fv ascending."""
        fcs = self.fcs
        for i in range(bisect_left(fcs, cores), len(fcs)):
            fc = fcs[i]
            fvs = self.fvs[fc]
            for j in range(bisect_left(fvs, vram), len(fvs)):
                fv = fvs[j]
                yield fc, fv, self.buckets[(fc, fv)]


NodeFit = Callable[[NodeState], bool]


@dataclass(slots=True)
class Candidate:
    """A possible placement: lower `score` is better (compared across clusters too)."""

    score: tuple[float, ...]
    kind: GpuKind | None  # None: a CPU-only placement (no cards)
    node: NodeState
    cards: list[CardState]
    mig: MigState | None = None
    model: str | None = None  # the card model chosen among the request's options


class ClusterState:
    """One cluster's free capacity and its indexes (maintained by `Scheduler`). Card and
    node indexes are keyed by model, then node class; an empty sub-index is dropped, so
    iterating the classes of a model visits only those that hold free capacity."""

    def __init__(self, cluster_id: str, order: int) -> None:
        self.id = cluster_id
        self.order = order
        # model -> class -> HAMi cards by (free cores, free VRAM)
        self.fraction: dict[str, dict[int, FractionIndex]] = {}
        # model -> class -> profile name -> free instance orders; model -> profiles by size
        self.mig: dict[str, dict[int, dict[str, OrderedSet]]] = {}
        self.mig_profiles: dict[str, list[MigProfile]] = {}
        # model -> class -> free slices -> card orders
        self.timeslice: dict[str, dict[int, dict[int, OrderedSet]]] = {}
        # model -> class -> whole free card count -> node orders
        self.exclusive: dict[str, dict[int, dict[int, OrderedSet]]] = {}
        self.card_size: dict[str, tuple[int, int]] = {}
        # nodes without cards, and GPU nodes by class, keyed by (free CPU, free memory)
        self.cpu_nodes = FractionIndex()
        self.gpu_nodes: dict[int, FractionIndex] = {}


def first_fitting(bucket: OrderedSet, objects: list[CardState], fits: NodeFit) -> CardState | None:
    """Lowest-order card in the bucket whose node fits; the slow path sorts the bucket."""
    first = bucket.first()
    if first is None:
        return None
    card = objects[first]
    if fits(card.node):
        return card
    for order in bucket.ordered():
        card = objects[order]
        if fits(card.node):
            return card
    return None


def lowest_passing(bucket: OrderedSet, test: Callable[[int], bool], scan: int = 16) -> int | None:
    """The lowest order passing `test` among the first `scan` entries of the bucket's heap:
    a bounded look for a better member than the smallest (not necessarily the best one)."""
    members = bucket.members
    found: int | None = None
    for order in bucket.heap[:scan]:
        if order in members and (found is None or order < found) and test(order):
            found = order
    return found


def first_fitting_mig(bucket: OrderedSet, objects: list[MigState], fits: NodeFit) -> MigState | None:
    first = bucket.first()
    if first is None:
        return None
    inst = objects[first]
    if fits(inst.card.node):
        return inst
    for order in bucket.ordered():
        inst = objects[order]
        if fits(inst.card.node):
            return inst
    return None


def first_fitting_node(bucket: OrderedSet, objects: list[NodeState], fits: NodeFit) -> NodeState | None:
    first = bucket.first()
    if first is None:
        return None
    node = objects[first]
    if fits(node):
        return node
    for order in bucket.ordered():
        node = objects[order]
        if fits(node):
            return node
    return None


@dataclass(frozen=True, slots=True)
class StateView:
    """What a policy may read: the global object tables (indexed by order)."""

    cards: list[CardState]
    migs: list[MigState]
    nodes: list[NodeState]
