"""Scheduling use cases over a `Scheduler` and a `GpuQueue`: admit a request (place, preempt
or queue), release a workload and admit what then fits, withdraw a queued request.

They are pure: the caller loads the scheduler and queue from its snapshot (inventory,
allocations, queue entries), runs the use case under the lock that guards capacity, persists
the result and acts on it (apply placements to the cluster, pause preempted workloads).
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.scheduling.model import Allocation, GpuRequest
from domain.scheduling.preemption import preempt
from domain.scheduling.queue import DrainResult, GpuQueue, QueueEntry, QueuePosition
from domain.scheduling.scheduler import Scheduler


@dataclass(frozen=True, slots=True)
class Admission:
    """Exactly one of `allocation` / `queued` is set. `preempted` are the workloads that made
    room: released here and re-queued with their own priority; the caller pauses them.
    `also_admitted` are queued requests this call admitted on the way (apply them too)."""

    allocation: Allocation | None
    queued: QueuePosition | None
    preempted: tuple[Allocation, ...] = ()
    also_admitted: tuple[Allocation, ...] = ()


def admit(
    scheduler: Scheduler,
    queue: GpuQueue,
    request: GpuRequest,
    *,
    allow_preemption: bool = True,
    arrival: int | None = None,
) -> Admission:
    """Place the request now; if nothing fits and it outranks preemptible work, preempt the
    cheapest victims; otherwise queue it. Requests that can never run as asked (a job on
    time-slices, a fraction bigger than a card) raise `SchedulingError` and change nothing.

    While a request of equal or higher priority waits for the same offering, an arrival does
    not jump the queue: it joins it and goes now only as a backfill that cannot delay the
    head."""
    request.validate()
    waiting = queue.entries(request.offering)
    if waiting and waiting[0].request.priority >= request.priority:
        scheduler.observe(request)
        queue.enqueue(request, arrival)
        drained = queue.drain(scheduler, request.offering).admitted
        others = tuple(a for a in drained if a.workload_id != request.workload_id)
        mine = scheduler.allocation(request.workload_id)
        if mine is not None:
            return Admission(mine, None, (), others)
        return Admission(None, queue.position(request.workload_id), (), others)
    allocation = scheduler.place(request)
    if allocation is not None:
        return Admission(allocation, None)
    if allow_preemption:
        plan = preempt(scheduler, request)
        if plan is not None:
            for victim in plan.victims:
                queue.enqueue(victim.request)
            placed = scheduler.allocation(request.workload_id)
            assert placed is not None
            return Admission(placed, None, plan.victims)
    entry = queue.enqueue(request, arrival)
    return Admission(None, queue.position(entry.workload_id))


def release(scheduler: Scheduler, queue: GpuQueue, workload_id: str) -> tuple[Allocation, DrainResult]:
    """Give back what a workload holds (stop, pause, failure) and admit what now fits, every
    offering's head first (freed CPU and memory may serve other offerings too)."""
    released = scheduler.release(workload_id)
    return released, queue.drain(scheduler)


def requeue_at_head(queue: GpuQueue, request: GpuRequest) -> QueueEntry:
    """Queue a workload that lost its place through no choice of its own (its node was lost,
    its pod evicted) ahead of every request of its priority: it waited its turn already."""
    same = [e.arrival for e in queue.entries(request.offering) if e.request.priority == request.priority]
    return queue.enqueue(request, min(same) - 1 if same else None)


def withdraw(queue: GpuQueue, workload_id: str) -> QueueEntry:
    """Take a request out of the queue (cancelled, expired, or its owner paused it)."""
    return queue.remove(workload_id)
