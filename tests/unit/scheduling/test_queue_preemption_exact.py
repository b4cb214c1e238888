"""The queue's drain and preemption's choice to the letter (issue 20): what a drain admits,
backfills and reserves per offering, the queue's order and plain data, and the ties of a
preemption plan (cost, then ratio, then count, then node order, then ids)."""

from __future__ import annotations

from fractions import Fraction

from domain.inventory.model import CardShare, GpuKind, Placement, SharingMode
from domain.scheduling.model import Allocation, GpuRequest
from domain.scheduling.preemption import EXACT_LIMIT, PreemptionPlan, can_preempt, plan_preemption, preempt
from domain.scheduling.queue import DrainResult, GpuQueue, QueueEntry, QueuePosition
from domain.scheduling.scheduler import Scheduler
from tests.unit.scheduling.helpers import A30, A100, card, inventory, node, on_card

HAMI, EXCL = SharingMode.HAMI, SharingMode.EXCLUSIVE
RATE = 1_000_000


def frac(wid: str, vram: int, cores: int, rate: int = RATE, **kw: object) -> GpuRequest:
    return GpuRequest(wid, A100, vram_mib=vram, cores=cores, hourly_rate_micro=rate, **kw)  # type: ignore[arg-type]


def whole(wid: str, model: str = A100, n: int = 1, **kw: object) -> GpuRequest:
    return GpuRequest(wid, model, exclusive_cards=n, hourly_rate_micro=RATE, **kw)  # type: ignore[arg-type]


# -- queue ------------------------------------------------------------------------------


def test_a_queue_entry_in_plain_data_and_its_sort_key() -> None:
    entry = QueueEntry(frac("w", 1024, 10, priority=3), 7)
    assert entry.workload_id == "w"
    assert entry.sort_key == (-3, 7, "w")
    assert entry.to_dict() == {"request": entry.request.to_dict(), "arrival": 7}
    assert QueueEntry.from_dict({"request": entry.request.to_dict(), "arrival": "7"}) == entry
    assert QueuePosition(A100, 3, 5).ahead == 2 and QueuePosition(A100, 1, 1).ahead == 0


def test_entries_go_by_priority_then_arrival_then_workload_and_offerings_by_name() -> None:
    q = GpuQueue()
    q.enqueue(whole("z", A30), arrival=1)
    q.enqueue(frac("b", 1, 1), arrival=5)
    q.enqueue(frac("a", 1, 1), arrival=5)
    q.enqueue(frac("late-high", 1, 1, priority=1), arrival=9)
    q.enqueue(frac("early", 1, 1), arrival=2)
    assert q.offerings() == [A100, A30]  # by name: "A100-80GB" < "A30-24GB"
    assert [e.workload_id for e in q.entries(A100)] == ["late-high", "early", "a", "b"]
    assert [e.workload_id for e in q.entries()] == ["late-high", "early", "a", "b", "z"]
    assert q.entries("H100") == []
    # the next arrival follows the highest given
    assert q.enqueue(frac("next", 1, 1)).arrival == 10
    assert q.position("b") == QueuePosition(A100, 4, 5)
    assert q.position("next") == QueuePosition(A100, 5, 5)
    q.remove("z")
    assert q.offerings() == [A100] and "z" not in q and len(q) == 5


def test_a_drain_admits_heads_per_offering_reserves_for_blocked_heads_and_backfills_elsewhere() -> None:
    s = Scheduler(
        inventory(
            node("a1", EXCL, card("x1"), card("x2")),
            node("a2", EXCL, card("x3")),
            node("l", EXCL, card("y1", A30, 24576)),
        )
    )
    busy = Placement("c1", "a1", GpuKind.EXCLUSIVE, (CardShare("x1", 81920, 100),), Fraction(1), 0, 0, A100)
    s.apply(Allocation(whole("busy", A100), busy))
    q = GpuQueue()
    q.enqueue(whole("pair", A100, 2))  # head: a1 has one free card, a2 one: waits for a1
    q.enqueue(whole("single", A100))  # behind: backfilled on a2 (a1 is reserved)
    q.enqueue(whole("l4", A30))
    result = q.drain(s, A100)
    assert result == DrainResult(
        (s.allocation("single"),),  # type: ignore[arg-type]
        ("single",),
        {A100: ("pair", frozenset({"a1"}))},
    )
    assert s.allocation("single").placement.node_id == "a2"  # type: ignore[union-attr]
    assert [e.workload_id for e in q.entries()] == ["pair", "l4"]  # the A30 queue was left alone
    everything = q.drain(s)
    assert [a.workload_id for a in everything.admitted] == ["l4"]
    assert everything.backfilled == ()
    assert everything.reservations == {A100: ("pair", frozenset({"a1"}))}
    s.release("busy")
    last = q.drain(s)
    assert [a.workload_id for a in last.admitted] == ["pair"] and last.reservations == {}
    assert len(q) == 0


def test_a_drain_places_heads_in_order_until_one_blocks() -> None:
    s = Scheduler(inventory(node("n", HAMI, card("g1"))))
    q = GpuQueue()
    for wid, pct in (("h1", 40), ("h2", 40), ("h3", 40), ("h4", 10)):
        q.enqueue(frac(wid, 819 * pct, pct))
    result = q.drain(s)
    # h1 and h2 are heads in turn; h3 blocks; h4 would fit only on the reserved node
    assert [a.workload_id for a in result.admitted] == ["h1", "h2"]
    assert result.backfilled == ()
    assert result.reservations == {A100: ("h3", frozenset({"n"}))}
    assert [e.workload_id for e in q.entries()] == ["h3", "h4"]


