"""Fragmentation of free capacity over GPU shares, CPU and memory, measured against the
request mix seen so far: the measure behind the fragmentation-aware policy.

Taken from "Beware of Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation
Gradient Descent" (Weng et al., USENIX ATC '23) and its simulator
(hkust-adsl/kubernetes-scheduler-simulator: `pkg/utils/frag.go` `NodeGpuShareFragAmount`,
`GetNodePodFrag`, `GetTypicalPods`; `pkg/simulator/plugin/fgd_score.go`):

* the *task types* are the distinct resource demands seen (the simulator keys them on
  CPU, GPU share, GPU count and GPU type), each weighted by its popularity; only the most
  popular are kept (the simulator keeps types up to 60 % of tasks, `DefaultTypicalPod*`);
* the fragmentation of a node for a type m is the node's idle GPU capacity that m cannot
  use: all of it when m cannot run on the node at all — too little CPU ("Q4 lack CPU",
  "Q1 lack both"), too little GPU, a card model m does not accept ("no access") — and
  otherwise the idle capacity of the cards that cannot host m's per-card share ("Q2");
  a CPU-only type counts every idle GPU as a fragment (it can use none). A node's
  fragmentation is the expectation over the types, F_n = Σ_m p_m · F_n(m);
* a placement's gradient is F_n(after) − F_n(before); the policy places each request
  where it is smallest ("steepest descent"), choosing the card on the node as well.

Written as what is lost: F_n(m) = idle_n − U_m(n), with U_m(n) the idle capacity m could
still use on the node (0 when it cannot run there), so the gradient of taking d GPUs is
−d + L with L = Σ_m p_m (U_m(before) − U_m(after)) ≥ 0: the policy minimises L, the
popularity-weighted capacity that stops being usable. For a type the node can host before
and after, that is the change of the card it lands on (the card's free share when the card
no longer fits m, what was taken when it still does); for a type the placement newly locks
out — the node's free CPU or memory drops below m's — it is everything m could use there.

Where gshare differs:

* memory counts like CPU (the simulator checks CPU only) and a card's share is
  two-dimensional, max(free VRAM share, free core share), as the ratio counts requests;
* cards are of several kinds: a HAMi card hosts a fraction when both its free cores and
  free VRAM suffice; a free MIG instance hosts a fraction that fits the profile; whole-card
  types use untouched HAMi or exclusive cards, fractions none of an exclusive node's;
  time-slices host only time-slice types;
* for a type of N whole cards, of a node's k untouched cards N·⌊k/N⌋ are usable (the paper
  counts all k once k ≥ N): the k mod N left over is what every such request strands,
  which is what makes taking a card from a node with 5 free better than from one with 4;
* a type names the models it accepts (a request for a class of cards accepts several),
  and a node's loss is counted over the cards of the model placed on;
* the mix is learned online from the requests a cluster is asked to place (and, when a
  scheduler is rebuilt, from the allocations it holds) rather than read from a trace;
  its weights are refreshed at powers of two and then every `refresh` requests. Types are
  counted by their GPU demand, their CPU and memory being the medians of their requests
  (exact CPU and memory would split one GPU shape into many rare types);
* each type's loss is weighted by its popularity times the scarcity of the capacity it can
  still use in the cluster (`scarcity_step`): the paper weighs by popularity alone, which
  sends work that may use any model to the pools the model-bound types need least — the
  small pools — until those are full and their own tasks fail; weighting by scarcity keeps
  each pool's room in proportion to the work only it can take;
* a node's class (what the search is organised by) is made of the CPU/memory needs of the
  few most popular types; a placement that would lock any other type out is still counted,
  on the node it lands on.

Pure and deterministic: the same observed sequence gives the same weights, summed in the
same order.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from math import log2

from domain.scheduling.model import GpuRequest, RequestMode


@dataclass(frozen=True, slots=True)
class TaskType:
    """A distinct demand: mode, per-model size ((model, VRAM, cores) per option; sizes are 0
    for whole cards and time-slices, empty for CPU-only), whole cards, CPU and memory."""

    mode: RequestMode
    sizes: tuple[tuple[str, int, int], ...]
    cards: int
    cpu: int
    mem: int

    @property
    def gpu_key(self) -> GpuKey:
        return (self.mode, self.sizes, self.cards)


# What a type asks of GPUs: (mode, sizes, whole cards); the mix is counted by it
GpuKey = tuple[RequestMode, tuple[tuple[str, int, int], ...], int]


def task_type(request: GpuRequest) -> TaskType:
    mode = request.mode
    fraction = mode is RequestMode.FRACTION
    sizes = tuple((o.model, o.vram_mib, o.cores) if fraction else (o.model, 0, 0) for o in request.options)
    cards = request.cards_wanted if mode is RequestMode.EXCLUSIVE else 0
    return TaskType(mode, sizes, cards, request.cpu_millicores, request.memory_mib)


Weights = tuple[tuple[float, TaskType], ...]


def _median(values: Counter[int]) -> int:
    half = (sum(values.values()) + 1) // 2
    seen = 0
    for value in sorted(values):
        seen += values[value]
        if seen >= half:
            return value
    return 0


class RequestMix:
    """The popularity of task types, learned from observed requests.

    Types are counted by what they ask of GPUs (`TaskType.gpu_key`); the CPU and memory of a
    kept type are the medians of its requests' (exact CPU and memory would split one GPU
    shape into dozens of rare types, and the most popular ones would cover little of the
    mix). `weights` keeps the `top` most frequent types (ties in first-seen order),
    normalised to sum to 1. They are refreshed while the mix is young (at every power of
    two) and then every `refresh` requests, so a decision does not pay for re-weighting;
    `version` changes with every refresh (callers key caches on it).
    """

    __slots__ = ("_demands", "_refresh", "_top", "total", "version", "weights")

    def __init__(self, top: int = 32, refresh: int = 4096) -> None:
        self._demands: dict[GpuKey, Counter[tuple[int, int]]] = {}
        self._top = top
        self._refresh = refresh
        self.total = 0
        self.version = 0
        self.weights: Weights = ()

    def observe(self, kind: TaskType) -> bool:
        """Count one request of this type; True when the weights were refreshed."""
        return self.count(kind.gpu_key, kind.cpu, kind.mem)

    def count(self, key: GpuKey, cpu_millicores: int, memory_mib: int) -> bool:
        """`observe` of a type given by its GPU key, CPU and memory (no TaskType built)."""
        demands = self._demands.get(key)
        if demands is None:
            demands = self._demands[key] = Counter()
        demands[(cpu_millicores, memory_mib)] += 1
        total = self.total = self.total + 1
        if (total & (total - 1) == 0 and total < self._refresh) or total % self._refresh == 0:
            counts = Counter({k: sum(d.values()) for k, d in self._demands.items()})
            common = counts.most_common(self._top)
            kept = sum(n for _, n in common)
            weights = []
            for k, n in common:
                cpu: Counter[int] = Counter()
                mem: Counter[int] = Counter()
                for (c, m), times in self._demands[k].items():
                    cpu[c] += times
                    mem[m] += times
                weights.append((n / kept, TaskType(*k, _median(cpu), _median(mem))))
            self.weights = tuple(weights)
            self.version += 1
            return True
        return False


# An entry of the mix as one card model sees it:
# (type index, mode, VRAM, cores, whole cards, threshold index or −1, CPU, memory)
Entry = tuple[int, RequestMode, int, int, int, int, int, int]


def share(free_cores: int, free_vram: int, card_cores: int, card_vram: int) -> float:
    """Free capacity of a card in card-equivalents: the larger of its two free shares."""
    return max(free_cores / card_cores, free_vram / card_vram)


def whole_usable(free_cards: int, n: int) -> int:
    """Of a node's untouched cards, those requests of n whole cards can use: n·⌊k/n⌋."""
    return free_cards - free_cards % n


