"""The scheduler's bookkeeping to the letter (issue 20): each refusal of `apply` in its words
with nothing changed, what a placement of each kind takes and gives back, the reading
methods, cordons, and the fraction-size refusal on its field."""

from __future__ import annotations

from fractions import Fraction

import pytest

from domain.inventory.model import CardShare, GpuKind, Placement, SharingMode
from domain.scheduling.errors import SchedulingError, SchedulingErrorCode
from domain.scheduling.model import Allocation, GpuRequest, ModelChoice
from domain.scheduling.scheduler import Scheduler
from tests.unit.scheduling.helpers import A30, A100, VRAM_80G, card, inventory, node

HAMI, TS, EXCL = SharingMode.HAMI, SharingMode.TIMESLICING, SharingMode.EXCLUSIVE
CONFLICT = SchedulingErrorCode.PLACEMENT_CONFLICT


def frac(wid: str, vram: int, cores: int, **kw: object) -> GpuRequest:
    return GpuRequest(wid, A100, vram_mib=vram, cores=cores, **kw)  # type: ignore[arg-type]


def world() -> Scheduler:
    """A HAMi node (two cards), an exclusive node with a MIG card and a whole card, a
    time-sliced node (two replicas) and a CPU node, in one cluster."""
    return Scheduler(
        inventory(
            node("h", HAMI, card("g1"), card("g2"), cpu=8_000, mem=32_768),
            node("m", EXCL, card("mig", mig=("1g.10gb", "2g.20gb")), card("x")),
            node("t", TS, card("t1", A30, 24576, replicas=2)),
            node("cpu", HAMI, cpu=4_000, mem=8_192),
        )
    )


def state(s: Scheduler) -> tuple[object, ...]:
    return (
        s.allocations(),
        [s.node_free(n) for n in ("h", "m", "t", "cpu")],
        [s.card_free(c) for c in ("g1", "g2", "mig", "x", "t1")],
        [s.card_tenants(c) for c in ("g1", "g2", "mig", "x", "t1")],
        [s.mig_tenant(i) for i in ("mig-m0", "mig-m1")],
    )


def hami(wid: str, vram: int, cores: int, *, node_id: str = "h", card_uuid: str = "g1", cpu: int = 0) -> Allocation:
    return Allocation(
        frac(wid, vram, cores, cpu_millicores=cpu),
        Placement("c1", node_id, GpuKind.HAMI, (CardShare(card_uuid, vram, cores),), Fraction(1, 4), cpu, 0),
    )


def refused(s: Scheduler, allocation: Allocation) -> str:
    before = state(s)
    with pytest.raises(SchedulingError) as error:
        s.apply(allocation)
    assert error.value.code is CONFLICT
    assert state(s) == before  # nothing taken
    return error.value.message