# -- preemption -------------------------------------------------------------------------


def test_a_request_that_fits_needs_no_victims_and_preempt_takes_its_place() -> None:
    s = Scheduler(inventory(node("n1", HAMI, card("g1"))))
    request = frac("w", 1024, 10, priority=1)
    plan = plan_preemption(s, request)
    assert plan == PreemptionPlan(request, s.find(request), ())  # type: ignore[arg-type]
    assert plan.hourly_cost_micro == Fraction(0)  # type: ignore[union-attr]
    done = preempt(s, request)
    assert done is not None and s.allocation("w") is not None
    assert s.allocation("w").placement == done.placement  # type: ignore[union-attr]


def test_nothing_to_preempt_leaves_everything_as_it_was() -> None:
    s = Scheduler(inventory(node("n1", EXCL, card("x1"))))
    assert s.place(whole("held", preemptible=False)) is not None
    assert preempt(s, whole("urgent", priority=9)) is None
    assert [a.workload_id for a in s.allocations()] == ["held"]


def test_only_strictly_lower_priority_preemptible_work_may_be_preempted() -> None:
    s = Scheduler(inventory(node("n1", EXCL, card("x1"), card("x2"))))
    victim = s.place(whole("v", priority=2, preemptible=True))
    pinned = s.place(whole("p", priority=0, preemptible=False))
    assert victim is not None and pinned is not None
    assert can_preempt(victim, whole("r", priority=3)) is True
    assert can_preempt(victim, whole("r", priority=2)) is False
    assert can_preempt(pinned, whole("r", priority=3)) is False


def test_equal_cost_goes_to_the_lower_ratio_then_the_lower_node_then_the_lower_id() -> None:
    # rate 0: every victim costs nothing, so the ratio given up decides
    s = Scheduler(inventory(node("n1", HAMI, card("g1")), node("n2", HAMI, card("g2"))))
    s.apply(on_card(frac("big", 61440, 75, rate=0, preemptible=True), "n1", "g1"))  # 3/4
    s.apply(on_card(frac("small", 40960, 50, rate=0, preemptible=True), "n2", "g2"))  # 1/2
    s.apply(on_card(frac("fill", 20480, 25), "n2", "g2"))  # n2: 1/4 free
    plan = plan_preemption(s, frac("urgent", 40960, 50, priority=1))
    assert plan is not None
    assert [v.workload_id for v in plan.victims] == ["small"] and plan.placement.node_id == "n2"
    # the same cost and ratio on two nodes: the lower node order
    t = Scheduler(inventory(node("n1", EXCL, card("x1")), node("n2", EXCL, card("x2"))))
    t.place(whole("on-1", preemptible=True))
    t.place(whole("on-2", preemptible=True))
    tie = plan_preemption(t, whole("urgent", priority=1))
    assert tie is not None and tie.placement.node_id == "n1"
    assert [v.workload_id for v in tie.victims] == ["on-1"]
    # on one node, two victims alike: the lower id
    u = Scheduler(inventory(node("n1", EXCL, card("x1"), card("x2"))))
    u.place(whole("b", preemptible=True))
    u.place(whole("a", preemptible=True))
    one = plan_preemption(u, whole("urgent", priority=1))
    assert one is not None and [v.workload_id for v in one.victims] == ["a"]
    assert one.placement.card_uuids == ("x2",)


def test_beyond_the_exact_limit_victims_not_needed_are_dropped_dearest_first() -> None:
    # one card: eleven preemptible sessions; the cheapest first are taken until the request
    # fits, then the dearest of them that is not needed is given back
    assert EXACT_LIMIT == 10
    s = Scheduler(inventory(node("n1", HAMI, card("g1"))))
    s.place(frac("fill", 819 * 30, 30))  # not preemptible
    for i in range(10):
        s.place(frac(f"t{i}", 819 * 5, 5, preemptible=True))  # 0.05 each, cheapest
    s.place(frac("mid", 819 * 20, 20, preemptible=True))
    assert s.card_free("g1")[1] == 0
    plan = plan_preemption(s, frac("urgent", 819 * 20, 20, priority=1))
    assert plan is not None
    assert sorted(v.workload_id for v in plan.victims) == ["t0", "t1", "t2", "t3"]
    assert plan.hourly_cost_micro == RATE * Fraction(1, 5)


def test_a_node_whose_victims_cannot_make_room_does_not_end_the_search() -> None:
    s = Scheduler(inventory(node("n1", HAMI, card("g1")), node("n2", HAMI, card("g2"))))
    s.apply(on_card(frac("pinned", 819 * 80, 80), "n1", "g1"))
    s.apply(on_card(frac("tiny", 819 * 10, 10, preemptible=True), "n1", "g1"))
    s.apply(on_card(frac("spare", 819 * 60, 60, preemptible=True), "n2", "g2"))
    plan = plan_preemption(s, frac("urgent", 819 * 50, 50, priority=1))
    assert plan is not None
    assert [v.workload_id for v in plan.victims] == ["spare"] and plan.placement.node_id == "n2"
