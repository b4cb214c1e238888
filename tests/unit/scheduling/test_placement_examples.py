"""Worked examples of placement: each names the rule it shows."""

from __future__ import annotations

from fractions import Fraction

import pytest

from domain.inventory.model import CardShare, GpuKind, Placement, SharingMode
from domain.scheduling.errors import SchedulingError, SchedulingErrorCode
from domain.scheduling.model import Allocation, GpuRequest, RequestMode, fraction_ratio
from domain.scheduling.scheduler import Scheduler
from tests.unit.scheduling.helpers import A30, A100, VRAM_80G, card, inventory, node

HAMI, TS, EXCL = SharingMode.HAMI, SharingMode.TIMESLICING, SharingMode.EXCLUSIVE


def frac(wid: str, vram: int, cores: int, **kw: object) -> GpuRequest:
    return GpuRequest(wid, A100, vram_mib=vram, cores=cores, **kw)  # type: ignore[arg-type]


def test_ratio_is_the_larger_share_as_an_exact_fraction() -> None:
    assert fraction_ratio(20480, 10, VRAM_80G, 100) == Fraction(1, 4)
    assert fraction_ratio(8192, 40, VRAM_80G, 100) == Fraction(2, 5)


def test_the_tightest_card_wins() -> None:
    s = Scheduler(inventory(node("n1", HAMI, card("g1"), card("g2"), card("g3"))))
    # g1 keeps 1/2 free, g2 keeps 1/4 free, g3 is whole
    s.apply(Allocation(frac("a", 40960, 50), _hami("n1", "g1", 40960, 50)))
    s.apply(Allocation(frac("b", 61440, 75), _hami("n1", "g2", 61440, 75)))
    placed = s.place(frac("w", 20480, 25))
    assert placed is not None
    assert placed.placement.card_uuids == ("g2",)
    assert placed.placement.kind is GpuKind.HAMI
    assert placed.placement.ratio == Fraction(1, 4)


def test_both_dimensions_count_in_the_fit() -> None:
    s = Scheduler(inventory(node("n1", HAMI, card("g1"), card("g2"))))
    # g1: little VRAM left but many cores; g2: the reverse
    s.apply(Allocation(frac("a", 73728, 10), _hami("n1", "g1", 73728, 10)))
    s.apply(Allocation(frac("b", 8192, 80), _hami("n1", "g2", 8192, 80)))
    compute_heavy = s.place(frac("w", 4096, 50))
    assert compute_heavy is not None and compute_heavy.placement.card_uuids == ("g1",)
    memory_heavy = s.place(frac("x", 40960, 10))
    assert memory_heavy is not None and memory_heavy.placement.card_uuids == ("g2",)


