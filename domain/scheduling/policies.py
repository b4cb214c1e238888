"""Placement policies: one interface, chosen per cluster by name.

* `best-fit` (the default, the seed's 2-D best fit): the card whose remaining VRAM and core
  shares are tightest after placement wins; a free MIG instance competes on the same score.
* `first-fit`: the lowest-numbered place that fits (the benchmark's naive baseline).
* `gpu-packing`: packing by node, after the FGD simulator's GPU packing baseline
  (`pkg/simulator/plugin/gpu_packing_score.go`): a partly used card first (tightest), then
  a free card on a node already in use, then a free node, the smallest first.
* `fragmentation-aware`: fragmentation gradient descent (Weng et al., USENIX ATC '23) over
  GPU shares, CPU and memory (`domain.scheduling.fragmentation`): among the places that
  fit, the one whose use makes the least capacity unusable for the request mix seen so far;
  ties go to the tighter fit.

A request with several model options (an offering naming a class of cards) is placed on
whichever option's best place the policy scores best. CPU-only requests go to CPU-only
nodes first and to GPU nodes only when none fits, tightest first (CPU and memory leftover),
except that the fragmentation-aware policy weighs a GPU node by the GPU capacity the CPU or
memory it takes would strand. Time-slices are packed (fewest free slices first) by every
policy except first-fit: all slices of a card are alike.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Mapping
from typing import Protocol, TypeVar

from domain.inventory.model import GpuKind, SharingMode
from domain.scheduling.fragmentation import (
    Entry,
    GpuKey,
    MixView,
    RequestMix,
    TaskType,
    fraction_loss,
    instance_loss,
    scarcity_step,
    share,
    slice_loss,
    whole_loss,
    whole_usable,
)
from domain.scheduling.index import (
    Candidate,
    CardRole,
    CardState,
    ClusterState,
    FractionIndex,
    NodeFit,
    NodeState,
    OrderedSet,
    StateView,
    first_fitting,
    first_fitting_mig,
    first_fitting_node,
    lowest_passing,
)
from domain.scheduling.model import GpuRequest, ModelChoice, RequestMode


class PlacementPolicy(Protocol):
    """Chooses where a request goes inside one cluster, or None when nothing fits there.

    `allow_hami` / `allow_mig` say which fractional capacity the request may use (an admin
    may force one). `observe` is told of every request the cluster is asked to place, so a
    policy can learn the request mix; it returns True when that changed the node classes
    (`node_class`: the sub-index a node's free capacity is kept in), and the scheduler then
    re-indexes the cluster. A policy never changes the scheduler's state.
    """

    @property
    def name(self) -> str: ...

    def observe(self, request: GpuRequest) -> bool: ...

    def node_class(self, ns: NodeState) -> int: ...

    def choose(
        self,
        cluster: ClusterState,
        view: StateView,
        request: GpuRequest,
        fits: NodeFit,
        allow_hami: bool,
        allow_mig: bool,
    ) -> Candidate | None: ...


# -- shared pieces ------------------------------------------------------------------------

# CPU and memory leftovers are compared at 4 GiB per CPU (DESIGN: 4 CPU + 16 GiB per GPU)
_PER_MILLICORE = 1 / 1000
_PER_MIB = 1 / 4096

T = TypeVar("T")


def tightest(
    index: FractionIndex, a: int, b: int, wa: float, wb: float, first: Callable[[OrderedSet], T | None]
) -> tuple[float, T] | None:
    """The bucket (fa, fb) with fa ≥ a and fb ≥ b minimising (fa − a)·wa + (fb − b)·wb that
    holds an object `first` accepts. Walks fa upward and stops once its leftover alone is
    worse than the best found."""
    best: tuple[float, T] | None = None
    fas = index.fcs
    for i in range(bisect_left(fas, a), len(fas)):
        fa = fas[i]
        left_a = (fa - a) * wa
        if best is not None and left_a > best[0]:
            break
        fbs = index.fvs[fa]
        for j in range(bisect_left(fbs, b), len(fbs)):
            fb = fbs[j]
            score = left_a + (fb - b) * wb
            if best is not None and score >= best[0]:
                break
            found = first(index.buckets[(fa, fb)])
            if found is not None:
                best = (score, found)
                break
    return best


def _better(best: Candidate | None, candidate: Candidate | None) -> Candidate | None:
    if candidate is None:
        return best
    if best is None or candidate.score < best.score:
        return candidate
    return best


def cpu_placement(
    cluster: ClusterState, view: StateView, request: GpuRequest, fits: NodeFit, first: bool = False
) -> Candidate | None:
    """A CPU-only request: the tightest CPU-only node (or the lowest-numbered one when
    `first`), and only when none fits, the tightest GPU node."""
    cpu, mem = request.cpu_millicores, request.memory_mib

    def pick(index: FractionIndex) -> tuple[float, NodeState] | None:
        if first:
            found = None
            for _a, _b, bucket in index.feasible(cpu, mem):
                node = first_fitting_node(bucket, view.nodes, fits)
                if node is not None and (found is None or node.order < found.order):
                    found = node
            return None if found is None else (0.0, found)
        return tightest(index, cpu, mem, _PER_MILLICORE, _PER_MIB, lambda b: first_fitting_node(b, view.nodes, fits))

    picked = pick(cluster.cpu_nodes)
    if picked is not None:
        return Candidate((0, picked[0], picked[1].order), None, picked[1], [])
    best: Candidate | None = None
    for index in cluster.gpu_nodes.values():
        found = pick(index)
        if found is not None:
            best = _better(best, Candidate((1, found[0], found[1].order), None, found[1], []))
    return best


def pack_timeslice(cluster: ClusterState, view: StateView, model: str, fits: NodeFit) -> Candidate | None:
    """The card with the fewest free slices (packing keeps whole cards' slices free)."""
    best: Candidate | None = None
    for by_free in cluster.timeslice.get(model, {}).values():
        for free in sorted(by_free):
            if best is not None and free > best.score[0]:
                break
            card = first_fitting(by_free[free], view.cards, fits)
            if card is not None:
                best = _better(best, Candidate((free, card.order), GpuKind.SHARED, card.node, [card], model=model))
                break
    return best


def tightest_node_for_whole_cards(
    cluster: ClusterState, view: StateView, model: str, wanted: int, fits: NodeFit
) -> Candidate | None:
    """The node with the fewest whole free cards that still has N (keeps big nodes whole)."""
    best: Candidate | None = None
    for by_count in cluster.exclusive.get(model, {}).values():
        for count in sorted(by_count):
            if count < wanted or (best is not None and count - wanted > best.score[0]):
                continue
            node = first_fitting_node(by_count[count], view.nodes, fits)
            if node is not None:
                best = _better(best, whole_candidate((count - wanted, node.order), node, view, model, wanted))
                break
    return best


def whole_candidate(
    score: tuple[float, ...], node_state: NodeState, view: StateView, model: str, wanted: int
) -> Candidate:
    orders = node_state.whole_free[model][:wanted]
    return Candidate(score, GpuKind.EXCLUSIVE, node_state, [view.cards[o] for o in orders], model=model)


def best_fraction(
    cluster: ClusterState,
    view: StateView,
    option: ModelChoice,
    fits: NodeFit,
    allow_hami: bool,
    allow_mig: bool,
    partial_only: bool = False,
) -> Candidate | None:
    """2-D best fit on one model. Score = leftover core share + leftover VRAM share; a MIG
    instance's leftover is what the request leaves unused inside it. Ties: MIG first
    (hardware isolation), then the lowest order. `partial_only` skips untouched cards."""
    model = option.model
    size = cluster.card_size.get(model)
    if size is None:
        return None
    card_vram, card_cores = size
    wc, wv = 1 / card_cores, 1 / card_vram
    v, c = option.vram_mib, option.cores
    best: Candidate | None = None
    if allow_mig:
        for by_profile in cluster.mig.get(model, {}).values():
            for profile in cluster.mig_profiles.get(model, ()):
                bucket = by_profile.get(profile.name)
                if bucket is None or profile.vram_mib < v or profile.cores < c:
                    continue
                score = (profile.cores - c) * wc + (profile.vram_mib - v) * wv
                if best is not None and score >= best.score[0]:
                    continue
                inst = first_fitting_mig(bucket, view.migs, fits)
                if inst is not None:
                    best = Candidate((score, 0, inst.order), GpuKind.MIG, inst.card.node, [inst.card], inst, model)
    if not allow_hami:
        return best
    for index in cluster.fraction.get(model, {}).values():
        if partial_only:

            def partial(bucket: OrderedSet) -> CardState | None:
                card = first_fitting(bucket, view.cards, fits)
                return None if card is None or (card.free_cores == card_cores and card.free_vram == card_vram) else card

            found = tightest(index, c, v, wc, wv, partial)
        else:
            found = tightest(index, c, v, wc, wv, lambda b: first_fitting(b, view.cards, fits))
        if found is not None:
            card = found[1]
            best = _better(best, Candidate((found[0], 1, card.order), GpuKind.HAMI, card.node, [card], model=model))
    return best


# -- best fit -----------------------------------------------------------------------------


class BestFit:
    name = "best-fit"

    def observe(self, request: GpuRequest) -> bool:
        return False

    def node_class(self, ns: NodeState) -> int:
        return 0

    def choose(
        self,
        cluster: ClusterState,
        view: StateView,
        request: GpuRequest,
        fits: NodeFit,
        allow_hami: bool,
        allow_mig: bool,
    ) -> Candidate | None:
        mode = request.mode
        if mode is RequestMode.CPU:
            return cpu_placement(cluster, view, request, fits)
        best: Candidate | None = None
        for option in request.options:
            if mode is RequestMode.SHARED:
                found = pack_timeslice(cluster, view, option.model, fits)
            elif mode is RequestMode.EXCLUSIVE:
                found = tightest_node_for_whole_cards(cluster, view, option.model, request.cards_wanted, fits)
            else:
                found = best_fraction(cluster, view, option, fits, allow_hami, allow_mig)
            best = _better(best, found)
        return best


# -- first fit ----------------------------------------------------------------------------


class FirstFit:
    """The lowest-numbered card (or node) that fits: the naive baseline."""

    name = "first-fit"

    def observe(self, request: GpuRequest) -> bool:
        return False

    def node_class(self, ns: NodeState) -> int:
        return 0

    def choose(
        self,
        cluster: ClusterState,
        view: StateView,
        request: GpuRequest,
        fits: NodeFit,
        allow_hami: bool,
        allow_mig: bool,
    ) -> Candidate | None:
        mode = request.mode
        if mode is RequestMode.CPU:
            return cpu_placement(cluster, view, request, fits, first=True)
        best: Candidate | None = None
        for option in request.options:
            best = _better(best, self._first(cluster, view, request, option, fits, allow_hami, allow_mig))
        return best

    @staticmethod
    def _first(
        cluster: ClusterState,
        view: StateView,
        request: GpuRequest,
        option: ModelChoice,
        fits: NodeFit,
        allow_hami: bool,
        allow_mig: bool,
    ) -> Candidate | None:
        mode = request.mode
        model = option.model
        best: Candidate | None = None
        if mode is RequestMode.SHARED:
            for by_free in cluster.timeslice.get(model, {}).values():
                for bucket in by_free.values():
                    card = first_fitting(bucket, view.cards, fits)
                    if card is not None and (best is None or card.order < best.score[0]):
                        best = Candidate((card.order,), GpuKind.SHARED, card.node, [card], model=model)
            return best
        if mode is RequestMode.EXCLUSIVE:
            for by_count in cluster.exclusive.get(model, {}).values():
                for count, bucket in by_count.items():
                    if count < request.cards_wanted:
                        continue
                    node = first_fitting_node(bucket, view.nodes, fits)
                    if node is not None and (best is None or node.order < best.score[0]):
                        best = whole_candidate((node.order,), node, view, model, request.cards_wanted)
            return best
        if allow_mig:
            for by_profile in cluster.mig.get(model, {}).values():
                for profile in cluster.mig_profiles.get(model, ()):
                    if profile.vram_mib < option.vram_mib or profile.cores < option.cores:
                        continue
                    instances = by_profile.get(profile.name)
                    inst = None if instances is None else first_fitting_mig(instances, view.migs, fits)
                    if inst is not None and (best is None or inst.card.order < best.score[0]):
                        best = Candidate(
                            (inst.card.order, inst.order), GpuKind.MIG, inst.card.node, [inst.card], inst, model
                        )
        if allow_hami:
            for index in cluster.fraction.get(model, {}).values():
                for _fc, _fv, bucket in index.feasible(option.cores, option.vram_mib):
                    card = first_fitting(bucket, view.cards, fits)
                    if card is not None and (best is None or card.order < best.score[0]):
                        best = Candidate((card.order, 0), GpuKind.HAMI, card.node, [card], model=model)
        return best


# -- packing by node ----------------------------------------------------------------------


class GpuPacking:
    """Packing by node (the FGD simulator's GPU packing baseline): a fraction goes to a
    partly used card if one fits (tightest), else takes a free card on a node that is
    already in use, else a free card on an untouched node; whole cards go to a node in use
    that has enough, else to the untouched node with the fewest free cards. Node class 1 is
    a node in use (some card has a tenant), 0 an untouched one."""

    name = "gpu-packing"

    def observe(self, request: GpuRequest) -> bool:
        return False

    def node_class(self, ns: NodeState) -> int:
        return 1 if any(cs.tenants for cs in ns.cards) else 0

    def choose(
        self,
        cluster: ClusterState,
        view: StateView,
        request: GpuRequest,
        fits: NodeFit,
        allow_hami: bool,
        allow_mig: bool,
    ) -> Candidate | None:
        mode = request.mode
        if mode is RequestMode.CPU:
            return cpu_placement(cluster, view, request, fits)
        best: Candidate | None = None
        for option in request.options:
            model = option.model
            if mode is RequestMode.SHARED:
                best = _better(best, pack_timeslice(cluster, view, model, fits))
                continue
            if mode is RequestMode.FRACTION:
                partial = best_fraction(cluster, view, option, fits, allow_hami, allow_mig, partial_only=True)
                if partial is not None:
                    best = _better(
                        best,
                        Candidate((0, *partial.score), partial.kind, partial.node, partial.cards, partial.mig, model),
                    )
                    continue
                if not allow_hami:
                    continue
            wanted = request.cards_wanted
            by_cls = cluster.exclusive.get(model, {})

            def usable(n: NodeState) -> bool:
                return fits(n) and (mode is RequestMode.EXCLUSIVE or n.node.sharing_mode is SharingMode.HAMI)

            for tier, cls in ((1, 1), (2, 0)):
                found: Candidate | None = None
                for count in sorted(by_cls.get(cls, {})):
                    if count < wanted:
                        continue
                    node = first_fitting_node(by_cls[cls][count], view.nodes, usable)
                    if node is None:
                        continue
                    score = (tier, 0 if tier == 1 else count, node.order)
                    candidate = whole_candidate(score, node, view, model, wanted)
                    if mode is RequestMode.FRACTION:
                        candidate.kind = GpuKind.HAMI
                    if found is None or candidate.score < found.score:
                        found = candidate
                    if tier == 2:
                        break
                if found is not None:
                    best = _better(best, found)
                    break
        return best


# -- fragmentation-aware ------------------------------------------------------------------

_MIX_TYPES = 32  # the most popular types only: a long tail adds cost, not signal
_SCARCITY_EVERY = 64  # decisions between re-reading how much capacity each type has left
_INF = float("inf")
_FULL = -1  # class of a GPU node with no free GPU capacity left
_MODE_CODE = {SharingMode.HAMI: 0, SharingMode.TIMESLICING: 1, SharingMode.EXCLUSIVE: 2}
_Q = 1_000_000_000  # losses are kept in integer billionths: exact sums, differences and ties
_FRACTION, _EXCLUSIVE, _SHARED = RequestMode.FRACTION, RequestMode.EXCLUSIVE, RequestMode.SHARED
_HAMI, _TIMESLICE, _MIG = CardRole.HAMI, CardRole.TIMESLICE, CardRole.MIG


class _ClassInfo:
    """What one node class means for one card model under the current weights.

    `entries`: the mix's entries a node of the class can still host (not locked out by its
    CPU or memory); `max_cpu` / `max_mem`: the largest among them (a placement that leaves
    at least that much locks none out); `hami`: whether the class's nodes are HAMi nodes.
    The value tables map a free state to the weighted capacity it offers those entries (in
    billionths): `card` a HAMi card's or MIG instance's (fc, fv) → G, for fraction types;
    `whole` a node's untouched-card count k → H, for whole-card types; `slices` a time-slice
    card's replicas → what one slice offers. A placement's loss on what it changes is the
    value before minus the value after, the same for every request (FGD's F(after) − F(before)).
    `hosts` remembers, per (CPU, memory) asked, whether some node of the class has it.
    """

    __slots__ = (
        "break_floors",
        "breaks",
        "card",
        "card_terms",
        "cpus",
        "entries",
        "fractions",
        "hami",
        "hosts",
        "locks",
        "max_cpu",
        "max_mem",
        "mems",
        "shapes",
        "size",
        "slices",
        "w",
        "whole",
        "whole_terms",
        "wholes",
    )

    max_cpu: int
    max_mem: int
    cpus: list[int]
    mems: list[int]
    locks: dict[tuple[int, int], list[Entry]]
    shapes: dict[int, tuple[RequestMode, int, int, int]]
    hosts: dict[tuple[int, int], bool]
    card_terms: dict[tuple[int, int], tuple[float, tuple[int, ...]]]
    whole_terms: dict[int, tuple[tuple[int, int], ...]]

    def __init__(
        self,
        entries: tuple[Entry, ...],
        hami: bool,
        w: list[float],
        size: tuple[int, int] | None,
        base: _ClassInfo | None = None,
    ) -> None:
        self.entries = entries
        self.hami = hami
        self.w = w
        self.size = size
        if base is not None and base.entries is entries and base.size == size and base.hami == hami:
            # the same class under new weights: what does not depend on the weights is kept
            self.max_cpu, self.max_mem = base.max_cpu, base.max_mem
            self.cpus, self.mems, self.locks = base.cpus, base.mems, base.locks
            self.shapes, self.hosts = base.shapes, base.hosts
            self.card_terms, self.whole_terms = base.card_terms, base.whole_terms
        else:
            self.max_cpu = max((e[6] for e in entries), default=0)
            self.max_mem = max((e[7] for e in entries), default=0)
            # the entries' CPU and memory thresholds, sorted: which entries a node's leftover
            # locks out depends only on where the leftover falls among them (`locks` keys on it)
            self.cpus = sorted({e[6] for e in entries})
            self.mems = sorted({e[7] for e in entries})
            self.locks = {}
            # entries of one shape (mode, VRAM, cores, cards) see the same usable capacity on a node
            self.shapes = {e[0]: (e[1], e[2], e[3], e[4]) for e in entries}  # by type index
            self.hosts = {}
            self.card_terms = {}
            self.whole_terms = {}
        self.card: dict[tuple[int, int], int] = {}
        self.whole: dict[int, int] = {}
        self.slices: dict[int, int] = {}
        # the bounds a request's size implies, read per decision: (c, v) -> (fc, fv) -> G(fc, fv) −
        # G(fc − c, fv − v); (c, v) -> k -> a fraction breaking one of k untouched cards;
        # N -> k -> N whole cards taken from k
        self.fractions: dict[tuple[int, int], dict[tuple[int, int], int]] = {}
        self.breaks: dict[tuple[int, int], dict[int, int]] = {}
        self.wholes: dict[int, dict[int, int]] = {}
        # (c, v) -> what no break bound of (c, v) is below (`break_floor`)
        self.break_floors: dict[tuple[int, int], int] = {}
        if base is not None and base.entries is entries and base.size == size and base.hami == hami:
            # values whose weights did not move are kept too (they would be summed again from the
            # same terms and weights, in the same order: the same numbers): a card state's value
            # reads the fraction types' weights, a whole-card count's the whole-card types'
            old = base.w
            cards_same = all(old[e[0]] == w[e[0]] for e in entries if e[1] is _FRACTION)
            wholes_same = all(old[e[0]] == w[e[0]] for e in entries if e[1] is _EXCLUSIVE)
            if cards_same:
                self.card, self.fractions, self.break_floors = base.card, base.fractions, base.break_floors
            if wholes_same:
                self.whole = base.whole
                if cards_same or not hami:  # (N whole HAMi cards also lose N cards' values)
                    self.wholes = base.wholes
            if cards_same and wholes_same:
                self.breaks = base.breaks
            if all(old[e[0]] == w[e[0]] for e in entries):  # (a slice's value sums over every entry)
                self.slices = base.slices

    def fraction_bounds(self, c: int, v: int) -> dict[tuple[int, int], int]:
        table = self.fractions.get((c, v))
        if table is None:
            table = self.fractions[(c, v)] = {}
        return table

    def fraction_bound(self, table: dict[tuple[int, int], int], fc: int, fv: int, c: int, v: int) -> int:
        bound = table[(fc, fv)] = self.card_value(fc, fv) - self.card_value(fc - c, fv - v)
        return bound

    def break_bound(self, count: int, c: int, v: int) -> int:
        table = self.breaks.get((c, v))
        if table is None:
            table = self.breaks[(c, v)] = {}
        bound = table.get(count)
        if bound is None:
            assert self.size is not None
            card_vram, card_cores = self.size
            card_loss = self.card_value(card_cores, card_vram) - self.card_value(card_cores - c, card_vram - v)
            bound = table[count] = card_loss + self.whole_value(count) - self.whole_value(count - 1)
        return bound

    def break_floor(self, c: int, v: int) -> int:
        """A bound no `break_bound` for (c, v) is below: the card's own loss (a node's
        whole-card value never grows as its count falls)."""
        floor = self.break_floors.get((c, v))
        if floor is None:
            assert self.size is not None
            card_vram, card_cores = self.size
            floor = self.card_value(card_cores, card_vram) - self.card_value(card_cores - c, card_vram - v)
            self.break_floors[(c, v)] = floor
        return floor

    def whole_bounds(self, wanted: int) -> dict[int, int]:
        table = self.wholes.get(wanted)
        if table is None:
            table = self.wholes[wanted] = {}
        return table

    def whole_bound(self, table: dict[int, int], wanted: int, count: int) -> int:
        whole_card = 0
        if self.hami:
            assert self.size is not None
            card_vram, card_cores = self.size
            whole_card = self.card_value(card_cores, card_vram)
        bound = table[count] = wanted * whole_card + self.whole_value(count) - self.whole_value(count - wanted)
        return bound

    def card_value(self, fc: int, fv: int) -> int:
        value = self.card.get((fc, fv))
        if value is None:
            total = 0.0
            free, kinds = self.card_terms.get((fc, fv)) or self._card_terms(fc, fv)
            w = self.w
            for i in kinds:
                total += w[i] * free
            value = self.card[(fc, fv)] = round(total * _Q)
        return value

    def _card_terms(self, fc: int, fv: int) -> tuple[float, tuple[int, ...]]:
        """A card state's free share and the types (indexes, in entry order) that could use
        it: what its value sums, kept across re-weightings."""
        terms = self.card_terms.get((fc, fv))
        if terms is None:
            free = 0.0
            kinds: tuple[int, ...] = ()
            if fc > 0 and fv > 0 and self.size is not None:
                card_vram, card_cores = self.size
                free = share(fc, fv, card_cores, card_vram)
                kinds = tuple(e[0] for e in self.entries if e[1] is _FRACTION and fc >= e[3] and fv >= e[2])
            terms = self.card_terms[(fc, fv)] = (free, kinds)
        return terms

    def whole_value(self, free_cards: int) -> int:
        value = self.whole.get(free_cards)
        if value is None:
            w = self.w
            terms = self.whole_terms.get(free_cards)
            if terms is None:  # (type index, usable cards) per whole-card entry: kept across re-weightings
                terms = self.whole_terms[free_cards] = tuple(
                    (e[0], whole_usable(free_cards, e[4])) for e in self.entries if e[1] is _EXCLUSIVE
                )
            total = sum(w[i] * usable for i, usable in terms)
            value = self.whole[free_cards] = round(total * _Q)
        return value

    def slice_value(self, replicas: int) -> int:
        value = self.slices.get(replicas)
        if value is None:
            w = self.w
            value = self.slices[replicas] = round(sum(w[e[0]] * slice_loss(e, replicas) for e in self.entries) * _Q)
        return value

    def locked(self, ns: NodeState, cpu: int, mem: int) -> list[Entry]:
        """The entries a placement taking (cpu, mem) would newly lock out on `ns` (usually
        none: only when the node is that close to one of the class's thresholds)."""
        cpu_left = ns.free_cpu - cpu
        mem_left = ns.free_mem - mem
        if cpu_left >= self.max_cpu and mem_left >= self.max_mem:
            return _NONE_LOCKED
        key = (bisect_right(self.cpus, cpu_left), bisect_right(self.mems, mem_left))
        found = self.locks.get(key)
        if found is None:
            found = self.locks[key] = [e for e in self.entries if cpu_left < e[6] or mem_left < e[7]]
        return found

    def stranded(self, locked: list[Entry], ns: NodeState, model: str, lost_here: LossOf, *args: int) -> int:
        """What the newly locked-out entries lose beyond the loss on what the placement
        changes: everything they could still use on the node after it."""
        size = self.size
        assert size is not None
        w = self.w
        shapes = self.shapes
        # entries of one shape see the same capacity on the node; it depends on the node's
        # cards only, so it is kept on the node (per model, per shape) until they change
        memos = ns.usable
        if memos is None:
            memos = ns.usable = {}
        usable = memos.get(model)
        if usable is None:
            usable = memos[model] = {}
        total = 0.0
        for e in locked:
            shape = shapes[e[0]]
            here = usable.get(shape)
            if here is None:
                if e[1] is _EXCLUSIVE:  # whole_usable of the node's untouched cards, as a float
                    free_cards = len(ns.whole_free.get(model, ()))
                    here = usable[shape] = float(free_cards - free_cards % e[4])
                else:
                    here = usable[shape] = _node_usable(ns, model, e, size)
            total += w[e[0]] * (here - lost_here(e, *args))
        return round(total * _Q)


LossOf = Callable[..., float]
_NONE_LOCKED: list[Entry] = []  # shared: never mutated


class FragmentationAware:
    """Fragmentation gradient descent (Weng et al., USENIX ATC '23) over GPU shares, CPU
    and memory; the measure and what differs from the paper are in
    `domain.scheduling.fragmentation`.

    Node classes are what makes the search cheap: a GPU node's class is the set of the
    mix's CPU/memory threshold points its free CPU or memory is below (plus its sharing
    mode), so two nodes of a class lock out the same types. What a placement loses on the
    card (or node) it changes then depends only on (class, free state before and after) and
    is read from the class's value tables (`_ClassInfo`). It is a lower bound of the full
    loss, which adds what the request's CPU and memory newly lock out on its node
    (everything those types could still use there), computed only when the node is that
    close to a threshold; then a nearby place of the same bucket that locks nothing out is
    looked for. Each (class, free state) bucket offers its lowest-numbered place that fits.

    Each type's loss weighs its popularity times the scarcity of the capacity it can still
    use in the cluster (`scarcity_step`, re-read every `_SCARCITY_EVERY` decisions from the
    indexes), so requests that may take several models go where the types that can take
    only one are least hurt.

    Ties (equal loss) go to the tighter fit (best fit's score), then MIG before HAMi, then
    the lowest order; CPU-only requests prefer CPU-only nodes at equal loss (they lose
    nothing there). Deterministic.
    """

    name = "fragmentation-aware"

    def __init__(self, top: int = _MIX_TYPES, refresh: int = 4096) -> None:
        self._mix = RequestMix(top, refresh)
        self._view = MixView.of(0, ())
        self._steps: dict[GpuKey, int] = {}
        self._w: list[float] = []  # per type index: popularity × scarcity
        self._decisions = 0
        self._info: dict[tuple[str, int], _ClassInfo] = {}
        # the last infos of each class under this view (their weight-free parts are reused)
        self._base: dict[tuple[str, int], _ClassInfo] = {}
        self._base_view = self._view
        self._masks: dict[tuple[int, int], int] = {}  # (free CPU, free memory) -> threshold mask
        self._margins: dict[int, tuple[int, int]] = {}  # class -> the CPU and memory its open points need
        self._sizes: dict[str, tuple[int, int]] = {}

    # -- the mix ----------------------------------------------------------------------------

    def observe(self, request: GpuRequest) -> bool:
        # the request's task type's GPU key, as `task_type` makes it (without building the type)
        mode = request.mode
        if mode is _FRACTION:
            sizes = tuple([(o.model, o.vram_mib, o.cores) for o in request.options])
        else:
            sizes = tuple([(o.model, 0, 0) for o in request.options])
        key = (mode, sizes, request.cards_wanted if mode is _EXCLUSIVE else 0)
        if not self._mix.count(key, request.cpu_millicores, request.memory_mib):
            return False
        old = self._view.points
        self._view = MixView.of(self._mix.version, self._mix.weights)
        self._reweight()
        self._decisions = 0  # re-read the scarcity of the new types at the next decision
        return self._view.points != old

    def _reweight(self) -> None:
        steps = self._steps
        view = self._view
        self._w = [p * 2 ** (steps.get(t.gpu_key, 0) / 2) for p, t in zip(view.popularity, view.types, strict=True)]
        if self._base_view is view:
            self._base.update(self._info)  # what does not depend on the weights survives them
        else:
            self._base = {}
            self._base_view = view
            self._masks = {}
            self._margins = {}
        self._info = {}

    def _rescale(self, cluster: ClusterState) -> None:
        """Re-read the capacity each type can still use (from the indexes, CPU and memory
        aside); the values are dropped only when a type's step moved."""
        self._sizes = cluster.card_size
        free = _FreeCapacity(cluster)
        steps = {t.gpu_key: scarcity_step(free.usable(t), self._steps.get(t.gpu_key)) for t in self._view.types}
        if steps != self._steps:
            self._steps = steps
            self._reweight()

    def node_class(self, ns: NodeState) -> int:
        cards = ns.cards
        if not cards:
            return 0
        if not any(ns.whole_free.values()):
            for cs in cards:  # (an untouched card is free capacity: most nodes are decided by that)
                if cs.role == _HAMI:
                    if cs.free_cores > 0 and cs.free_vram > 0:
                        break
                elif _has_free(cs):
                    break
            else:
                return _FULL
        key = (ns.free_cpu, ns.free_mem)
        masks = self._masks
        mask = masks.get(key)
        if mask is None:
            if len(masks) > 65_536:
                masks.clear()
            mask = masks[key] = self._view.mask(ns.free_cpu, ns.free_mem)
        return (mask << 2) | _MODE_CODE[ns.node.sharing_mode]

    def _class_info(self, model: str, cls: int) -> _ClassInfo:
        info = self._info.get((model, cls))
        if info is None:
            mask = cls >> 2
            base = self._base.get((model, cls))
            if base is None:
                entries = tuple(e for e in self._view.by_model.get(model, ()) if e[5] < 0 or not (mask >> e[5]) & 1)
            else:
                entries = base.entries
            info = self._info[(model, cls)] = _ClassInfo(entries, cls & 3 == 0, self._w, self._sizes.get(model), base)
        return info

    def _hosts(self, info: _ClassInfo, cls: int, ask: tuple[int, int]) -> bool:
        """False when no node of the class has the CPU and memory asked (a threshold point
        at most that much is locked out there)."""
        hosts = info.hosts.get(ask)
        if hosts is None:
            mask = cls >> 2
            cpu, mem = ask
            hosts = info.hosts[ask] = not any(
                (mask >> j) & 1 and pc <= cpu and pm <= mem for j, (pc, pm) in enumerate(self._view.points)
            )
        return hosts

    # -- choosing ---------------------------------------------------------------------------

    def choose(
        self,
        cluster: ClusterState,
        view: StateView,
        request: GpuRequest,
        fits: NodeFit,
        allow_hami: bool,
        allow_mig: bool,
    ) -> Candidate | None:
        mode = request.mode
        if self._decisions % _SCARCITY_EVERY == 0 or self._sizes is not cluster.card_size:
            self._rescale(cluster)
        self._decisions += 1
        if mode is RequestMode.CPU:
            return self._cpu(cluster, view, request, fits)
        best: Candidate | None = None
        if mode is _FRACTION:
            for option in request.options:
                best = self._fraction(cluster, view, request, option, fits, allow_hami, allow_mig, best)
            return best
        if mode is _EXCLUSIVE:
            wanted = request.cards_wanted
            for option in request.options:
                best = self._whole(cluster, view, request, option.model, wanted, fits, best)
            return best
        for option in request.options:
            best = self._slice(cluster, view, request, option.model, fits, best)
        return best

    @staticmethod
    def _safe_test(
        info: _ClassInfo, request: GpuRequest, fits: NodeFit, node_of: Callable[[int], NodeState]
    ) -> Callable[[int], bool]:
        """Whether the place numbered `order` fits and locks nothing out: used to look, in a
        bucket whose first place would lock a type out, for one nearby that would not."""
        need_cpu = request.cpu_millicores + info.max_cpu
        need_mem = request.memory_mib + info.max_mem

        def test(order: int) -> bool:
            n = node_of(order)
            return n.free_cpu >= need_cpu and n.free_mem >= need_mem and fits(n)

        return test

    def _fraction(
        self,
        cluster: ClusterState,
        view: StateView,
        request: GpuRequest,
        option: ModelChoice,
        fits: NodeFit,
        allow_hami: bool,
        allow_mig: bool,
        best: Candidate | None,
    ) -> Candidate | None:
        model = option.model
        size = cluster.card_size.get(model)
        if size is None:
            return best
        card_vram, card_cores = size
        v, c = option.vram_mib, option.cores
        wc, wv = 1 / card_cores, 1 / card_vram
        cpu, mem = request.cpu_millicores, request.memory_mib
        ask = (cpu, mem)
        infos = self._info
        if allow_mig:
            for cls, by_profile in cluster.mig.get(model, {}).items():
                info = infos.get((model, cls)) or self._class_info(model, cls)
                hosts = info.hosts.get(ask)
                if not (self._hosts(info, cls, ask) if hosts is None else hosts):
                    continue
                for profile in cluster.mig_profiles.get(model, ()):
                    bucket = by_profile.get(profile.name)
                    if bucket is None or profile.vram_mib < v or profile.cores < c:
                        continue
                    pc, pv = profile.cores, profile.vram_mib
                    bound = info.card_value(pc, pv)
                    fit = (pc - c) * wc + (pv - v) * wv
                    if best is not None and (bound, fit, 0) >= best.score[:3]:
                        continue
                    inst = first_fitting_mig(bucket, view.migs, fits)
                    if inst is None:
                        continue
                    ns = inst.card.node
                    locked = info.locked(ns, cpu, mem)
                    if locked:
                        other = lowest_passing(
                            bucket, self._safe_test(info, request, fits, lambda o: view.migs[o].card.node)
                        )
                        if other is not None:
                            inst, locked = view.migs[other], []
                            ns = inst.card.node
                    loss = bound
                    if locked:
                        loss += info.stranded(locked, ns, model, instance_loss, pc, pv, card_cores, card_vram)
                    best = _better(
                        best, Candidate((loss, fit, 0, inst.order), GpuKind.MIG, ns, [inst.card], inst, model)
                    )
        if not allow_hami:
            return best
        # the best score's loss and fit, read once: a bucket is skipped when (bound, fit, 1) ≥
        # the best score's first three, i.e. bound above the loss, or equal with a fit not tighter
        top0, top1 = (best.score[0], best.score[1]) if best is not None else (_INF, _INF)
        cards = view.cards
        start = (c, 0)
        for cls, index in cluster.fraction.get(model, {}).items():
            info = infos.get((model, cls)) or self._class_info(model, cls)
            hosts = info.hosts.get(ask)
            if not (self._hosts(info, cls, ask) if hosts is None else hosts):
                continue
            table = info.fractions.get((c, v))
            if table is None:
                table = info.fractions[(c, v)] = {}
            value = table.get
            keys = index.keys
            assert keys is not None  # (card indexes are flat)
            buckets = index.buckets
            for i in range(bisect_left(keys, start), len(keys)):  # fc ≥ c, then fv ascending
                key = keys[i]
                fc, fv = key
                if fv < v or (fv == card_vram and fc == card_cores):
                    continue  # too little VRAM; or untouched cards: the node's whole-card count changes too
                known = value(key)
                bound = info.fraction_bound(table, fc, fv, c, v) if known is None else known
                if bound > top0:
                    continue
                fit = (fc - c) * wc + (fv - v) * wv
                if bound == top0 and fit >= top1:
                    continue
                bucket = buckets[key]
                card = first_fitting(bucket, cards, fits)
                if card is None:
                    continue
                ns = card.node
                locked = info.locked(ns, cpu, mem)
                if locked:
                    other = lowest_passing(bucket, self._safe_test(info, request, fits, lambda o: cards[o].node))
                    if other is not None:
                        card, locked = cards[other], []
                        ns = card.node
                loss = bound
                if locked:
                    loss += info.stranded(locked, ns, model, fraction_loss, fc, fv, c, v, card_cores, card_vram)
                score = (loss, fit, 1, card.order)
                if best is None or score < best.score:  # _better, without building a loser
                    best = Candidate(score, GpuKind.HAMI, ns, [card], model=model)
                    top0, top1 = loss, fit
        return self._break_whole(cluster, view, request, model, c, v, size, fits, best)

    def _break_whole(
        self,
        cluster: ClusterState,
        view: StateView,
        request: GpuRequest,
        model: str,
        c: int,
        v: int,
        size: tuple[int, int],
        fits: NodeFit,
        best: Candidate | None,
    ) -> Candidate | None:
        """A fraction (c cores, v VRAM) of `model` (cards of `size`) on an untouched HAMi card:
        the card's loss plus the node's whole-card count going from k to k − 1."""
        card_vram, card_cores = size
        fit = (card_cores - c) / card_cores + (card_vram - v) / card_vram
        cpu, mem = request.cpu_millicores, request.memory_mib
        ask = (cpu, mem)
        infos = self._info
        for cls, by_count in cluster.exclusive.get(model, {}).items():
            if cls & 3 != 0:
                continue  # fractions break HAMi cards only
            info = infos.get((model, cls)) or self._class_info(model, cls)
            hosts = info.hosts.get(ask)
            if not (self._hosts(info, cls, ask) if hosts is None else hosts):
                continue
            if best is not None and info.break_floor(c, v) > best.score[0]:
                continue  # every count's bound is above the best loss: all would be skipped
            table = info.breaks.get((c, v))
            for count in sorted(by_count):
                bound = None if table is None else table.get(count)
                if bound is None:
                    bound = info.break_bound(count, c, v)
                    table = info.breaks[(c, v)]
                if best is not None and (bound, fit, 1) >= best.score[:3]:
                    continue
                nodes = by_count[count]
                node = first_fitting_node(nodes, view.nodes, fits)
                if node is None:
                    continue
                locked = info.locked(node, cpu, mem)
                if locked:
                    other = lowest_passing(nodes, self._safe_test(info, request, fits, view.nodes.__getitem__))
                    if other is not None:
                        node, locked = view.nodes[other], []
                card = view.cards[node.whole_free[model][0]]
                loss = bound
                if locked:
                    loss += info.stranded(locked, node, model, _break_loss, count, c, v, card_cores, card_vram)
                score = (loss, fit, 1, card.order)
                if best is None or score < best.score:  # _better, without building a loser
                    best = Candidate(score, GpuKind.HAMI, node, [card], model=model)
        return best

    def _whole(
        self,
        cluster: ClusterState,
        view: StateView,
        request: GpuRequest,
        model: str,
        wanted: int,
        fits: NodeFit,
        best: Candidate | None,
    ) -> Candidate | None:
        if model not in cluster.card_size:
            return best
        cpu, mem = request.cpu_millicores, request.memory_mib
        ask = (cpu, mem)
        infos = self._info
        top0, top1 = (best.score[0], best.score[1]) if best is not None else (_INF, _INF)
        for cls, by_count in cluster.exclusive.get(model, {}).items():
            info = infos.get((model, cls)) or self._class_info(model, cls)
            hosts = info.hosts.get(ask)
            if not (self._hosts(info, cls, ask) if hosts is None else hosts):
                continue
            taken_whole = wanted if info.hami else 0
            table = info.wholes.get(wanted)
            if table is None:
                table = info.wholes[wanted] = {}
            value = table.get
            for count in sorted(by_count):
                if count < wanted:
                    continue
                bound = value(count)
                if bound is None:
                    bound = info.whole_bound(table, wanted, count)
                # (bound, count − wanted) ≥ the best score's first two: skipped
                if bound > top0 or (bound == top0 and count - wanted >= top1):
                    continue
                nodes = by_count[count]
                node = first_fitting_node(nodes, view.nodes, fits)
                if node is None:
                    continue
                locked = info.locked(node, cpu, mem)
                if locked:
                    other = lowest_passing(nodes, self._safe_test(info, request, fits, view.nodes.__getitem__))
                    if other is not None:
                        node, locked = view.nodes[other], []
                loss = bound
                if locked:
                    loss += info.stranded(locked, node, model, whole_loss, count, wanted, taken_whole)
                score = (loss, count - wanted, 0, node.order)
                if best is None or score < best.score:  # _better, without building a loser
                    best = whole_candidate(score, node, view, model, wanted)
                    top0, top1 = loss, count - wanted
        return best

    def _slice(
        self,
        cluster: ClusterState,
        view: StateView,
        request: GpuRequest,
        model: str,
        fits: NodeFit,
        best: Candidate | None,
    ) -> Candidate | None:
        if model not in cluster.card_size:
            return best
        cpu, mem = request.cpu_millicores, request.memory_mib
        ask = (cpu, mem)
        infos = self._info
        for cls, by_free in cluster.timeslice.get(model, {}).items():
            info = infos.get((model, cls)) or self._class_info(model, cls)
            hosts = info.hosts.get(ask)
            if not (self._hosts(info, cls, ask) if hosts is None else hosts):
                continue
            for free in sorted(by_free):
                card = first_fitting(by_free[free], view.cards, fits)
                if card is None:
                    continue
                replicas = card.card.timeslice_replicas
                bound = info.slice_value(replicas)
                if best is not None and (bound, free) >= best.score[:2]:
                    break
                ns = card.node
                locked = info.locked(ns, cpu, mem)
                loss = bound
                if locked:
                    loss += info.stranded(locked, ns, model, slice_loss, replicas)
                best = _better(best, Candidate((loss, free, 0, card.order), GpuKind.SHARED, ns, [card], model=model))
                break
        return best

    def _cpu(self, cluster: ClusterState, view: StateView, request: GpuRequest, fits: NodeFit) -> Candidate | None:
        """CPU-only: a CPU-only node loses no GPU capacity; a GPU node loses what the types
        its leftover CPU and memory lock out could still use there. Tightest first at equal
        loss, CPU-only nodes before GPU nodes."""
        cpu, mem = request.cpu_millicores, request.memory_mib

        def first(bucket: OrderedSet) -> NodeState | None:
            return first_fitting_node(bucket, view.nodes, fits)

        found = tightest(cluster.cpu_nodes, cpu, mem, _PER_MILLICORE, _PER_MIB, first)
        if found is not None:
            return Candidate((0, 0, found[0], found[1].order), None, found[1], [])
        best: Candidate | None = None
        for cls, index in cluster.gpu_nodes.items():
            if cls == _FULL:
                found = tightest(index, cpu, mem, _PER_MILLICORE, _PER_MIB, first)
                if found is not None:
                    best = _better(best, Candidate((0, 1, found[0], found[1].order), None, found[1], []))
                continue
            margin = self._margins.get(cls)
            if margin is None:
                mask = cls >> 2
                ungated = [pt for j, pt in enumerate(self._view.points) if not (mask >> j) & 1]
                margin = self._margins[cls] = (
                    max((pc for pc, _ in ungated), default=0),
                    max((pm for _, pm in ungated), default=0),
                )
            safe_cpu = cpu + margin[0]
            safe_mem = mem + margin[1]
            found = tightest(index, safe_cpu, safe_mem, _PER_MILLICORE, _PER_MIB, first)
            if found is not None:
                fit = found[0] + (safe_cpu - cpu) * _PER_MILLICORE + (safe_mem - mem) * _PER_MIB
                best = _better(best, Candidate((0, 1, fit, found[1].order), None, found[1], []))
                continue
            found = tightest(index, cpu, mem, _PER_MILLICORE, _PER_MIB, first)
            if found is None:
                continue
            ns = found[1]
            loss = 0
            for model in sorted({cs.model for cs in ns.cards}):
                info = self._class_info(model, cls)
                loss += info.stranded(info.locked(ns, cpu, mem), ns, model, _no_loss)
            best = _better(best, Candidate((loss, 1, found[0], ns.order), None, ns, []))
        return best


def _no_loss(entry: Entry) -> float:
    return 0.0


def _break_loss(entry: Entry, free_cards: int, c: int, v: int, card_cores: int, card_vram: int) -> float:
    """A fraction breaking one of a node's `free_cards` untouched HAMi cards: the card's own
    loss plus the node's whole-card count going down by one."""
    return fraction_loss(entry, card_cores, card_vram, c, v, card_cores, card_vram) + whole_loss(
        entry, free_cards, 1, 0
    )


def _has_free(cs: CardState) -> bool:
    if cs.role == CardRole.MIG:
        return any(ms.tenant is None for ms in cs.migs)
    if cs.role == CardRole.TIMESLICE:
        return cs.free_slices > 0
    if cs.role == CardRole.EXCLUSIVE:
        return not cs.tenants
    return cs.free_cores > 0 and cs.free_vram > 0


def _cluster_usable(cluster: ClusterState, kind: TaskType) -> float:
    """The free capacity in the cluster a type could use (GPU-equivalents; time-slices in
    slices), from the indexes: the sum over buckets, not over cards."""
    total = 0.0
    for model, v, c in kind.sizes:
        size = cluster.card_size.get(model)
        if size is None:
            continue
        card_vram, card_cores = size
        if kind.mode is RequestMode.FRACTION:
            for index in cluster.fraction.get(model, {}).values():
                for fc, fv, bucket in index.feasible(c, v):
                    total += len(bucket.members) * share(fc, fv, card_cores, card_vram)
            for by_profile in cluster.mig.get(model, {}).values():
                for profile in cluster.mig_profiles.get(model, ()):
                    if profile.cores >= c and profile.vram_mib >= v:
                        total += len(by_profile.get(profile.name, ())) * share(
                            profile.cores, profile.vram_mib, card_cores, card_vram
                        )
        elif kind.mode is RequestMode.EXCLUSIVE:
            n = kind.cards
            for by_count in cluster.exclusive.get(model, {}).values():
                for count, nodes in by_count.items():
                    total += len(nodes.members) * (count - count % n)  # whole_usable(count, n)
        elif kind.mode is RequestMode.SHARED:
            for by_free in cluster.timeslice.get(model, {}).values():
                for free, cards in by_free.items():
                    total += free * len(cards.members)
    return total


class _FreeCapacity:
    """`_cluster_usable` for every type of a mix at once: the cluster's free buckets are read
    once, then each type sums those it can use in the same order (so the same float sums)."""

    def __init__(self, cluster: ClusterState) -> None:
        self.cluster = cluster
        self._fractions: dict[str, list[tuple[int, int, float]]] = {}
        self._usable: dict[tuple[str, int, int], list[float]] = {}

    def _fraction_items(self, model: str) -> list[tuple[int, int, float]]:
        items = self._fractions.get(model)
        if items is None:
            cluster = self.cluster
            card_vram, card_cores = cluster.card_size[model]
            items = self._fractions[model] = []
            for index in cluster.fraction.get(model, {}).values():
                for fc in index.fcs:
                    for fv in index.fvs[fc]:
                        items.append(
                            (fc, fv, len(index.buckets[(fc, fv)].members) * share(fc, fv, card_cores, card_vram))
                        )
            for by_profile in cluster.mig.get(model, {}).values():
                for profile in cluster.mig_profiles.get(model, ()):
                    instances = by_profile.get(profile.name)
                    if instances:
                        pc, pv = profile.cores, profile.vram_mib
                        items.append((pc, pv, len(instances.members) * share(pc, pv, card_cores, card_vram)))
        return items

    def _fraction_usable(self, model: str, v: int, c: int) -> list[float]:
        usable = self._usable.get((model, v, c))
        if usable is None:
            usable = self._usable[(model, v, c)] = [
                x for fc, fv, x in self._fraction_items(model) if fc >= c and fv >= v
            ]
        return usable

    def usable(self, kind: TaskType) -> float:
        if kind.mode is not RequestMode.FRACTION:
            return _cluster_usable(self.cluster, kind)
        total = 0.0
        for model, v, c in kind.sizes:
            if model in self.cluster.card_size:
                total = sum(self._fraction_usable(model, v, c), total)
        return total


def _node_usable(ns: NodeState, model: str, entry: Entry, size: tuple[int, int]) -> float:
    """U_m(n) before the placement, ignoring CPU and memory: the free capacity of the node's
    cards of `model` that the entry's type could use."""
    card_vram, card_cores = size
    mode = entry[1]
    if mode is _EXCLUSIVE:
        return float(whole_usable(len(ns.whole_free.get(model, ())), entry[4]))
    total = 0.0
    if mode is _SHARED:
        for cs in ns.cards:
            if cs.model == model and cs.role == _TIMESLICE:
                total += cs.free_slices / cs.card.timeslice_replicas
        return total
    ev, ec = entry[2], entry[3]
    for cs in ns.cards:
        if cs.model != model:
            continue
        role = cs.role
        if role == _HAMI:
            fc, fv = cs.free_cores, cs.free_vram
            if fc >= ec and fv >= ev:
                total += max(fc / card_cores, fv / card_vram)  # share(fc, fv, ...)
        elif role == _MIG:
            for ms in cs.migs:
                if ms.tenant is None and ms.cores >= ec and ms.vram >= ev:
                    total += share(ms.cores, ms.vram, card_cores, card_vram)
    return total


PolicyFactory = Callable[[], PlacementPolicy]

POLICIES: Mapping[str, PolicyFactory] = {
    BestFit.name: BestFit,
    FirstFit.name: FirstFit,
    GpuPacking.name: GpuPacking,
    FragmentationAware.name: FragmentationAware,
}