def test_each_refusal_of_apply_in_words_with_nothing_taken() -> None:
    s = world()
    req = frac("w", 1024, 10)

    def placed(node_id: str, kind: GpuKind | None, *shares: CardShare, cpu: int = 0, mem: int = 0) -> Allocation:
        return Allocation(req, Placement("c1", node_id, kind, shares, Fraction(0), cpu, mem))

    assert refused(s, placed("nowhere", None)) == "node nowhere is not in cluster c1"
    wrong_cluster = Allocation(req, Placement("c2", "h", None, (), Fraction(0), 0, 0))
    assert refused(s, wrong_cluster) == "node h is not in cluster c2"
    assert refused(s, placed("h", None, cpu=8_001)) == "node h lacks the CPU or memory"
    assert refused(s, placed("h", None, mem=32_769)) == "node h lacks the CPU or memory"
    assert refused(s, placed("h", None, CardShare("g1", 1, 1))) == "a CPU-only placement names no card"
    assert refused(s, placed("h", GpuKind.HAMI)) == "a GPU placement names at least one card"
    twice = (CardShare("x", VRAM_80G, 100), CardShare("x", VRAM_80G, 100))
    assert refused(s, placed("m", GpuKind.EXCLUSIVE, *twice)) == "a placement names a card twice"
    two = (CardShare("g1", 1024, 10), CardShare("g2", 1024, 10))
    assert refused(s, placed("h", GpuKind.HAMI, *two)) == "only exclusive placements take several cards"
    assert refused(s, placed("h", GpuKind.HAMI, CardShare("x", 1024, 10))) == "card x is not on node h"
    assert refused(s, placed("h", GpuKind.HAMI, CardShare("nope", 1024, 10))) == "card nope is not on node h"
    # MIG: an instance of the card, free
    no_instance = CardShare("mig", 10240, 14)
    assert refused(s, placed("m", GpuKind.MIG, no_instance)) == "MIG instance None is not free"
    other_card = CardShare("x", 10240, 14, "mig-m0")
    assert refused(s, placed("m", GpuKind.MIG, other_card)) == "MIG instance mig-m0 is not free"
    # time-slices: a time-sliced card with a slice free, not held by the workload already
    slice_ = CardShare("t1", 12288, 50, None, True)
    assert refused(s, placed("m", GpuKind.SHARED, CardShare("x", 0, 0, None, True))) == (
        "card x has no time-slice for this workload"
    )
    # exclusive: a card given whole, untouched, taken whole
    assert refused(s, placed("m", GpuKind.EXCLUSIVE, CardShare("mig", VRAM_80G, 100))) == (
        "card mig is not free to take whole"
    )
    assert refused(s, placed("m", GpuKind.EXCLUSIVE, CardShare("x", VRAM_80G - 1, 100))) == (
        "an exclusive share of x must be the whole card"
    )
    assert refused(s, placed("m", GpuKind.EXCLUSIVE, CardShare("x", VRAM_80G, 99))) == (
        "an exclusive share of x must be the whole card"
    )
    # HAMi: a HAMi card with the VRAM and cores free, some of each taken
    assert refused(s, placed("m", GpuKind.HAMI, CardShare("x", 1024, 10))) == "card x does not take HAMi fractions"
    assert refused(s, placed("h", GpuKind.HAMI, CardShare("g1", VRAM_80G + 1, 10))) == (
        "card g1 lacks the VRAM or cores"
    )
    assert refused(s, placed("h", GpuKind.HAMI, CardShare("g1", 1024, 101))) == "card g1 lacks the VRAM or cores"
    assert refused(s, placed("h", GpuKind.HAMI, CardShare("g1", 0, 10))) == "a HAMi fraction takes some VRAM and cores"
    assert (
        refused(s, placed("h", GpuKind.HAMI, CardShare("g1", 1024, 0))) == "a HAMi fraction takes some VRAM and cores"
    )
    # the exact edges are accepted: the node's whole CPU and memory, a card's whole VRAM and cores
    s.apply(placed("h", GpuKind.HAMI, CardShare("g1", VRAM_80G, 100), cpu=8_000, mem=32_768))
    assert s.node_free("h") == (0, 0)
    assert s.card_free("g1") == (0, 0, 0)
    s.apply(
        Allocation(frac("ts", 0, 0, shared=True), Placement("c1", "t", GpuKind.SHARED, (slice_,), Fraction(1, 2), 0, 0))
    )
    assert s.card_free("t1") == (24576, 100, 1)
    again = Allocation(
        frac("ts", 0, 0, shared=True), Placement("c1", "t", GpuKind.SHARED, (slice_,), Fraction(1, 2), 0, 0)
    )
    with pytest.raises(SchedulingError) as twice_placed:
        s.apply(again)
    assert twice_placed.value.code is SchedulingErrorCode.WORKLOAD_ALREADY_PLACED
    assert twice_placed.value.message == "workload ts is already placed"
    assert twice_placed.value.field == "workload_id"


def test_a_time_slice_is_refused_on_a_card_with_none_left_or_already_holding_the_workload() -> None:
    s = world()
    slice_ = CardShare("t1", 12288, 50, None, True)

    def shared(wid: str) -> Allocation:
        return Allocation(
            frac(wid, 0, 0, shared=True), Placement("c1", "t", GpuKind.SHARED, (slice_,), Fraction(1, 2), 0, 0)
        )

    s.apply(shared("a"))
    s.apply(shared("b"))
    assert s.card_free("t1") == (24576, 100, 0)
    assert s.card_tenants("t1") == {"a": (0, 0), "b": (0, 0)}
    assert refused(s, shared("c")) == "card t1 has no time-slice for this workload"
    s.release("a")
    assert s.card_free("t1") == (24576, 100, 1)
    assert s.card_tenants("t1") == {"b": (0, 0)}


