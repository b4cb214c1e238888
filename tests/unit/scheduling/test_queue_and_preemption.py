"""The wait queue (order, positions, backfill) and preemption (cheapest victims)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.inventory.model import SharingMode
from domain.scheduling.errors import SchedulingError, SchedulingErrorCode
from domain.scheduling.model import GpuRequest
from domain.scheduling.preemption import plan_preemption, preempt
from domain.scheduling.queue import GpuQueue
from domain.scheduling.scheduler import Scheduler
from tests.unit.scheduling.helpers import A30, A100, card, inventory, node, on_card

HAMI, EXCL = SharingMode.HAMI, SharingMode.EXCLUSIVE
RATE = 4_000_000  # micro-credits per whole card-hour


def frac(wid: str, vram: int, cores: int, **kw: object) -> GpuRequest:
    return GpuRequest(wid, A100, vram_mib=vram, cores=cores, hourly_rate_micro=RATE, **kw)  # type: ignore[arg-type]


def whole(wid: str, n: int = 1, **kw: object) -> GpuRequest:
    return GpuRequest(wid, A100, exclusive_cards=n, hourly_rate_micro=RATE, **kw)  # type: ignore[arg-type]


# -- queue ------------------------------------------------------------------------------


def test_one_queue_per_offering_ordered_by_priority_then_arrival() -> None:
    q = GpuQueue()
    q.enqueue(frac("low-1", 1024, 1, priority=0))
    q.enqueue(frac("high", 1024, 1, priority=5))
    q.enqueue(frac("low-2", 1024, 1, priority=0))
    q.enqueue(GpuRequest("other", A30, shared=True))
    assert [e.workload_id for e in q.entries(A100)] == ["high", "low-1", "low-2"]
    assert q.position("low-2").position == 3
    assert q.position("low-2").ahead == 2
    assert q.position("other").position == 1 and q.position("other").offering == A30
    q.remove("high")
    assert q.position("low-2").position == 2
    with pytest.raises(SchedulingError) as unknown:
        q.position("high")
    assert unknown.value.code is SchedulingErrorCode.QUEUE_ENTRY_UNKNOWN
    with pytest.raises(SchedulingError) as twice:
        q.enqueue(frac("low-1", 1024, 1))
    assert twice.value.code is SchedulingErrorCode.QUEUE_ENTRY_DUPLICATE


def test_the_queue_refuses_a_job_on_time_slices_instead_of_queueing_it() -> None:
    with pytest.raises(SchedulingError) as refused:
        GpuQueue().enqueue(GpuRequest("job", A30, shared=True, is_job=True))
    assert refused.value.code is SchedulingErrorCode.JOB_TIMESLICE_REFUSED


def test_the_head_goes_first_when_capacity_frees() -> None:
    s = Scheduler(inventory(node("n1", HAMI, card("g1"))))
    assert s.place(frac("running", 81920, 100)) is not None
    q = GpuQueue()
    q.enqueue(frac("head", 61440, 75))
    q.enqueue(frac("second", 40960, 50))
    assert q.drain(s).admitted == ()
    s.release("running")
    result = q.drain(s)
    assert [a.workload_id for a in result.admitted] == ["head"]
    assert [e.workload_id for e in q.entries()] == ["second"]


def test_backfill_never_delays_the_head() -> None:
    # n1's card is 3/4 taken: the head (a whole card) waits for it. n2's card is nearly full.
    s = Scheduler(inventory(node("n1", HAMI, card("g1")), node("n2", HAMI, card("g2")), node("n3", HAMI)))
    assert s.place(frac("on-n1", 61440, 75)) is not None
    assert s.place(frac("on-n2", 73728, 90)) is not None
    q = GpuQueue()
    q.enqueue(whole("head"))
    q.enqueue(frac("small", 8192, 10))  # fits both n1 (tighter? no: n2 is tighter) and n2
    q.enqueue(frac("medium", 16384, 20))  # fits only n1: would delay the head
    result = q.drain(s)
    assert [a.workload_id for a in result.admitted] == ["small"]
    assert result.backfilled == ("small",)
    small = s.allocation("small")
    assert small is not None and small.placement.node_id == "n2"
    assert result.reservations[A100] == ("head", frozenset({"n1"}))
    assert "medium" in q
    s.release("on-n1")
    after = q.drain(s)
    assert after.admitted[0].workload_id == "head"


@settings(max_examples=40, deadline=None)
@given(
    used=st.lists(st.integers(1, 99), min_size=2, max_size=5),
    behind=st.lists(st.integers(1, 99), min_size=1, max_size=6),
)
def test_backfill_never_touches_the_node_the_head_waits_for(used: list[int], behind: list[int]) -> None:
    nodes = [node(f"n{i}", HAMI, card(f"g{i}")) for i in range(len(used))]
    s = Scheduler(inventory(*nodes))
    for i, pct in enumerate(used):
        s.apply(on_card(frac(f"u{i}", 819 * pct, pct), f"n{i}", f"g{i}"))
    q = GpuQueue()
    q.enqueue(whole("head"))
    for i, pct in enumerate(behind):
        q.enqueue(frac(f"b{i}", 819 * pct, pct))
    reserved = s.reservation(whole("head"))
    free_before = {n: s.card_free(f"g{n[1:]}") for n in reserved}
    result = q.drain(s)
    assert "head" in q
    for n, free in free_before.items():
        assert s.card_free(f"g{n[1:]}") == free
    assert all(a.placement.node_id not in reserved for a in result.admitted)


def test_the_queue_round_trips_through_plain_data() -> None:
    q = GpuQueue()
    q.enqueue(frac("a", 1024, 1, priority=2))
    q.enqueue(whole("b"))
    copy = GpuQueue.from_dict(q.to_dict())
    assert copy.to_dict() == q.to_dict()
    assert copy.enqueue(frac("c", 1024, 1)).arrival == 2


# -- preemption -------------------------------------------------------------------------


def test_preemption_picks_the_cheapest_victims() -> None:
    s = Scheduler(
        inventory(
            node("n1", HAMI, card("g1")),
            node("n2", HAMI, card("g2")),
        )
    )
    # n1: one big preemptible session (3/4 card). n2: two small ones (3/8 each).
    assert s.place(frac("big", 61440, 75, preemptible=True)) is not None
    assert s.place(frac("small-1", 30720, 37, preemptible=True)) is not None
    assert s.place(frac("small-2", 30720, 37, preemptible=True)) is not None
    urgent = frac("urgent", 40960, 50, priority=10)
    assert s.find(urgent) is None
    plan = plan_preemption(s, urgent)
    assert plan is not None
    # freeing one 3/8 session on n2 costs less than the 3/4 one on n1
    assert [v.workload_id for v in plan.victims] == ["small-1"]
    assert plan.placement.node_id == "n2"
    assert plan.hourly_cost_micro == RATE * Fraction(3, 8)
    # planning changed nothing
    assert {a.workload_id for a in s.allocations()} == {"big", "small-1", "small-2"}


def test_on_one_node_the_cheaper_set_wins_over_the_smaller_one() -> None:
    s = Scheduler(inventory(node("n1", HAMI, card("g1"))))
    # the card is full: one 0.6-card session and two 0.2-card ones
    assert s.place(frac("big", 49152, 60, preemptible=True)) is not None
    assert s.place(frac("small-1", 16384, 20, preemptible=True)) is not None
    assert s.place(frac("small-2", 16384, 20, preemptible=True)) is not None
    urgent = frac("urgent", 32768, 40, priority=5)
    plan = plan_preemption(s, urgent)
    assert plan is not None
    # two victims worth 0.4 card-hours cost less than one worth 0.6
    assert sorted(v.workload_id for v in plan.victims) == ["small-1", "small-2"]
    assert plan.hourly_cost_micro == RATE * Fraction(2, 5)
    assert plan.placement.card_uuids == ("g1",)


def test_greedy_search_beyond_the_exact_limit_also_keeps_the_cheap_victims() -> None:
    s = Scheduler(inventory(node("n1", HAMI, card("g1"))))
    # 12 candidates (more than EXACT_LIMIT): one 0.4-card session and twelve 0.05 ones
    assert s.place(frac("big", 32768, 40, preemptible=True)) is not None
    for i in range(12):
        assert s.place(frac(f"tiny-{i:02}", 4096, 5, preemptible=True)) is not None
    assert s.card_free("g1") == (0, 0, 0)
    plan = plan_preemption(s, frac("urgent", 16384, 20, priority=5))
    assert plan is not None
    assert sorted(v.workload_id for v in plan.victims) == [f"tiny-{i:02}" for i in range(4)]
    assert plan.hourly_cost_micro == RATE * Fraction(1, 5)


def test_fewest_victims_break_a_cost_tie() -> None:
    s = Scheduler(inventory(node("n1", HAMI, card("g1")), node("n2", HAMI, card("g2"))))
    assert s.place(frac("half", 40960, 50, preemptible=True)) is not None
    assert s.place(frac("quarter-1", 20480, 25, preemptible=True)) is not None
    assert s.place(frac("quarter-2", 20480, 25, preemptible=True)) is not None
    assert s.place(frac("fill-1", 40960, 50)) is not None
    assert s.place(frac("fill-2", 40960, 50)) is not None
    plan = plan_preemption(s, frac("urgent", 40960, 50, priority=1))
    assert plan is not None
    assert [v.workload_id for v in plan.victims] == ["half"]


def test_only_lower_priority_preemptible_work_is_preempted() -> None:
    s = Scheduler(inventory(node("n1", EXCL, card("x1"), card("x2"))))
    assert s.place(whole("job", is_job=True, preemptible=True, priority=0)) is not None
    assert s.place(whole("pinned", priority=0)) is not None
    assert plan_preemption(s, whole("peer", priority=0)) is None
    plan = preempt(s, whole("urgent", priority=5))
    assert plan is not None
    assert [v.workload_id for v in plan.victims] == ["job"]
    assert s.allocation("urgent") is not None and s.allocation("job") is None


def test_preemption_needs_victims_on_one_node() -> None:
    s = Scheduler(inventory(node("n1", EXCL, card("x1")), node("n2", EXCL, card("x2"))))
    assert s.place(whole("a", preemptible=True)) is not None
    assert s.place(whole("b", preemptible=True)) is not None
    assert plan_preemption(s, whole("two", 2, priority=9)) is None


def test_preempting_several_victims_on_one_card() -> None:
    s = Scheduler(inventory(node("n1", HAMI, card("g1"))))
    for i in range(4):
        assert s.place(frac(f"q{i}", 20480, 25, preemptible=True)) is not None
    plan = preempt(s, frac("half", 40960, 50, priority=1))
    assert plan is not None
    assert len(plan.victims) == 2
    assert len(s.allocations()) == 3