@dataclass(frozen=True, slots=True)
class MixView:
    """What one refresh of the mix implies: the types' popularity (by type index), the GPU
    types' CPU/memory thresholds (the points a node's class is made of) and, per card model,
    the entries of the types accepting it."""

    version: int
    types: tuple[TaskType, ...]
    popularity: tuple[float, ...]
    points: tuple[tuple[int, int], ...]
    by_model: dict[str, tuple[Entry, ...]]

    @classmethod
    def of(cls, version: int, weights: Weights, max_points: int = 3) -> MixView:
        """Threshold points are the CPU and memory of the `max_points` most popular GPU types
        (more would split nodes into many classes, each searched apart); a type whose point
        is not among them is never taken as locked out by a node's class (`j` = −1), though
        a placement that would newly lock it out is still seen on the node itself."""
        gpu = [t for _, t in weights if t.mode is not RequestMode.CPU]
        chosen: list[tuple[int, int]] = []
        for t in gpu:
            if len(chosen) == max_points:
                break
            if (t.cpu, t.mem) not in chosen:
                chosen.append((t.cpu, t.mem))
        points = tuple(sorted(chosen))
        index = {pt: j for j, pt in enumerate(points)}
        by_model: dict[str, list[Entry]] = {}
        for ti, (_p, t) in enumerate(weights):
            if t.mode is RequestMode.CPU:
                continue
            j = index.get((t.cpu, t.mem), -1)
            for model, v, c in t.sizes:
                by_model.setdefault(model, []).append((ti, t.mode, v, c, t.cards, j, t.cpu, t.mem))
        return cls(
            version,
            tuple(t for _, t in weights),
            tuple(p for p, _ in weights),
            points,
            {m: tuple(e) for m, e in by_model.items()},
        )

    def mask(self, free_cpu: int, free_mem: int) -> int:
        """Bit j set: the node's free CPU or memory is below threshold point j."""
        mask = 0
        for j, (cpu, mem) in enumerate(self.points):
            if free_cpu < cpu or free_mem < mem:
                mask |= 1 << j
        return mask


