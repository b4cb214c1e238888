"""Placement policies: one interface, chosen per cluster by name.

* `best-fit` (the default, the seed's 2-D best fit): the card whose remaining VRAM and core
  shares are tightest after placement wins; a free MIG instance competes on the same score.
* `first-fit`: the lowest-numbered place that fits (the benchmark's naive baseline).
* `fragmentation-aware`: in the spirit of "fragmentation gradient descent" (Weng et al.,
  USENIX ATC '23): among the places that fit, choose the one whose use least increases the
  expected fragmentation of free capacity, measured against the request mix seen so far.

Time-slices are packed (fewest free slices first) by every policy except first-fit: all
slices of a card are alike, so there is nothing else to optimise.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Mapping
from typing import Protocol

from domain.inventory.model import GpuKind, SharingMode
from domain.scheduling.fragmentation import (
    RequestMix,
    Weights,
    card_fragmentation,
    whole_cards_fragmentation,
)
from domain.scheduling.index import (
    Candidate,
    ClusterState,
    NodeFit,
    NodeState,
    StateView,
    first_fitting,
    first_fitting_mig,
    first_fitting_node,
)
from domain.scheduling.model import GpuRequest, RequestMode


class PlacementPolicy(Protocol):
    """Chooses where a request goes inside one cluster, or None when nothing fits there.

    `allow_hami` / `allow_mig` say which fractional capacity the request may use (an admin
    may force one). `observe` is told of every request the cluster is asked to place, so a
    policy can learn the request mix. A policy never changes the scheduler's state.
    """

    @property
    def name(self) -> str: ...

    def observe(self, request: GpuRequest) -> None: ...

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


def pack_timeslice(cluster: ClusterState, view: StateView, request: GpuRequest, fits: NodeFit) -> Candidate | None:
    """The card with the fewest free slices (packing keeps whole cards' slices free)."""
    by_free = cluster.timeslice.get(request.offering)
    if not by_free:
        return None
    for free in sorted(by_free):
        card = first_fitting(by_free[free], view.cards, fits)
        if card is not None:
            return Candidate((free, card.order), GpuKind.SHARED, card.node, [card])
    return None


def tightest_node_for_whole_cards(
    cluster: ClusterState, view: StateView, request: GpuRequest, fits: NodeFit
) -> Candidate | None:
    """The node with the fewest whole free cards that still has N (keeps big nodes whole)."""
    by_count = cluster.exclusive.get(request.offering)
    if not by_count:
        return None
    wanted = request.cards_wanted
    for count in sorted(by_count):
        if count < wanted:
            continue
        node = first_fitting_node(by_count[count], view.nodes, fits)
        if node is not None:
            return _whole_candidate((count - wanted, node.order), node, view, request)
    return None


def _whole_candidate(
    score: tuple[float, ...], node_state: NodeState, view: StateView, request: GpuRequest
) -> Candidate:
    orders = node_state.whole_free[request.offering][: request.cards_wanted]
    return Candidate(score, GpuKind.EXCLUSIVE, node_state, [view.cards[o] for o in orders])


# -- best fit -----------------------------------------------------------------------------


class BestFit:
    name = "best-fit"

    def observe(self, request: GpuRequest) -> None:
        return None

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
        if mode is RequestMode.SHARED:
            return pack_timeslice(cluster, view, request, fits)
        if mode is RequestMode.EXCLUSIVE:
            return tightest_node_for_whole_cards(cluster, view, request, fits)
        return best_fraction(cluster, view, request, fits, allow_hami, allow_mig)


def best_fraction(
    cluster: ClusterState,
    view: StateView,
    request: GpuRequest,
    fits: NodeFit,
    allow_hami: bool,
    allow_mig: bool,
) -> Candidate | None:
    """2-D best fit. Score = leftover cores × V + leftover VRAM × C (both shares, exact ints);
    a MIG instance's leftover is what the request leaves unused inside it. Ties: MIG first
    (hardware isolation), then the lowest order."""
    size = cluster.card_size.get(request.offering)
    if size is None:
        return None
    card_vram, card_cores = size
    v, c = request.vram_mib, request.cores
    best: Candidate | None = None
    best_score = -1
    if allow_mig:
        for profile in cluster.mig_profiles.get(request.offering, ()):
            if profile.vram_mib < v or profile.cores < c:
                continue
            score = (profile.cores - c) * card_vram + (profile.vram_mib - v) * card_cores
            if best is not None and score >= best_score:
                continue
            inst = first_fitting_mig(cluster.mig[request.offering][profile.name], view.migs, fits)
            if inst is not None:
                best_score = score
                best = Candidate((score, 0, inst.order), GpuKind.MIG, inst.card.node, [inst.card], inst)
    if not allow_hami:
        return best
    index = cluster.fraction.get(request.offering)
    if index is None:
        return best
    fcs = index.fcs
    for i in range(bisect_left(fcs, c), len(fcs)):
        fc = fcs[i]
        core_left = (fc - c) * card_vram
        if best is not None and core_left > best_score:
            break  # fc only grows: nothing further can be tighter
        fvs = index.fvs[fc]
        for j in range(bisect_left(fvs, v), len(fvs)):
            fv = fvs[j]
            score = core_left + (fv - v) * card_cores
            if best is not None and score > best_score:
                break
            card = first_fitting(index.buckets[(fc, fv)], view.cards, fits)
            if card is None:
                continue
            key = (score, 1, card.order)
            if best is None or key < best.score:
                best_score = score
                best = Candidate(key, GpuKind.HAMI, card.node, [card])
            break
    return best


# -- first fit ----------------------------------------------------------------------------


class FirstFit:
    """The lowest-numbered card (or node) that fits: the naive baseline."""

    name = "first-fit"

    def observe(self, request: GpuRequest) -> None:
        return None

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
        best: Candidate | None = None
        if mode is RequestMode.SHARED:
            for bucket in cluster.timeslice.get(request.offering, {}).values():
                card = first_fitting(bucket, view.cards, fits)
                if card is not None and (best is None or card.order < best.score[0]):
                    best = Candidate((card.order,), GpuKind.SHARED, card.node, [card])
            return best
        if mode is RequestMode.EXCLUSIVE:
            for count, bucket in cluster.exclusive.get(request.offering, {}).items():
                if count < request.cards_wanted:
                    continue
                node = first_fitting_node(bucket, view.nodes, fits)
                if node is not None and (best is None or node.order < best.score[0]):
                    best = _whole_candidate((node.order,), node, view, request)
            return best
        if allow_mig:
            for profile in cluster.mig_profiles.get(request.offering, ()):
                if profile.vram_mib < request.vram_mib or profile.cores < request.cores:
                    continue
                bucket = cluster.mig[request.offering][profile.name]
                inst = first_fitting_mig(bucket, view.migs, fits)
                if inst is not None and (best is None or inst.card.order < best.score[0]):
                    best = Candidate(
                        (inst.card.order, inst.order),
                        GpuKind.MIG,
                        inst.card.node,
                        [inst.card],
                        inst,
                    )
        index = cluster.fraction.get(request.offering)
        if allow_hami and index is not None:
            for _fc, _fv, bucket in index.feasible(request.cores, request.vram_mib):
                card = first_fitting(bucket, view.cards, fits)
                if card is not None and (best is None or card.order < best.score[0]):
                    best = Candidate((card.order, 0), GpuKind.HAMI, card.node, [card])
        return best


# -- fragmentation-aware ------------------------------------------------------------------

_MIX_TYPES = 16  # the most frequent types only: a long tail adds cost, not signal


class FragmentationAware:
    """Fragmentation gradient descent (Weng et al., USENIX ATC '23), adapted to cards.

    The request mix of each card model is learned from every request the cluster is asked
    to place (`RequestMix`); the fragmentation F of free capacity against it is defined in
    `domain.scheduling.fragmentation`. Each request goes where F rises least (the gradient
    ΔF = F(after) − F(before)):

    * a fraction on a HAMi card: the card's ΔF, plus, when it breaks an untouched card, the
      node-level change of its whole free cards going from k to k − 1;
    * a fraction on a free MIG instance: what the request leaves unused inside the instance
      is stranded for good (an instance has one tenant), minus the instance's own F;
    * N whole cards: the node-level change from k to k − N whole free cards;
    * a time-slice: packed, as by best fit (all slices of a card are alike).

    Ties (equal ΔF) go to the tighter fit (best fit's score), then MIG before HAMi, then the
    lowest order: deterministic. F per (free cores, free VRAM) and per whole-card count is
    cached until the mix is refreshed, so a decision costs a lookup per distinct
    free-capacity bucket that fits.
    """

    name = "fragmentation-aware"

    def __init__(self) -> None:
        self._mix: dict[str, RequestMix] = {}
        # F per card (free cores, free VRAM) and per node (whole free cards), until a refresh
        self._cache: dict[str, dict[tuple[int, int], float]] = {}
        self._whole_cache: dict[str, dict[int, float]] = {}

    def observe(self, request: GpuRequest) -> None:
        mix = self._mix.get(request.offering)
        if mix is None:
            mix = self._mix[request.offering] = RequestMix(_MIX_TYPES)
        if mix.observe(request):
            self._cache[request.offering] = {}
            self._whole_cache[request.offering] = {}

    def _weights(self, model: str) -> Weights:
        mix = self._mix.get(model)
        return () if mix is None else mix.weights

    def _frag(self, model: str, fc: int, fv: int, card_cores: int, card_vram: int) -> float:
        cache = self._cache.setdefault(model, {})
        key = (fc, fv)
        value = cache.get(key)
        if value is None:
            value = cache[key] = card_fragmentation(fc, fv, card_cores, card_vram, self._weights(model))
        return value

    def _whole_frag(self, model: str, free_cards: int) -> float:
        cache = self._whole_cache.setdefault(model, {})
        value = cache.get(free_cards)
        if value is None:
            value = cache[free_cards] = whole_cards_fragmentation(free_cards, self._weights(model))
        return value

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
        model = request.offering
        if mode is RequestMode.SHARED:
            return pack_timeslice(cluster, view, request, fits)
        if mode is RequestMode.EXCLUSIVE:
            by_count = cluster.exclusive.get(model)
            if not by_count:
                return None
            wanted = request.cards_wanted
            best: Candidate | None = None
            for count in sorted(by_count):
                if count < wanted:
                    continue
                delta = self._whole_frag(model, count - wanted) - self._whole_frag(model, count)
                if best is not None and (delta, count - wanted) >= best.score[:2]:
                    continue
                node = first_fitting_node(by_count[count], view.nodes, fits)
                if node is not None:
                    best = _whole_candidate((delta, count - wanted, node.order), node, view, request)
            return best
        size = cluster.card_size.get(model)
        if size is None:
            return None
        card_vram, card_cores = size
        v, c = request.vram_mib, request.cores
        best = None
        if allow_mig:
            for profile in cluster.mig_profiles.get(model, ()):
                if profile.vram_mib < v or profile.cores < c:
                    continue
                before = self._frag(model, profile.cores, profile.vram_mib, card_cores, card_vram)
                # what the request leaves unused inside the instance is stranded for good
                left_c, left_v = profile.cores - c, profile.vram_mib - v
                after = max(left_c / card_cores, left_v / card_vram)
                fit = left_c * card_vram + left_v * card_cores
                key: tuple[float, ...] = (after - before, fit, 0)
                if best is not None and key >= best.score[:3]:
                    continue
                inst = first_fitting_mig(cluster.mig[model][profile.name], view.migs, fits)
                if inst is not None:
                    best = Candidate((*key, inst.order), GpuKind.MIG, inst.card.node, [inst.card], inst)
        index = cluster.fraction.get(model)
        if allow_hami and index is not None:
            for fc, fv, bucket in index.feasible(c, v):
                before = self._frag(model, fc, fv, card_cores, card_vram)
                after = self._frag(model, fc - c, fv - v, card_cores, card_vram)
                fit = (fc - c) * card_vram + (fv - v) * card_cores
                if fc == card_cores and fv == card_vram:
                    # breaking a whole card also changes its node's whole-card fragmentation
                    best = self._break_whole_card(cluster, view, request, fits, after - before, fit, best)
                    continue
                key = (after - before, fit, 1)
                if best is not None and key >= best.score[:3]:
                    continue
                card = first_fitting(bucket, view.cards, fits)
                if card is not None:
                    best = Candidate((*key, card.order), GpuKind.HAMI, card.node, [card])
        return best

    def _break_whole_card(
        self,
        cluster: ClusterState,
        view: StateView,
        request: GpuRequest,
        fits: NodeFit,
        card_delta: float,
        fit: int,
        best: Candidate | None,
    ) -> Candidate | None:
        """Choose the node whose whole free card a fraction breaks: the node-level ΔF (its
        whole free cards going from k to k − 1) is added to the card's own ΔF."""
        model = request.offering
        by_count = cluster.exclusive.get(model)
        if not by_count:
            return best

        def hami_fits(n: NodeState) -> bool:
            return n.node.sharing_mode is SharingMode.HAMI and fits(n)

        for count in sorted(by_count):
            node_delta = self._whole_frag(model, count - 1) - self._whole_frag(model, count)
            key: tuple[float, ...] = (card_delta + node_delta, fit, 1)
            if best is not None and key >= best.score[:3]:
                continue
            node = first_fitting_node(by_count[count], view.nodes, hami_fits)
            if node is not None:
                card = view.cards[node.whole_free[model][0]]
                best = Candidate((*key, card.order), GpuKind.HAMI, node, [card])
        return best


PolicyFactory = Callable[[], PlacementPolicy]

POLICIES: Mapping[str, PolicyFactory] = {
    BestFit.name: BestFit,
    FirstFit.name: FirstFit,
    FragmentationAware.name: FragmentationAware,
}