def test_a_mig_instance_taken_is_not_free_and_comes_back() -> None:
    s = world()
    inst = CardShare("mig", 10240, 14, "mig-m0")
    a = Allocation(frac("a", 10240, 14), Placement("c1", "m", GpuKind.MIG, (inst,), Fraction(1, 8), 1000, 1024))
    s.apply(a)
    assert s.mig_tenant("mig-m0") == "a" and s.mig_tenant("mig-m1") is None
    assert s.card_tenants("mig") == {"a": (10240, 14)}
    assert s.node_free("m") == (63_000, 512_000 - 1024)
    b = Allocation(frac("b", 10240, 14), Placement("c1", "m", GpuKind.MIG, (inst,), Fraction(1, 8), 0, 0))
    assert refused(s, b) == "MIG instance mig-m0 is not free"
    assert s.release("a") == a
    assert s.mig_tenant("mig-m0") is None and s.card_tenants("mig") == {}
    assert s.node_free("m") == (64_000, 512_000)
    s.apply(b)
    assert s.mig_tenant("mig-m0") == "b"


def test_what_each_kind_of_placement_takes_and_release_gives_back_exactly() -> None:
    s = world()
    fresh = state(s)
    hami_req = frac("f", 20480, 30, cpu_millicores=1500, memory_mib=2048)
    f = s.place(hami_req)
    assert f is not None
    assert f.placement == Placement(
        "c1", "h", GpuKind.HAMI, (CardShare("g1", 20480, 30),), Fraction(3, 10), 1500, 2048, A100
    )
    assert s.card_free("g1") == (VRAM_80G - 20480, 70, 0)
    assert s.card_tenants("g1") == {"f": (20480, 30)}
    assert s.node_free("h") == (6_500, 32_768 - 2048)
    mig = s.place(frac("mi", 10240, 14, forced_kind=GpuKind.MIG))
    assert mig is not None
    assert mig.placement == Placement(
        "c1", "m", GpuKind.MIG, (CardShare("mig", 10240, 14, "mig-m0"),), Fraction(7, 50), 0, 0, A100
    )
    # (node h's untouched g2 would tie with x; h lacks the CPU)
    ex = s.place(GpuRequest("e", A100, exclusive_cards=1, cpu_millicores=7000))
    assert ex is not None
    assert ex.placement == Placement(
        "c1", "m", GpuKind.EXCLUSIVE, (CardShare("x", VRAM_80G, 100),), Fraction(1), 7000, 0, A100
    )
    assert s.card_free("x") == (0, 0, 0)
    ts = s.place(GpuRequest("s", A30, shared=True, memory_mib=100))
    assert ts is not None
    assert ts.placement == Placement(
        "c1", "t", GpuKind.SHARED, (CardShare("t1", 12288, 50, None, True),), Fraction(1, 2), 0, 100, A30
    )
    assert s.card_free("t1") == (24576, 100, 1)
    cpu = s.place(GpuRequest("c", "cpu", cpu_only=True, cpu_millicores=4000, memory_mib=8192))
    assert cpu is not None
    assert cpu.placement == Placement("c1", "cpu", None, (), Fraction(0), 4000, 8192)
    assert s.node_free("cpu") == (0, 0)
    assert [a.workload_id for a in s.allocations()] == ["f", "mi", "e", "s", "c"]
    assert s.placements() == [a.placement for a in (f, mig, ex, ts, cpu)]
    assert s.allocation("e") == ex and s.allocation("nobody") is None
    for wid in ("f", "mi", "e", "s", "c"):
        s.release(wid)
    assert state(s) == fresh
    with pytest.raises(SchedulingError) as twice:
        s.release("f")
    assert twice.value.code is SchedulingErrorCode.WORKLOAD_NOT_PLACED
    assert twice.value.message == "workload f holds no placement"
    assert twice.value.field == "workload_id"


def test_place_refuses_a_workload_placed_already_in_words() -> None:
    s = world()
    assert s.place(frac("w", 1024, 10)) is not None
    with pytest.raises(SchedulingError) as twice:
        s.place(frac("w", 1024, 10))
    assert twice.value.code is SchedulingErrorCode.WORKLOAD_ALREADY_PLACED
    assert twice.value.message == "workload w is already placed"
    assert twice.value.field == "workload_id"


def test_touched_workloads_are_taken_once_and_dirty_says_so() -> None:
    s = world()
    assert not s.dirty and s.take_touched() == set()
    s.place(frac("a", 1024, 10))
    s.place(frac("b", 1024, 10))
    assert s.dirty
    assert s.take_touched() == {"a", "b"}
    assert not s.dirty and s.take_touched() == set()
    s.release("a")
    assert s.dirty and s.take_touched() == {"a"}


