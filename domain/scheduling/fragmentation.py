"""Fragmentation of free GPU capacity, measured against the request mix seen so far.

After "Beware of Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation Gradient
Descent" (Weng et al., USENIX ATC '23): the fragmentation of a card (or a node) with respect
to a request type is the part of its free capacity that a request of that type cannot use;
against a mix of types it is the expectation, each type weighted by its popularity (how
often it has been asked for):

    F(free) = Σ_t p_t · unusable_t(free)

A placement's *gradient* is F(after) − F(before); the fragmentation-aware policy places each
request where the gradient is smallest.

Adapted to this inventory:

* a card's free capacity is two-dimensional (free cores, free VRAM). It is counted in
  card-equivalents the way the ratio counts a request, by the larger of its two shares, so a
  card left with VRAM but (almost) no cores is counted as the VRAM it strands;
* a fractional type t = (v, c) cannot use a card whose free cores < c or free VRAM < v: then
  the card's whole free capacity is fragmentation for t; otherwise none of it is (the paper's
  rule: capacity that can host the type is not a fragment). Counting instead what one or
  several t would leave over was measured worse on the placement benchmark: in two
  dimensions it chases exact fits the mix rarely offers;
* a whole-card type (N exclusive cards on one node) can use only untouched cards: a partly
  used card's free capacity is always fragmentation for it. Of a node's k untouched cards,
  requests of N cards can use N·⌊k/N⌋; the k mod N left over is fragmentation for that type.
  For k < N that is all k cards (the node cannot host the type at all: the paper's rule);
  for k ≥ N it counts the cards that every request of that size would leave over, which is
  what makes taking 1 card from a node with 5 free better than from one with 4. (Counting
  only k < N, as the paper does for single requests, lets small requests split big nodes
  into odd remainders; on a 40-node cluster that refused 8-card requests best fit placed.)
  This node-level term is what breaking a node's whole cards, or taking them, changes;
* time-slice types use neither; their own capacity (slices) is packed separately.

Only the most frequent types are kept (`RequestMix.top`): a long tail of one-off custom
shares adds cost, not signal. Everything here is pure and deterministic: the same observed
sequence gives the same weights, summed in the same order.
"""

from __future__ import annotations

from collections import Counter

from domain.scheduling.model import GpuRequest, RequestMode

# (mode, VRAM MiB, cores, whole cards): VRAM and cores only for fractions, cards only for
# exclusive requests, so every time-slice request is one type.
RequestType = tuple[RequestMode, int, int, int]
Weights = tuple[tuple[float, RequestType], ...]


def request_type(request: GpuRequest) -> RequestType:
    mode = request.mode
    fraction = mode is RequestMode.FRACTION
    return (
        mode,
        request.vram_mib if fraction else 0,
        request.cores if fraction else 0,
        request.cards_wanted if mode is RequestMode.EXCLUSIVE else 0,
    )


class RequestMix:
    """The popularity of request types for one card model, learned from observed requests.

    `weights` is refreshed while the mix is young (at every power of two) and then every
    `refresh` requests, so a decision does not pay for re-weighting; `version` changes with
    every refresh (callers key caches on it). Ties in frequency keep first-seen order.
    """

    __slots__ = ("_counts", "_refresh", "_top", "total", "version", "weights")

    def __init__(self, top: int = 16, refresh: int = 256) -> None:
        self._counts: Counter[RequestType] = Counter()
        self._top = top
        self._refresh = refresh
        self.total = 0
        self.version = 0
        self.weights: Weights = ()

    def observe(self, request: GpuRequest) -> bool:
        """Count one request; True when the weights were refreshed."""
        self._counts[request_type(request)] += 1
        total = self.total = self.total + 1
        if total & (total - 1) == 0 or total % self._refresh == 0:
            common = self._counts.most_common(self._top)
            kept = sum(n for _, n in common)
            self.weights = tuple((n / kept, t) for t, n in common)
            self.version += 1
            return True
        return False


def free_share(free_cores: int, free_vram: int, card_cores: int, card_vram: int) -> float:
    """Free capacity of a card in card-equivalents: the larger of its two free shares."""
    return max(free_cores / card_cores, free_vram / card_vram)


def card_fragmentation(
    free_cores: int,
    free_vram: int,
    card_cores: int,
    card_vram: int,
    weights: Weights,
) -> float:
    """Expected free capacity of one card (HAMi, or a free MIG instance's size) that a
    request drawn from the mix cannot use (see the module docstring)."""
    free = free_share(free_cores, free_vram, card_cores, card_vram)
    if free <= 0:
        return 0.0
    whole = free_cores == card_cores and free_vram == card_vram
    value = 0.0
    for p, (mode, v, c, _n) in weights:
        if mode is RequestMode.FRACTION:
            if free_cores < c or free_vram < v:
                value += p * free
        elif mode is RequestMode.EXCLUSIVE and not whole:
            value += p * free
    return value


def whole_cards_fragmentation(free_cards: int, weights: Weights) -> float:
    """A node's untouched cards that whole-card types cannot use: for a type of N cards,
    the free_cards mod N left over once as many N-card requests as fit have been placed."""
    value = 0.0
    for p, (mode, _v, _c, n) in weights:
        if mode is RequestMode.EXCLUSIVE:
            value += p * (free_cards % n)
    return value
