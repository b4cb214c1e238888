"""Preemption: when a higher-priority request cannot be placed, find the cheapest set of
lower-priority preemptible workloads whose removal lets it fit.

Cheapest means, in order: the least hourly cost given up (rate × ratio), the fewest victims,
then the lowest node order and victim ids (deterministic). Victims must share one node with
the placement (a request is placed on one node). Per node the search is exact over subsets
of up to `EXACT_LIMIT` candidates, and greedy (cheapest first, then pruned) beyond that.
Victims are returned to the caller, which pauses and re-queues them; never destroyed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from domain.inventory.model import Placement
from domain.scheduling.model import Allocation, GpuRequest
from domain.scheduling.scheduler import Scheduler

EXACT_LIMIT = 10


@dataclass(frozen=True, slots=True)
class PreemptionPlan:
    request: GpuRequest
    placement: Placement
    victims: tuple[Allocation, ...]

    @property
    def hourly_cost_micro(self) -> Fraction:
        return sum((v.hourly_cost_micro for v in self.victims), Fraction(0))


def _cost_key(victims: Sequence[Allocation]) -> tuple[Fraction, Fraction, int, tuple[str, ...]]:
    return (
        sum((v.hourly_cost_micro for v in victims), Fraction(0)),
        sum((v.placement.ratio for v in victims), Fraction(0)),
        len(victims),
        tuple(sorted(v.workload_id for v in victims)),
    )


def can_preempt(victim: Allocation, request: GpuRequest) -> bool:
    return victim.request.preemptible and victim.request.priority < request.priority


def _fits_without(
    scheduler: Scheduler, request: GpuRequest, node_id: str, victims: Sequence[Allocation]
) -> Placement | None:
    for v in victims:
        scheduler.release(v.workload_id)
    try:
        return scheduler.find(request, only_nodes=frozenset({node_id}))
    finally:
        for v in victims:
            scheduler.apply(v)


def plan_preemption(scheduler: Scheduler, request: GpuRequest) -> PreemptionPlan | None:
    """The cheapest plan, an empty-victim plan if the request fits as is, or None if no set
    of eligible victims makes room. The scheduler is left exactly as it was."""
    placement = scheduler.find(request)
    if placement is not None:
        return PreemptionPlan(request, placement, ())
    by_node: dict[str, list[Allocation]] = {}
    for allocation in scheduler.allocations():
        if can_preempt(allocation, request):
            by_node.setdefault(allocation.placement.node_id, []).append(allocation)
    node_order = {n.id: i for i, n in enumerate(scheduler.inventory.nodes)}
    best: PreemptionPlan | None = None
    best_key: tuple[tuple[Fraction, Fraction, int, tuple[str, ...]], int] | None = None
    for node_id in sorted(by_node, key=node_order.__getitem__):
        candidates = sorted(by_node[node_id], key=lambda a: _cost_key([a]))
        if _fits_without(scheduler, request, node_id, candidates) is None:
            continue  # even removing all of them is not enough here
        found = _cheapest_on_node(scheduler, request, node_id, candidates)
        if found is None:
            continue
        victims, where = found
        key = (_cost_key(victims), node_order[node_id])
        if best_key is None or key < best_key:
            best_key = key
            best = PreemptionPlan(request, where, tuple(victims))
    return best


def _cheapest_on_node(
    scheduler: Scheduler, request: GpuRequest, node_id: str, candidates: list[Allocation]
) -> tuple[list[Allocation], Placement] | None:
    if len(candidates) <= EXACT_LIMIT:
        subsets = [list(subset) for size in range(1, len(candidates) + 1) for subset in combinations(candidates, size)]
        subsets.sort(key=_cost_key)
        for subset in subsets:
            where = _fits_without(scheduler, request, node_id, subset)
            if where is not None:
                return subset, where
        return None
    chosen: list[Allocation] = []
    for candidate in candidates:
        chosen.append(candidate)
        if _fits_without(scheduler, request, node_id, chosen) is not None:
            break
    # drop the dearest victims that turn out not to be needed
    for candidate in sorted(chosen, key=lambda a: _cost_key([a]), reverse=True):
        trial = [c for c in chosen if c is not candidate]
        if trial and _fits_without(scheduler, request, node_id, trial) is not None:
            chosen = trial
    where = _fits_without(scheduler, request, node_id, chosen)
    return None if where is None else (chosen, where)


def preempt(scheduler: Scheduler, request: GpuRequest) -> PreemptionPlan | None:
    """Plan and carry out: release the victims and take the placement. The caller pauses the
    victims' workloads and re-queues their requests."""
    plan = plan_preemption(scheduler, request)
    if plan is None:
        return None
    for victim in plan.victims:
        scheduler.release(victim.workload_id)
    scheduler.apply(Allocation(request, plan.placement))
    return plan