def test_a_scheduler_round_trips_through_plain_data_with_its_allocations() -> None:
    s = world()
    s.place(frac("a", 20480, 30))
    s.place(GpuRequest("s", A30, shared=True))
    data = s.to_dict()
    assert data["inventory"] == s.inventory.to_dict()
    assert data["allocations"] == [a.to_dict() for a in s.allocations()]
    back = Scheduler.from_dict(data)
    assert back.allocations() == s.allocations()
    assert state(back) == state(s)
    assert Scheduler.from_dict({"inventory": data["inventory"]}).allocations() == []


def test_from_snapshot_skips_what_no_longer_fits_with_its_reason() -> None:
    inv = world().inventory
    good = hami("good", 20480, 25)
    gone = hami("gone", 1024, 10, node_id="vanished")
    too_big = hami("big", VRAM_80G, 100)  # fits alone, not beside `good`
    s, conflicts = Scheduler.from_snapshot(inv, [good, gone, too_big])
    assert [a.workload_id for a in s.allocations()] == ["good"]
    assert [(a.workload_id, e.code, e.message) for a, e in conflicts] == [
        ("gone", CONFLICT, "node vanished is not in cluster c1"),
        ("big", CONFLICT, "card g1 lacks the VRAM or cores"),
    ]


def test_an_unknown_policy_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(SchedulingError) as unknown:
        Scheduler(inventory(node("n1", HAMI, card("g1")), policy="random"))
    assert unknown.value.code is SchedulingErrorCode.PLACEMENT_POLICY_UNKNOWN
    assert unknown.value.message == (
        "cluster 'c1' names placement policy 'random'; known: best-fit, first-fit, fragmentation-aware, gpu-packing"
    )
    assert unknown.value.field == "placement_policy"


