"""Use cases: admit (place, preempt or queue), release (and admit what fits), withdraw."""

from __future__ import annotations

import pytest

from domain.inventory.model import SharingMode
from domain.scheduling.errors import SchedulingError, SchedulingErrorCode
from domain.scheduling.model import GpuRequest
from domain.scheduling.queue import GpuQueue
from domain.scheduling.scheduler import Scheduler
from domain.scheduling.services import admit, release, withdraw
from tests.unit.scheduling.helpers import A30, A100, card, inventory, node

HAMI, TS = SharingMode.HAMI, SharingMode.TIMESLICING


def frac(wid: str, share: int, **kw: object) -> GpuRequest:
    return GpuRequest(wid, A100, vram_mib=819 * share, cores=share, hourly_rate_micro=1_000_000, **kw)  # type: ignore[arg-type]


def test_admit_places_what_fits() -> None:
    s, q = Scheduler(inventory(node("n1", HAMI, card("g1")))), GpuQueue()
    result = admit(s, q, frac("a", 50))
    assert result.allocation is not None and result.queued is None


def test_admit_queues_what_does_not_fit_and_release_admits_it() -> None:
    s, q = Scheduler(inventory(node("n1", HAMI, card("g1")))), GpuQueue()
    assert admit(s, q, frac("a", 80)).allocation is not None
    waiting = admit(s, q, frac("b", 50))
    assert waiting.allocation is None
    assert waiting.queued is not None and waiting.queued.position == 1
    released, drained = release(s, q, "a")
    assert released.workload_id == "a"
    assert [a.workload_id for a in drained.admitted] == ["b"]
    assert len(q) == 0


def test_arrivals_do_not_jump_the_queue() -> None:
    s, q = Scheduler(inventory(node("n1", HAMI, card("g1")), node("n2", HAMI, card("g2")))), GpuQueue()
    assert admit(s, q, frac("a", 80)).allocation is not None
    assert admit(s, q, frac("b", 60)).allocation is not None
    head = admit(s, q, frac("head", 50))
    assert head.queued is not None
    # a small arrival may go around the head only where the head is not waiting
    small = admit(s, q, frac("small", 10))
    assert small.allocation is not None
    reserved = s.reservation(frac("head", 50))
    assert small.allocation.placement.node_id not in reserved
    # one that would need the head's node waits behind it
    late = admit(s, q, frac("late", 30))
    assert late.queued is not None and late.queued.position == 2


def test_admit_preempts_the_cheapest_lower_priority_work_and_requeues_it() -> None:
    s, q = Scheduler(inventory(node("n1", HAMI, card("g1")))), GpuQueue()
    assert admit(s, q, frac("job-like", 70, preemptible=True)).allocation is not None
    urgent = admit(s, q, frac("urgent", 50, priority=5))
    assert urgent.allocation is not None
    assert [v.workload_id for v in urgent.preempted] == ["job-like"]
    assert q.position("job-like").position == 1
    assert s.allocation("job-like") is None


def test_admit_without_preemption_queues() -> None:
    s, q = Scheduler(inventory(node("n1", HAMI, card("g1")))), GpuQueue()
    assert admit(s, q, frac("low", 70, preemptible=True)).allocation is not None
    result = admit(s, q, frac("urgent", 50, priority=5), allow_preemption=False)
    assert result.queued is not None and result.preempted == ()


def test_admit_refuses_a_job_on_time_slices_and_changes_nothing() -> None:
    s, q = Scheduler(inventory(node("t", TS, card("t1", A30, 24576, replicas=4)))), GpuQueue()
    with pytest.raises(SchedulingError) as refused:
        admit(s, q, GpuRequest("job", A30, shared=True, is_job=True))
    assert refused.value.code is SchedulingErrorCode.JOB_TIMESLICE_REFUSED
    assert len(q) == 0 and s.allocations() == []


def test_withdraw_takes_a_request_out_of_the_queue() -> None:
    s, q = Scheduler(inventory(node("n1", HAMI, card("g1")))), GpuQueue()
    admit(s, q, frac("a", 100))
    admit(s, q, frac("b", 10))
    assert withdraw(q, "b").workload_id == "b"
    assert len(q) == 0