def test_an_m_tier_request_takes_a_free_1g_mig_instance_instead_of_breaking_a_whole_card() -> None:
    s = Scheduler(
        inventory(
            node("n1", HAMI, card("whole")),
            node("n2", EXCL, card("mig", mig=("3g.40gb", "2g.20gb", "1g.10gb", "1g.10gb"))),
        )
    )
    m_tier = frac("w", VRAM_80G // 8, 12)
    placed = s.place(m_tier)
    assert placed is not None
    p = placed.placement
    assert p.kind is GpuKind.MIG
    assert p.mig_instance_id == "mig-m2"  # the first 1g.10gb, not the 2g or 3g
    assert p.ratio == Fraction(1, 8)  # billed for what was asked
    assert s.card_free("whole") == (VRAM_80G, 100, 0)


@pytest.mark.parametrize("policy", ["best-fit", "first-fit", "fragmentation-aware"])
def test_a_mig_instance_must_cover_the_requests_cores_as_well_as_its_memory(policy: str) -> None:
    # 8 GiB fits in a 1g.10gb instance, but 20 % of the cores does not (1 slice of 7 = 14 %):
    # the 2g.20gb (28 %) is the tightest instance that covers both
    s = Scheduler(inventory(node("n1", EXCL, card("mig", mig=("1g.10gb", "2g.20gb"))), policy=policy))
    placed = s.place(frac("w", 8192, 20, forced_kind=GpuKind.MIG))
    assert placed is not None
    assert placed.placement.kind is GpuKind.MIG
    assert placed.placement.mig_instance_id == "mig-m1"
    # with the 2g.20gb taken, nothing covers those cores: the request waits
    assert s.place(frac("x", 8192, 20, forced_kind=GpuKind.MIG)) is None
    assert s.mig_tenant("mig-m0") is None


def test_a_hami_fraction_wins_when_it_is_tighter_than_any_mig_instance() -> None:
    s = Scheduler(
        inventory(
            node("n1", HAMI, card("g1")),
            node("n2", EXCL, card("mig", mig=("3g.40gb",))),
        )
    )
    s.apply(Allocation(frac("a", 61440, 75), _hami("n1", "g1", 61440, 75)))
    placed = s.place(frac("w", 20480, 25))
    assert placed is not None and placed.placement.kind is GpuKind.HAMI


def test_forced_mig_or_hami_restricts_the_kind() -> None:
    inv = inventory(node("n1", HAMI, card("g1")), node("n2", EXCL, card("mig", mig=("1g.10gb",))))
    s = Scheduler(inv)
    forced = s.place(frac("w", 10240, 12, forced_kind=GpuKind.HAMI))
    assert forced is not None and forced.placement.kind is GpuKind.HAMI
    s2 = Scheduler(inv)
    forced_mig = s2.place(frac("w", 20480, 25, forced_kind=GpuKind.MIG))
    assert forced_mig is None  # no MIG instance covers a quarter card


def test_a_job_is_refused_time_sliced_capacity_with_the_reason() -> None:
    s = Scheduler(inventory(node("n1", TS, card("t1", A30, 24576, replicas=4))))
    with pytest.raises(SchedulingError) as refused:
        s.place(GpuRequest("job", A30, shared=True, is_job=True))
    assert refused.value.code is SchedulingErrorCode.JOB_TIMESLICE_REFUSED
    assert "exclusive cards only" in refused.value.message
    assert "time-sliced" in refused.value.message
    with pytest.raises(SchedulingError) as by_admin:
        s.place(GpuRequest("job", A30, exclusive_cards=1, is_job=True, forced_kind=GpuKind.SHARED))
    assert by_admin.value.code is SchedulingErrorCode.JOB_TIMESLICE_REFUSED


def test_a_job_is_refused_mig_and_fractions() -> None:
    with pytest.raises(SchedulingError) as mig:
        GpuRequest("job", A100, exclusive_cards=1, is_job=True, forced_kind=GpuKind.MIG).validate()
    assert mig.value.code is SchedulingErrorCode.JOB_MIG_REFUSED
    assert "MIG" in mig.value.message
    with pytest.raises(SchedulingError) as fraction:
        GpuRequest("job", A100, vram_mib=1024, cores=5, is_job=True).validate()
    assert fraction.value.code is SchedulingErrorCode.JOB_FRACTION_REFUSED


def test_a_job_gets_exclusive_cards_never_a_time_slice() -> None:
    s = Scheduler(
        inventory(
            node("ts", TS, card("t1", A100, replicas=4)),
            node("ex", EXCL, card("x1"), card("x2")),
        )
    )
    job = s.place(GpuRequest("job", A100, exclusive_cards=2, is_job=True))
    assert job is not None
    assert job.placement.kind is GpuKind.EXCLUSIVE
    assert job.placement.node_id == "ex"
    assert job.placement.ratio == 2


def test_time_slices_only_when_shared_capacity_is_asked_for() -> None:
    s = Scheduler(inventory(node("ts", TS, card("t1", A30, 24576, replicas=4))))
    assert s.place(GpuRequest("frac", A30, vram_mib=6144, cores=25)) is None
    slices = [s.place(GpuRequest(f"s{i}", A30, shared=True)) for i in range(5)]
    assert all(a is not None for a in slices[:4]) and slices[4] is None
    first = slices[0]
    assert first is not None
    assert first.placement.kind is GpuKind.SHARED
    assert first.placement.ratio == Fraction(1, 4)
    assert first.request.mode is RequestMode.SHARED


def test_an_approver_may_assign_shared_capacity() -> None:
    s = Scheduler(inventory(node("ts", TS, card("t1", A30, 24576, replicas=2))))
    placed = s.place(GpuRequest("w", A30, exclusive_cards=1, forced_kind=GpuKind.SHARED))
    assert placed is not None and placed.placement.kind is GpuKind.SHARED


def test_exclusive_cards_come_from_one_node_and_the_tightest_node() -> None:
    s = Scheduler(
        inventory(
            node("big", EXCL, *(card(f"b{i}") for i in range(8))),
            node("small", HAMI, card("s1"), card("s2"), card("s3")),
        )
    )
    two = s.place(GpuRequest("two", A100, exclusive_cards=2))
    assert two is not None
    assert two.placement.node_id == "small"  # 3 free beats 8 free: keeps the big node whole
    assert two.placement.card_uuids == ("s1", "s2")
    eight = s.place(GpuRequest("eight", A100, exclusive_cards=8))
    assert eight is not None and eight.placement.node_id == "big"
    assert s.place(GpuRequest("two-more", A100, exclusive_cards=2)) is None


def test_a_fraction_on_a_card_blocks_taking_it_whole() -> None:
    s = Scheduler(inventory(node("n1", HAMI, card("g1"))))
    assert s.place(frac("a", 1024, 1)) is not None
    assert s.place(GpuRequest("x", A100, exclusive_cards=1)) is None


def test_node_cpu_and_memory_must_fit() -> None:
    s = Scheduler(inventory(node("n1", HAMI, card("g1"), cpu=4000, mem=16384)))
    assert s.place(frac("big-cpu", 1024, 5, cpu_millicores=8000)) is None
    assert s.place(frac("ok", 1024, 5, cpu_millicores=4000, memory_mib=16384)) is not None
    assert s.place(frac("no-room", 1024, 5, cpu_millicores=1)) is None


def test_cordoned_nodes_take_nothing_and_keep_what_runs() -> None:
    s = Scheduler(inventory(node("n1", HAMI, card("g1")), node("n2", HAMI, card("g2"))))
    first = s.place(frac("a", 10240, 12))
    assert first is not None and first.placement.node_id == "n1"
    s.set_cordoned("n1", True)
    second = s.place(frac("b", 10240, 12))
    assert second is not None and second.placement.node_id == "n2"
    s.set_cordoned("n2", True)
    assert s.place(frac("c", 10240, 12)) is None
    s.release("a")  # a cordoned node still gives back what it held
    s.set_cordoned("n1", False)
    again = s.place(frac("d", 81920, 100))
    assert again is not None and again.placement.card_uuids == ("g1",)


def test_release_returns_exactly_what_was_taken() -> None:
    s = Scheduler(
        inventory(
            node("n1", HAMI, card("g1"), card("g2"), cpu=8000, mem=32768),
            node("n2", EXCL, card("m", mig=("1g.10gb", "3g.40gb"))),
            node("n3", TS, card("t", A30, 24576, replicas=4)),
        )
    )
    before = s.free_summary(A100), s.free_summary(A30), s.node_free("n1")
    taken = [
        s.place(frac("a", 10240, 12, cpu_millicores=2000, memory_mib=4096)),
        s.place(frac("b", 30000, 33)),
        s.place(GpuRequest("c", A100, exclusive_cards=1, cpu_millicores=1000)),
        s.place(GpuRequest("d", A30, shared=True)),
    ]
    assert all(t is not None for t in taken)
    for t in taken:
        assert t is not None
        s.release(t.workload_id)
    assert (s.free_summary(A100), s.free_summary(A30), s.node_free("n1")) == before
    assert s.allocations() == []


def test_placement_is_deterministic() -> None:
    inv = inventory(node("n1", HAMI, card("g1"), card("g2")), node("n2", HAMI, card("g3")))
    requests = [frac(f"w{i}", 10240 * (1 + i % 3), 12 * (1 + i % 3)) for i in range(8)]
    runs = []
    for _ in range(2):
        s = Scheduler(inv)
        runs.append([s.place(r) for r in requests])
    assert runs[0] == runs[1]


def test_a_request_may_be_restricted_to_some_clusters() -> None:
    inv = inventory(
        node("a1", HAMI, card("ga"), cluster="a"),
        node("b1", HAMI, card("gb"), cluster="b"),
        clusters=("a", "b"),
    )
    s = Scheduler(inv)
    placed = s.place(frac("w", 10240, 12, clusters=frozenset({"b"})))
    assert placed is not None and placed.placement.cluster_id == "b"
    assert s.place(frac("x", 81920, 100, clusters=frozenset({"b"}))) is None


def test_the_policy_is_chosen_per_cluster_by_name() -> None:
    inv = inventory(node("n1", HAMI, card("g1")), policy="fragmentation-aware")
    assert Scheduler(inv).policy_of("c1") == "fragmentation-aware"
    with pytest.raises(SchedulingError) as unknown:
        Scheduler(inventory(node("n1", HAMI, card("g1")), policy="random"))
    assert unknown.value.code is SchedulingErrorCode.PLACEMENT_POLICY_UNKNOWN


@pytest.mark.parametrize("policy", ["best-fit", "first-fit", "fragmentation-aware"])
def test_every_policy_places_every_kind(policy: str) -> None:
    s = Scheduler(
        inventory(
            node("h", HAMI, card("g1"), card("g2")),
            node("m", EXCL, card("mig", mig=("1g.10gb", "2g.20gb")), card("x")),
            node("t", TS, card("t1", A30, 24576, replicas=2)),
            policy=policy,
        )
    )
    kinds = [
        s.place(frac("f", 40960, 50)),
        s.place(frac("small", 5120, 6, forced_kind=GpuKind.MIG)),
        s.place(GpuRequest("e", A100, exclusive_cards=1)),
        s.place(GpuRequest("s", A30, shared=True)),
    ]
    assert [k.placement.kind if k else None for k in kinds] == [
        GpuKind.HAMI,
        GpuKind.MIG,
        GpuKind.EXCLUSIVE,
        GpuKind.SHARED,
    ]


def test_a_fraction_larger_than_the_card_is_invalid() -> None:
    s = Scheduler(inventory(node("n1", HAMI, card("g1"))))
    with pytest.raises(SchedulingError) as invalid:
        s.place(frac("w", VRAM_80G + 1, 10))
    assert invalid.value.code is SchedulingErrorCode.GPU_REQUEST_INVALID


def test_apply_refuses_what_does_not_fit_and_changes_nothing() -> None:
    s = Scheduler(inventory(node("n1", HAMI, card("g1"))))
    s.apply(Allocation(frac("a", 61440, 50), _hami("n1", "g1", 61440, 50)))
    with pytest.raises(SchedulingError) as conflict:
        s.apply(Allocation(frac("b", 40960, 10), _hami("n1", "g1", 40960, 10)))
    assert conflict.value.code is SchedulingErrorCode.PLACEMENT_CONFLICT
    assert s.card_free("g1") == (VRAM_80G - 61440, 50, 0)
    with pytest.raises(SchedulingError) as twice:
        s.apply(Allocation(frac("a", 1024, 1), _hami("n1", "g1", 1024, 1)))
    assert twice.value.code is SchedulingErrorCode.WORKLOAD_ALREADY_PLACED


def test_the_scheduler_round_trips_through_plain_data() -> None:
    s = Scheduler(
        inventory(
            node("n1", HAMI, card("g1")),
            node("n2", EXCL, card("mig", mig=("1g.10gb",))),
            node("n3", TS, card("t", A30, 24576, replicas=4)),
        )
    )
    for r in (
        frac("a", 20480, 25),
        frac("b", 5120, 6, forced_kind=GpuKind.MIG),
        GpuRequest("c", A30, shared=True, priority=3, clusters=frozenset({"c1"})),
    ):
        assert s.place(r) is not None
    data = s.to_dict()
    copy = Scheduler.from_dict(data)
    assert copy.to_dict() == data
    probe = frac("probe", 10240, 12)
    assert copy.find(probe) == s.find(probe)


def _hami(node_id: str, card_uuid: str, vram: int, cores: int) -> Placement:
    return Placement(
        "c1",
        node_id,
        GpuKind.HAMI,
        (CardShare(card_uuid, vram, cores),),
        fraction_ratio(vram, cores, VRAM_80G, 100),
        0,
        0,
    )


def test_a_snapshot_that_no_longer_fits_reports_its_conflicts() -> None:
    big = inventory(node("n1", HAMI, card("g1")), node("n2", HAMI, card("g2")))
    s = Scheduler(big)
    kept = s.place(frac("kept", 20480, 25))
    gone = s.place(frac("gone", 81920, 100))
    assert kept is not None and gone is not None and gone.placement.node_id == "n2"
    shrunk = inventory(node("n1", HAMI, card("g1")))
    rebuilt, conflicts = Scheduler.from_snapshot(shrunk, s.allocations())
    assert [a.workload_id for a in rebuilt.allocations()] == ["kept"]
    assert [(a.workload_id, e.code) for a, e in conflicts] == [("gone", SchedulingErrorCode.PLACEMENT_CONFLICT)]


def test_the_scheduler_tells_which_workloads_changed_since_it_was_last_asked() -> None:
    s = Scheduler(inventory(node("n1", HAMI, card("g1"), card("g2"))))
    assert s.take_touched() == set()
    a = s.place(frac("a", 20480, 25))
    b = s.place(frac("b", 20480, 25))
    assert a is not None and b is not None
    assert s.take_touched() == {"a", "b"}
    s.release("a")
    c = s.place(frac("c", 20480, 25))
    assert c is not None
    assert s.take_touched() == {"a", "c"}  # a store deletes a's row and writes c's; b is untouched
    assert s.take_touched() == set()