def test_a_cordoned_node_takes_nothing_new_and_uncordoned_takes_again() -> None:
    s = Scheduler(inventory(node("a", HAMI, card("g1")), node("b", HAMI, card("g2"))))
    first = s.place(frac("w1", VRAM_80G // 2, 50))
    assert first is not None and first.placement.node_id == "a"
    s.set_cordoned("a", True)
    s.set_cordoned("a", True)  # twice changes nothing
    second = s.place(frac("w2", 1024, 10))
    assert second is not None and second.placement.node_id == "b"
    assert s.free_summary(A100).hami_vram_mib == VRAM_80G - 1024
    s.release("w1")  # what ran there gives back, still cordoned
    assert s.card_free("g1") == (VRAM_80G, 100, 0)
    assert s.free_summary(A100).hami_whole_cards == 0
    s.set_cordoned("a", False)
    s.set_cordoned("a", False)
    assert s.free_summary(A100).hami_whole_cards == 1
    assert s.free_summary(A100).whole_cards == 1
    third = s.place(frac("w3", 2048, 10))
    assert third is not None and third.placement.card_uuids == ("g2",)  # the tighter card
    fourth = s.place(GpuRequest("w4", A100, exclusive_cards=1))
    assert fourth is not None and fourth.placement.node_id == "a"


def test_an_unschedulable_node_stays_closed_when_uncordoned() -> None:
    n = node("a", HAMI, card("g1"))
    from dataclasses import replace

    s = Scheduler(inventory(replace(n, schedulable=False), node("b", HAMI, card("g2"))))
    s.set_cordoned("a", False)
    placed = s.place(frac("w", 1024, 10))
    assert placed is not None and placed.placement.node_id == "b"
    s.set_cordoned("b", True)
    assert s.place(frac("x", 1024, 10)) is None


def test_a_fraction_larger_than_its_card_is_refused_on_the_field_it_exceeds() -> None:
    s = world()
    with pytest.raises(SchedulingError) as vram:
        s.find(frac("w", VRAM_80G + 1, 10))
    assert vram.value.code is SchedulingErrorCode.GPU_REQUEST_INVALID
    assert vram.value.message == (
        "a fraction of a A100-80GB card cannot exceed the card (81920 MiB, 100 cores); ask for exclusive cards instead"
    )
    assert vram.value.field == "vram_mib"
    with pytest.raises(SchedulingError) as cores:
        s.place(frac("w", 1024, 101))
    assert cores.value.field == "cores"
    # exactly the card is no refusal
    whole = s.find(frac("w", VRAM_80G, 100))
    assert whole is not None and whole.card_uuids == ("g1",)
    # a model no cluster has is not refused (nothing fits, that is all)
    assert s.find(GpuRequest("u", "H100", vram_mib=10**6, cores=10)) is None
    # several models: refused only when it exceeds every known card; the first problem told
    both = GpuRequest("b", "class", choices=(ModelChoice(A30, 30000, 10), ModelChoice(A100, 90000, 10)))
    with pytest.raises(SchedulingError) as every:
        s.find(both)
    assert every.value.message.startswith("a fraction of a A30-24GB card cannot exceed the card (24576 MiB, 100 cores)")
    assert every.value.field == "vram_mib"
    one_fits = GpuRequest("o", "class", choices=(ModelChoice(A30, 30000, 10), ModelChoice(A100, 40000, 10)))
    placed = s.find(one_fits)
    assert placed is not None and placed.model == A100


def test_find_leaves_out_excluded_nodes_and_keeps_to_only_nodes() -> None:
    s = Scheduler(inventory(node("a", HAMI, card("g1")), node("b", HAMI, card("g2")), node("c", HAMI, card("g3"))))
    req = frac("w", 1024, 10)
    assert s.find(req).node_id == "a"  # type: ignore[union-attr]
    assert s.find(req, exclude_nodes=frozenset({"a"})).node_id == "b"  # type: ignore[union-attr]
    assert s.find(req, only_nodes=frozenset({"c"})).node_id == "c"  # type: ignore[union-attr]
    assert s.find(req, exclude_nodes=frozenset({"c"}), only_nodes=frozenset({"c"})) is None
    assert s.find(req, exclude_nodes=frozenset({"a", "b", "c"})) is None
    assert s.find(req, only_nodes=frozenset()) is None
    s.set_cordoned("b", True)
    assert s.find(req, exclude_nodes=frozenset({"a"})).node_id == "c"  # type: ignore[union-attr]
    big = frac("big", 1024, 10, cpu_millicores=64_001)
    assert s.find(big, exclude_nodes=frozenset({"a"})) is None
    exact = frac("exact", 1024, 10, cpu_millicores=64_000, memory_mib=512_000)
    assert s.find(exact, exclude_nodes=frozenset({"a"})).node_id == "c"  # type: ignore[union-attr]
    assert s.find(frac("m", 1024, 10, memory_mib=512_001), only_nodes=frozenset({"c"})) is None


def test_why_a_request_waits_in_full_words() -> None:
    s = Scheduler(inventory(node("n1", EXCL, card("x1"), card("x2"), cpu=4000, mem=8192)))
    assert s.place(GpuRequest("a", A100, exclusive_cards=1, cpu_millicores=3500, memory_mib=7680)) is not None
    both = s.why_short(GpuRequest("b", A100, exclusive_cards=1, cpu_millicores=1000, memory_mib=1024))
    assert both.text == (
        "the GPU capacity is free on node n1, but it has 0.5 CPU free and 0.5 GiB free of the 1 CPU and 1 GiB "
        "of memory asked; no node with the GPU capacity free has the CPU and memory"
    )
    memory = s.why_short(GpuRequest("b", A100, exclusive_cards=1, cpu_millicores=500, memory_mib=1024))
    assert memory.text == (
        "the GPU capacity is free on node n1, but it has 0.5 GiB free of the 0.5 CPU and 1 GiB "
        "of memory asked; no node with the GPU capacity free has the CPU and memory"
    )
    assert memory.params()["freeCpu"] == "0.5" and memory.params()["freeMemoryGib"] == "0.5"
    cpu = s.why_short(GpuRequest("b", A100, exclusive_cards=1, cpu_millicores=1000, memory_mib=512))
    assert "but it has 0.5 CPU free of the 1 CPU and 0.5 GiB of memory asked;" in cpu.text
    fraction = s.why_short(GpuRequest("f", "H100", vram_mib=1024, cores=10))
    assert fraction.params() == {"shortfall": "GPU_TAKEN", "model": "H100"}


def test_equal_candidates_in_two_clusters_go_to_the_cluster_listed_first() -> None:
    s = Scheduler(
        inventory(
            node("in-b", HAMI, card("gb"), cluster="b"),
            node("in-a", HAMI, card("ga"), cluster="a"),
            clusters=("b", "a"),
        )
    )
    placed = s.place(frac("w", 1024, 10))
    assert placed is not None and placed.placement.cluster_id == "b"
    only_a = s.place(frac("x", 40960, 50, clusters=frozenset({"a"})))
    assert only_a is not None and only_a.placement.node_id == "in-a"
    # the tighter card wins across clusters
    tight = s.place(frac("y", 20480, 25))
    assert tight is not None and tight.placement.cluster_id == "a"


def test_the_policies_given_are_the_ones_used_by_every_way_of_building() -> None:
    from domain.scheduling.policies import FirstFit

    inv = inventory(node("n1", HAMI, card("g1")), policy="mine")
    mine = {"mine": FirstFit}
    s, conflicts = Scheduler.from_snapshot(inv, [], mine)
    assert conflicts == [] and s.policy_of("c1") == "first-fit"
    assert Scheduler.from_dict({"inventory": inv.to_dict()}, mine).policy_of("c1") == "first-fit"
    assert Scheduler(inv, (), mine).policy_of("c1") == "first-fit"
    with pytest.raises(SchedulingError) as unknown:
        Scheduler.from_snapshot(inv, [])
    assert unknown.value.code is SchedulingErrorCode.PLACEMENT_POLICY_UNKNOWN


def test_free_capacity_sums_every_card_of_a_bucket() -> None:
    s = Scheduler(inventory(node("n1", HAMI, card("g1"), card("g2"), card("g3"))))
    # g1 and g2 untouched (one bucket of two), g3 with a quarter taken
    assert s.place(frac("w", 20480, 25)) is not None
    free = s.free_summary(A100)
    assert (free.hami_vram_mib, free.hami_cores) == (2 * VRAM_80G + 61440, 275)
    assert (free.whole_cards, free.hami_whole_cards) == (2, 2)


def test_free_time_slices_and_mig_instances_sum_over_cards_classes_and_clusters() -> None:
    s = Scheduler(
        inventory(
            node("t", TS, card("t1", A30, 24576, replicas=3), card("t2", A30, 24576, replicas=3)),
            node("m", EXCL, card("m1", mig=("1g.10gb", "2g.20gb"))),
            node("k", EXCL, card("k1", mig=("1g.10gb", "1g.10gb")), cluster="c2"),
            clusters=("c1", "c2"),
        )
    )
    assert s.free_summary(A30).timeslices == 6  # one bucket of two cards with three each
    assert s.free_summary(A100).mig_instances == {"1g.10gb": 3, "2g.20gb": 1}


def test_place_counts_the_request_in_the_mix_unless_told_not_to() -> None:
    from tests.unit.scheduling.helpers import on_card

    def partly_used() -> Scheduler:
        """g1 keeps 56 cores / 45 GiB free, g2 52 cores / 42 GiB (the tighter fit)."""
        s = Scheduler(inventory(node("n1", HAMI, card("g1"), card("g2")), policy="fragmentation-aware"))
        s.apply(on_card(frac("a", 35840, 44), "n1", "g1"))
        s.apply(on_card(frac("b", 38912, 48), "n1", "g2"))
        return s

    learned = partly_used()
    for i in range(8):  # half-card requests placed and gone: the mix has learned them
        assert learned.place(frac(f"half{i}", 40960, 50)) is not None
        learned.release(f"half{i}")
    placed = learned.place(frac("w", 5120, 6))
    assert placed is not None and placed.placement.card_uuids == ("g1",)  # room kept for the half card
    retried = partly_used()
    for i in range(8):
        assert retried.place(frac(f"half{i}", 40960, 50), observe=False) is not None
        retried.release(f"half{i}")
    plain = retried.place(frac("w", 5120, 6))
    assert plain is not None and plain.placement.card_uuids == ("g2",)  # no mix: best fit


def test_a_node_with_its_cpu_and_memory_all_taken_still_has_the_gpu_capacity_free() -> None:
    s = Scheduler(inventory(node("n1", EXCL, card("x1"), card("x2"), cpu=4000, mem=8192)))
    assert s.place(GpuRequest("a", A100, exclusive_cards=1, cpu_millicores=4000, memory_mib=8192)) is not None
    short = s.why_short(GpuRequest("b", A100, exclusive_cards=1, cpu_millicores=1000, memory_mib=1024))
    assert short.params() == {
        "shortfall": "CPU_MEMORY_BESIDE_GPU",
        "cpu": "1",
        "memoryGib": "1",
        "node": "n1",
        "freeCpu": "0",
        "freeMemoryGib": "0",
    }
