"""The scheduling use cases to the letter (issue 20): an arrival behind a waiting head of
equal or higher priority joins the queue (placed now only as a backfill, what that drain
admitted besides told), one that outranks the head goes straight to placement, the victims
of a preemption re-queued with their own priority, a lost workload re-queued ahead of its
priority only, and a release draining every offering."""

from __future__ import annotations

from domain.inventory.model import SharingMode
from domain.scheduling.model import GpuRequest
from domain.scheduling.queue import GpuQueue, QueuePosition
from domain.scheduling.scheduler import Scheduler
from domain.scheduling.services import Admission, admit, release, requeue_at_head, withdraw
from tests.unit.scheduling.helpers import A30, A100, card, inventory, node

EXCL = SharingMode.EXCLUSIVE


def whole(wid: str, model: str = A100, **kw: object) -> GpuRequest:
    return GpuRequest(wid, model, exclusive_cards=1, hourly_rate_micro=1_000_000, **kw)  # type: ignore[arg-type]


def two_nodes() -> Scheduler:
    return Scheduler(
        inventory(node("a", EXCL, card("x1")), node("b", EXCL, card("x2")), node("l", EXCL, card("y", A30)))
    )


def test_an_arrival_of_equal_priority_behind_a_head_is_placed_only_by_the_queue() -> None:
    s, q = two_nodes(), GpuQueue()
    assert admit(s, q, whole("busy-a")).allocation is not None
    assert admit(s, q, whole("busy-b")).allocation is not None
    head = admit(s, q, GpuRequest("head", A100, exclusive_cards=2))
    assert head == Admission(None, QueuePosition(A100, 1, 1))
    # equal priority: it joins the queue, and nothing fits
    second = admit(s, q, whole("second"))
    assert second == Admission(None, QueuePosition(A100, 2, 2))
    # the same offering: the arrival drains the queue; the head still waits (one card free),
    # the arrival goes around it on the node the head does not wait for
    s.release("busy-b")
    third = admit(s, q, whole("third"), arrival=0)
    assert third.allocation is not None and third.queued is None and third.preempted == ()
    assert [a.workload_id for a in third.also_admitted] == []
    assert "third" not in q
    # a higher-priority arrival does not wait behind the head
    s.release("busy-a")
    urgent = admit(s, q, whole("urgent", priority=1))
    assert urgent.allocation is not None and urgent.also_admitted == ()
    assert [e.workload_id for e in q.entries(A100)] == ["head", "second"]


def test_what_the_arrivals_drain_admitted_besides_is_told() -> None:
    s, q = two_nodes(), GpuQueue()
    assert admit(s, q, whole("busy-a")).allocation is not None
    assert admit(s, q, whole("busy-b")).allocation is not None
    assert admit(s, q, whole("head")).queued == QueuePosition(A100, 1, 1)
    s.release("busy-a")  # capacity freed without a drain (e.g. freed by another offering)
    late = admit(s, q, whole("late"))
    # the drain placed the head; the arrival waits behind nothing but finds no card
    assert late.allocation is None and late.queued == QueuePosition(A100, 1, 1)
    assert [a.workload_id for a in late.also_admitted] == ["head"]
    assert s.allocation("head") is not None


def test_a_preempted_victim_is_requeued_with_its_own_priority_and_the_request_placed() -> None:
    s, q = Scheduler(inventory(node("a", EXCL, card("x1")))), GpuQueue()
    assert admit(s, q, whole("spare", preemptible=True, priority=2)).allocation is not None
    result = admit(s, q, whole("urgent", priority=3))
    assert result.allocation == s.allocation("urgent") and result.allocation is not None
    assert result.queued is None and [v.workload_id for v in result.preempted] == ["spare"]
    assert [(e.workload_id, e.request.priority) for e in q.entries()] == [("spare", 2)]
    # without preemption it is queued where its arrival puts it
    t, r = Scheduler(inventory(node("a", EXCL, card("x1")))), GpuQueue()
    assert admit(t, r, whole("spare", preemptible=True)).allocation is not None
    assert admit(t, r, whole("urgent", priority=3), allow_preemption=False, arrival=40) == Admission(
        None, QueuePosition(A100, 1, 1)
    )
    assert r.entries()[0].arrival == 40
    assert admit(t, r, whole("peer"), allow_preemption=True) == Admission(None, QueuePosition(A100, 2, 2))


def test_a_lost_workload_is_requeued_ahead_of_its_priority_only() -> None:
    q = GpuQueue()
    q.enqueue(whole("high", priority=5), arrival=1)
    q.enqueue(whole("p1"), arrival=7)
    q.enqueue(whole("p2"), arrival=9)
    q.enqueue(whole("other", A30), arrival=3)
    entry = requeue_at_head(q, whole("lost"))
    assert entry.arrival == 6
    assert [e.workload_id for e in q.entries(A100)] == ["high", "lost", "p1", "p2"]
    # nothing of its priority waiting: it takes the next arrival
    alone = requeue_at_head(q, whole("lonely", priority=9))
    assert alone.arrival == 10
    assert withdraw(q, "lost") == entry and "lost" not in q


def test_a_release_drains_every_offering() -> None:
    s, q = two_nodes(), GpuQueue()
    s.place(GpuRequest("both", A100, exclusive_cards=1, cpu_millicores=64_000))
    s.place(GpuRequest("cpu", A30, exclusive_cards=1, cpu_millicores=64_000))
    q.enqueue(GpuRequest("w-a30", A30, exclusive_cards=1))
    released, drained = release(s, q, "cpu")
    assert released.workload_id == "cpu"
    assert [a.workload_id for a in drained.admitted] == ["w-a30"]
    assert drained.reservations == {}