# -- what one placement loses, per entry of the mix -----------------------------------------
# Each returns U_m(before) − U_m(after) on the card or node the placement changes, for an
# entry m the node can host before and after (the change of the part that is touched).


def fraction_loss(entry: Entry, fc: int, fv: int, c: int, v: int, card_cores: int, card_vram: int) -> float:
    """A fraction (c cores, v VRAM) taken from a HAMi card with (fc, fv) free."""
    mode, ev, ec = entry[1], entry[2], entry[3]
    if mode is not RequestMode.FRACTION or fc < ec or fv < ev:
        return 0.0
    after_c, after_v = fc - c, fv - v
    if after_c >= ec and after_v >= ev:
        return share(fc, fv, card_cores, card_vram) - share(after_c, after_v, card_cores, card_vram)
    return share(fc, fv, card_cores, card_vram)


def whole_loss(entry: Entry, free_cards: int, taken: int, hami_taken_whole: int) -> float:
    """`taken` of a node's `free_cards` untouched cards are taken or broken: whole-card types
    lose the change of their usable count; fraction types lose the `hami_taken_whole` HAMi
    cards taken whole (a broken card's own change is `fraction_loss`)."""
    mode, n = entry[1], entry[4]
    if mode is RequestMode.EXCLUSIVE:
        return float(whole_usable(free_cards, n) - whole_usable(free_cards - taken, n))
    if mode is RequestMode.FRACTION:
        return float(hami_taken_whole)
    return 0.0


def instance_loss(entry: Entry, inst_cores: int, inst_vram: int, card_cores: int, card_vram: int) -> float:
    """A free MIG instance taken: every fraction type it could host loses it whole."""
    if entry[1] is RequestMode.FRACTION and inst_cores >= entry[3] and inst_vram >= entry[2]:
        return share(inst_cores, inst_vram, card_cores, card_vram)
    return 0.0


def slice_loss(entry: Entry, replicas: int) -> float:
    return 1.0 / replicas if entry[1] is RequestMode.SHARED else 0.0


def scarcity_step(usable: float, previous: int | None) -> int:
    """The half-octave step of 1 / usable (at most one GPU left counts as one): a type's
    loss weighs 2^(step / 2) times its popularity, so losing a GPU matters more to a type
    with few places left than to one with many. The step moves only once the capacity is
    three quarters of a step away from the previous one (hysteresis), so a type near a
    boundary does not re-weight the mix at every look."""
    x = -2 * log2(max(usable, 1.0))
    if previous is not None and abs(x - previous) < 0.75:
        return previous
    return round(x)
